//! The gate as a case × model table for the terminal, with the failures spelled out. Evidence
//! quotes model text: every line goes out through [`crate::output::printable`].

use super::findings::{Cell, Findings};
use crate::gate::{Gate, UnitStatus};
use std::fmt::Write;

/// The table to `out` from the findings, the failures a line per failed trial written as they
/// are read from the gate's units: a run of many failed trials does not build them all in
/// memory first. `resume` is the exact command that finishes the run's inconclusive trials,
/// printed under them.
pub fn write(
    gate: &Gate,
    findings: &Findings,
    resume: Option<&str>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let label = |c: &str, v: &str| format!("{c}/{v}");
    let first_w = (findings.rows.iter())
        .map(|r| label(&r.case, &r.variant).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let models: Vec<&str> = findings.models.iter().map(|m| &*m.model).collect();
    let col_w: Vec<usize> = models.iter().map(|m| m.len().max(8)).collect();
    let mut out = String::new();
    let _ = write!(out, "{:first_w$}", "unit");
    for (m, w) in models.iter().zip(&col_w) {
        let _ = write!(out, "  {m:>w$}");
    }
    out.push('\n');
    for row in &findings.rows {
        let _ = write!(out, "{:first_w$}", label(&row.case, &row.variant));
        for (cell, w) in row.cells.iter().zip(&col_w) {
            let cell = Cell::marked(cell.as_ref(), ["  ", " ✗", " ?"]);
            let _ = write!(out, "  {cell:>w$}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\n{}", findings.counts_line);
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
    inconclusive(findings, resume, &mut out);
    for case in &findings.untestable {
        let _ = writeln!(
            out,
            "\nCannot be tested by this harness version: {case} (the charter lists it; no checker in this release, so no unit of it ran)"
        );
    }
    let _ = writeln!(out, "\nGate: {}", findings.sentence);
    sink.write_all(crate::output::printable(&out).as_bytes())
}

/// The inconclusive units, each with what keeps it undecided: trials that need a label (listed
/// after the table with their command) or trials that errored or are missing (the resume
/// command finishes those; it cannot decide an unsure one).
fn inconclusive(findings: &Findings, resume: Option<&str>, out: &mut String) {
    if findings.undecided.is_empty() {
        return;
    }
    out.push_str("\nInconclusive (never counted as pass):\n");
    let mut rerun = false;
    for u in &findings.undecided {
        let mut rest = Vec::new();
        if u.unsure > 0 {
            rest.push(format!("{} need a label (below)", u.unsure));
        }
        if u.missing > 0 {
            rest.push(format!("{} errored or are missing", u.missing));
            rerun = true;
        }
        let _ = writeln!(
            out,
            "  {}/{} on {}: {} of {} trials passed, {}",
            u.case,
            u.variant,
            u.model,
            u.passed,
            findings.required,
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
