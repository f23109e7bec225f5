//! The report files of a run folder: summary.json, report.md (also the GitHub step summary),
//! junit.xml, report.html and registry-rows.md, rendered from the run's findings and written
//! in one place, in order. Written by `run`, `gate` and `merge` alike.

use super::findings::{Findings, Reported, RunFacts};
use super::{html, junit, markdown};
use crate::error::{Error, Result};
use crate::files::Body;
use crate::gate::Gate;
use crate::store::trial::TrialRecord;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Every report file of the run folder, rendered from the findings, then written in one place;
/// summary.json last.
pub fn write_all(run: &Reported) -> Result<()> {
    let files = reports(run)?;
    crate::files::write_files(files)
}

/// Under `--json`, the summary as one object on stdout, printed before the reports are written:
/// a report that cannot be written does not lose it. Elsewhere nothing.
pub fn print_summary(run: &Reported) -> Result<()> {
    if crate::output::json::stdout_json() {
        // The file's keys are sorted; on stdout, as every JSON line, the version comes first.
        let mut doc = summary(run)?;
        doc.head.remove("schema_version");
        crate::output::json::out_doc(crate::output::json::SUMMARY, &doc);
    }
    Ok(())
}

/// The run folder's reports in the order they are written, each rendered from the findings
/// (junit.xml, report.html and summary.json streamed from the gate's units and the trials).
/// Evidence in the tables quotes model text: inert, like everything printed.
fn reports<'a>(run: &'a Reported<'a>) -> Result<Vec<(PathBuf, Body<'a>)>> {
    let Reported {
        run_dir,
        gate,
        records,
        facts,
        findings,
    } = run;
    let registry = format!("# Proposed Failure-Mode Registry rows\n\nOne row per failing unit: the change gate never waives a failure; add these rows to the charter's registry.\n\n{}", findings.registry);
    let md = markdown_report(facts, findings);
    let mut files = vec![
        (
            run_dir.join("registry-rows.md"),
            Body::Whole(crate::output::printable(&registry)),
        ),
        (run_dir.join("report.md"), Body::Whole(md.clone())),
    ];
    if let Some(summary) = step_summary(gate, facts, md) {
        files.push(summary);
    }
    let junit = move |w: &mut dyn std::io::Write| junit::write(records, w);
    files.push((run_dir.join("junit.xml"), Body::Streamed(Box::new(junit))));
    let page = move |w: &mut dyn std::io::Write| {
        let title_of = |case: &str| title_of(facts, case);
        let page = html::Page {
            title: "Charter gate",
            charter_line: &findings.charter_line.replace('`', "").replace("**", ""),
            system_prompt: facts.system_prompt,
            case_title: &title_of,
            run_dir,
            comparison: facts.comparison.as_ref(),
        };
        html::write(gate, records, &page, w)
    };
    files.push((run_dir.join("report.html"), Body::Streamed(Box::new(page))));
    let doc = summary(run)?;
    let summary = move |w: &mut dyn std::io::Write| {
        serde::Serialize::serialize(&doc, &mut serde_json::Serializer::pretty(&mut *w))
            .map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    };
    files.push((
        run_dir.join("summary.json"),
        Body::Streamed(Box::new(summary)),
    ));
    Ok(files)
}

/// A case's title in the suite, else its id.
fn title_of(facts: &RunFacts, case: &str) -> String {
    (facts.suite.case(case)).map_or(case.to_string(), |c| c.title.clone())
}

/// report.md: the gate, the unsure readings, the comparison first when there is one, what
/// stopped trials above all, the control arm's lift at the end.
fn markdown_report(facts: &RunFacts, findings: &Findings) -> String {
    let title_of = |case: &str| title_of(facts, case);
    let mut md = markdown::render(findings, &title_of);
    md.push_str(&super::unsure::markdown(&findings.unsure));
    if let Some(c) = &facts.comparison {
        md = lead_with_comparison(&md, c, &title_of);
    }
    if !findings.stops.is_empty() {
        let lines: String = (findings.stops.iter())
            .map(|(l, what)| format!("- **{l}**: {what}\n"))
            .collect();
        md = format!("{lines}\n{md}");
    }
    if let Some(l) = &findings.lift {
        md.push_str(&format!("\n## Control arm: lift per case\n\nPass rate with the charter minus without it; a case the control passes too does not discriminate.\n\n{l}"));
    }
    crate::output::printable(&md)
}

/// report.md appended to the GitHub step summary when asked for and the job has one
/// (`GITHUB_STEP_SUMMARY`): a shard's verdict is no verdict, so a shard says only what it ran
/// (the decide job writes the gate).
fn step_summary(gate: &Gate, facts: &RunFacts, md: String) -> Option<(PathBuf, Body<'static>)> {
    let path = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty())?;
    if !facts.step_summary {
        return None;
    }
    let text = match gate.partial.as_ref().and_then(|p| p.shard.as_deref()) {
        Some(shard) => format!(
            "shard {shard}: {} unit{} run\n",
            gate.units.len(),
            if gate.units.len() == 1 { "" } else { "s" }
        ),
        None => md,
    };
    let body = Body::Appended(text, "append the step summary to");
    Some((PathBuf::from(path), body))
}

/// report.md with the comparison first: the title, the verdict under the base's policy, then
/// the comparison's sections, then the head's own report (its title dropped).
fn lead_with_comparison(
    md: &str,
    c: &super::comparison::View,
    title_of: &dyn Fn(&str) -> String,
) -> String {
    let rest = md.strip_prefix("# Charter gate\n\n").unwrap_or(md);
    let mark = match c.outcome.word {
        "pass" => "✅",
        "fail" => "❌",
        _ => "⚠️",
    };
    let (head, tail) = c
        .outcome
        .sentence
        .split_once(": ")
        .unwrap_or((&c.outcome.sentence, ""));
    let cost = match c.cost.trim_end() {
        "" => String::new(),
        cost => super::comparison::fenced(cost, ""),
    };
    format!(
        "# Charter gate\n\n{mark} **{head}** — {tail} (gate = `{}`)\n\n{}{cost}\n## The head's own gate\n\n{rest}",
        c.policy.as_str(),
        super::comparison::markdown(c.changes, c.rev, c.notes, title_of)
    )
}

/// The summary's fixed part: the verdict and exit code, the charter, the counts, the checkers'
/// versions, usage, statistics and the run's facts.
fn summary_record(
    gate: &Gate,
    facts: &RunFacts,
    findings: &Findings,
) -> crate::store::record::Summary {
    use crate::store::record::{CheckerVersion, Sandbox, SummaryCharter};
    let checker_versions = (checkers::registry::CHECKERS.iter())
        .map(|c| {
            let version = CheckerVersion {
                version: c.version.to_string(),
                source_sha256: c.source_sha256().to_string(),
            };
            (c.case.to_string(), version)
        })
        .collect();
    let (exit_code, verdict) = match &facts.comparison {
        Some(c) => (c.outcome.code, c.outcome.word),
        None => (findings.exit_code, findings.word),
    };
    crate::store::record::Summary {
        format: crate::store::record::SUMMARY_FORMAT.to_string(),
        schema_version: crate::output::json::SUMMARY.version,
        exit_code,
        verdict: verdict.to_string(),
        partial: gate.partial.clone(),
        charter: SummaryCharter {
            source: facts.charter_source.to_string(),
            sha256: facts.charter_sha256.to_string(),
            version: facts.charter_version.map(str::to_string),
        },
        required_trials: gate.required,
        counts: findings.counts.clone(),
        checker_versions,
        usage: facts.usage.clone(),
        control_arm: facts.lift.clone(),
        sandbox: Sandbox::of(facts.sandbox_off),
        statistics: statistics(findings),
        needs_labels: findings.needs_labels.clone(),
        run: findings.run.clone(),
    }
}

/// The summary document: its fixed part (`record::Summary`), then every unit with its trials.
fn summary<'a>(run: &Reported<'a>) -> Result<Summary<'a>> {
    let (run_dir, gate, facts) = (run.run_dir, run.gate, run.facts);
    let summary = summary_record(gate, facts, &run.findings);
    // Through a JSON value: keys sorted, as summary.json has always had them.
    let serde_json::Value::Object(mut head) =
        serde_json::to_value(&summary).map_err(|e| Error::Internal(e.to_string()))?
    else {
        unreachable!("a struct serializes as an object")
    };
    if let Some(c) = &facts.comparison {
        head.insert("comparison".into(), c.json());
    }
    Ok(Summary {
        head,
        units: SummaryUnits {
            gate,
            by_unit: crate::gate::records_by_unit(run.records),
            run_dir,
        },
    })
}

/// How sure the gate is, model by model: what the per-unit intervals are and pass^k averaged
/// over the model's units, as τ²-bench reports it.
fn statistics(findings: &Findings) -> crate::store::record::Statistics {
    let models = (findings.models.iter())
        .map(|m| crate::store::record::ModelStatistics {
            model: m.model.clone(),
            units: m.units,
            flaky_units: m.flaky.len(),
            pass_k: (m.pass_k.iter())
                .map(|p| p.map(crate::gate::stats::round4))
                .collect(),
        })
        .collect();
    crate::store::record::Statistics {
        interval: "Clopper-Pearson, two-sided, of each unit's decided (passed or failed) trials".to_string(),
        confidence: crate::gate::stats::CONFIDENCE,
        pass_k: "tau2-bench's pass^k: C(passed, k) / C(decided, k), for k = 1, 2, ...; per model the mean over its units".to_string(),
        models,
    }
}

/// summary.json, streamed: its fixed part, and every unit's trials with their verdicts read
/// back from the spool one at a time. Keys come out sorted, as a JSON object's do.
struct Summary<'a> {
    head: serde_json::Map<String, serde_json::Value>,
    units: SummaryUnits<'a>,
}

struct SummaryUnits<'a> {
    gate: &'a Gate,
    by_unit: std::collections::HashMap<(&'a str, &'a str, &'a str), Vec<&'a TrialRecord>>,
    run_dir: &'a Path,
}

impl serde::Serialize for Summary<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.head.len() + 1))?;
        let mut units_done = false;
        for (k, v) in &self.head {
            if !units_done && k.as_str() > "units" {
                map.serialize_entry("units", &self.units)?;
                units_done = true;
            }
            map.serialize_entry(k, v)?;
        }
        if !units_done {
            map.serialize_entry("units", &self.units)?;
        }
        map.end()
    }
}

impl serde::Serialize for SummaryUnits<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let gate = self.gate;
        let mut seq = s.serialize_seq(Some(gate.units.len()))?;
        for u in &gate.units {
            let trials = self
                .by_unit
                .get(&(&*u.model, &*u.case, &*u.variant))
                .map_or(&[][..], Vec::as_slice);
            seq.serialize_element(&UnitEntry(
                u,
                gate.required,
                UnitTrials(trials, self.run_dir),
            ))?;
        }
        seq.end()
    }
}

/// A unit's trials in summary.json, each file named from the run folder.
struct UnitTrials<'b>(&'b [&'b TrialRecord], &'b Path);
impl serde::Serialize for UnitTrials<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|r| {
            let path = r.path();
            let file = path
                .strip_prefix(self.1)
                .unwrap_or(&path)
                .display()
                .to_string();
            json!({
                "trial": r.trial,
                "status": r.status,
                "verdict": r.verdict.get(),
                "file": file,
                "input_tokens": r.usage.input_tokens,
                "output_tokens": r.usage.output_tokens,
            })
        }))
    }
}
/// A unit in summary.json (with the trials required of it): its keys in sorted order, its
/// interval and pass^k beside its status.
struct UnitEntry<'b>(&'b crate::gate::Unit, u32, UnitTrials<'b>);
impl serde::Serialize for UnitEntry<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let (u, required) = (self.0, self.1);
        let rate = crate::gate::stats::Rate::of(u);
        let (lo, hi) = rate.interval();
        let r4 = crate::gate::stats::round4;
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(12))?;
        m.serialize_entry("case", &u.case)?;
        m.serialize_entry("decided", &rate.trials)?;
        m.serialize_entry("flaky", &crate::gate::stats::flaky_criteria(u))?;
        m.serialize_entry("interval", &[r4(lo), r4(hi)])?;
        m.serialize_entry("model", &u.model)?;
        // pass^1 … pass^n of the decided trials, in order.
        let pass_k: Vec<f64> = rate.pass_ks().into_iter().map(r4).collect();
        m.serialize_entry("pass_k", &pass_k)?;
        m.serialize_entry("passed", &u.passed())?;
        m.serialize_entry("required", &required)?;
        m.serialize_entry("status", &u.status(required))?;
        m.serialize_entry("trials", &self.2)?;
        m.serialize_entry("variant", &u.variant)?;
        m.end()
    }
}
