//! The end of `run`, `gate` and `merge`: what the reports say read once from the gate and the
//! records ([`Findings`]), then the gate and each model's usage printed, the run folder's
//! reports written, the verdict last; the gate's exit code. One function, whichever command
//! gated.

use crate::exit;
use crate::gate::Gate;
use crate::report::findings::{Findings, LabelGroup, Reported, RunFacts};
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
) -> crate::error::Result<u8> {
    let (findings, failed) = conclude_before_verdict(run_dir, resume, gate, records, facts);
    if let Some(failed) = failed {
        return Ok(failed);
    }
    // The verdict again as the last line, coloured on a terminal.
    print_verdict(findings.exit_code, findings.decided, &findings.sentence);
    Ok(findings.exit_code)
}

/// All of [`conclude`] but the verdict's last line, for a caller with more to say before it:
/// the findings read, the gate, usage and registry rows printed (under `--json`, the summary
/// on stdout), the reports written; the findings, and `Some(4)` (said on stderr) when the
/// reports could not be written.
pub fn conclude_before_verdict(
    run_dir: &Path,
    resume: &str,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> (Findings, Option<u8>) {
    let run = Reported::read(run_dir, gate, records, facts);
    say(&run, resume);
    let failed = match crate::report::files::print_summary(&run) {
        Ok(()) => write_reports(&run),
        Err(e) => cannot_write(e),
    };
    (run.findings, failed)
}

/// The gate on the terminal: the table (the verdict first: a report that cannot be written
/// must not hide it), what stopped trials, usage, the registry rows, the labels wanted, the
/// control arm's lift.
fn say(run: &Reported, resume: &str) {
    let findings = &run.findings;
    {
        use std::io::Write;
        let mut stdout = crate::output::text_writer();
        let _ = stdout
            .write_all(b"\n")
            .and_then(|_| table::write(run.gate, findings, Some(resume), &mut stdout))
            .and_then(|_| stdout.write_all(b"\n"));
    }
    for (line, what) in &findings.stops {
        outln!("{line}: {what}");
    }
    out!(
        "{}",
        usage_lines(run.facts.usage.as_deref().unwrap_or_default())
    );
    if findings.counts.fail > 0 {
        outln!(
            "\nProposed Failure-Mode Registry rows ({}):",
            run.run_dir.join("registry-rows.md").display()
        );
        out!("{}", findings.registry);
    }
    needs_labels(&findings.labels);
    if let Some(l) = &findings.lift {
        out!("\nControl arm: lift per case (pass rate with the charter minus without)\n{l}");
    }
}

/// Write the run folder's reports and name them; `Some(4)` (said on stderr) when they could
/// not be written.
fn write_reports(run: &Reported) -> Option<u8> {
    if let Err(e) = crate::report::files::write_all(run) {
        return cannot_write(e);
    }
    let run_dir = run.run_dir;
    outln!(
        "\nreports: {}/{{report.md,report.html,junit.xml,summary.json,registry-rows.md}}",
        run_dir.display()
    );
    None
}

/// `Some(4)`, said on stderr: the reports could not be written.
fn cannot_write(e: crate::error::Error) -> Option<u8> {
    errln!("error: the reports could not be written: {e}");
    Some(exit::HARNESS_FAILED)
}

/// The unsure trials, one entry a label: the trials one reply takes one label for, the
/// criterion that is unsure and why, and the command that decides them.
pub fn needs_labels(groups: &[LabelGroup]) {
    if groups.is_empty() {
        return;
    }
    outln!("\nNeeds a label (the checker is unsure; a person decides, then the gate again):");
    for g in groups {
        let one = match g.one_reply {
            true => " (one reply: one label decides them all)",
            false => "",
        };
        outln!("  {}{one}: {}", g.names, g.why);
        outln!("    {}", g.command);
    }
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
