//! The gate as a case × model table for the terminal, with the failures spelled out. Evidence
//! quotes model text: every line goes out through [`crate::output::printable`].

use crate::gate::{Gate, UnitStatus};
use crate::store::trial::TrialStatus;
use std::fmt::Write;

pub fn render(gate: &Gate) -> String {
    let mut out = Vec::new();
    let _ = write(gate, None, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The table to `out`, the failures a line per failed trial written as they are made: a run
/// of many failed trials does not build them all in memory first. `resume` is the exact
/// command that finishes the run's inconclusive trials, printed under them.
pub fn write(
    gate: &Gate,
    resume: Option<&str>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let rows = gate.rows();
    let label = |c: &str, v: &str| format!("{c}/{v}");
    let first_w = rows
        .iter()
        .map(|(c, v)| label(c, v).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let col_w: Vec<usize> = gate.models.iter().map(|m| m.len().max(8)).collect();
    let mut out = String::new();
    let _ = write!(out, "{:first_w$}", "unit");
    for (m, w) in gate.models.iter().zip(&col_w) {
        let _ = write!(out, "  {m:>w$}");
    }
    out.push('\n');
    for (c, v) in &rows {
        let _ = write!(out, "{:first_w$}", label(c, v));
        for (m, w) in gate.models.iter().zip(&col_w) {
            let cell = gate.cell(m, c, v, ["  ", " ✗", " ?"]);
            let _ = write!(out, "  {cell:>w$}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\n{}", gate.counts_line());
    let failing: Vec<_> = gate.units_with(UnitStatus::Fail).collect();
    if !failing.is_empty() {
        out.push_str("\nFailures:\n");
        for u in failing {
            for t in u.trials.iter().filter(|t| !t.failed.is_empty()) {
                let Some(first) = t.first_failure() else {
                    continue;
                };
                let _ = writeln!(
                    out,
                    "  {}/{} on {} trial {}: {} — {}",
                    u.case, u.variant, u.model, t.trial, first.name, first.detail
                );
                if out.len() >= 1 << 16 {
                    sink.write_all(crate::output::printable(&out).as_bytes())?;
                    out.clear();
                }
            }
        }
    }
    inconclusive(gate, resume, &mut out);
    for case in &gate.untestable {
        let _ = writeln!(
            out,
            "\nCannot be tested by this harness version: {case} (the charter lists it; no checker in this release, so no unit of it ran)"
        );
    }
    let verdict = gate.verdict().1;
    let _ = writeln!(out, "\nGate: {verdict}");
    sink.write_all(crate::output::printable(&out).as_bytes())
}

/// The inconclusive units, each with what keeps it undecided: trials that need a label (listed
/// after the table with their command) or trials that errored or are missing (the resume
/// command finishes those; it cannot decide an unsure one).
fn inconclusive(gate: &Gate, resume: Option<&str>, out: &mut String) {
    let units: Vec<_> = gate.units_with(UnitStatus::Inconclusive).collect();
    if units.is_empty() {
        return;
    }
    out.push_str("\nInconclusive (never counted as pass):\n");
    let mut rerun = false;
    for u in units {
        let unsure = u.unsure().count();
        let decided = u
            .trials
            .iter()
            .filter(|t| t.status != TrialStatus::Inconclusive)
            .count();
        let missing = (gate.required as usize).saturating_sub(decided);
        let mut rest = Vec::new();
        if unsure > 0 {
            rest.push(format!("{unsure} need a label (below)"));
        }
        if missing > 0 {
            rest.push(format!("{missing} errored or are missing"));
            rerun = true;
        }
        let _ = writeln!(
            out,
            "  {}/{} on {}: {} of {} trials passed, {}",
            u.case,
            u.variant,
            u.model,
            u.passed(),
            gate.required,
            rest.join(", ")
        );
    }
    if rerun {
        let _ = writeln!(
            out,
            "Finish the run (finished trials are kept, never repeated):\n  {}",
            resume.unwrap_or("harness run --resume RUN_DIR")
        );
    }
}
