//! `report.md`: the gate for people reading a pull request (also the GitHub step summary).

use crate::gate::{Gate, UnitStatus};
use std::fmt::Write;

pub fn render(gate: &Gate, charter_line: &str, registry_table: &str) -> String {
    let mut out = String::new();
    let (word, sentence) = gate.verdict();
    let mark = match word {
        "pass" => "✅",
        "fail" => "❌",
        _ => "⚠️",
    };
    let (head, rest) = sentence.split_once(": ").unwrap_or((&sentence, ""));
    let verdict = format!("{mark} **{head}** — {rest}");
    let _ = writeln!(out, "# Charter gate\n\n{verdict}\n\n{charter_line}\n");
    let rows = gate.rows();
    let _ = writeln!(out, "| unit | {} |", gate.models.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(gate.models.len()));
    for (c, v) in &rows {
        let _ = write!(out, "| {c}/{v} |");
        for m in &gate.models {
            let cell = gate.cell(m, c, v, ["", " ❌", " ⚠️"]);
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\n{}.", gate.counts_line());
    let inconclusive: Vec<_> = gate.units_with(UnitStatus::Inconclusive).collect();
    if !inconclusive.is_empty() {
        out.push_str("\n## Inconclusive (never counted as pass)\n\n");
        for u in inconclusive {
            let _ = writeln!(
                out,
                "- {}/{} on {}: {} of {} trials passed; the rest errored or are missing",
                u.case,
                u.variant,
                u.model,
                u.passed(),
                gate.required
            );
        }
    }
    if gate.count(UnitStatus::Fail) > 0 {
        let _ = write!(
            out,
            "\n## Proposed Failure-Mode Registry rows\n\n{registry_table}"
        );
    }
    out
}
