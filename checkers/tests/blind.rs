//! Held-out blind corpora: replies written from the charter alone, in the styles late-2026
//! models write, by people who never read the checkers, each labelled pass or fail from the
//! charter (`checkers/tests/blind31/` and `blind31b/`, each README says how it was written). Every decided verdict
//! must agree with its label, and fewer than 3 % may be unsure.

mod common;

use checkers::golden::{self, Expect};
use checkers::CheckContext;
use std::path::PathBuf;

fn root() -> PathBuf {
    common::root().join("..")
}

/// The Core Invariants the corpus was written against: those of the charter the fixtures render.
fn core_invariants() -> String {
    let text = std::fs::read_to_string(root().join("fixtures/charters/reasoning-charter-0.1.0.md"))
        .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "Core Invariants")
        .unwrap()
        + 1;
    let end = lines[start..]
        .iter()
        .position(|l| l.trim() == "Reasoning Procedures")
        .map_or(lines.len(), |e| start + e);
    lines[start..end].join("\n").trim_matches('\n').to_string()
}

#[test]
fn blind31_every_decided_verdict_agrees_with_its_label_and_under_3_percent_are_unsure() {
    corpus_agrees("blind31", 200);
}

#[test]
fn blind31b_every_decided_verdict_agrees_with_its_label_and_under_3_percent_are_unsure() {
    corpus_agrees("blind31b", 90);
}

fn corpus_agrees(name: &str, at_least: usize) {
    let core = core_invariants();
    let dir = root().join("checkers/tests").join(name);
    let (mut n, mut unsure, mut wrong) = (0, 0, Vec::new());
    for file in common::toml_files(&dir) {
        let case = file.file_stem().unwrap().to_string_lossy().into_owned();
        let truth = common::truth(&case);
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: Some(core.trim()),
        };
        let goldens = golden::parse(&std::fs::read_to_string(&file).unwrap(), &case).unwrap();
        for g in goldens {
            let v = checkers::check(&g.transcript(&case), &ctx).unwrap();
            n += 1;
            if v.unsure() {
                unsure += 1;
            } else if v.pass != (g.expect == Expect::Pass) {
                let failed: Vec<String> = v
                    .failed()
                    .map(|c| format!("{}: {}", c.name, c.detail))
                    .collect();
                wrong.push(format!(
                    "{case} {} labelled {:?}: {failed:?}",
                    g.name, g.expect
                ));
            }
        }
    }
    assert!(n >= at_least, "only {n} blind replies read");
    assert!(
        wrong.is_empty(),
        "{} of {n} blind replies misjudged:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        unsure * 100 < n * 3,
        "{unsure} of {n} unsure (want under 3 %)"
    );
}
