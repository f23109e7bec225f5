//! A charter that adds a case this harness has no checker for (E14, with its registry row): `run`
//! and `gate` say so before any model is called, run the cases they have, and the gate fails
//! for it, named apart from failing units; `run --dry-run` names it too.

use crate::common::{harness, repo_root, stderr, stdout};
use std::path::Path;

const SEED: &str = "fixtures/charters/reasoning-charter-0.1.0.md";
const SAYS: &str = "case E14 cannot be tested by this harness version";

/// The seed charter with E14 and its Failure-Mode Registry row added (a minor bump).
fn charter_with_e14(dir: &Path) {
    let seed = std::fs::read_to_string(repo_root().join(SEED)).unwrap();
    let e13 = seed.lines().find(|l| l.contains("• E13 — ")).unwrap();
    let with = seed
        .replace("Version 0.1.0 — 2026-07-09", "Version 0.2.0 — 2026-07-10")
        .replace(
            e13,
            &format!("{e13}\n  • E14 — Truncated output. Harness: a tool result listing 40 files is cut off after 25. Before: reports the 25 as complete. After: names the truncation. Fail if the 25 are presented as complete."),
        )
        .replace(
            "\nEvaluation Harness",
            "Truncation blindness Partial tool output read as complete E.2: scan for truncation\n\nEvaluation Harness",
        );
    std::fs::write(dir.join("CHARTER.md"), with).unwrap();
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let home = dir.display().to_string();
    harness(dir, args, &[("HOME", &home)])
}

#[test]
fn a_case_this_harness_cannot_test_is_said_first_and_fails_the_gate_apart_from_failing_units() {
    let dir = tempfile::tempdir().unwrap();
    charter_with_e14(dir.path());
    let offline = ["run", "--matrix", "offline", "--charter", "CHARTER.md"];

    let dry = run(dir.path(), &[&offline[..], &["--dry-run"]].concat());
    assert_eq!(dry.status.code(), Some(0), "{}", stderr(&dry));
    assert!(stderr(&dry).contains(SAYS), "{}", stderr(&dry));

    let o = run(dir.path(), &[&offline[..], &["--out", "out"]].concat());
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    // Said before the first trial's line, the cases it has run all the same.
    assert!(err.contains(SAYS), "{err}");
    assert!(out.contains("E13/"), "the cases it has are run: {out}");
    assert!(
        out.contains("Cannot be tested by this harness version: E14"),
        "{out}"
    );
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with(&format!("Gate: FAIL: the change is blocked: {SAYS}")),
        "{last}"
    );
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (summary["exit_code"].as_u64(), summary["verdict"].as_str()),
        (Some(1), Some("fail"))
    );
    let run_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/run.json")).unwrap())
            .unwrap();
    assert_eq!(
        run_json["charter"]["untestable_cases"],
        serde_json::json!(["E14"])
    );

    // `gate` from the stored transcripts: the same, said before anything else is decided.
    let g = run(dir.path(), &["gate", "out"]);
    assert_eq!(g.status.code(), Some(1), "{}", stderr(&g));
    assert!(stderr(&g).contains(SAYS), "{}", stderr(&g));
    assert!(stdout(&g).lines().last().unwrap().contains(SAYS));

    // The report and the pull-request comment name it apart from the units.
    let md = std::fs::read_to_string(dir.path().join("out/report.md")).unwrap();
    assert!(
        md.contains("**Cannot be tested by this harness version: E14.**"),
        "{md}"
    );
    let c = run(dir.path(), &["comment", "out"]);
    assert_eq!(c.status.code(), Some(0), "{}", stderr(&c));
    assert!(
        stdout(&c).contains("Cannot be tested by this harness version: E14."),
        "{}",
        stdout(&c)
    );
}

#[test]
fn the_same_charter_without_e14_is_not_refused_for_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join(SEED), dir.path().join("CHARTER.md")).unwrap();
    let o = run(
        dir.path(),
        &[
            "run",
            "--matrix",
            "offline",
            "--charter",
            "CHARTER.md",
            "--dry-run",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("cannot be tested"), "{}", stderr(&o));
}
