//! What a resume keeps (issue 41, 6): a completed transcript is kept only when its charter,
//! case and model request are the run's; any other completed transcript stops the resume,
//! named, with nothing overwritten; an `error` transcript runs again.

use crate::common;
use common::{harness, offline_run, repo_root, stderr};
use serde_json::Value;
use std::path::Path;

const UNIT: &str = "transcripts/scripted-compliant/E1-default/trial-1.json";

fn resume(run: &Path) -> std::process::Output {
    let dir = run.to_str().unwrap();
    let args = ["run", "--matrix", "manifests/offline.toml", "--resume", dir];
    harness(&repo_root(), &args, &[])
}

fn copy_dir(from: &Path, to: &Path) {
    let ok = std::process::Command::new("cp")
        .args(["-a", from.to_str().unwrap(), to.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// A copy of the finished run `base` at `to` whose E1 trial 1 was edited by `edit`.
fn tampered(base: &Path, to: &Path, edit: impl Fn(&mut Value)) -> Vec<u8> {
    copy_dir(base, to);
    let path = to.join(UNIT);
    let mut t: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(t["outcome"], "completed");
    edit(&mut t);
    let bytes = serde_json::to_vec_pretty(&t).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    bytes
}

#[test]
fn resume_refuses_a_completed_transcript_of_another_charter_case_or_request_and_overwrites_none() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    let o = offline_run(&base, &["--case", "E1", "--trials", "1"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit, &str)> = vec![
        (
            "no-charter",
            Box::new(|t| {
                t.as_object_mut().unwrap().remove("charter_sha256");
            }),
            "charter_sha256",
        ),
        (
            "other-charter",
            Box::new(|t| t["charter_sha256"] = Value::from("ab".repeat(32))),
            "charter_sha256",
        ),
        (
            "no-case",
            Box::new(|t| {
                t.as_object_mut().unwrap().remove("case_sha256");
            }),
            "case_sha256",
        ),
        (
            "other-case",
            Box::new(|t| t["case_sha256"] = Value::from("cd".repeat(32))),
            "case_sha256",
        ),
        (
            "no-request",
            Box::new(|t| {
                t.as_object_mut().unwrap().remove("request");
            }),
            "request",
        ),
        (
            "other-decoding",
            Box::new(|t| t["request"]["decoding"]["temperature"] = Value::from(0.9)),
            "request",
        ),
    ];
    for (name, edit, field) in edits {
        let run = dir.path().join(name);
        let bytes = tampered(&base, &run, edit);
        let o = resume(&run);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("trial-1.json") && err.contains(field) && err.contains("move it aside"),
            "{name}: {err}"
        );
        assert_eq!(
            std::fs::read(run.join(UNIT)).unwrap(),
            bytes,
            "{name}: the transcript was overwritten"
        );
    }
}

#[test]
fn resume_keeps_a_matching_completed_transcript_and_runs_an_error_one_again() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base");
    let o = offline_run(&base, &["--case", "E1", "--trials", "1"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let run = dir.path().join("error");
    tampered(&base, &run, |t| {
        t["outcome"] = Value::from("error");
        t["error"] = Value::from("provider failed on turn 1: planted");
    });
    let kept_path = run.join("transcripts/scripted-naive/E1-default/trial-1.json");
    let kept = std::fs::read(&kept_path).unwrap();
    let o = resume(&run);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let t: Value = serde_json::from_slice(&std::fs::read(run.join(UNIT)).unwrap()).unwrap();
    assert_eq!(t["outcome"], "completed", "the error trial ran again");
    assert_eq!(
        std::fs::read(&kept_path).unwrap(),
        kept,
        "a matching one is kept"
    );
}
