//! The conventions users expect (issue 42): one `CHARTER_HARNESS_*` prefix, arguments that are
//! not UTF-8, logs, completions, `--json`, one colour path, quiet, dry runs, pipes.

use crate::common::{harness, repo_root, stderr};

#[test]
fn a_cap_set_under_its_old_harness_name_still_holds_and_says_the_new_name_once() {
    let old = [("HARNESS_MAX_MANIFEST_BYTES", "10")];
    let o = harness(
        &repo_root(),
        &["key", "--matrix", "manifests/offline.toml"],
        &old,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "the old name still caps:\n{err}");
    assert!(
        err.contains("CHARTER_HARNESS_MAX_MANIFEST_BYTES"),
        "the refusal names the new setting:\n{err}"
    );
    let warning = "warning: HARNESS_MAX_MANIFEST_BYTES is deprecated";
    assert_eq!(err.matches(warning).count(), 1, "{err}");
    assert!(
        err.contains("set CHARTER_HARNESS_MAX_MANIFEST_BYTES instead"),
        "{err}"
    );
    // The new name wins over the old, and then nothing is deprecated.
    let both = [
        ("HARNESS_MAX_MANIFEST_BYTES", "10"),
        ("CHARTER_HARNESS_MAX_MANIFEST_BYTES", "1000000"),
    ];
    let o = harness(
        &repo_root(),
        &["key", "--matrix", "manifests/offline.toml"],
        &both,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("deprecated"), "{}", stderr(&o));
}

/// Run `harness` with OS-string arguments (a path that is not UTF-8).
fn harness_os(cwd: &std::path::Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_harness"))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .expect("harness runs")
}

#[test]
fn a_path_that_is_not_utf8_gets_a_clear_error_or_the_right_result_from_every_command_never_a_panic()
{
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = std::ffi::OsStr::from_bytes(b"a\xffb");
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    // A path that does not exist: each command says so, naming it, and exits 2 (`lint
    // capsule` too: only its default vault/files may be missing).
    for (args, code) in [
        (vec![os("show"), bad], 2),
        (vec![os("check"), bad], 2),
        (vec![os("lint"), os("charter"), bad], 2),
        (vec![os("lint"), os("capsule"), bad], 2),
    ] {
        let o = harness_os(dir.path(), &args);
        let err = stderr(&o);
        assert_ne!(o.status.code(), Some(101), "{args:?} panicked:\n{err}");
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
        assert_eq!(o.status.code(), Some(code), "{args:?}:\n{err}");
        assert!(
            err.contains("a\u{fffd}b"),
            "{args:?} names the path:\n{err}"
        );
    }
    // A run folder whose name is not UTF-8 is written, and show and check read it back.
    let out = dir.path().join(bad);
    let run = harness_os(
        &repo_root(),
        &[
            os("run"),
            os("--matrix"),
            os("offline"),
            os("--case"),
            os("E1"),
            os("--trials"),
            os("1"),
            os("-o"),
            out.as_os_str(),
        ],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(out.join("summary.json").is_file(), "{}", stderr(&run));
    for cmd in ["show", "check"] {
        let o = harness_os(&repo_root(), &[os(cmd), out.as_os_str()]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{cmd}: {}",
            stderr(&o)
        );
        assert!(!o.stdout.is_empty(), "{cmd} printed nothing");
    }
}

/// What bash completes for the words `line` (the last one being completed), with the script
/// `harness completions bash` prints sourced.
fn bash_completes(script: &std::path::Path, line: &[&str]) -> String {
    let words = line
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let program = format!(
        "source '{}'; COMP_WORDS=({words}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _harness harness '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        line.len() - 1,
        line.join(" "),
        line[line.len() - 1],
        line[line.len() - 2],
    );
    let o = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn completions_bash_sourced_in_bash_completes_subcommands_and_flags() {
    let o = harness(&repo_root(), &["completions", "bash"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("harness.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    let subs = bash_completes(&script, &["harness", "ru"]);
    let subs: Vec<&str> = subs.lines().collect();
    assert!(subs.contains(&"run") && subs.contains(&"runs"), "{subs:?}");
    assert!(
        !subs.contains(&"show"),
        "only what starts with ru: {subs:?}"
    );
    let flags = bash_completes(&script, &["harness", "run", "--ma"]);
    assert!(flags.lines().any(|l| l == "--matrix"), "{flags}");
    // The manual page is roff naming the command.
    let man = harness(&repo_root(), &["man", "run"], &[]);
    let man = String::from_utf8_lossy(&man.stdout).into_owned();
    assert!(man.contains(".TH harness-run 1"), "{man}");
}

/// `jq .` over `text` when jq is installed (CI installs it), else None.
fn jq(text: &str) -> Option<bool> {
    use std::io::Write;
    let mut child = std::process::Command::new("jq")
        .args(["-e", "."])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    Some(child.wait().ok()?.success())
}

#[test]
fn runs_cases_and_key_json_are_json_lines_jq_reads() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let out = results.join("r1");
    let run = crate::common::offline_run(&out, &["--case", "E1", "--trials", "1"]);
    assert!(run.status.code().is_some(), "{}", stderr(&run));
    for args in [
        vec!["runs", "--json", results.to_str().unwrap()],
        vec!["cases", "--json"],
        vec!["key", "--matrix", "offline", "--json"],
    ] {
        let o = harness(&repo_root(), &args, &[]);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(!text.trim().is_empty(), "{args:?}");
        for line in text.lines() {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}: {line}"));
            assert!(v.is_object(), "{args:?}: {line}");
        }
        if let Some(ok) = jq(&text) {
            assert!(ok, "{args:?}: jq refused:\n{text}");
        } else if std::env::var_os("CI").is_some() {
            panic!("jq is not installed (.ci/run installs it)");
        }
    }
    let runs = harness(
        &repo_root(),
        &["runs", "--json", results.to_str().unwrap()],
        &[],
    );
    let row: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&runs.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(row["run"], "r1");
    assert!(row["narrowed"].is_string(), "{row}");
}

#[test]
fn color_never_leaves_no_escape_in_any_output_and_always_colours_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = crate::common::offline_run(
        &out,
        &["--case", "E1", "--trials", "1", "--color", "never", "-v"],
    );
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let mut outputs = vec![("run", o)];
    for cmd in ["show", "check", "gate"] {
        let o = harness(
            &repo_root(),
            &["--color", "never", cmd, out.to_str().unwrap()],
            &[("CLICOLOR_FORCE", "1")],
        );
        outputs.push((cmd, o));
    }
    for (cmd, o) in &outputs {
        assert!(!o.stdout.contains(&0x1b), "{cmd}: an escape on stdout");
        assert!(!o.stderr.contains(&0x1b), "{cmd}: an escape on stderr");
    }
    // The same run, coloured: the escape is there, so the check above can fail.
    let coloured = harness(
        &repo_root(),
        &["--color", "always", "gate", out.to_str().unwrap()],
        &[],
    );
    assert!(
        coloured.stdout.contains(&0x1b),
        "{}",
        String::from_utf8_lossy(&coloured.stdout)
    );
}

#[test]
fn quiet_leaves_stderr_empty_on_success_keeps_the_result_and_still_says_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = crate::common::offline_run(&out, &["--case", "E1", "--trials", "1", "-q"]);
    assert!(o.status.code().is_some());
    assert_eq!(stderr(&o), "", "-q: nothing on stderr");
    assert!(
        crate::common::stdout(&o).contains("Gate:"),
        "the result stays"
    );
    let loud =
        crate::common::offline_run(&dir.path().join("loud"), &["--case", "E1", "--trials", "1"]);
    assert!(
        !stderr(&loud).is_empty(),
        "without -q there is progress to silence"
    );
    let bad = harness(
        &repo_root(),
        &["-q", "key", "--matrix", "nowhere.toml"],
        &[],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("error: "), "{}", stderr(&bad));
}

#[test]
fn runs_prints_a_header_row_over_its_columns_and_json_prints_none() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let run = crate::common::offline_run(&results.join("r1"), &["--case", "E1", "--trials", "1"]);
    assert!(run.status.code().is_some(), "{}", stderr(&run));
    let o = harness(&repo_root(), &["runs", results.to_str().unwrap()], &[]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "a header row, then the one run:\n{text}");
    let (header, row) = (lines[0], lines[1]);
    assert!(header.starts_with("run "), "{text}");
    assert!(row.starts_with("r1 "), "{text}");
    // Each heading stands over its column: the row's charter version and verdict start there.
    let at = |s: &str| header.find(s).unwrap();
    assert_eq!(
        row.find("charter 0.1.0"),
        Some(at("charter version")),
        "{text}"
    );
    assert_eq!(row.find("partial"), Some(at("verdict")), "{text}");
    assert!(header.contains("models  (charter file)"), "{text}");
    // --json is one object a line: no header among them.
    let o = harness(
        &repo_root(),
        &["runs", "--json", results.to_str().unwrap()],
        &[],
    );
    let json = String::from_utf8(o.stdout).unwrap();
    assert_eq!(json.lines().count(), 1, "{json}");
    assert!(
        json.starts_with("{\"schema_version\":1,\"run\":\"r1\""),
        "{json}"
    );
}
