//! `report.md`: the gate for people reading a pull request (also the GitHub step summary).

use crate::gate::{Gate, UnitStatus};
use std::fmt::Write;

pub fn render(gate: &Gate, charter_line: &str, registry_table: &str) -> String {
    let mut out = String::new();
    let verdict = match gate.exit_code() {
        crate::exit::OK => "✅ **PASS** — the change may land",
        crate::exit::GATE_FAILED => "❌ **FAIL** — the change is blocked",
        _ => "⚠️ **INCONCLUSIVE** — some units could not be decided; re-run them",
    };
    let _ = writeln!(out, "# Charter gate\n\n{verdict}\n\n{charter_line}\n");
    let rows = gate.rows();
    let _ = writeln!(out, "| unit | {} |", gate.models.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(gate.models.len()));
    for (c, v) in &rows {
        let _ = write!(out, "| {c}/{v} |");
        for m in &gate.models {
            let cell = gate.unit(m, c, v).map_or("-".to_string(), |u| {
                let mark = match u.status(gate.required) {
                    UnitStatus::Pass => "",
                    UnitStatus::Fail => " ❌",
                    UnitStatus::Inconclusive => " ⚠️",
                };
                format!("{}/{}{mark}", u.passed(), gate.required)
            });
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    let (p, f, i) = (
        gate.count(UnitStatus::Pass),
        gate.count(UnitStatus::Fail),
        gate.count(UnitStatus::Inconclusive),
    );
    let _ = writeln!(
        out,
        "\n{} units: {p} pass, {f} fail, {i} inconclusive.",
        gate.units.len()
    );
    let inconclusive: Vec<_> = gate
        .units
        .iter()
        .filter(|u| u.status(gate.required) == UnitStatus::Inconclusive)
        .collect();
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
    if f > 0 {
        let _ = write!(
            out,
            "\n## Proposed Failure-Mode Registry rows\n\n{registry_table}"
        );
    }
    out
}
