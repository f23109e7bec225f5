//! Every report, verdict and transcript of the offline matrix, byte for byte, against the
//! snapshot in `tests/snapshots/offline/` (times, durations and paths redacted). Reports are
//! kept whole, so a change shows as a diff; transcripts as a sha256 list.
//!
//! After a deliberate change of a report, one explicit command rewrites the snapshot: `cargo test
//! -p harness --test it -- --ignored update_the_offline_report_snapshot` (an ignored test, so
//! `cargo test` never runs it; with `CI` set it refuses). Review `git diff harness/tests/snapshots`
//! and say in the commit what changed and why. The comparing test never writes.

use crate::common;

use common::{files_under, harness, repo_root};
use sha2::{Digest, Sha256};
use std::path::Path;

fn redact(text: &str, out: &Path) -> String {
    let text = text
        .replace(&out.display().to_string(), "[OUT]")
        .replace(&repo_root().display().to_string(), "[ROOT]");
    let rules = [
        (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[TIME]"),
        (r#""duration_ms": \d+"#, r#""duration_ms": [MS]"#),
        (r#"time="\d+\.\d+""#, r#"time="[S]""#),
        // The embedded suite's unpacked copy lives under the machine's cache or temp folder.
        (r#""suite": "[^"]*""#, r#""suite": "[SUITE]""#),
    ];
    rules.iter().fold(text, |t, (re, with)| {
        regex::Regex::new(re)
            .unwrap()
            .replace_all(&t, *with)
            .into_owned()
    })
}

/// The offline matrix's output, redacted: (snapshot file name, text), transcripts as one sha256 list.
fn offline_output() -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = harness(
        &repo_root(),
        &[
            "run",
            "--matrix",
            "manifests/offline.toml",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.status.code(), Some(1), "the naive model fails the gate");
    let mut got: Vec<(String, String)> = vec![(
        "stdout.txt".into(),
        redact(&String::from_utf8_lossy(&run.stdout), &out),
    )];
    let mut hashes = String::new();
    for f in files_under(&out) {
        let rel = f.strip_prefix(&out).unwrap().display().to_string();
        if rel == ".lock" {
            continue;
        }
        let text = redact(&std::fs::read_to_string(&f).unwrap(), &out);
        if rel.starts_with("transcripts/") {
            let sha = Sha256::digest(text.as_bytes());
            let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
            hashes.push_str(&format!("{hex}  {rel}\n"));
        } else {
            got.push((rel, text));
        }
    }
    got.push(("transcripts.sha256".into(), hashes));
    got.into_iter()
        .map(|(rel, text)| (rel.replace('/', "__"), text))
        .collect()
}

fn snapshot_dir() -> std::path::PathBuf {
    repo_root().join("harness/tests/snapshots/offline")
}

#[test]
#[ignore = "rewrites the snapshot: run it by name after a deliberate change of a report"]
fn update_the_offline_report_snapshot() {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(
        !ci,
        "CI never rewrites snapshots: they are rewritten by hand and reviewed"
    );
    let got = offline_output();
    let snap = snapshot_dir();
    let _ = std::fs::remove_dir_all(&snap);
    std::fs::create_dir_all(&snap).unwrap();
    for (name, text) in &got {
        std::fs::write(snap.join(name), text).unwrap();
    }
    eprintln!(
        "snapshot written to {}; review it with git diff harness/tests/snapshots",
        snap.display()
    );
}

#[test]
fn every_report_verdict_and_transcript_of_the_offline_matrix_is_byte_identical_to_the_snapshot() {
    let got = offline_output();
    let snap = snapshot_dir();
    let mut names: Vec<String> = got.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    let mut want_names: Vec<String> = std::fs::read_dir(&snap)
        .expect("no snapshot: write it with the ignored test update_the_offline_report_snapshot")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    want_names.sort();
    assert_eq!(
        names, want_names,
        "the run writes other files than the snapshot"
    );
    for (rel, text) in &got {
        let want = std::fs::read_to_string(snap.join(rel)).unwrap();
        if *text != want {
            let diff = similar::TextDiff::from_lines(&want, text)
                .unified_diff()
                .context_radius(2)
                .to_string();
            panic!("{rel} differs from the snapshot:\n{diff}");
        }
    }
}
