//! The report files of a run folder: summary.json, report.md (also the GitHub step summary),
//! junit.xml, report.html and registry-rows.md. Written by `run`, `gate` and `merge` alike.

use super::{html, junit, markdown, registry};
use crate::error::{Error, Result};
use crate::gate::Gate;
use crate::provider::ProviderError;
use crate::store::trial::TrialRecord;
use serde_json::json;
use std::path::Path;

/// What the reports say about the run besides its trials.
#[derive(Clone)]
pub struct RunFacts<'a> {
    pub charter_source: &'a str,
    pub charter_sha256: &'a str,
    pub charter_version: Option<&'a str>,
    pub system_prompt: &'a str,
    pub suite: &'a crate::suite::Suite,
    /// Tokens and cost per model, as in run.json (none when the run recorded none).
    pub usage: Option<Vec<crate::store::record::ModelUsage>>,
    /// Per case: pass rate with the charter, without it (control arm), and the lift.
    pub lift: Option<Vec<crate::store::record::CaseLift>>,
    /// `--no-sandbox`: model-written code ran unconfined. Every report says so.
    pub sandbox_off: bool,
    /// Append report.md to `$GITHUB_STEP_SUMMARY` (off when a later step writes the summary).
    pub step_summary: bool,
    /// `gate --charter-base`: the comparison every report leads with, and the verdict under
    /// the base's `[run] gate`.
    pub comparison: Option<super::comparison::View<'a>>,
}

/// The line every report carries when the run gave up the sandbox.
pub const NO_SANDBOX_WARNING: &str = "WARNING: run with --no-sandbox: test scripts and probes a model could write ran unconfined, with the harness's privileges, network and files.";

/// What stopped trials in a way re-running as it is cannot fix, once each, with what to do: a
/// refused key, an account that cannot be served (no quota, no credit), and trials the
/// provider's content filter withheld (counted per model: the same prompt is filtered again).
pub fn provider_stops(records: &[TrialRecord]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut filtered: Vec<(String, usize)> = Vec::new();
    for r in records {
        let line = match r.provider_error.as_deref() {
            Some(ProviderError::Authentication { model, key_env, .. }) => (
                format!("authentication failed for model {model} (key from ${key_env})"),
                "fix the key, then re-run".to_string(),
            ),
            Some(ProviderError::AccountStopped {
                model,
                status,
                code,
                message,
                advice,
            }) => (
                format!("model {model} cannot be served (HTTP {status} {code}: {message})"),
                advice.clone(),
            ),
            Some(ProviderError::Filtered { .. }) => {
                match filtered.iter_mut().find(|(m, _)| **m == *r.model) {
                    Some((_, n)) => *n += 1,
                    None => filtered.push((r.model.to_string(), 1)),
                }
                continue;
            }
            _ => continue,
        };
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out.extend(filtered.into_iter().map(|(model, n)| {
        (
            format!("{n} trial{} of model {model} filtered by the provider (inconclusive)", if n == 1 { "" } else { "s" }),
            "the provider's content filter withheld the reply; it will recur for the same prompt (the charter's text or the case may trip it), so running again will not help".to_string(),
        )
    }));
    out
}

fn write_text(path: &Path, text: &str) -> Result<()> {
    crate::files::write_atomic(path, text.as_bytes())
}

/// Every report file of the run folder; summary.json last. Under `--json`, the summary is
/// printed first, as one object on stdout: a report that cannot be written does not lose it.
pub fn write_all(
    run_dir: &Path,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Result<()> {
    if crate::output::json::stdout_json() {
        // The file's keys are sorted; on stdout, as every JSON line, the version comes first.
        let mut doc = summary(run_dir, gate, records, facts)?;
        doc.head.remove("schema_version");
        crate::output::json::out_doc(crate::output::json::SUMMARY, &doc);
    }
    let title_of = |case: &str| {
        facts
            .suite
            .case(case)
            .map_or(case.to_string(), |c| c.title.clone())
    };
    let charter_line = match crate::store::record::RunMeta::of(run_dir) {
        Some(meta) => format!("{}\n\n{}", meta.line(), charter_line(gate, facts)),
        None => charter_line(gate, facts),
    };
    let table = registry::table(gate, facts.suite, facts.system_prompt);
    // Evidence in the tables quotes model text: inert, like everything printed.
    write_text(
        &run_dir.join("registry-rows.md"),
        &crate::output::printable(&format!("# Proposed Failure-Mode Registry rows\n\nOne row per failing unit: the change gate never waives a failure; add these rows to the charter's registry.\n\n{table}")),
    )?;
    write_markdown(run_dir, gate, records, facts, &charter_line, &table)?;
    crate::files::write_atomic_with(&run_dir.join("junit.xml"), |w| junit::write(records, w))?;
    let page = html::Page {
        title: "Charter gate",
        charter_line: &charter_line.replace('`', "").replace("**", ""),
        system_prompt: facts.system_prompt,
        case_title: &title_of,
        run_dir,
        comparison: facts.comparison.as_ref(),
    };
    crate::files::write_atomic_with(&run_dir.join("report.html"), |w| {
        html::write(gate, records, &page, w)
    })?;
    write_summary(run_dir, gate, records, facts)
}

/// The charter, its version and digest, and what every unit must pass; the sandbox warning
/// first when the run gave the sandbox up.
fn charter_line(gate: &Gate, facts: &RunFacts) -> String {
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
    let line = format!(
        "Charter `{}` version {} (runtime sha256 `{}`); every unit must pass {} of {} trials.",
        shown,
        facts.charter_version.unwrap_or("?"),
        facts.charter_sha256,
        gate.required,
        gate.required
    );
    match facts.sandbox_off {
        true => format!("**{NO_SANDBOX_WARNING}**\n\n{line}"),
        false => line,
    }
}

/// report.md, and the GitHub step summary when asked for.
fn write_markdown(
    run_dir: &Path,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
    charter_line: &str,
    table: &str,
) -> Result<()> {
    let title_of = |case: &str| {
        facts
            .suite
            .case(case)
            .map_or(case.to_string(), |c| c.title.clone())
    };
    let mut md = markdown::render(gate, charter_line, table, &title_of);
    md.push_str(&super::unsure::markdown(gate, run_dir));
    if let Some(c) = &facts.comparison {
        md = lead_with_comparison(&md, c, &title_of);
    }
    let stops = provider_stops(records);
    if !stops.is_empty() {
        let lines: String = stops
            .iter()
            .map(|(l, what)| format!("- **{l}**: {what}\n"))
            .collect();
        md = format!("{lines}\n{md}");
    }
    if let Some(l) = &facts.lift {
        md.push_str(&format!("\n## Control arm: lift per case\n\nPass rate with the charter minus without it; a case the control passes too does not discriminate.\n\n{}", super::control_arm::lift_table(l)));
    }
    let md = crate::output::printable(&md);
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
    Ok(())
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

/// summary.json: its fixed part (`record::Summary`), then every unit with its trials.
fn write_summary(
    run_dir: &Path,
    gate: &Gate,
    records: &[TrialRecord],
    facts: &RunFacts,
) -> Result<()> {
    let doc = summary(run_dir, gate, records, facts)?;
    crate::files::write_atomic_with(&run_dir.join("summary.json"), |w| {
        serde::Serialize::serialize(&doc, &mut serde_json::Serializer::pretty(&mut *w))
            .map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// The summary's fixed part: the verdict and exit code, the charter, the counts, the checkers'
/// versions, usage, statistics and the run's facts.
fn summary_record(run_dir: &Path, gate: &Gate, facts: &RunFacts) -> crate::store::record::Summary {
    use crate::gate::UnitStatus;
    use crate::store::record::{CheckerVersion, Counts, Sandbox, SummaryCharter};
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
        None => (gate.exit_code(), gate.verdict().0),
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
        counts: Counts {
            pass: gate.count(UnitStatus::Pass),
            fail: gate.count(UnitStatus::Fail),
            inconclusive: gate.count(UnitStatus::Inconclusive),
        },
        checker_versions,
        usage: facts.usage.clone(),
        control_arm: facts.lift.clone(),
        sandbox: Sandbox::of(facts.sandbox_off),
        statistics: statistics(gate),
        needs_labels: gate
            .needing_labels()
            .map(|u| format!("{} {}/{}", u.model, u.case, u.variant))
            .collect(),
        run: crate::store::record::RunMeta::of(run_dir),
    }
}

/// The summary document: its fixed part (`record::Summary`), then every unit with its trials.
fn summary<'a>(
    run_dir: &'a Path,
    gate: &'a Gate,
    records: &'a [TrialRecord],
    facts: &RunFacts,
) -> Result<Summary<'a>> {
    let summary = summary_record(run_dir, gate, facts);
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
            by_unit: crate::gate::records_by_unit(records),
            run_dir,
        },
    })
}

/// How sure the gate is, model by model: what the per-unit intervals are and pass^k averaged
/// over the model's units, as τ²-bench reports it.
fn statistics(gate: &Gate) -> crate::store::record::Statistics {
    let models = gate
        .models
        .iter()
        .map(|m| {
            let units: Vec<&crate::gate::Unit> =
                gate.units.iter().filter(|u| u.model == *m).collect();
            let pass_k: Vec<Option<f64>> = crate::gate::stats::model_pass_ks(&units, gate.required)
                .into_iter()
                .map(|p| p.map(crate::gate::stats::round4))
                .collect();
            let flaky = units
                .iter()
                .filter(|u| crate::gate::stats::flaky_criteria(u).is_some())
                .count();
            crate::store::record::ModelStatistics {
                model: m.clone(),
                units: units.len(),
                flaky_units: flaky,
                pass_k,
            }
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
        .map_err(|e| Error::io_op("append the step summary to", path, e))
}
