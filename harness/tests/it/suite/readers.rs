//! Every file the harness reads is bounded and read as what it is (issue 35): the six defects
//! of the fuzzing campaign, each as a test, and /dev/zero, a FIFO, a folder and a file over its
//! cap through every command that takes a file. A test whose failure would allocate gigabytes
//! runs the harness under a memory limit (setrlimit in pre_exec) and a timeout.

use crate::common::{self, copy_tree, offline_run, repo_root, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const MEMORY_LIMIT: u64 = 1 << 30;
const TIMEOUT: Duration = Duration::from_secs(30);

/// `harness args` in `cwd` under a 1 GiB address-space limit and a 30 s timeout; None when it
/// had to be killed (a hang).
pub(super) fn bounded(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Option<Output> {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_harness"));
    cmd.args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MEMORY_LIMIT,
                rlim_max: MEMORY_LIMIT,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The run ended by itself with `code`, and said `needle` on stderr or stdout.
fn assert_refused(o: Option<Output>, code: i32, needle: &str, what: &str) -> String {
    let o = o.unwrap_or_else(|| panic!("{what}: hung (killed after {TIMEOUT:?})"));
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert_eq!(o.status.code(), Some(code), "{what}: {text}");
    assert!(text.contains(needle), "{what}: wants {needle:?}:\n{text}");
    assert!(
        !text.contains("permissions"),
        "{what}: the permissions hint only where it applies:\n{text}"
    );
    assert!(
        !text.contains("\nerror: \n") && !text.trim_end().ends_with(':'),
        "{what}: {text}"
    );
    text
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A finished offline run of E1 (1 trial) in `dir/run`.
fn e1_run(dir: &Path) -> PathBuf {
    let run = dir.join("run");
    let o = offline_run(&run, &["--case", "E1", "--trials", "1"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    run
}

/// `run --resume` of the offline run folder `run`, bounded.
fn resume(run: &Path) -> Option<Output> {
    let dir = run.to_str().unwrap();
    let args = ["run", "--matrix", "manifests/offline.toml", "--resume", dir];
    bounded(&repo_root(), &args, &[])
}

fn a_transcript(run: &Path) -> PathBuf {
    common::files_under(&run.join("transcripts"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap()
}

#[test]
fn defect_1_a_capsule_of_nested_aliases_is_refused_at_once_not_expanded() {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = String::from("type: note\na0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let prev = format!("*a{}", i - 1);
        yaml.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 9].join(", ")));
    }
    assert!(yaml.len() < 600);
    std::fs::write(
        dir.path().join("laughs.md"),
        format!("---\n{yaml}---\n\nbody\n"),
    )
    .unwrap();
    let start = Instant::now();
    let o = bounded(dir.path(), &["lint", "capsule", "--strict", "."], &[]);
    assert_refused(o, 1, "anchor", "billion laughs");
    // A hang guard: expanded, the aliases are 10^9 nodes and never finish.
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn defect_2_a_run_folder_s_trials_are_input_bounded_like_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let run = e1_run(dir.path());
    let path = run.join("run.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for bad in [4_294_967_295u64, 100_001] {
        v["trials"] = bad.into();
        std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
        let o = resume(&run);
        let text = assert_refused(o, 2, "trials", &format!("trials = {bad}"));
        assert!(
            text.contains("run.json") && text.contains("100000"),
            "{text}"
        );
    }
}

/// Every command that takes a file, given `bad` where the file goes: (what, args, the setting
/// of the cap that applies).
fn commands(
    bad: &Path,
    run: &Path,
    charter_manifest: &Path,
) -> Vec<(String, Vec<String>, &'static str)> {
    let b = bad.to_str().unwrap().to_string();
    let t = a_transcript(run).to_str().unwrap().to_string();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let out = run
        .with_file_name("never-written")
        .to_str()
        .unwrap()
        .to_string();
    let cm = charter_manifest.to_str().unwrap();
    vec![
        (
            "lint charter".into(),
            s(&["lint", "charter", &b]),
            "CHARTER_HARNESS_MAX_CHARTER_BYTES",
        ),
        (
            "check".into(),
            s(&["check", &b]),
            "CHARTER_HARNESS_MAX_TRANSCRIPT_BYTES",
        ),
        (
            "label".into(),
            s(&["label", &b, "--pass"]),
            "CHARTER_HARNESS_MAX_TRANSCRIPT_BYTES",
        ),
        (
            "label --labels".into(),
            s(&["label", &t, "--pass", "--labels", &b]),
            "CHARTER_HARNESS_MAX_LABELS_BYTES",
        ),
        (
            "run --matrix".into(),
            s(&["run", "--matrix", &b, "--out", &out]),
            "CHARTER_HARNESS_MAX_MANIFEST_BYTES",
        ),
        (
            "run --charter".into(),
            s(&[
                "run",
                "--matrix",
                "manifests/offline.toml",
                "--charter",
                &b,
                "--out",
                &out,
            ]),
            "CHARTER_HARNESS_MAX_CHARTER_BYTES",
        ),
        (
            "key --matrix".into(),
            s(&["key", "--matrix", &b]),
            "CHARTER_HARNESS_MAX_MANIFEST_BYTES",
        ),
        (
            "charter source".into(),
            s(&["key", "--matrix", cm]),
            "CHARTER_HARNESS_MAX_CHARTER_BYTES",
        ),
    ]
}

#[test]
fn defect_3_dev_zero_a_fifo_a_folder_and_a_file_over_its_cap_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let run = e1_run(dir.path());
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let big = dir.path().join("big");
    std::fs::write(&big, "x".repeat(100)).unwrap();
    for (bad, needle, capped) in [
        (Path::new("/dev/zero"), "not a regular file", false),
        (fifo.as_path(), "not a regular file", false),
        (folder.as_path(), "folder", false),
        (big.as_path(), "cap of 10 bytes", true),
    ] {
        let m = dir.path().join("charter.toml");
        let manifest = std::fs::read_to_string(repo_root().join("manifests/offline.toml"))
            .unwrap()
            .replace(
                "\"../fixtures/charters/example-charter.md\"",
                &format!("{:?}", bad.to_str().unwrap()),
            );
        std::fs::write(&m, manifest).unwrap();
        for (what, args, setting) in commands(bad, &run, &m) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env: &[(&str, &str)] = if capped { &[(setting, "10")] } else { &[] };
            let o = bounded(&repo_root(), &args, env);
            let what = format!("{what} on {}", bad.display());
            // The charter source is named by the manifest; everything else names `bad` itself.
            let text = assert_refused(o, 2, needle, &what);
            assert!(
                text.contains(bad.to_str().unwrap()),
                "{what}: names the file:\n{text}"
            );
            if capped {
                assert!(text.contains(setting), "{what}: names the setting:\n{text}");
            }
        }
        // A capsule given by name: the walk of capsule paths skips a special file with a
        // warning naming it (a folder is walked); one over its cap is refused.
        if bad != folder.as_path() {
            let env: &[(&str, &str)] = if capped {
                &[("CHARTER_HARNESS_MAX_CAPSULE_BYTES", "10")]
            } else {
                &[]
            };
            let o = bounded(
                &repo_root(),
                &["lint", "capsule", bad.to_str().unwrap()],
                env,
            );
            let code = if capped { 2 } else { 0 };
            assert_refused(o, code, needle, &format!("lint capsule {}", bad.display()));
        }
    }
    // run.json and labels.jsonl that are links to /dev/zero, as a hostile repository commits.
    let zero_run = dir.path().join("zero-run");
    std::fs::create_dir(&zero_run).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero_run.join("run.json")).unwrap();
    let o = bounded(&repo_root(), &["gate", zero_run.to_str().unwrap()], &[]);
    assert_refused(
        o,
        2,
        "not a regular file",
        "gate with run.json -> /dev/zero",
    );
    std::os::unix::fs::symlink("/dev/zero", run.join("labels.jsonl")).unwrap();
    let o = bounded(&repo_root(), &["calibrate", run.to_str().unwrap()], &[]);
    // The folder walk skips special files: nothing is read, and there is nothing to calibrate.
    assert_refused(
        o,
        2,
        "no labelled transcripts",
        "calibrate with labels.jsonl -> /dev/zero",
    );
}

#[test]
fn defect_4_a_label_after_a_last_line_without_newline_starts_its_own_line_and_old_files_read() {
    let dir = tempfile::tempdir().unwrap();
    let run = e1_run(dir.path());
    let t = a_transcript(&run);
    let labels = t.with_file_name("labels.jsonl");
    let h = |args: &[&str]| common::harness(&repo_root(), args, &[]);
    let o = h(&["label", t.to_str().unwrap(), "--pass"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let one = std::fs::read_to_string(&labels).unwrap();
    std::fs::write(&labels, one.trim_end()).unwrap(); // edited by hand: no final newline
    let o = h(&["label", t.to_str().unwrap(), "--fail"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let two = std::fs::read_to_string(&labels).unwrap();
    assert_eq!(two.lines().count(), 2, "{two}");
    assert!(
        two.lines().all(|l| l.starts_with('{') && l.ends_with('}')),
        "{two}"
    );
    let o = h(&["calibrate", run.to_str().unwrap()]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    // A file an older harness wrote, `{…}{…}` on one line, is still read: both labels count.
    std::fs::write(&labels, two.replace('\n', "")).unwrap();
    let o = h(&["calibrate", run.to_str().unwrap(), "--json"]);
    let out = common::stdout(&o);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}{out}",
        stderr(&o)
    );
    assert_eq!(out.matches("\"label\"").count(), 2, "{out}");
    // --labels naming a transcript is refused and the transcript is left alone.
    let before = std::fs::read(&t).unwrap();
    let o = h(&[
        "label",
        t.to_str().unwrap(),
        "--pass",
        "--labels",
        t.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a labels file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&t).unwrap(), before);
}

#[test]
fn defect_5_resume_refuses_a_transcript_it_cannot_read_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = e1_run(dir.path());
    let t = a_transcript(&run);
    let text = std::fs::read(&t).unwrap();
    std::fs::write(&t, &text[..text.len() / 3]).unwrap();
    let torn = std::fs::read(&t).unwrap();
    let o = resume(&run);
    let out = assert_refused(o, 2, "move it aside", "resume over a torn transcript");
    assert!(out.contains(t.to_str().unwrap()), "{out}");
    assert_eq!(
        std::fs::read(&t).unwrap(),
        torn,
        "never overwritten in silence"
    );
}

#[test]
fn defect_6_a_control_character_in_a_toml_comment_is_named_in_manifests_and_case_files() {
    let dir = tempfile::tempdir().unwrap();
    for (i, c) in ["\u{1}", "\u{7f}", "\r"].iter().enumerate() {
        let m = dir.path().join(format!("m{i}.toml"));
        common::write_offline_manifest(&m, &[]);
        let text = std::fs::read_to_string(&m).unwrap();
        std::fs::write(&m, format!("# a{c}b\n{text}")).unwrap();
        let o = bounded(&repo_root(), &["key", "--matrix", m.to_str().unwrap()], &[]);
        assert_refused(o, 2, "control character", &format!("manifest with {c:?}"));
    }
    // A case file: the suite's reader gives the same problem text.
    let suite = dir.path().join("suite");
    for sub in ["cases", "fixtures"] {
        copy_tree(&repo_root().join(sub), &suite.join(sub));
    }
    let case = suite.join("cases/E1.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    std::fs::write(&case, format!("# x\u{1}y\n{text}")).unwrap();
    let e = harness::suite::Suite::load(&suite)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("E1.toml") && e.contains("control character (U+0001)"),
        "{e}"
    );
}

#[test]
fn a_suite_s_paths_stay_inside_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    common::write_offline_manifest(&m, &[("script = \"compliant\"", "script = \"..\"")]);
    let o = bounded(
        &repo_root(),
        &[
            "run",
            "--matrix",
            m.to_str().unwrap(),
            "--case",
            "E1",
            "--trials",
            "1",
            "--out",
            dir.path().join("r").to_str().unwrap(),
        ],
        &[],
    );
    assert_refused(o, 2, "inside", "script = \"..\"");
}

#[test]
fn a_value_echoed_in_an_error_is_cut_to_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.toml");
    common::write_offline_manifest(&m, &[]);
    let text = std::fs::read_to_string(&m).unwrap();
    let huge = "y".repeat(200_000);
    let text = text.replacen("[run]\n", &format!("[run]\ntrials = \"{huge}\"\n"), 1);
    std::fs::write(&m, text).unwrap();
    let o = bounded(&repo_root(), &["key", "--matrix", m.to_str().unwrap()], &[]).unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", &err[..err.len().min(500)]);
    assert!(err.len() < 2000, "echoed whole: {} bytes", err.len());
}

/// The kinds the commands reach through a folder: a suite's case file and scripted reply, a run
/// folder's run.json and summary.json — each as /dev/zero, a FIFO, a folder and over its cap.
#[test]
fn a_suite_s_and_a_run_folder_s_files_are_read_as_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let run = e1_run(dir.path());
    let fifo = |p: &Path| mkfifo(p);
    type Make = fn(&Path);
    let specials: [(&str, Make); 4] = [
        ("not a regular file", |p| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
        ("not a regular file", |_| {}),
        ("folder", |p| std::fs::create_dir(p).unwrap()),
        ("cap of 200000 bytes", |p| {
            std::fs::write(p, "x".repeat(300_000)).unwrap()
        }),
    ];
    for (i, (needle, make)) in specials.iter().enumerate() {
        let make = |p: &Path| if i == 1 { fifo(p) } else { make(p) };
        let capped = i == 3;
        // A suite whose case file, then whose scripted reply, is the special file.
        for (rel, setting, args) in [
            (
                "cases/E1.toml",
                "CHARTER_HARNESS_MAX_CASE_BYTES",
                vec!["cases"],
            ),
            (
                "fixtures/scripted/compliant/E1-default.toml",
                "CHARTER_HARNESS_MAX_SCRIPTED_BYTES",
                vec![
                    "run",
                    "--matrix",
                    "manifests/offline.toml",
                    "--case",
                    "E1",
                    "--trials",
                    "1",
                ],
            ),
        ] {
            let suite = dir.path().join(format!("suite-{i}-{}", rel.len()));
            for sub in ["cases", "fixtures"] {
                copy_tree(&repo_root().join(sub), &suite.join(sub));
            }
            std::fs::remove_file(suite.join(rel)).unwrap();
            make(&suite.join(rel));
            let out = dir.path().join(format!("out-{i}-{}", rel.len()));
            let mut args: Vec<&str> = args.clone();
            args.extend(["--suite", suite.to_str().unwrap()]);
            if args[0] == "run" {
                args.extend(["--out", out.to_str().unwrap()]);
            }
            let env: &[(&str, &str)] = if capped { &[(setting, "200000")] } else { &[] };
            let o = bounded(&repo_root(), &args, env);
            let text = assert_refused(o, 2, needle, &format!("{rel} #{i}"));
            assert!(text.contains(rel), "{rel} #{i}: names the file:\n{text}");
            if capped {
                assert!(text.contains(setting), "{text}");
            }
        }
        // A run folder whose run.json, then summary.json, is the special file.
        for (name, setting, cmd) in [
            ("run.json", "CHARTER_HARNESS_MAX_RUN_JSON_BYTES", "gate"),
            (
                "summary.json",
                "CHARTER_HARNESS_MAX_SUMMARY_JSON_BYTES",
                "runs",
            ),
        ] {
            let copy = dir.path().join(format!("runs-{i}-{name}"));
            copy_tree(&run, &copy.join("r"));
            std::fs::remove_file(copy.join("r").join(name)).unwrap();
            make(&copy.join("r").join(name));
            let target = if cmd == "gate" {
                copy.join("r")
            } else {
                copy.clone()
            };
            let env: &[(&str, &str)] = if capped { &[(setting, "200000")] } else { &[] };
            let o = bounded(&repo_root(), &[cmd, target.to_str().unwrap()], env);
            let o = o.unwrap_or_else(|| panic!("{cmd} with {name} #{i}: hung"));
            let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
            // `runs` lists what it can and leaves an unreadable summary out; `gate` refuses.
            if cmd == "gate" {
                assert_eq!(o.status.code(), Some(2), "{name} #{i}: {text}");
                assert!(
                    text.contains(needle) && text.contains(name),
                    "{name} #{i}: {text}"
                );
            } else {
                assert!(o.status.code().is_some(), "{name} #{i}: {text}");
            }
        }
    }
}
