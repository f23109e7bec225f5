//! The change gate: every unit (case, variant, model) must pass every trial. A failing trial
//! fails its unit; an error transcript or a missing trial leaves it inconclusive, never passed.

pub mod attribute;
pub mod change;
pub mod policy;
pub mod stats;

use crate::exit;
use crate::store::record::Partial;
use crate::store::trial::TrialRecord;
use crate::store::trial::TrialStatus;
use checkers::Criterion;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitStatus {
    Pass,
    Fail,
    Inconclusive,
}

#[derive(Debug, Clone)]
pub struct UnitTrial {
    pub trial: u32,
    pub status: TrialStatus,
    /// Names of the failed criteria; the details are in the verdict.
    pub failed: std::sync::Arc<[std::sync::Arc<str>]>,
    pub verdict: crate::store::spool::VerdictRef,
}

impl UnitTrial {
    /// The first failed criterion, read back from the verdict.
    pub fn first_failure(&self) -> Option<Criterion> {
        self.verdict.get().failed().next().cloned()
    }
}

#[derive(Debug, Clone)]
pub struct Unit {
    pub model: String,
    pub case: String,
    pub variant: String,
    pub trials: Vec<UnitTrial>,
}

impl Unit {
    /// The names of the criteria any of its trials failed, once each, sorted.
    pub fn failed_criteria(&self) -> Vec<String> {
        // A set of borrowed names: a unit of many failed trials names a handful of criteria.
        let names: std::collections::BTreeSet<&str> = self
            .trials
            .iter()
            .flat_map(|t| t.failed.iter().map(|c| &**c))
            .collect();
        names.into_iter().map(str::to_string).collect()
    }

    /// Passed of the trials it needs, `3/3`; when fewer were written (a run interrupted, or
    /// resumed no further), passed of those written and how many were not run: `0/1 (2 not
    /// run)`, never `0/3`, which reads as three failures.
    pub fn tally(&self, required: u32) -> String {
        let written = self.trials.len();
        match (required as usize).checked_sub(written) {
            Some(missing) if missing > 0 => {
                format!("{}/{written} ({missing} not run)", self.passed())
            }
            _ => format!("{}/{required}", self.passed()),
        }
    }

    pub fn passed(&self) -> usize {
        self.trials
            .iter()
            .filter(|t| t.status == TrialStatus::Pass)
            .count()
    }
    /// Trials the checker was unsure of that no label or policy decided: the unit waits for a
    /// person, not for a rerun.
    pub fn unsure(&self) -> impl Iterator<Item = &UnitTrial> {
        self.trials
            .iter()
            .filter(|t| t.status == TrialStatus::Unsure)
    }

    pub fn status(&self, required: u32) -> UnitStatus {
        if self.trials.iter().any(|t| t.status == TrialStatus::Fail) {
            UnitStatus::Fail
        } else if self.passed() >= required as usize {
            UnitStatus::Pass
        } else {
            UnitStatus::Inconclusive
        }
    }
}

#[derive(Debug, Clone)]
pub struct Gate {
    /// Trials each unit must pass.
    pub required: u32,
    pub models: Vec<String>,
    pub units: Vec<Unit>,
    /// Set when the run covered less than the manifest's whole gate: never a decision.
    pub partial: Option<Partial>,
    /// E-cases the charter lists that this harness version has no checker for: the gate fails
    /// for them, named apart from failing units (a new case needs a new harness release).
    pub untestable: Vec<String>,
}

impl Gate {
    /// Group trial records into units, keeping the order models and cases first appear in.
    pub fn from_records(records: &[TrialRecord], required: u32) -> Gate {
        let mut models: Vec<String> = Vec::new();
        let mut units: Vec<Unit> = Vec::new();
        let mut index: std::collections::HashMap<(&str, &str, &str), usize> = Default::default();
        for r in records {
            let trial = UnitTrial {
                trial: r.trial,
                status: r.status,
                failed: r.failed.clone(),
                verdict: r.verdict.clone(),
            };
            let at = *index
                .entry((&r.model, &r.case, &r.variant))
                .or_insert_with(|| {
                    if !models.iter().any(|m| **m == *r.model) {
                        models.push(r.model.to_string());
                    }
                    units.push(Unit {
                        model: r.model.to_string(),
                        case: r.case.to_string(),
                        variant: r.variant.to_string(),
                        trials: Vec::new(),
                    });
                    units.len() - 1
                });
            units[at].trials.push(trial);
        }
        for u in &mut units {
            u.trials.sort_by_key(|t| t.trial);
        }
        Gate {
            required,
            models,
            units,
            partial: None,
            untestable: Vec::new(),
        }
    }

    /// Mark the gate partial when it covers less than the manifest's whole gate:
    /// `units_total` units (every model × every case variant) at `manifest_trials` trials.
    pub fn scoped(
        mut self,
        units_total: usize,
        manifest_trials: u32,
        shard: Option<String>,
    ) -> Gate {
        if self.units.len() < units_total || self.required < manifest_trials || shard.is_some() {
            self.partial = Some(Partial {
                units_run: self.units.len(),
                units_total,
                shard,
            });
        }
        self
    }

    pub fn count(&self, status: UnitStatus) -> usize {
        self.units
            .iter()
            .filter(|u| u.status(self.required) == status)
            .count()
    }

    /// Contract §5: 0 passes, 1 fails, 3 inconclusive (some unit inconclusive and none failed).
    /// A case the charter lists and this harness cannot test fails the gate.
    pub fn exit_code(&self) -> u8 {
        if self.count(UnitStatus::Fail) > 0 || !self.untestable.is_empty() {
            exit::GATE_FAILED
        } else if self.count(UnitStatus::Inconclusive) > 0 || self.units.is_empty() {
            exit::INCONCLUSIVE
        } else {
            exit::OK
        }
    }

    /// The gate's outcome as a word and a sentence, for every report. A partial run is never a
    /// decision: it says so, with what its units did.
    pub fn verdict(&self) -> (&'static str, String) {
        if let Some(p) = &self.partial {
            let what = match self.exit_code() {
                exit::OK => "every unit run passed",
                exit::GATE_FAILED => "some units failed",
                _ => "some units could not be decided",
            };
            return (
                "partial",
                format!(
                    "PARTIAL: {} of {} unit{}, not a gate decision ({what})",
                    p.units_run,
                    p.units_total,
                    if p.units_total == 1 { "" } else { "s" }
                ),
            );
        }
        if let Some(why) = self.untestable_sentence() {
            let failing = self.count(UnitStatus::Fail);
            let units = match failing {
                0 => String::new(),
                1 => "; and 1 unit fails".to_string(),
                n => format!("; and {n} units fail"),
            };
            return ("fail", format!("FAIL: the change is blocked: {why}{units}"));
        }
        let undecided = self.count(UnitStatus::Inconclusive);
        let need_labels = self.needing_labels().count();
        match self.exit_code() {
            exit::OK => ("pass", "PASS: the change may land".into()),
            exit::GATE_FAILED => ("fail", "FAIL: the change is blocked".into()),
            _ if need_labels > 0 && need_labels == undecided => (
                "inconclusive",
                format!(
                    "INCONCLUSIVE: {need_labels} unit{} need{} labels, not a rerun: each is listed with its harness label --decide command",
                    if need_labels == 1 { "" } else { "s" },
                    if need_labels == 1 { "s" } else { "" }
                ),
            ),
            _ if need_labels > 0 => (
                "inconclusive",
                format!(
                    "INCONCLUSIVE: {need_labels} unit{} need labels (harness label --decide) and {} must be re-run",
                    if need_labels == 1 { "" } else { "s" },
                    undecided - need_labels
                ),
            ),
            _ => (
                "inconclusive",
                "INCONCLUSIVE: some units could not be decided; re-run them".into(),
            ),
        }
    }

    /// Why the gate cannot pass whatever its units do: `case E14 cannot be tested by this
    /// harness version (…)`; None when every listed case has a checker.
    pub fn untestable_sentence(&self) -> Option<String> {
        let cases = &self.untestable;
        (!cases.is_empty()).then(|| {
            format!(
                "case{} {} cannot be tested by this harness version (the charter lists {}, this harness has no checker for {}; a new case needs a harness release that ships its checker)",
                if cases.len() == 1 { "" } else { "s" },
                cases.join(", "),
                if cases.len() == 1 { "it" } else { "them" },
                if cases.len() == 1 { "it" } else { "them" },
            )
        })
    }

    /// Undecided units with trials that need a person's label.
    pub fn needing_labels(&self) -> impl Iterator<Item = &Unit> {
        self.units_with(UnitStatus::Inconclusive)
            .filter(|u| u.unsure().next().is_some())
    }

    pub fn units_with(&self, status: UnitStatus) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.status(self.required) == status)
    }

    /// "32 units: 16 pass, 16 fail, 0 inconclusive"
    pub fn counts_line(&self) -> String {
        let n = |s| self.count(s);
        format!(
            "{} unit{}: {} pass, {} fail, {} inconclusive",
            self.units.len(),
            if self.units.len() == 1 { "" } else { "s" },
            n(UnitStatus::Pass),
            n(UnitStatus::Fail),
            n(UnitStatus::Inconclusive)
        )
    }

    /// A matrix cell: `k/N` and the mark for the unit's status (pass, fail, inconclusive).
    pub fn cell(&self, model: &str, case: &str, variant: &str, marks: [&str; 3]) -> String {
        self.unit(model, case, variant)
            .map_or("-".to_string(), |u| {
                let mark = match u.status(self.required) {
                    UnitStatus::Pass => marks[0],
                    UnitStatus::Fail => marks[1],
                    UnitStatus::Inconclusive => marks[2],
                };
                format!("{}{mark}", u.tally(self.required))
            })
    }

    /// The (case, variant) rows of the case × model matrix, in the order units appear.
    pub fn rows(&self) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = Vec::new();
        for u in &self.units {
            if !rows.iter().any(|(c, v)| *c == u.case && *v == u.variant) {
                rows.push((u.case.clone(), u.variant.clone()));
            }
        }
        rows
    }

    pub fn unit(&self, model: &str, case: &str, variant: &str) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.model == model && u.case == case && u.variant == variant)
    }
}

/// Records in plan order: models as given, then case (E1 … E13), variant, trial.
pub fn sort_records(records: &mut [TrialRecord], models: &[String]) {
    let case_index = |c: &str| {
        checkers::CASE_IDS
            .iter()
            .position(|id| *id == c)
            .unwrap_or(usize::MAX)
    };
    let model_index = |m: &str| models.iter().position(|x| x == m).unwrap_or(usize::MAX);
    // Keys borrow the names: a sort of many records compares without copying or counting.
    records.sort_by(|a, b| {
        let key = |r: &TrialRecord| (model_index(&r.model), case_index(&r.case), r.trial);
        let (ka, kb) = (key(a), key(b));
        (ka.0, ka.1, &*a.variant, ka.2).cmp(&(kb.0, kb.1, &*b.variant, kb.2))
    });
}

/// Each unit's records, by (model, case, variant): one pass over the records, for reports
/// that walk the gate's units.
pub fn records_by_unit(
    records: &[TrialRecord],
) -> std::collections::HashMap<(&str, &str, &str), Vec<&TrialRecord>> {
    let mut by: std::collections::HashMap<(&str, &str, &str), Vec<&TrialRecord>> =
        Default::default();
    for r in records {
        by.entry((&r.model, &r.case, &r.variant))
            .or_default()
            .push(r);
    }
    by
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers::Verdict;

    fn record(model: &str, trial: u32, pass: bool, inconclusive: bool) -> TrialRecord {
        let verdict = Verdict {
            case: "E1".into(),
            variant: "default".into(),
            checker_version: "1.0.0".into(),
            checker_source_sha256: String::new(),
            pass,
            inconclusive,
            criteria: vec![Criterion::new("final-figure", pass, "x")],
            final_figure: None,
            file: None,
        };
        TrialRecord {
            model: model.into(),
            case: "E1".into(),
            variant: "default".into(),
            trial,
            status: TrialStatus::of(&verdict),
            failed: verdict
                .failed()
                .map(|c| std::sync::Arc::from(c.name.as_str()))
                .collect(),
            verdict: crate::store::spool::Spool::new()
                .unwrap()
                .put(&verdict)
                .unwrap(),
            run_dir: std::sync::Arc::from(std::path::Path::new("")),
            usage: Default::default(),
            alias_drift: Box::new([]),
            error: None,
            provider_error: None,
            duration_ms: 0,
            reply_digest: 0,
        }
    }

    #[test]
    fn a_unit_passes_only_with_every_trial_passing() {
        let g = Gate::from_records(
            &[
                record("m", 1, true, false),
                record("m", 2, true, false),
                record("m", 3, true, false),
            ],
            3,
        );
        assert_eq!(g.exit_code(), exit::OK);
        let g = Gate::from_records(
            &[record("m", 1, true, false), record("m", 2, true, false)],
            3,
        );
        assert_eq!(
            g.exit_code(),
            exit::INCONCLUSIVE,
            "2 of 3 trials is not a pass"
        );
    }

    #[test]
    fn one_failing_trial_on_the_weakest_model_fails_the_gate() {
        let recs = [
            record("frontier", 1, true, false),
            record("weakest", 1, false, false),
        ];
        assert_eq!(Gate::from_records(&recs, 1).exit_code(), exit::GATE_FAILED);
    }

    #[test]
    fn error_transcripts_are_inconclusive_never_pass_and_never_fail() {
        let recs = [
            record("m", 1, true, false),
            record("m", 2, false, true),
            record("m", 3, true, false),
        ];
        let g = Gate::from_records(&recs, 3);
        assert_eq!(g.units[0].status(3), UnitStatus::Inconclusive);
        assert_eq!(g.exit_code(), exit::INCONCLUSIVE);
    }
}
