//! The blind lint corpora 49a–49g (harness/tests/lint/blind49a/ … blind49g/, each by its own
//! author). 49a: 78 charter edits and 46 capsules
//! labelled pass, fail or review from the charter and the capsule definition alone, by someone
//! who never read the linter. Every case is linted as CI lints it (see `blind::lint_as_ci`) and
//! scored by the exit code alone, as the workflow reads it: 0 pass, 1 fail, 3 handed to a
//! reviewer. The figures are a ratchet: a change that decides more cases wrong or hands more to
//! a reviewer fails, and one that does better must lower the bound to what it measures.

use super::blind::{cases_in, lint_as_ci, Case};
use std::path::{Path, PathBuf};

fn corpus_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lint")
        .join(name)
}

/// Per kind, today's (decided wrong, handed to a reviewer). A case labelled review counts as
/// right when handed over and is never "decided wrong" (a careful reader could go either way);
/// it is counted apart when decided.
const BOUNDS: [(&str, usize, usize); 2] = [("charter", 0, 1), ("capsule", 0, 0)];

#[derive(Default)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    handed: Vec<String>,
    review_decided: Vec<String>,
}

fn verdict(dir: &Path, case: &Case) -> Result<&'static str, String> {
    let o = lint_as_ci(dir, case);
    match o.status.code() {
        Some(0) => Ok("pass"),
        Some(1) => Ok("fail"),
        Some(3) => Ok("review"),
        other => Err(format!(
            "exit {other:?}: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
    }
}

fn score(dir: &Path, kind: &str, cases: &[Case]) -> Tally {
    let mut t = Tally::default();
    for case in cases.iter().filter(|c| c.kind == kind) {
        let shown = |got: &str| format!("{}: labelled {}, linted {got}", case.file, case.expect);
        match verdict(dir, case) {
            Ok(got) if got == case.expect => t.right += 1,
            Ok("review") => t.handed.push(case.file.clone()),
            Ok(got) if case.expect == "review" => t.review_decided.push(shown(got)),
            Ok(got) => t.wrong.push(shown(got)),
            Err(e) => t.wrong.push(shown(&e)),
        }
    }
    t
}

#[test]
fn the_blind_49a_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49a", 124, &BOUNDS);
}

/// blind49b: written after the linter's rewrite by another author who never read it (50 cases:
/// 36 charter edits, 14 capsules), measured on the merged tree (4a571ba) before anything was
/// fixed against it: charter 26 of 36 right, 6 decided wrong, 2 handed to a reviewer (2
/// labelled review and decided); capsules 12 of 14 right, 0 wrong, 1 handed (1 labelled review
/// and decided). Since: a Core Invariant's form-only change read as wording (charter 27, 5
/// wrong); a registry row edited in place read as the same row (28, 4 wrong); a checker whose
/// case the charter deleted a warning (29, 3 wrong); "does not" read as a negation, not a
/// prohibition (29, 2 wrong, 3 handed: case 26 moved from decided wrong to a reviewer, as
/// issue 49 asks for new content words with the same operators); a hard break ends a line
/// (30, 1 wrong, 3 handed); a registry table read as its rendered lines (31, 0 wrong, 3 handed);
/// "into" and "vs." read as function words (32, 0 wrong, 2 handed). Capsules (0, 1) → (0, 0)
/// with blind49e's classes (a role said in another form of its words, or under a "Role:"
/// label, is stated): 13 of 14 right.
const BOUNDS_49B: [(&str, usize, usize); 2] = [("charter", 0, 2), ("capsule", 0, 0)];

#[test]
fn the_blind_49b_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49b", 50, &BOUNDS_49B);
}

fn judged_within(name: &str, size: usize, bounds: &[(&str, usize, usize)]) {
    let dir = corpus_dir(name);
    let cases = cases_in(&dir);
    assert_eq!(cases.len(), size, "{name} holds {size} cases");
    let mut failures = Vec::new();
    for &(kind, wrong_bound, handed_bound) in bounds {
        let t = score(&dir, kind, &cases);
        let total = cases.iter().filter(|c| c.kind == kind).count();
        eprintln!(
            "{name} {kind}: {} of {total} right, {} decided wrong, {} handed to a reviewer, {} labelled review and decided\n  wrong: {:#?}\n  handed: {:?}\n  review decided: {:?}",
            t.right,
            t.wrong.len(),
            t.handed.len(),
            t.review_decided.len(),
            t.wrong,
            t.handed,
            t.review_decided
        );
        let (w, h) = (t.wrong.len(), t.handed.len());
        if w > wrong_bound || h > handed_bound {
            failures.push(format!(
                "{name} {kind}: {w} decided wrong (bound {wrong_bound}), {h} handed to a reviewer (bound {handed_bound})"
            ));
        } else if w < wrong_bound || h < handed_bound {
            failures.push(format!(
                "{name} {kind} does better than its bound: lower it to ({kind:?}, {w}, {h})"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// blind49c: a third author, written after issue 49's rounds (59 charter edits, 45 capsules),
/// measured on 8a35f84 before anything was fixed against it: charter 48 of 59 right, 7 decided
/// wrong, 0 handed to a reviewer (4 labelled review and decided); capsules 42 of 45 right, 2
/// decided wrong, 0 handed (1 labelled review and decided). Since, each a class with its tests
/// (suite/lint_readings.rs): a version line written "v0.1.1 — date" read as the version; a
/// comparison ("at least five" = "five or more") and a duration ("10 minutes" = "600 seconds")
/// in other words read as the same; a heading renamed in place keeps its rules in their
/// section; two list items joined into one change the list's members (minor); a lock-break
/// recorded with Mike's signoff signs; a version in the title that disagrees with the version
/// line goes to a reviewer. Charter (7, 0) → (0, 0): 56 of 59 right (3 labelled review and
/// decided: 49, 57, 58, docs/commands.md says why); capsules (2, 0) → (0, 0): 44 of 45.
const BOUNDS_49C: [(&str, usize, usize); 2] = [("charter", 0, 0), ("capsule", 0, 0)];

#[test]
fn the_blind_49c_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49c", 104, &BOUNDS_49C);
}

/// blind49d: a fourth author, held back from the round's lint work to measure what generalised
/// (49 charter edits, 32 capsules). Measured on 24d4760, before the round's lint changes:
/// charter 44 of 49 right, 3 decided wrong, 1 handed to a reviewer (1 labelled review and
/// decided); capsules 28 of 32 right, 2 decided wrong, 1 handed (1 labelled review and decided).
/// After the round's lint changes (i49c, which never read it), before anything was fixed
/// against it: charter 46 of 49 right, 2 decided wrong, 0 handed (1 labelled review and
/// decided); capsules 29 of 32 right, 0 decided wrong, 2 handed (1 labelled review and decided).
/// Then fixed against it, so a test from here on: a version in two parts (`Version 0.2`,
/// `Version 1.0`) read as that release with a warning: charter 48 of 49, 0 wrong, 0 handed.
/// Capsules (0, 2) → (0, 0) with blind49e's classes (a role said in another form of its words,
/// or under a "Role:" label, is stated): 31 of 32 right.
const BOUNDS_49D: [(&str, usize, usize); 2] = [("charter", 0, 0), ("capsule", 0, 0)];

#[test]
fn the_blind_49d_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49d", 81, &BOUNDS_49D);
}

/// blind49e: a fifth author (49 charter edits, 29 capsules), written this round before any
/// change to the linter, to be fixed against. Measured on a44ae6c before anything was fixed
/// against it: charter 39 of 49 right, 4 decided wrong, 4 handed to a reviewer (2 labelled
/// review and decided); capsules 27 of 29 right, 0 decided wrong, 1 handed (1 labelled review
/// and decided). Then fixed against it, each class with its tests (suite/lint_same_meaning.rs):
/// an HTML comment is no part of the charter, and the text beside one in an HTML block is; a
/// version restated below (`Reasoning Charter — Version 0.1.0`) that disagrees with the version
/// line is a finding naming both lines; a word in another form (a hyphen, a plural, "non-"
/// joined), a function word ("along"), a pronoun replaced by the thing the rule names (or a
/// phrase naming it added: "agrees with the claim"), a unit's
/// synonym ("significant digit") or the charter's own fuller name ("evaluation harness") is
/// wording; a capsule's role said in another form of its words, or under a "Role:" label, is
/// stated. Case 44's label overridden pass → fail for semver's reset rule (labels.toml says
/// why). Charter (4, 4) → (0, 1): 46 of 49 right (17 handed: one adjective added to a
/// sentence that states a requirement; 2 labelled review and decided); capsules (0, 1) →
/// (0, 0): 28 of 29 right (1 labelled review and decided).
const BOUNDS_49E: [(&str, usize, usize); 2] = [("charter", 0, 1), ("capsule", 0, 0)];

#[test]
fn the_blind_49e_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49e", 78, &BOUNDS_49E);
}

/// blind49f: a sixth author (46 charter edits, 27 capsules), held back from this round's lint
/// work to measure what generalised. Measured on a44ae6c before the round's changes: charter 43
/// of 46 right, 1 decided wrong, 1 handed to a reviewer (1 labelled review and decided);
/// capsules 27 of 27 right. After the round's lint changes (i49e, which never read it), the
/// same: charter 43 of 46, 1 decided wrong (11), 1 handed (20); capsules 27 of 27: what the
/// round fixed did not reach its two misses. Then fixed against it (a test from here on): a
/// typo fixed is wording, a letter changed in a word found only in that rule or into a word
/// the charter uses (11: "sentance" → "sentence"), and a kind's name written before an id of
/// its kind is the same id (20: "for E1" → "for case E1"), lint_same_meaning.rs: charter 45 of
/// 46, 0 wrong, 0 handed.
const BOUNDS_49F: [(&str, usize, usize); 2] = [("charter", 0, 0), ("capsule", 0, 0)];

#[test]
fn the_blind_49f_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49f", 73, &BOUNDS_49F);
}

/// blind49g: a seventh author (53 charter edits, 33 capsules), written after this round's lint
/// work was done and measured before anything was fixed against it, on d165dc9: charter 51 of
/// 53 right, 0 decided wrong, 1 handed to a reviewer (1 labelled review and decided); capsules
/// 32 of 33 right, 0 decided wrong, 0 handed (1 labelled review and decided).
const BOUNDS_49G: [(&str, usize, usize); 2] = [("charter", 0, 1), ("capsule", 0, 0)];

#[test]
fn the_blind_49g_corpus_is_judged_no_worse_than_its_recorded_figures() {
    judged_within("blind49g", 86, &BOUNDS_49G);
}
