//! The end of `run`, `gate` and `merge`: the gate and each model's usage printed, the run
//! folder's reports written, the gate's exit code. One function, whichever command gated.

use crate::error::Result;
use crate::exit;
use crate::gate::Gate;
use crate::report::files::RunFacts;
use crate::report::table;
use crate::store::record::ModelUsage;
use crate::store::trial::TrialRecord;
use std::path::Path;

/// Print the gate and write the run folder's reports; the gate's exit code. `resume` is the
/// command that finishes the run folder, shown when trials are missing.
pub fn conclude(
    run_dir: &Path,
    resume: &str,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Result<u8> {
    if let Some(failed) = conclude_before_verdict(run_dir, resume, gate, records, facts) {
        return Ok(failed);
    }
    print_verdict_last(gate);
    Ok(gate.exit_code())
}

/// All of [`conclude`] but the verdict's last line, for a caller with more to say before it:
/// the gate, usage and registry rows printed, the reports written; `Some(4)` (said on stderr)
/// when they could not be.
pub fn conclude_before_verdict(
    run_dir: &Path,
    resume: &str,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Option<u8> {
    // What stopped trials and the control arm's lift read the records alone: taken first,
    // printed in their places below.
    let stops = crate::report::files::provider_stops(records);
    let lift = (facts.lift.as_deref()).map(crate::report::control_arm::lift_table);
    // The verdict is printed first: a report that cannot be written must not hide it.
    {
        use std::io::Write;
        let mut stdout = crate::output::text_writer();
        let _ = stdout
            .write_all(b"\n")
            .and_then(|_| table::write(gate, Some(resume), &mut stdout))
            .and_then(|_| stdout.write_all(b"\n"));
    }
    for (line, what) in stops {
        outln!("{line}: {what}");
    }
    out!(
        "{}",
        usage_lines(facts.usage.as_deref().unwrap_or_default())
    );
    if gate.count(crate::gate::UnitStatus::Fail) > 0 {
        outln!(
            "\nProposed Failure-Mode Registry rows ({}):",
            run_dir.join("registry-rows.md").display()
        );
        out!(
            "{}",
            crate::report::registry::table(gate, facts.suite, facts.system_prompt)
        );
    }
    needs_labels(records);
    if let Some(l) = lift {
        out!("\nControl arm: lift per case (pass rate with the charter minus without)\n{l}");
    }
    write_reports(run_dir, gate, records, facts)
}

/// Write the run folder's reports and name them; `Some(4)` (said on stderr) when they could
/// not be written.
pub fn write_reports(
    run_dir: &Path,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Option<u8> {
    if let Err(e) = crate::report::files::write_all(run_dir, gate, records, facts) {
        errln!("error: the reports could not be written: {e}");
        return Some(exit::HARNESS_FAILED);
    }
    outln!(
        "\nreports: {}/{{report.md,report.html,junit.xml,summary.json,registry-rows.md}}",
        run_dir.display()
    );
    None
}

/// The unsure trials, one entry a label: the trials one reply takes one label for, the
/// criterion that is unsure and why, and the command that decides them.
pub fn needs_labels(records: &[TrialRecord]) {
    use crate::store::labels;
    let unsure = records
        .iter()
        .filter(|r| r.status == crate::store::trial::TrialStatus::Unsure)
        .map(|r| {
            let v = r.verdict.get();
            let key = r.transcript().ok().map(|t| labels::key_of(&t, &v));
            (key, (r, v))
        });
    let groups = labels::by_label(unsure);
    if groups.is_empty() {
        return;
    }
    outln!("\nNeeds a label (the checker is unsure; a person decides, then the gate again):");
    for g in groups {
        let (first, v) = &g[0];
        let names = labels::trial_names(
            g.iter()
                .map(|(r, _)| (&*r.model, &*r.case, &*r.variant, r.trial)),
        );
        let why = v.criteria.iter().find(|c| c.unsure);
        let one = if g.len() > 1 {
            " (one reply: one label decides them all)"
        } else {
            ""
        };
        outln!(
            "  {names}{one}: {}",
            why.map_or(String::new(), |c| format!("{}: {}", c.name, c.detail))
        );
        outln!("    {}", labels::label_command(&first.path()));
    }
}

/// The verdict again as the last line, coloured on a terminal (green pass, red fail, yellow
/// otherwise); anstream drops the colour off a terminal and under NO_COLOR.
fn print_verdict_last(gate: &Gate) {
    print_verdict(gate.exit_code(), gate.partial.is_none(), &gate.verdict().1);
}

/// `Gate: <verdict>` as the last line: green for a decided pass, red for a fail, else yellow.
pub fn print_verdict(code: u8, decided: bool, verdict: &str) {
    use anstyle::{AnsiColor, Style};
    use std::io::Write;
    let colour = match code {
        exit::OK if decided => AnsiColor::Green,
        exit::GATE_FAILED => AnsiColor::Red,
        _ => AnsiColor::Yellow,
    };
    let style = Style::new().fg_color(Some(colour.into())).bold();
    let verdict = crate::output::printable(verdict);
    if crate::output::json::stdout_json() {
        // Under --json the verdict line joins the rest of the text on stderr.
        if !crate::output::quiet() {
            let _ = writeln!(anstream::stderr(), "\n{style}Gate: {verdict}{style:#}");
        }
        return;
    }
    let mut out = anstream::stdout();
    let _ = writeln!(out, "\n{style}Gate: {verdict}{style:#}");
}

/// Tokens and cost per model (run.json's `usage`), and a warning for every alias that drifted.
pub fn usage_lines(usage: &[ModelUsage]) -> String {
    // Model ids quoted as JSON strings, as these lines have always shown them.
    let quoted = |s: &str| serde_json::Value::from(s).to_string();
    let mut out = String::new();
    for m in usage {
        let cost = match (m.cost_usd, m.cost_without_cache_usd) {
            (Some(c), Some(u)) if u > c => format!(
                ", ${c:.4} (${u:.4} without the prompt cache, {:.0}% saved)",
                100.0 * (u - c) / u
            ),
            (Some(c), _) => format!(", ${c:.4}"),
            _ => String::new(),
        };
        let read = m.cache_read_input_tokens;
        let cached = if read > 0 || m.cache_write_input_tokens > 0 {
            format!(
                " ({} read from the prompt cache, {:.0}% of input; {} written to it)",
                read,
                100.0 * m.cached_share,
                m.cache_write_input_tokens
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "usage {}: {} input + {} output tokens{cached}{cost}\n",
            m.model, m.input_tokens, m.output_tokens
        ));
        if !m.alias_drift.is_empty() {
            out.push_str(&format!(
                "warning: {} is pinned to {} but the API reported {}: the pinned id resolved to another model (alias drift)\n",
                m.model,
                quoted(&m.pinned),
                m.alias_drift.iter().map(|d| quoted(d)).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    out
}
