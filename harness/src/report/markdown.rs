//! `report.md`: the gate for people reading a pull request (also the GitHub step summary),
//! rendered from the run's findings alone.

use super::findings::{Cell, Findings};
use crate::gate::stats::short;
use std::fmt::Write;

pub fn render(findings: &Findings, title_of: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    let (word, sentence) = (findings.word, &findings.sentence);
    let mark = match word {
        "pass" => "✅",
        "fail" => "❌",
        _ => "⚠️",
    };
    let (head, rest) = sentence.split_once(": ").unwrap_or((sentence, ""));
    let verdict = format!("{mark} **{head}** — {rest}");
    let charter_line = &findings.charter_line;
    let _ = writeln!(out, "# Charter gate\n\n{verdict}\n\n{charter_line}\n");
    unit_table(&mut out, findings, title_of);
    let _ = writeln!(out, "\n{}.", findings.counts_line);
    let untestable = &findings.untestable;
    if !untestable.is_empty() {
        let _ = writeln!(
            out,
            "\n**Cannot be tested by this harness version: {}.** The charter lists {}, and this harness has no checker for {}: no unit of {} was run, and the gate fails until a harness release ships {} checker. (Not a failing unit: the units above are the cases this harness has.)",
            untestable.join(", "),
            if untestable.len() == 1 { "it" } else { "them" },
            if untestable.len() == 1 { "it" } else { "them" },
            if untestable.len() == 1 { "it" } else { "them" },
            if untestable.len() == 1 { "its" } else { "their" },
        );
    }
    how_sure(&mut out, findings, findings.required);
    inconclusive_units(&mut out, findings, findings.required);
    if findings.counts.fail > 0 {
        let _ = write!(
            out,
            "\n## Proposed Failure-Mode Registry rows\n\n{}",
            findings.registry
        );
    }
    out
}

/// The table of units: a row per case and variant, a column per model, each cell the unit's
/// status and the interval of its pass rate.
fn unit_table(out: &mut String, findings: &Findings, title_of: &dyn Fn(&str) -> String) {
    let models: Vec<&str> = findings.models.iter().map(|m| &*m.model).collect();
    let _ = writeln!(out, "| unit | case | {} |", models.join(" | "));
    let _ = writeln!(out, "|---|---|{}", "---|".repeat(models.len()));
    for row in &findings.rows {
        let (c, v) = (&row.case, &row.variant);
        let _ = write!(out, "| {c}/{v} | {} |", title_of(c).replace('|', "\\|"));
        for cell in &row.cells {
            let marked = Cell::marked(cell.as_ref(), ["", " ❌", " ⚠️"]);
            let interval = cell.as_ref().map_or(String::new(), |c| {
                let (lo, hi) = c.interval;
                format!(" [{}–{}]", short(lo), short(hi))
            });
            let _ = write!(out, " {marked}{interval} |");
        }
        out.push('\n');
    }
}

/// The inconclusive units, each with how many of its trials passed and what the rest need.
fn inconclusive_units(out: &mut String, findings: &Findings, required: u32) {
    if findings.undecided.is_empty() {
        return;
    }
    out.push_str("\n## Inconclusive (never counted as pass)\n\n");
    for u in &findings.undecided {
        let rest = if u.unsure > 0 {
            format!("{} need a label (the checker is unsure: `harness label --decide --pass|--fail` on the transcript, then gate again)", u.unsure)
        } else {
            "the rest errored or are missing".to_string()
        };
        let _ = writeln!(
            out,
            "- {}/{} on {}: {} of {} trials passed; {rest}",
            u.case, u.variant, u.model, u.passed, required
        );
    }
}

/// The intervals' legend, pass^k per model, and the flaky units with the criteria that differ
/// between their passing and failing trials.
fn how_sure(out: &mut String, findings: &Findings, required: u32) {
    let _ = writeln!(
        out,
        "\nIn brackets: the 95% Clopper–Pearson interval of the true pass rate, from the unit's passed and failed trials; 3 of 3 is consistent with a rate as low as 0.29.\n"
    );
    let ks = 1..=required;
    let _ = writeln!(
        out,
        "| model | {} | flaky units |",
        ks.clone()
            .map(|k| format!("pass^{k}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|{}---|", "---|".repeat(required as usize));
    for m in &findings.models {
        let cells: Vec<String> = (m.pass_k.iter())
            .map(|p| p.map_or("-".into(), |p| format!("{p:.2}")))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            m.model,
            cells.join(" | "),
            m.flaky.len()
        );
    }
    let mut flaky = findings.models.iter().flat_map(|m| &m.flaky).peekable();
    if flaky.peek().is_none() {
        return;
    }
    out.push_str("\n## Flaky units (passed some trials, failed others)\n\n");
    for u in flaky {
        let _ = writeln!(
            out,
            "- {}/{} on {}: {} of {} passed; differing: {}",
            u.case,
            u.variant,
            u.model,
            u.passed,
            u.decided,
            if u.criteria.is_empty() {
                "no criterion (the same criteria failed in every trial)".to_string()
            } else {
                u.criteria.join(", ")
            }
        );
    }
}
