//! Every report, verdict and transcript of the offline matrix, byte for byte, against the
//! insta snapshots in `tests/snapshots/offline/` (times, durations and paths redacted; one
//! `NAME.snap` a file, its body the file's bytes). Reports are kept whole, so a change shows as
//! a diff; transcripts as a sha256 list.
//!
//! After a deliberate change of a report: `cargo insta test -p harness --test it -- report_bytes`
//! then `cargo insta review` (or `INSTA_UPDATE=always`), and say in the commit what changed and
//! why. With `CI` set insta writes nothing and a difference fails.

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

/// The snapshot names kept in `dir` (`report.html` for `report.html.snap`).
fn snapshot_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the snapshot folder harness/tests/snapshots/offline exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".snap").map(str::to_string))
        .collect();
    names.sort();
    names
}

#[test]
fn every_report_verdict_and_transcript_of_the_offline_matrix_is_byte_identical_to_the_snapshot() {
    let got = offline_output();
    let mut names: Vec<String> = got.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots/offline");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for (rel, text) in &got {
            insta::assert_snapshot!(rel.as_str(), text);
        }
    });
    assert_eq!(
        names,
        snapshot_names(&snapshot_dir()),
        "the run writes other files than the snapshot"
    );
}
