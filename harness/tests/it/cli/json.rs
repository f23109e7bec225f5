//! `--json` for scripts (issue 53): `run --json` and `gate --json` print the run's summary alone
//! on stdout; every JSON document carries the `schema_version` docs/formats.md lists; an empty
//! listing prints no line; the docs' jq examples run as written.

use crate::common::{harness, offline_run, repo_root, shell, stderr, stdout};
use harness::output::json::{Schema, ALL};
use std::path::Path;

/// Every line of `text` as JSON; a line that is not is a failure naming it.
fn json_lines(what: &str, text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l}")))
        .collect()
}

fn schema(name: &str) -> Schema {
    *ALL.iter().find(|s| s.name == name).unwrap()
}

/// The summary printed on stdout: one object, one line, the same record as summary.json.
fn printed_summary(what: &str, o: &std::process::Output, run: &Path) -> serde_json::Value {
    let lines = json_lines(what, &stdout(o));
    assert_eq!(lines.len(), 1, "{what}: one object:\n{}", stdout(o));
    let printed = lines.into_iter().next().unwrap();
    assert_eq!(
        printed["schema_version"],
        schema("summary").version,
        "{what}"
    );
    let file = std::fs::read_to_string(run.join("summary.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&file).unwrap();
    assert_eq!(printed, file, "{what}: the record summary.json holds");
    printed
}

#[test]
fn run_json_prints_the_summary_alone_on_stdout_and_the_table_and_stories_on_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    // One case: its stories print too, and must stay off stdout.
    let o = offline_run(&run, &["--case", "E1", "--trials", "1", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let summary = printed_summary("run --json", &o, &run);
    assert_eq!(summary["verdict"], "partial");
    assert_eq!(summary["exit_code"], 1);
    assert!(summary["units"].as_array().is_some_and(|u| !u.is_empty()));
    let err = stderr(&o);
    assert!(
        err.contains("Gate: "),
        "the verdict line goes to stderr:\n{err}"
    );
    assert!(err.contains("reports: "), "{err}");
    assert!(
        err.contains("final reply"),
        "the stories go to stderr:\n{err}"
    );
    // Without --json the same lines are stdout's: the check above can fail.
    let plain = offline_run(
        &tmp.path().join("plain"),
        &["--case", "E1", "--trials", "1"],
    );
    assert!(stdout(&plain).contains("Gate: "), "{}", stdout(&plain));
}

#[test]
fn gate_json_prints_the_summary_and_still_does_when_a_report_cannot_be_written() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let o = offline_run(&run, &["--case", "E1", "--trials", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let dir = run.to_str().unwrap();
    let o = harness(&repo_root(), &["gate", dir, "--json"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    printed_summary("gate --json", &o, &run);
    assert!(stderr(&o).contains("Gate: "), "{}", stderr(&o));
    // report.html cannot be written: exit 4, and the verdict was computed, so stdout holds it.
    std::fs::remove_file(run.join("report.html")).unwrap();
    std::fs::create_dir(run.join("report.html")).unwrap();
    std::fs::write(run.join("report.html/x"), "").unwrap();
    let o = harness(&repo_root(), &["gate", dir, "--json"], &[]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let lines = json_lines("gate --json, exit 4", &stdout(&o));
    assert_eq!(lines.len(), 1, "{}", stdout(&o));
    assert_eq!(lines[0]["verdict"], "partial");
    assert_eq!(lines[0]["schema_version"], 1);
}

#[test]
fn json_leaves_stdout_empty_when_the_command_stops_on_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let nowhere = tmp.path().join("nowhere.toml");
    let o = harness(
        &repo_root(),
        &["run", "--matrix", nowhere.to_str().unwrap(), "--json"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "exit 2: nothing on stdout");
    assert!(stderr(&o).contains("nowhere.toml"), "{}", stderr(&o));
    let o = harness(
        &repo_root(),
        &[
            "gate",
            tmp.path().join("no-run").to_str().unwrap(),
            "--json",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "exit 2: nothing on stdout");
}

#[test]
fn runs_json_in_a_results_folder_with_no_run_prints_nothing_and_exits_0() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let o = harness(
        &repo_root(),
        &["runs", "--json", results.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "an empty listing is no line");
    // A folder that does not exist is still bad input.
    let missing = tmp.path().join("missing");
    let o = harness(
        &repo_root(),
        &["runs", "--json", missing.to_str().unwrap()],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
}

/// Each command's `--json` lines, with the document type they are.
fn every_json_command(tmp: &Path) -> Vec<(&'static str, Vec<String>)> {
    let results = tmp.join("results");
    let run = results.join("r1");
    let o = offline_run(&run, &["--case", "E1", "--trials", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let trial = run.join("transcripts/scripted-naive/E1-default/trial-1.json");
    let o = harness(
        &repo_root(),
        &["label", trial.to_str().unwrap(), "--fail"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let charter = s(&repo_root().join("fixtures/charters/reasoning-charter-0.1.0.md"));
    let of = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        ("runs", of(&["runs", "--json", &s(&results)])),
        ("cases", of(&["cases", "--json"])),
        ("key", of(&["key", "--matrix", "offline", "--json"])),
        ("verdict", of(&["check", "--json", &s(&run)])),
        ("verdict", of(&["show", "--json", &s(&run)])),
        ("calibrate", of(&["calibrate", "--json", &s(&run)])),
        ("compare", of(&["compare", "--json", &s(&run), &s(&run)])),
        ("lint", of(&["lint", "charter", "--json", &charter])),
        ("summary", of(&["gate", "--json", &s(&run)])),
    ]
}

#[test]
fn every_json_line_holds_the_schema_version_formats_md_lists_for_its_type() {
    let tmp = tempfile::tempdir().unwrap();
    let formats = std::fs::read_to_string(repo_root().join("docs/formats.md")).unwrap();
    for s in ALL {
        let row = format!("| `{}` | {} | {} |", s.name, s.printed_by, s.version);
        assert!(
            formats.contains(&row),
            "docs/formats.md lacks the row {row}"
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for (name, args) in every_json_command(tmp.path()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = harness(&repo_root(), &args, &[]);
        let lines = json_lines(&format!("{args:?}"), &stdout(&o));
        assert!(!lines.is_empty(), "{args:?}: {}", stderr(&o));
        for l in &lines {
            assert_eq!(l["schema_version"], schema(name).version, "{args:?}: {l}");
        }
        // The version comes first, so a reader finds it before anything it may not know.
        assert!(
            stdout(&o)
                .lines()
                .all(|l| l.starts_with("{\"schema_version\":")),
            "{args:?}"
        );
        seen.insert(name);
    }
    let all: std::collections::BTreeSet<&str> = ALL.iter().map(|s| s.name).collect();
    assert_eq!(
        seen, all,
        "every document type is printed by a command above"
    );
}

/// The `harness … | jq …` commands of the README and docs/: in code spans (a span may wrap
/// across lines) and on lines of code blocks.
fn jq_examples() -> Vec<(String, String)> {
    let mut pages = vec![repo_root().join("README.md")];
    for e in std::fs::read_dir(repo_root().join("docs"))
        .unwrap()
        .flatten()
    {
        if e.path().extension().is_some_and(|x| x == "md") {
            pages.push(e.path());
        }
    }
    let span = regex::Regex::new(r"`(harness [^`]*\|\s*jq [^`]*)`").unwrap();
    let line = regex::Regex::new(r"(?m)^(harness [^\n`]*\|\s*jq [^\n]*)$").unwrap();
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        for c in span.captures_iter(&text).chain(line.captures_iter(&text)) {
            let cmd = c[1].split_whitespace().collect::<Vec<_>>().join(" ");
            if !out.iter().any(|(_, known)| *known == cmd) {
                out.push((name.clone(), cmd));
            }
        }
    }
    out
}

#[test]
fn the_docs_jq_examples_run_as_written_and_print_what_they_select() {
    let examples = jq_examples();
    assert!(
        examples.iter().any(|(_, c)| c.contains("runs --json")),
        "the docs show jq over `runs --json`: {examples:?}"
    );
    assert!(
        examples
            .iter()
            .any(|(_, c)| c.contains("run ") && c.contains("--json")),
        "the docs show jq over `run --json`: {examples:?}"
    );
    // Without jq a visible skip, and a failure under CI (where .ci/run installs it).
    if crate::common::required_tool("jq", "apt-get install jq").is_none() {
        return;
    }
    // A folder with no charter of its own holding one failing run of the offline matrix (the
    // built-in example charter), as results/latest.
    let tmp = tempfile::tempdir().unwrap();
    let o = shell(
        tmp.path(),
        "harness run --matrix offline >/dev/null 2>&1; echo $?",
    );
    assert_eq!(stdout(&o).trim(), "1", "{}", stderr(&o));
    for (page, cmd) in examples {
        // The pipeline's status is jq's: 0 when it read JSON and its filter ran.
        let o = shell(tmp.path(), &cmd);
        let out = stdout(&o);
        assert!(
            o.status.success(),
            "{page}: `{cmd}` failed:\n{out}{}",
            stderr(&o)
        );
        assert!(
            !out.trim().is_empty(),
            "{page}: `{cmd}` printed nothing:\n{}",
            stderr(&o)
        );
    }
}
