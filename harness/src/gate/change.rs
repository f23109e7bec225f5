//! One comparison of a unit between a base and a head: `compare` and `gate --charter-base` both
//! label a unit here, exactly on a scripted (deterministic) model and by Fisher's exact test
//! otherwise, so the two commands say the same thing on the same runs.

use super::stats::{self, Label, Rate};
use super::{Gate, Unit, UnitStatus};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Passes on the base, fails on the head, and Fisher's exact test says the pass rates
    /// differ; on a scripted (deterministic) model, every base trial passes and every head
    /// trial fails.
    Regression,
    /// Fails on the base, passes on the head, significantly (or exactly, when scripted).
    Improvement,
    /// The status differs, but the pass rates could be the same: too few trials to tell.
    WithinNoise,
    StillFailing,
    StillPassing,
    /// Fails on the head and the base has no such unit (a case or variant new on the head).
    NewFailure,
    /// Inconclusive on one side, or on the base only.
    Undecided,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::WithinNoise => "within noise",
            Change::StillFailing => "still-failing",
            Change::StillPassing => "still-passing",
            Change::NewFailure => "new failure",
            Change::Undecided => "undecided",
        }
    }

    /// The status differs between the sides: the units a label (and `--settle`) is for.
    pub fn differs(self) -> bool {
        matches!(
            self,
            Change::Regression | Change::Improvement | Change::WithinNoise
        )
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct UnitChange {
    pub model: String,
    pub case: String,
    pub variant: String,
    pub head: UnitStatus,
    pub base: Option<UnitStatus>,
    /// Passed of decided trials, `--settle` trials included.
    pub head_rate: Rate,
    pub base_rate: Option<Rate>,
    /// Fisher's exact test (two-sided) on the two arms' passes and fails, when the status differs.
    pub p_value: Option<f64>,
    /// Significant below this; lower than 0.05 when `--settle` looked more than once.
    pub alpha: f64,
    pub change: Change,
    /// With `--settle`: the trials each arm ran beyond the gate's, counted in the rates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settle_trials: Option<u32>,
    /// Labelled exactly, without a statistical test: the model is scripted, so its trials
    /// repeat, and the unit went from every trial passing to every trial failing (or back).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// Where the status differs: the criteria that flipped and the charter hunks behind it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribution: Option<Attribution>,
    /// The head fails and the base's verdict did not decide: what would settle it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_undecided: Option<Settles>,
}

/// What settles a unit whose base did not decide: trials run again (provider errors, trials
/// missing, an inconclusive reply), or a person's label on the base's unsure trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Settles {
    Rerun,
    Label,
}

impl Settles {
    /// A head failure's base did not decide: `None` when it did (or the head does not fail).
    /// `base` is the base's unit; `held`: the base has this unit (asked for and selectable), so
    /// having no trial of it means its trials are missing, not that it is new.
    pub fn of(head: UnitStatus, base: Option<&Unit>, required: u32, held: bool) -> Option<Settles> {
        if head != UnitStatus::Fail {
            return None;
        }
        let Some(base) = base else {
            return held.then_some(Settles::Rerun);
        };
        if base.status(required) != UnitStatus::Inconclusive {
            return None;
        }
        let unsure = base.unsure().count();
        let others = base
            .trials
            .iter()
            .filter(|t| t.status == crate::store::trial::TrialStatus::Inconclusive)
            .count();
        let missing = (required as usize).saturating_sub(base.trials.len());
        Some(if unsure > 0 && others == 0 && missing == 0 {
            Settles::Label
        } else {
            Settles::Rerun
        })
    }
}

impl UnitChange {
    /// Whether the status differs: the units a label (and `--settle`) is for.
    pub fn differs(&self) -> bool {
        self.change.differs()
    }

    /// Label a unit whose status differs from its rates at `alpha` (after `--settle`).
    pub fn relabel(&mut self, alpha: f64) {
        let Some(base) = self.base_rate.filter(|_| self.differs() && !self.exact) else {
            return;
        };
        let arm = |status, rate| Arm { status, rate };
        let d = decide(
            self.base.map(|s| arm(s, base)),
            arm(self.head, self.head_rate),
            false,
            alpha,
        );
        self.alpha = alpha;
        self.p_value = d.p_value;
        self.change = d.change;
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Attribution {
    /// Criteria that fail on the side the unit fails on and not on the other.
    pub flipped: Vec<Flipped>,
    /// The charter hunks that touch a rule the unit's case names (`rules = [...]`).
    pub hunks: Vec<Hunk>,
    /// The rules the unit's case names.
    pub rules: Vec<String>,
    /// No hunk touches one of `rules`: the charter as a whole changed
    /// (`gate::attribute::WHOLE_CHARTER`).
    pub whole_charter: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Flipped {
    pub criterion: String,
    /// `"head"` (it now fails) or `"base"` (it failed there and passes now).
    pub fails_on: &'static str,
    /// The first failing trial's number on that side, and its detail, shortened.
    pub trial: u32,
    pub evidence: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Hunk {
    /// `@@ -a,b +c,d @@` over the charter's runtime text (the system prompt).
    pub header: String,
    /// The rules whose lines the hunk removes, adds or changes.
    pub rules: Vec<String>,
    /// The hunk as a unified diff (`-`, `+`, ` ` lines), bounded.
    pub diff: String,
}

/// Per unit of the head run that the base run also holds, or that fails at head, labelled by
/// the one comparison `compare` uses too (`gate::change::decide`): exactly on a model in
/// `scripted` (deterministic), by Fisher's exact test otherwise. `held`: whether the base has
/// a unit (model, case, variant) it holds no trial of: then its trials are missing and a head
/// failure there is undecided, not new.
pub fn compare(
    head: &Gate,
    base: &Gate,
    scripted: &[String],
    held: &dyn Fn(&str, &str, &str) -> bool,
) -> Vec<UnitChange> {
    head.units
        .iter()
        .filter(|u| {
            base.unit(&u.model, &u.case, &u.variant).is_some()
                || u.status(head.required) != UnitStatus::Pass
        })
        .map(|u| {
            let h = Arm::of(u, head.required);
            let b = base
                .unit(&u.model, &u.case, &u.variant)
                .map(|bu| Arm::of(bu, base.required));
            let bu = base.unit(&u.model, &u.case, &u.variant);
            let mut d = decide(b, h, scripted.contains(&u.model), stats::ALPHA);
            let base_undecided = Settles::of(
                h.status,
                bu,
                base.required,
                bu.is_none() && held(&u.model, &u.case, &u.variant),
            );
            if base_undecided.is_some() {
                d.change = Change::Undecided;
            }
            UnitChange {
                model: u.model.clone(),
                case: u.case.clone(),
                variant: u.variant.clone(),
                head: h.status,
                base: b.map(|b| b.status),
                head_rate: h.rate,
                base_rate: b.map(|b| b.rate),
                p_value: d.p_value,
                alpha: stats::ALPHA,
                change: d.change,
                settle_trials: None,
                exact: d.exact,
                attribution: None,
                base_undecided,
            }
        })
        .collect()
}

/// One side of a unit: its status and its pass rate over decided trials.
#[derive(Debug, Clone, Copy)]
pub struct Arm {
    pub status: UnitStatus,
    pub rate: Rate,
}

impl Arm {
    pub fn of(unit: &Unit, required: u32) -> Arm {
        Arm {
            status: unit.status(required),
            rate: Rate::of(unit),
        }
    }
}

/// A unit's change from base to head, with how it was decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decided {
    pub change: Change,
    /// Fisher's two-sided p-value, when the status differs and the label is not exact.
    pub p_value: Option<f64>,
    /// Labelled without a statistical test (a scripted model's trials repeat).
    pub exact: bool,
}

/// THE comparison of one unit. `scripted`: the model is deterministic on both sides, so a unit
/// that went from every trial passing to every trial failing (or back) is labelled exactly;
/// anything else whose status differs is labelled by Fisher's exact test at `alpha`.
pub fn decide(base: Option<Arm>, head: Arm, scripted: bool, alpha: f64) -> Decided {
    let plain = |change| Decided {
        change,
        p_value: None,
        exact: false,
    };
    let Some(base) = base else {
        return plain(match head.status {
            UnitStatus::Fail => Change::NewFailure,
            _ => Change::Undecided,
        });
    };
    match (base.status, head.status) {
        (UnitStatus::Fail, UnitStatus::Fail) => plain(Change::StillFailing),
        (UnitStatus::Pass, UnitStatus::Pass) => plain(Change::StillPassing),
        (UnitStatus::Pass, UnitStatus::Fail) | (UnitStatus::Fail, UnitStatus::Pass) => {
            if let Some(change) = exact(base.rate, head.rate).filter(|_| scripted) {
                return Decided {
                    change,
                    p_value: None,
                    exact: true,
                };
            }
            let (label, p) = stats::label(base.rate, head.rate, alpha);
            Decided {
                change: match label {
                    Label::Regression => Change::Regression,
                    Label::Improvement => Change::Improvement,
                    Label::WithinNoise => Change::WithinNoise,
                },
                p_value: Some(p),
                exact: false,
            }
        }
        _ => plain(Change::Undecided),
    }
}

/// The exact label on a scripted model: all base trials passing and all head trials failing
/// is a regression, the reverse an improvement; None for anything else.
fn exact(base: Rate, head: Rate) -> Option<Change> {
    let all = |r: Rate| r.trials > 0 && r.passed == r.trials;
    let none = |r: Rate| r.trials > 0 && r.passed == 0;
    if all(base) && none(head) {
        Some(Change::Regression)
    } else if none(base) && all(head) {
        Some(Change::Improvement)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(status: UnitStatus, passed: u32, trials: u32) -> Arm {
        Arm {
            status,
            rate: Rate::new(passed, trials),
        }
    }

    #[test]
    fn three_of_three_to_none_is_a_regression_exactly_on_a_scripted_model_and_noise_otherwise() {
        let (b, h) = (arm(UnitStatus::Pass, 3, 3), arm(UnitStatus::Fail, 0, 3));
        let s = decide(Some(b), h, true, stats::ALPHA);
        assert_eq!(
            (s.change, s.exact, s.p_value),
            (Change::Regression, true, None)
        );
        let r = decide(Some(b), h, false, stats::ALPHA);
        assert_eq!((r.change, r.exact), (Change::WithinNoise, false));
        assert!(r.p_value.unwrap() > 0.05);
    }

    #[test]
    fn a_unit_the_base_lacks_that_fails_is_a_new_failure() {
        let d = decide(None, arm(UnitStatus::Fail, 0, 3), true, stats::ALPHA);
        assert_eq!(d.change, Change::NewFailure);
    }
}
