//! The report files of a run folder: summary.json, report.md (also the GitHub step summary),
//! junit.xml, report.html and registry-rows.md. Written by `run`, `gate` and `merge` alike.

use super::{html, junit, markdown, registry};
use crate::error::{Error, Result};
use crate::events::{TrialRecord, TrialStatus};
use crate::gate::Gate;
use crate::store::write_json_atomic;
use serde_json::json;
use std::path::Path;

/// What the reports say about the run besides its trials.
pub struct RunFacts<'a> {
    pub charter_source: &'a str,
    pub charter_sha256: &'a str,
    pub charter_version: Option<&'a str>,
    pub system_prompt: &'a str,
    pub suite: &'a crate::suite::Suite,
    /// Tokens and cost per model, as in run.json.
    pub usage: serde_json::Value,
    /// Per case: pass rate with the charter, without it (control arm), and the lift.
    pub lift: Option<Vec<super::lift::CaseLift>>,
    /// `--no-sandbox`: model-written code ran unconfined. Every report says so.
    pub sandbox_off: bool,
    /// Append report.md to `$GITHUB_STEP_SUMMARY` (off when a later step writes the summary).
    pub step_summary: bool,
}

/// The line every report carries when the run gave up the sandbox.
pub const NO_SANDBOX_WARNING: &str = "WARNING: run with --no-sandbox: test scripts and probes a model could write ran unconfined, with the harness's privileges, network and files.";

/// "authentication failed for model …" lines, once each: a refused key is not flakiness, and
/// re-running will not fix it.
pub fn auth_failures(records: &[TrialRecord]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in records {
        if let Some(e) = r.transcript.error.as_deref() {
            if let Some(i) = e.find("authentication failed for model") {
                let line = e[i..].split(": HTTP").next().unwrap_or(&e[i..]).to_string();
                if !out.contains(&line) {
                    out.push(line);
                }
            }
        }
    }
    out
}

fn write_text(path: &Path, text: &str) -> Result<()> {
    crate::store::write_atomic(path, text.as_bytes())
}

pub fn write_all(
    run_dir: &Path,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Result<()> {
    let title_of = |case: &str| {
        facts
            .suite
            .case(case)
            .map_or(case.to_string(), |c| c.title.clone())
    };
    // A path of the machine that ran is noise in a report read elsewhere: its file name.
    let source = Path::new(facts.charter_source);
    let shown = if source.is_absolute() {
        source
            .file_name()
            .map_or(facts.charter_source.to_string(), |n| {
                n.to_string_lossy().into_owned()
            })
    } else {
        facts.charter_source.to_string()
    };
    let mut charter_line = format!(
        "Charter `{}` version {} (runtime sha256 `{}`); every unit must pass {} of {} trials.",
        shown,
        facts.charter_version.unwrap_or("?"),
        facts.charter_sha256,
        gate.required,
        gate.required
    );
    if facts.sandbox_off {
        charter_line = format!("**{NO_SANDBOX_WARNING}**\n\n{charter_line}");
    }
    let table = registry::table(gate, title_of);

    write_text(
        &run_dir.join("registry-rows.md"),
        &format!("# Proposed Failure-Mode Registry rows\n\nOne row per failing unit: the change gate never waives a failure; add these rows to the charter's registry.\n\n{table}"),
    )?;
    // Evidence in the tables quotes model text: inert, like everything printed.
    let mut md = super::inert(&markdown::render(gate, &charter_line, &table));
    let auth = auth_failures(records);
    if !auth.is_empty() {
        let lines: String = auth
            .iter()
            .map(|l| format!("- **{l}**: fix the key, then re-run\n"))
            .collect();
        md = format!("{lines}\n{md}");
    }
    if let Some(l) = &facts.lift {
        md.push_str(&format!("\n## Control arm: lift per case\n\nPass rate with the charter minus without it; a case the control passes too does not discriminate.\n\n{}", super::lift::table(l)));
    }
    write_text(&run_dir.join("report.md"), &md)?;
    if facts.step_summary {
        // A shard's verdict is no verdict: the decide job writes the gate.
        let summary = match gate.partial.as_ref().and_then(|p| p.shard.as_deref()) {
            Some(shard) => format!(
                "shard {shard}: {} unit{} run\n",
                gate.units.len(),
                if gate.units.len() == 1 { "" } else { "s" }
            ),
            None => md.clone(),
        };
        append_step_summary(&summary)?;
    }
    write_text(&run_dir.join("junit.xml"), &junit::render(records))?;
    write_text(
        &run_dir.join("report.html"),
        &html::render(
            gate,
            records,
            &html::Page {
                title: "Charter gate",
                charter_line: &charter_line.replace('`', "").replace("**", ""),
                system_prompt: facts.system_prompt,
                case_title: &title_of,
                run_dir,
            },
        ),
    )?;

    let checker_versions: serde_json::Map<String, serde_json::Value> = checkers::registry::CHECKERS
        .iter()
        .map(|c| {
            (
                c.case.to_string(),
                json!({"version": c.version, "source_sha256": c.source_sha256()}),
            )
        })
        .collect();
    let units: Vec<serde_json::Value> = gate
        .units
        .iter()
        .map(|u| {
            let trials: Vec<serde_json::Value> = records
                .iter()
                .filter(|r| r.model == u.model && r.case == u.case && r.variant == u.variant)
                .map(|r| {
                    json!({
                        "trial": r.trial,
                        "status": TrialStatus::of(&r.verdict),
                        "verdict": r.verdict,
                        "file": r.path.strip_prefix(run_dir).unwrap_or(&r.path).display().to_string(),
                        "input_tokens": r.input_tokens,
                        "output_tokens": r.output_tokens,
                    })
                })
                .collect();
            json!({"case": u.case, "variant": u.variant, "model": u.model, "status": u.status(gate.required), "passed": u.passed(), "required": gate.required, "trials": trials})
        })
        .collect();
    let summary = json!({
        "format": "charter-harness/summary/v1",
        "exit_code": gate.exit_code(),
        "verdict": gate.verdict().0,
        "partial": gate.partial,
        "charter": {"source": facts.charter_source, "sha256": facts.charter_sha256, "version": facts.charter_version},
        "required_trials": gate.required,
        "counts": {"pass": gate.count(crate::gate::UnitStatus::Pass), "fail": gate.count(crate::gate::UnitStatus::Fail), "inconclusive": gate.count(crate::gate::UnitStatus::Inconclusive)},
        "checker_versions": checker_versions,
        "usage": facts.usage,
        "control_arm": facts.lift,
        "sandbox": if facts.sandbox_off { "off" } else { "confined" },
        "units": units,
    });
    write_json_atomic(&run_dir.join("summary.json"), &summary)
}

/// Appends to the GitHub Actions step summary when the job has one (`GITHUB_STEP_SUMMARY`);
/// outside Actions it does nothing.
pub fn append_step_summary(text: &str) -> Result<()> {
    use std::io::Write;
    let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty()) else {
        return Ok(());
    };
    let path = Path::new(&summary);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| Error::io(path, e))
}
