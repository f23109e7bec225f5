//! Proposed Failure-Mode Registry rows: one per failing unit, in the charter's table format
//! (failure mode | signature | mitigation). The change gate never waives a failure; it adds a row.

use crate::gate::{Gate, Unit, UnitStatus};
use crate::suite::Suite;

/// The mitigation column: the rules the case names (`rules = [...]` in its case file), joined as
/// the charter's own registry joins them; a rule the charter under test (`runtime`) lacks is
/// marked, since the row then points at what the edit removed.
fn mitigation(rules: &[String], runtime: &str) -> String {
    let gone = crate::suite::rules::missing(runtime, rules);
    rules
        .iter()
        .map(|r| match gone.contains(&r.as_str()) {
            true => format!("{r} (not in this charter)"),
            false => r.clone(),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// One row for a failing unit of a case titled `title` naming `rules`, on the charter whose
/// runtime text is `runtime`.
pub fn row(u: &Unit, title: &str, rules: &[String], runtime: &str) -> String {
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
    // The evidence quotes the model: a code span, so no mention, reference, link, image or
    // HTML in it is live where the row is read (report.md, the comment, a charter's registry).
    let first = super::comparison::code(&first);
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
        cell(&mitigation(rules, runtime))
    )
}

/// The rows as a Markdown table: a header and one row per failing unit, each case's title and
/// rules from `suite`, on the charter whose runtime text (the system prompt) is `runtime`.
pub fn table(gate: &Gate, suite: &Suite, runtime: &str) -> String {
    let mut out = String::from("| Failure mode | Signature | Mitigation |\n|---|---|---|\n");
    for u in gate
        .units
        .iter()
        .filter(|u| u.status(gate.required) == UnitStatus::Fail)
    {
        let (title, rules) = suite.case(&u.case).map_or((u.case.clone(), &[][..]), |c| {
            (c.title.clone(), &c.rules[..])
        });
        out.push_str(&row(u, &title, rules, runtime));
        out.push('\n');
    }
    out
}
