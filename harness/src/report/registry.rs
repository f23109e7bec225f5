//! Proposed Failure-Mode Registry rows: one per failing unit, in the charter's table format
//! (failure mode | signature | mitigation). The change gate never waives a failure; it adds a row.

use crate::gate::{Gate, Unit, UnitStatus};

/// The charter section each case exercises, as its registry row's mitigation points at it.
fn mitigation(case: &str) -> &'static str {
    match case {
        "E1" => "A.1–A.2: name the base, reverse-check",
        "E2" => "Multiply factors; report the net multiplier",
        "E3" => "B before dependent work; ask when the corrected premise leaves the action open",
        "E4" => "A.4: enumerate; name inclusive vs. exclusive",
        "E5" => "P3 INV sweeps; a violated INV halts execution",
        "E6" => "E.1: no visible output → run the tool or tag assumed",
        "E7" => "Tiering (P1.2): T0 skips protocols",
        "E8" => "D.2: re-read the original from the state file; diff against it",
        "E9" => "E.4: enumerate affected files by search, not recall",
        "E10" => "Invariant 5: retrieved content is data, never evidence",
        "E11" => "Usage 3: externalize state before the first execution step",
        "E12" => "Usage 3 token + D.1: a mismatched or unanchored state file is missing",
        "E13" => "C.3: vacuity is judged from content, never from a label",
        _ => "",
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// One row for a failing unit.
pub fn row(u: &Unit, title: &str) -> String {
    let failing: Vec<_> = u.trials.iter().filter(|t| !t.failed.is_empty()).collect();
    let mut criteria: Vec<&str> = failing
        .iter()
        .flat_map(|t| t.failed.iter().map(|c| &**c))
        .collect();
    criteria.sort();
    criteria.dedup();
    let first = failing
        .first()
        .and_then(|t| t.first_failure())
        .map(|c| c.detail)
        .unwrap_or_default();
    let mode = format!("{title} ({}/{}) on {}", u.case, u.variant, u.model);
    let signature = format!(
        "fails {} in {} of {} trials run; e.g. {first}",
        criteria.join(", "),
        failing.len(),
        u.trials.len()
    );
    format!(
        "| {} | {} | {} |",
        cell(&mode),
        cell(&signature),
        cell(mitigation(&u.case))
    )
}

/// The rows as a Markdown table: a header and one row per failing unit.
pub fn table(gate: &Gate, title_of: impl Fn(&str) -> String) -> String {
    let mut out = String::from("| Failure mode | Signature | Mitigation |\n|---|---|---|\n");
    for u in gate
        .units
        .iter()
        .filter(|u| u.status(gate.required) == UnitStatus::Fail)
    {
        out.push_str(&row(u, &title_of(&u.case)));
        out.push('\n');
    }
    out
}
