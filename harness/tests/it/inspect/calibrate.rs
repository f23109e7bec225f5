//! `harness label` and `harness calibrate`: checkers measured against a person's verdicts.

use crate::common;
use common::{harness, repo_root};

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn calibrate_on_the_golden_and_labelled_corpora_agrees_fully() {
    let o = harness(
        &repo_root(),
        &[
            "calibrate",
            "checkers/tests/golden",
            "checkers/tests/labelled",
        ],
        &[],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let all = out.lines().find(|l| l.starts_with("all")).unwrap();
    assert!(all.contains("100.0%"), "{out}");
    assert!(!out.contains("Disagreements"), "{out}");
}

#[test]
fn a_mislabelled_transcript_is_listed_with_the_deciding_criterion_and_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let src = repo_root().join("checkers/tests/labelled");
    for f in ["scripted-naive-E1-default.json", "issue10-E4-table.json"] {
        std::fs::copy(src.join(f), tmp.path().join(f)).unwrap();
    }
    let dir = tmp.path().to_str().unwrap();
    let naive = tmp.path().join("scripted-naive-E1-default.json");
    let table = tmp.path().join("issue10-E4-table.json");
    // A person (wrongly) passes the naive reply; the table reply is labelled correctly.
    let o = harness(
        &repo_root(),
        &[
            "label",
            naive.to_str().unwrap(),
            "--pass",
            "--note",
            "deliberately wrong",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    let o = harness(
        &repo_root(),
        &["label", table.to_str().unwrap(), "--pass"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    let labels = std::fs::read_to_string(tmp.path().join("labels.jsonl")).unwrap();
    assert_eq!(labels.lines().count(), 2);
    assert!(labels.contains("\"transcript\":\"scripted-naive-E1-default.json\""));

    let o = harness(&repo_root(), &["calibrate", dir], &[]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // The checker's version as it is now: a version bump must not break this test.
    let version = checkers::checker_for("E1").unwrap().version;
    assert!(out.contains(&format!("E1    {version}")), "{out}");
    assert!(out.contains("Disagreements (1):"), "{out}");
    assert!(
        out.contains(&format!(
            "E1/default labelled PASS, checker {version} says FAIL: final-figure"
        )),
        "{out}"
    );
    assert!(out.contains("scripted-naive-E1-default.json"), "{out}");
    assert!(out.contains("note: deliberately wrong"), "{out}");

    let o = harness(&repo_root(), &["calibrate", dir, "--json"], &[]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let summary = &lines[2]["summary"];
    let e1 = summary
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["case"] == "E1")
        .unwrap();
    assert_eq!(e1["tally"]["false_fails"], 1);
}

#[test]
fn label_refuses_a_file_that_is_not_a_transcript_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("notes.json");
    std::fs::write(&bad, "{\"hello\": 1}").unwrap();
    let o = harness(
        &repo_root(),
        &["label", bad.to_str().unwrap(), "--fail"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!tmp.path().join("labels.jsonl").exists());
}
