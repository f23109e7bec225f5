//! What a run folder records about its run, as types: `RunRecord` (run.json), `ModelUsage` (its
//! tokens, cost and alias drift per model) and `Summary` (summary.json's fixed part).
//! Written through a JSON value, so keys come out sorted as they always have; read leniently:
//! unknown fields are ignored and a field an older run lacks takes its default, so every
//! earlier run folder still loads.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// run.json: what was asked, under which charter, manifest and suite, what the plan was and,
/// once the run ends, what it sent and spent.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RunRecord {
    pub harness_version: String,
    pub manifest_path: Option<String>,
    pub manifest_sha256: Option<String>,
    pub manifest: RecordedManifest,
    pub charter: RecordedCharter,
    /// The suite folder the run loaded.
    pub suite: String,
    /// Per case id: the sha256 of its case file.
    pub case_files: BTreeMap<String, String>,
    /// The selection: what `--resume` finishes.
    pub filters: Filters,
    pub trials: Option<u32>,
    pub shard: Option<String>,
    /// Absent before arms were recorded: the charter arm alone.
    pub arms: Option<Vec<String>>,
    /// A base rerun's or `--settle`'s units (model, case, variant); none: every selected unit.
    pub units: Option<Vec<(String, String, String)>>,
    pub started: Option<String>,
    pub ended: Option<String>,
    /// When each `--resume` of the run started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed: Option<Vec<String>>,
    pub sandbox: Sandbox,
    /// What a whole gate of this manifest is: fewer units or trials make the run partial.
    pub units_total: Option<usize>,
    pub manifest_trials: Option<u32>,
    pub plan: Option<RunPlanRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Vec<ModelUsage>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<Vec<SentRecord>>,
    /// `harness merge`: the shard folders merged into this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<Vec<String>>,
    /// Per account with rate limits (API models): the limits as last known, the time spent
    /// waiting on them and the 429s seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<Vec<LimitRecord>>,
}

/// One account's rate limits over a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LimitRecord {
    /// "model-id at host ($KEY_VAR)".
    pub account: String,
    /// The model entries that shared it.
    pub models: Vec<String>,
    pub tpm: Option<u64>,
    pub rpm: Option<u64>,
    pub token_burst: Option<u64>,
    /// Wall time during which some request waited on these limits.
    pub waited_ms: u64,
    /// 429 and 529 answers.
    pub throttled: u64,
}

/// The manifest as the run loaded it: its models (name and role read back), the rest kept as
/// recorded.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RecordedManifest {
    #[serde(default)]
    pub models: Vec<RecordedModel>,
    #[serde(default)]
    pub decoding: serde_json::Value,
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

impl RecordedManifest {
    /// The manifest as run.json records it: its own serde shape.
    pub fn of(m: &crate::suite::manifest::Manifest) -> RecordedManifest {
        serde_json::to_value(m)
            .and_then(serde_json::from_value)
            .unwrap_or_default()
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RecordedModel {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// The charter a run was made under.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RecordedCharter {
    /// Where it was read from: an absolute path, or `REV:PATH`.
    pub source: String,
    /// sha256 of the runtime text.
    pub sha256: String,
    pub file_sha256: String,
    pub version: Option<String>,
    /// The file's path in its git work tree: how another machine finds it at a base revision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_path: Option<String>,
    /// E-cases the charter lists that this harness version has no checker for: the gate
    /// (run, merge, gate) fails for them. Absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untestable_cases: Vec<String>,
}

impl From<&crate::suite::charter::Charter> for RecordedCharter {
    fn from(c: &crate::suite::charter::Charter) -> Self {
        RecordedCharter {
            source: c.source.clone(),
            sha256: c.sha256.clone(),
            file_sha256: c.file_sha256.clone(),
            version: c.version.clone(),
            repo_path: c.repo_path.clone(),
            untestable_cases: crate::suite::lint::charter::untestable_cases(&c.full_text),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Filters {
    pub case: Vec<String>,
    pub variant: Vec<String>,
    pub model: Vec<String>,
}

/// Whether commands a model could influence ran confined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sandbox {
    #[default]
    Confined,
    Off,
}

impl Sandbox {
    pub fn of(no_sandbox: bool) -> Sandbox {
        if no_sandbox {
            Sandbox::Off
        } else {
            Sandbox::Confined
        }
    }
}

/// The plan each arm started with.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunPlanRecord {
    pub charter: ArmPlan,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<ArmPlan>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ArmPlan {
    pub already_completed: usize,
    pub models: Vec<PlannedModel>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PlannedModel {
    pub model: String,
    pub episodes: usize,
    pub requests_at_most: u64,
    pub cost_usd: Option<crate::provider::prices::Cost>,
}

/// What a run sent one model, against its plan.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SentRecord {
    pub model: String,
    pub requests: u64,
    pub retried: u64,
    pub requests_at_most: u64,
}

/// One model's tokens, cost and alias drift over a run's trials.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelUsage {
    pub model: String,
    /// The pinned model id.
    pub pinned: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_input_tokens: u64,
    pub cache_write_input_tokens: u64,
    /// Cache reads as a share of all input tokens.
    pub cached_share: f64,
    /// None when the manifest gives the model no prices.
    pub cost_usd: Option<f64>,
    /// What the same tokens would have cost with no prompt cache.
    pub cost_without_cache_usd: Option<f64>,
    /// Model ids the API reported other than the pinned one.
    pub alias_drift: Vec<String>,
}

impl ModelUsage {
    /// Model `m`'s part of `records`, priced with its manifest entry.
    pub fn of(
        m: &crate::suite::manifest::ModelEntry,
        records: &[crate::store::trial::TrialRecord],
    ) -> Self {
        let mine: Vec<_> = records.iter().filter(|r| &*r.model == m.name()).collect();
        let usage: crate::provider::Usage = mine.iter().map(|r| &r.usage).sum();
        let (input, output) = (usage.input_tokens, usage.output_tokens);
        let all_input = input + usage.cache_read_tokens + usage.cache_write_tokens;
        let priced = m.price_input_per_mtok.is_some() || m.price_output_per_mtok.is_some();
        let prices = crate::provider::prices::Prices::of(m);
        let mut drift: Vec<String> = mine
            .iter()
            .flat_map(|r| r.alias_drift.iter().cloned())
            .collect();
        drift.sort();
        drift.dedup();
        ModelUsage {
            model: m.name().to_string(),
            pinned: m.model.clone(),
            input_tokens: input,
            output_tokens: output,
            cache_read_input_tokens: usage.cache_read_tokens,
            cache_write_input_tokens: usage.cache_write_tokens,
            cached_share: match all_input {
                0 => 0.0,
                n => usage.cache_read_tokens as f64 / n as f64,
            },
            cost_usd: priced.then(|| prices.cost_cached(&usage)),
            cost_without_cache_usd: priced.then(|| prices.cost(all_input, output)),
            alias_drift: drift,
        }
    }
}

impl RunRecord {
    /// A run folder's values are input: each within the bound the flag and the manifest have.
    pub fn validate(&self) -> std::result::Result<(), String> {
        use crate::suite::manifest::MAX_TRIALS;
        for (key, v) in [
            ("trials", self.trials),
            ("manifest_trials", self.manifest_trials),
        ] {
            if let Some(n) = v {
                if n == 0 || u64::from(n) > MAX_TRIALS {
                    return Err(format!(
                        "{key}: {n} is out of range; trials per unit are 1 to {MAX_TRIALS}, as for --trials and the manifest"
                    ));
                }
            }
        }
        if let Some(t) = self.manifest.rest.get("run").and_then(|r| r.get("trials")) {
            if !t.as_u64().is_some_and(|n| (1..=MAX_TRIALS).contains(&n)) {
                return Err(format!(
                    "manifest.run.trials: {} is out of range; trials per unit are 1 to {MAX_TRIALS}",
                    crate::error::one_line(&t.to_string())
                ));
            }
        }
        let units = self.units.as_ref().map_or(0, Vec::len);
        if units > MAX_RECORDED_UNITS || self.units_total.is_some_and(|n| n > MAX_RECORDED_UNITS) {
            return Err(format!(
                "units: more than {MAX_RECORDED_UNITS} units; a run folder holds fewer"
            ));
        }
        Ok(())
    }

    /// run.json at `path`; an error names the file.
    pub fn read(path: &Path) -> Result<RunRecord> {
        let text = crate::files::read::read_text(path, crate::files::read::Kind::RunJson)?;
        let record: RunRecord = crate::files::limits::json(path, &text, "not a run record")?;
        record
            .validate()
            .map_err(|why| Error::input(format!("{}: {why}", path.display())))?;
        Ok(record)
    }

    /// Written as JSON with sorted keys (what run.json has always been), atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        let value =
            serde_json::to_value(self).map_err(|e| Error::Internal(format!("run.json: {e}")))?;
        crate::files::write_json_atomic(path, &value)
    }

    /// The arms the run recorded (the charter arm alone before arms were recorded).
    pub fn arms(&self) -> Vec<String> {
        self.arms
            .clone()
            .unwrap_or_else(|| vec!["charter".to_string()])
    }

    /// The names of the run's models, in manifest order.
    pub fn model_names(&self) -> Vec<String> {
        self.manifest
            .models
            .iter()
            .map(|m| m.name.clone())
            .collect()
    }

    /// What narrowed the run (`--case E8 --model weakest`, `--shard 1/2`), or None for a run
    /// of every unit: a narrowed run is listed as such and never moves `results/latest`.
    pub fn narrowed(&self) -> Option<String> {
        let mut parts = Vec::new();
        for (flag, values) in [
            ("--case", &self.filters.case),
            ("--variant", &self.filters.variant),
            ("--model", &self.filters.model),
        ] {
            if !values.is_empty() {
                parts.push(format!("{flag} {}", values.join(",")));
            }
        }
        if let Some(s) = &self.shard {
            parts.push(format!("--shard {s}"));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// The models the run ran: every model of its manifest, or those its `--model` filter
    /// names (by name or by role).
    pub fn models_run(&self) -> Vec<String> {
        let f = &self.filters.model;
        self.manifest
            .models
            .iter()
            .filter(|m| {
                f.is_empty()
                    || f.iter()
                        .any(|x| *x == m.name || m.role.as_deref() == Some(x.as_str()))
            })
            .map(|m| m.name.clone())
            .collect()
    }

    /// A model's role as the run's manifest recorded it.
    pub fn role(&self, model: &str) -> Option<&str> {
        self.manifest
            .models
            .iter()
            .find(|m| m.name == model)?
            .role
            .as_deref()
    }
}

/// summary.json's fixed part, everything but `units`, which `report::files` streams in after
/// it (one unit at a time, verdicts read back from the spool) and which is not read back.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    pub format: String,
    /// The summary document's `schema_version` (`output::json::SUMMARY`); 0 in a summary.json
    /// written before it was recorded.
    pub schema_version: u32,
    pub exit_code: u8,
    pub verdict: String,
    pub partial: Option<crate::store::record::Partial>,
    pub charter: SummaryCharter,
    pub required_trials: u32,
    pub counts: Counts,
    /// Per case id: the checker that judged it.
    pub checker_versions: BTreeMap<String, CheckerVersion>,
    /// run.json's usage (null when the run recorded none).
    pub usage: Option<Vec<ModelUsage>>,
    pub control_arm: Option<Vec<crate::store::record::CaseLift>>,
    pub sandbox: Sandbox,
    pub statistics: Statistics,
    /// Undecided units whose trials need a person's label (`model case/variant`); absent when
    /// none, so an exit 3 without it means provider errors (run again).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs_labels: Vec<String>,
    /// Which run this is: its id, start, harness version, matrix and models with their ids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunMeta>,
}

/// What every report names about its run (from run.json): read anywhere, it says which run,
/// when, with which harness, matrix and models.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// The run folder's name (`results/<run-id>`).
    pub id: String,
    pub started: Option<String>,
    pub harness_version: String,
    /// The manifest as the user named it: a built-in one by its name, a file by its file name.
    pub matrix: String,
    pub models: Vec<MetaModel>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MetaModel {
    pub name: String,
    /// The provider's model id the manifest pins.
    pub model: String,
}

impl RunMeta {
    /// The run in `run_dir`, from its run.json; None when there is none to read.
    pub fn of(run_dir: &Path) -> Option<RunMeta> {
        let run = RunRecord::read(&run_dir.join("run.json")).ok()?;
        let matrix = run.manifest_path.as_deref().map_or("?".to_string(), |m| {
            let p = Path::new(m);
            if crate::suite::embedded::is_embedded(p) {
                crate::suite::embedded::shown(p)
            } else {
                p.file_name()
                    .map_or(m.to_string(), |n| n.to_string_lossy().into_owned())
            }
        });
        let models = run
            .manifest
            .models
            .iter()
            .map(|m| MetaModel {
                name: m.name.clone(),
                model: m
                    .rest
                    .get("model")
                    .and_then(|v| v.as_str())
                    .unwrap_or("?")
                    .to_string(),
            })
            .collect();
        // results/latest is a link: the run's id is the folder it names, never "latest".
        let real = std::fs::canonicalize(run_dir).unwrap_or_else(|_| run_dir.to_path_buf());
        Some(RunMeta {
            id: real
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
            started: run.started.clone(),
            harness_version: run.harness_version.clone(),
            matrix,
            models,
        })
    }

    /// One line for report.md and report.html.
    pub fn line(&self) -> String {
        let models: Vec<String> = self
            .models
            .iter()
            .map(|m| format!("{} (`{}`)", m.name, m.model))
            .collect();
        format!(
            "Run `{}`, started {}, harness {}; matrix `{}`; models: {}.",
            self.id,
            self.started.as_deref().unwrap_or("?"),
            self.harness_version,
            self.matrix,
            models.join(", ")
        )
    }
}

/// Units (model × case × variant) a run.json may list: far above any matrix.
pub const MAX_RECORDED_UNITS: usize = 1_000_000;

pub const SUMMARY_FORMAT: &str = "charter-harness/summary/v1";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SummaryCharter {
    pub source: String,
    pub sha256: String,
    pub version: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Counts {
    pub pass: usize,
    pub fail: usize,
    pub inconclusive: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckerVersion {
    pub version: String,
    pub source_sha256: String,
}

/// How sure the gate is, model by model.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Statistics {
    /// How each unit's interval is computed.
    pub interval: String,
    pub confidence: f64,
    /// What pass^k is.
    pub pass_k: String,
    pub models: Vec<ModelStatistics>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelStatistics {
    pub model: String,
    pub units: usize,
    pub flaky_units: usize,
    /// pass^1 … pass^n averaged over the model's units (none where no unit decided k trials).
    pub pass_k: Vec<Option<f64>>,
}

impl Summary {
    /// summary.json at `path`; an error names the file.
    pub fn read(path: &Path) -> Result<Summary> {
        let text = crate::files::read::read_text(path, crate::files::read::Kind::SummaryJson)?;
        let s: Summary = crate::files::limits::json(path, &text, "not a run summary")?;
        let max = crate::suite::manifest::MAX_TRIALS;
        if s.required_trials as u64 > max {
            return Err(Error::input(format!(
                "{}: required_trials: {} is out of range; trials per unit are 1 to {max}",
                path.display(),
                s.required_trials
            )));
        }
        Ok(s)
    }
}

/// A run narrowed by filters, fewer trials than the manifest's, or a shard.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Partial {
    pub units_run: usize,
    pub units_total: usize,
    /// `K/N` when the run is one shard of a gate.
    pub shard: Option<String>,
}

/// What a case gains from the charter: its pass rate with and without it (the control arm).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CaseLift {
    pub case: String,
    pub charter_pass_rate: f64,
    pub control_pass_rate: f64,
    pub lift: f64,
    /// The charter does better than no charter; otherwise the control passes as often and
    /// the case cannot tell a good charter from a bad one.
    pub discriminates: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run.json as the first harness versions wrote it: no arms, units, sandbox, manifest
    /// hash, whole-gate size, cache tokens or sent counts.
    const OLDER: &str = r#"{
        "harness_version": "0.1.0",
        "manifest_path": "/m/offline.toml",
        "manifest": {"models": [{"name": "a", "role": "frontier", "provider": "scripted"}]},
        "charter": {"source": "/c/CHARTER.md", "sha256": "abc", "version": "0.1.0"},
        "filters": {"case": ["E1"], "variant": [], "model": []},
        "trials": 3,
        "shard": null,
        "started": "2026-11-29T10:00:00Z",
        "ended": "2026-11-29T10:05:00Z",
        "usage": [{"model": "a", "pinned": "a-1", "input_tokens": 10, "output_tokens": 2,
                   "cost_usd": null, "alias_drift": []}]
    }"#;

    #[test]
    fn an_older_run_json_without_newer_fields_reads_with_defaults() {
        let r: RunRecord = serde_json::from_str(OLDER).unwrap();
        assert_eq!(r.arms(), ["charter"]);
        assert_eq!(r.units, None);
        assert_eq!(r.units_total, None);
        assert_eq!(r.manifest_sha256, None);
        assert_eq!(r.sandbox, Sandbox::Confined);
        assert_eq!(r.trials, Some(3));
        assert_eq!(r.filters.case, ["E1"]);
        assert_eq!(r.model_names(), ["a"]);
        assert_eq!(r.role("a"), Some("frontier"));
        let u = &r.usage.unwrap()[0];
        assert_eq!((u.input_tokens, u.cache_read_input_tokens), (10, 0));
        assert_eq!(u.cost_usd, None);
    }

    #[test]
    fn a_run_json_with_an_unknown_field_reads_and_keeps_what_it_knows() {
        let mut v: serde_json::Value = serde_json::from_str(OLDER).unwrap();
        v["written_by_a_later_harness"] = serde_json::json!({"anything": [1, 2]});
        v["charter"]["signature"] = serde_json::json!("xyz");
        let r: RunRecord = serde_json::from_value(v).unwrap();
        assert_eq!(r.charter.sha256, "abc");
        assert_eq!(r.started.as_deref(), Some("2026-11-29T10:00:00Z"));
    }

    #[test]
    fn a_run_record_writes_sorted_keys_and_reads_back_the_same() {
        let r: RunRecord = serde_json::from_str(OLDER).unwrap();
        let text = serde_json::to_string(&serde_json::to_value(&r).unwrap()).unwrap();
        assert!(
            text.starts_with(r#"{"arms":null,"case_files":{},"charter":{"file_sha256":"","#),
            "{text}"
        );
        let back: RunRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            serde_json::to_value(&r).unwrap()
        );
        // The manifest's fields the record does not name are kept as they were.
        assert_eq!(back.manifest.models[0].rest["provider"], "scripted");
    }

    #[test]
    fn a_field_of_the_wrong_type_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        std::fs::write(&path, r#"{"trials": "three"}"#).unwrap();
        let e = RunRecord::read(&path).unwrap_err().to_string();
        assert!(
            e.contains("run.json") && e.contains("not a run record"),
            "{e}"
        );
    }

    #[test]
    fn a_summary_reads_its_verdict_and_ignores_the_units() {
        let s: Summary = serde_json::from_str(
            r#"{"verdict": "FAIL", "exit_code": 1, "units": [{"case": "E1"}], "new": true}"#,
        )
        .unwrap();
        assert_eq!((s.verdict.as_str(), s.exit_code), ("FAIL", 1));
        assert!(s.usage.is_none());
    }
}
