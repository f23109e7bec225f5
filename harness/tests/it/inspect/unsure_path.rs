//! The unsure path end to end (issue 39): a scripted model whose E1 reply can be read two ways
//! (the prose concludes 25 %, a fenced JSON says 20 %) makes `harness run` exit 3 with a line
//! naming the trials and the `harness label --decide` command that decides them; running that
//! command commits the label in `labels/labels.jsonl`, and `check` and `gate` on the same run
//! then decide it as the label says, no model called.

use crate::common::{copy_tree, harness, repo_root, shell, stderr, stdout};
use std::path::Path;
use std::process::Output;

/// An E1 reply compliant in every respect but one: its JSON block disagrees with its prose.
const TWO_WAYS: &str = r#"[[reply]]
content = """Tier: T1. Trigger: supplied percentage → Protocol A.
The change is $100k − $80k = $20k; over the starting cost, (100k − 80k)/80k = 25%. Checking backwards, 80k × 1.25 = 100k.

Bottom line: budget 25% more.

```json
{"answer": "20%", "base": "$80k"}
```"""
"#;

/// A suite (this repository's cases and fixtures) with a script folder `two-ways` whose E1
/// reply file is `e1_script`, and a charter repository with a manifest of two models
/// replaying it.
pub(super) fn suite_and_repo(
    dir: &Path,
    e1_script: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let suite = dir.join("suite");
    for sub in ["cases", "fixtures"] {
        copy_tree(&repo_root().join(sub), &suite.join(sub));
    }
    let script = suite.join("fixtures/scripted/two-ways");
    std::fs::create_dir_all(&script).unwrap();
    std::fs::write(script.join("E1-default.toml"), e1_script).unwrap();
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let charter = repo_root().join("fixtures/charters/example-charter.md");
    let model = |name: &str, role: &str| {
        format!("[[models]]\nname = \"{name}\"\nrole = \"{role}\"\nprovider = \"scripted\"\nmodel = \"scripted/{name}-v1\"\nscript = \"two-ways\"\n")
    };
    let manifest = format!(
        "[charter]\nsource = {charter:?}\n\n[run]\ntrials = 3\n\n{}\n{}",
        model("big", "frontier"),
        model("small", "weakest")
    );
    std::fs::write(repo.join("m.toml"), manifest).unwrap();
    (suite, repo)
}

/// `harness run` of E1 on the manifest of [`suite_and_repo`], into `results/r1`.
pub(super) fn run_e1(repo: &Path, suite: &Path) -> Output {
    harness(
        repo,
        &[
            "run",
            "--matrix",
            "m.toml",
            "--suite",
            suite.to_str().unwrap(),
            "--case",
            "E1",
            "--out",
            "results/r1",
        ],
        &[],
    )
}

#[test]
fn a_reply_read_two_ways_ends_the_run_unsure_and_the_printed_label_command_decides_check_and_gate()
{
    let dir = tempfile::tempdir().unwrap();
    let (suite, repo) = suite_and_repo(dir.path(), TWO_WAYS);
    let o = run_e1(&repo, &suite);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}{}", stderr(&o));
    // The run names the trials, why, and one command: all six trials are one reply.
    let section = &out[out.find("Needs a label").expect(&out)..];
    assert!(
        section.contains("big E1/default trials 1, 2, 3; small E1/default trials 1, 2, 3")
            && section.contains("the prose concludes 25%, the fenced JSON says 20%"),
        "{section}"
    );
    let commands: Vec<&str> = section
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("harness label --decide"))
        .collect();
    assert_eq!(commands.len(), 1, "{section}");
    let command = commands[0];
    assert!(
        command.starts_with("harness label --decide --pass results/r1/transcripts/"),
        "{command}"
    );
    // Neither the table nor the gate sends a person to re-run trials that need a label.
    assert!(!out.contains("errored or are missing"), "{out}");
    assert!(!out.contains("--resume"), "{out}");
    for (label, code) in [("pass", 0), ("fail", 1)] {
        let _ = std::fs::remove_file(repo.join("labels/labels.jsonl"));
        let line = command.replace("--pass", &format!("--{label}"));
        let o = shell(&repo, &line);
        assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
        let labels = std::fs::read_to_string(repo.join("labels/labels.jsonl")).unwrap();
        let written: serde_json::Value = serde_json::from_str(labels.trim()).unwrap();
        assert_eq!(labels.lines().count(), 1, "{labels}");
        assert_eq!(written["case"], "E1");
        assert_eq!(written["label"], label);
        assert_eq!(
            written["checker_version"],
            checkers::checker_for("E1").unwrap().version
        );
        let check = harness(&repo, &["check", "results/r1"], &[]);
        assert_eq!(check.status.code(), Some(code), "{}", stdout(&check));
        assert!(
            stdout(&check).contains(&format!(
                "6 transcripts: {}",
                ["6 pass, 0 fail", "0 pass, 6 fail"][code as usize]
            )),
            "{}",
            stdout(&check)
        );
        let gate = harness(&repo, &["gate", "results/r1"], &[]);
        let text = stdout(&gate);
        assert_eq!(gate.status.code(), Some(code), "{label}: {text}");
        assert!(!text.contains("Needs a label"), "{text}");
        let summary: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(repo.join("results/r1/summary.json")).unwrap(),
        )
        .unwrap();
        assert!(
            summary["needs_labels"]
                .as_array()
                .is_none_or(|a| a.is_empty()),
            "{summary}"
        );
    }
}

/// Labels are keyed by checker version: a label of an old version decides nothing, and
/// `harness label` names it, with where it is and the version now current.
#[test]
fn a_label_of_an_old_checker_version_decides_nothing_and_harness_label_names_it_stale() {
    let dir = tempfile::tempdir().unwrap();
    let (suite, repo) = suite_and_repo(dir.path(), TWO_WAYS);
    assert_eq!(run_e1(&repo, &suite).status.code(), Some(3));
    let transcript = "results/r1/transcripts/big/E1-default/trial-1.json";
    let o = harness(&repo, &["label", "--decide", "--pass", transcript], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("stale"), "{}", stdout(&o));
    // The same label under a checker version that is no longer current.
    let file = repo.join("labels/labels.jsonl");
    let now = checkers::checker_for("E1").unwrap().version;
    let current = std::fs::read_to_string(&file).unwrap();
    let old = current.replace(
        &format!("\"checker_version\":\"{now}\""),
        "\"checker_version\":\"0.9.0\"",
    );
    assert_ne!(old, current);
    std::fs::write(&file, &old).unwrap();
    let check = harness(&repo, &["check", "results/r1"], &[]);
    assert_eq!(check.status.code(), Some(3), "{}", stdout(&check));
    assert!(
        stdout(&check).contains("6 need a label"),
        "{}",
        stdout(&check)
    );
    // Labelling again names the stale label; the new one decides.
    let o = harness(&repo, &["label", "--decide", "--fail", transcript], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        out.contains("1 stale label in labels/labels.jsonl: keyed by a checker version that is no longer current")
            && out.contains(&format!("  label 1: E1/default checker 0.9.0 (now {now}), reply ")),
        "{out}"
    );
    let check = harness(&repo, &["check", "results/r1"], &[]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
}
