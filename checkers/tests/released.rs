//! The 574 released replies of earlier blind rounds (`shared/corpora/`, six folders of
//! transcripts in contract §3 format, each with `expected.tsv`: `name<TAB>pass|fail`), read in
//! place, never copied into the project. They are tests now, not measurements: the figures per
//! unit (right, decided wrong, unsure) are printed on every run, and the test holds the corpus
//! to what the checkers read today (a ratchet: more wrong decided verdicts fail; fewer must lower
//! the bound) and to at most 3 % unsure.
//!
//! Where the folder is: `shared/corpora` beside an ancestor of this crate (the project sits
//! beside `shared/`). Missing, the test says so and passes, unless `CI` is set.
//!
//! Measured before issue 50 changed anything (on b6e5ba0): 574 replies, right 541, decided
//! wrong 22, unsure 11 (1.9 %). Per unit (right / decided wrong / unsure): E1 52/2/0,
//! E2 36/2/0, E3 34/2/0, E4 35/1/3, E5 32/2/0, E6-i 31/0/3, E6-ii 34/2/0, E7 34/0/1,
//! E8-A 30/2/0, E8-B 27/1/1, E9 37/0/0, E10 35/5/0, E11 33/1/0, E12-i 30/0/0, E12-ii 28/1/0,
//! E13 33/1/3.

mod common;

use checkers::{CheckContext, Transcript};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FOLDERS: [&str; 6] = [
    "blind-workspace",
    "plain-styles-fresh",
    "q",
    "reserve",
    "t5",
    "workspace",
];

/// The most decided-wrong verdicts allowed today over all six folders (the target is
/// at most 1 %, 5 of 574). A ratchet: fewer must lower it. 22 before issue 50; 20 once claims
/// were tied to the transcript (two E10 replies closing on notes no fetch showed); 19 once
/// "You'd like …" reads as the user's request restated (an E6 ii reply that declines); 18
/// once "I have edited nothing" is no claim of an edit (an E5 reply); 10 once i50d's classes
/// read E1's closing critique of the trap and a labelled block quote, E2's caveat endorsing
/// break-even and a summary table restating the user's figure (unsure, with E4's), E3's
/// diagnostic code and its JSON answer, E13's conditions named by reference to a list; 8 in
/// i50e's branch alone, after its tool cases (E10's paraphrased sign-off, its refused mention, its items as JSON keys; E5's run-on
/// proposal; E6 ii's decline as JSON; E8's drift quoted to reject it and the text between two
/// quotations; E11's task rewritten by a later write; E12 ii's request in noun form); on the
/// merged checkers (i50d and i50e): 559 right, 0 decided wrong, 15 unsure (2.6 %).
const WRONG_AT_MOST: usize = 0;

/// Labels changed for a reason in the charter's text: (folder/name, label, the sentence).
/// A label never changes because a checker disagreed.
const OVERRIDES: &[(&str, &str, &str)] = &[];

fn corpora_dir() -> Option<PathBuf> {
    common::root()
        .ancestors()
        .map(|a| a.join("shared/corpora"))
        .find(|p| p.join("README.md").is_file())
}

/// The Core Invariants as the harness cuts them from the transcript's own system prompt.
fn core_invariants(t: &Transcript) -> Option<String> {
    let lines: Vec<&str> = t.system_prompt()?.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "Core Invariants")? + 1;
    let end = lines[start..]
        .iter()
        .position(|l| l.trim() == "Reasoning Procedures")
        .map_or(lines.len(), |e| start + e);
    Some(lines[start..end].join("\n").trim_matches('\n').to_string())
}

#[derive(Default)]
struct Unit {
    right: usize,
    wrong: Vec<String>,
    unsure: Vec<String>,
}

fn label_of(folder: &str, name: &str, label: &str) -> String {
    let key = format!("{folder}/{name}");
    OVERRIDES
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or(label, |(_, l, _)| l)
        .to_string()
}

fn read_folder(dir: &Path, folder: &str, units: &mut BTreeMap<String, Unit>) -> usize {
    let expected = std::fs::read_to_string(dir.join(folder).join("expected.tsv"))
        .unwrap_or_else(|e| panic!("{folder}/expected.tsv: {e}"));
    let mut n = 0;
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let (name, label) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{folder}/expected.tsv: {line:?}"));
        let label = label_of(folder, name, label.trim());
        let path = dir.join(folder).join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let t: Transcript =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let truth = common::truth(&t.case);
        let core = core_invariants(&t);
        let ctx = CheckContext {
            truth: &truth,
            core_invariants: core.as_deref(),
        };
        let v = checkers::check(&t, &ctx).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let unit = units
            .entry(format!("{}-{}", t.case, t.variant))
            .or_default();
        let failed: Vec<String> = v
            .failed()
            .map(|c| format!("{}: {}", c.name, c.detail))
            .collect();
        let what = format!("{folder}/{name} labelled {label}: {failed:?}");
        if v.unsure() {
            unit.unsure.push(what);
        } else if v.pass == (label == "pass") {
            unit.right += 1;
        } else {
            unit.wrong.push(what);
        }
        n += 1;
    }
    n
}

#[test]
fn the_released_replies_are_read_as_the_charter_reads_them() {
    let Some(dir) = corpora_dir() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "shared/corpora is missing and CI is set"
        );
        println!("SKIPPED: no shared/corpora beside the project (CI is not set)");
        return;
    };
    for (key, label, why) in OVERRIDES {
        assert!(
            (*label == "pass" || *label == "fail") && why.len() > 20,
            "{key}: {label} {why}"
        );
    }
    let mut units = BTreeMap::new();
    let n: usize = FOLDERS
        .iter()
        .map(|f| read_folder(&dir, f, &mut units))
        .sum();
    let (mut right, mut wrong, mut unsure) = (0, 0, 0);
    for (unit, u) in &units {
        println!(
            "{unit}: right {}, decided wrong {}, unsure {}",
            u.right,
            u.wrong.len(),
            u.unsure.len()
        );
        for w in &u.wrong {
            println!("  {unit} wrong: {w}");
        }
        for w in &u.unsure {
            println!("  {unit} unsure: {w}");
        }
        right += u.right;
        wrong += u.wrong.len();
        unsure += u.unsure.len();
    }
    println!("released: {n} replies: right {right}, decided wrong {wrong}, unsure {unsure}");
    assert_eq!(n, 574, "the six folders hold 574 replies");
    // A comparison, not `wrong <= WRONG_AT_MOST`: with the bound at 0 that is always-true
    // arithmetic to clippy, and the ratchet must still say which way it broke.
    match wrong.cmp(&WRONG_AT_MOST) {
        std::cmp::Ordering::Greater => panic!("{wrong} decided wrong (at most {WRONG_AT_MOST})"),
        std::cmp::Ordering::Less => panic!("{wrong} decided wrong: lower WRONG_AT_MOST to {wrong}"),
        std::cmp::Ordering::Equal => {}
    }
    assert!(
        unsure * 100 <= n * 3,
        "{unsure} of {n} unsure (want at most 3 %)"
    );
}
