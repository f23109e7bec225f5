//! The gate's policy (`[run] gate`): `all-pass`, the charter's rule, or `no-regression`, which
//! against a base blocks only what the change broke (by status, not by a statistical test) and
//! says plainly that the charter's own gate is still not met.

use super::change::{Change, Settles, UnitChange};
use super::{Gate, UnitStatus};
use crate::exit;
use crate::suite::manifest::GatePolicy;

/// What the gate decided under its policy: the exit code, the word summary.json carries, and
/// the sentence every view prints after `Gate: `.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub code: u8,
    pub word: &'static str,
    pub sentence: String,
    /// A decision (not a partial run's report of its units).
    pub decided: bool,
}

/// The gate's own outcome, all-pass.
pub fn all_pass(gate: &Gate) -> Outcome {
    let (word, sentence) = gate.verdict();
    Outcome {
        code: gate.exit_code(),
        word,
        sentence,
        decided: gate.partial.is_none(),
    }
}

/// The verdict when the comparison with the base at `rev` could not be made (its error printed
/// just before): under no-regression, which decides by the comparison, no decision; under
/// all-pass, the run's own verdict, the comparison said missing.
pub fn not_compared(policy: GatePolicy, head: &Gate, rev: &str) -> String {
    let own = all_pass(head).sentence;
    let missing = format!("the comparison with the base at {rev} could not be made");
    match policy {
        GatePolicy::NoRegression => format!(
            "NOT DECIDED: {missing} (the error above), and [run] gate = \"no-regression\" decides by it; this run alone: {own}"
        ),
        GatePolicy::AllPass => format!("{own} ({missing}: the error above)"),
    }
}

/// The head blocks a unit that fails on it and passed on the base (or that the base lacks).
pub fn blocks(u: &UnitChange) -> bool {
    u.head == UnitStatus::Fail
        && (u.base == Some(UnitStatus::Pass) || u.change == Change::NewFailure)
}

/// A unit that fails on the head and whose base verdict did not decide (inconclusive, unsure,
/// its trials missing): neither a regression nor the base's own failure until it is settled.
pub fn undecided(u: &UnitChange) -> Option<Settles> {
    u.base_undecided.filter(|_| !blocks(u))
}

/// Decide `head` under `policy`; `changes` is the base comparison, when there is one.
pub fn decide(policy: GatePolicy, head: &Gate, changes: Option<&[UnitChange]>) -> Outcome {
    let own = all_pass(head);
    let (GatePolicy::NoRegression, Some(changes)) = (policy, changes) else {
        return match policy {
            GatePolicy::NoRegression => Outcome {
                sentence: format!(
                    "{} ([run] gate = \"no-regression\" needs --charter-base: decided as \"all-pass\")",
                    own.sentence
                ),
                ..own
            },
            GatePolicy::AllPass => own,
        };
    };
    if !own.decided || !head.untestable.is_empty() {
        // A case this harness cannot test fails the gate under any policy (its sentence says so).
        return own;
    }
    let blocking = changes.iter().filter(|u| blocks(u)).count();
    let still = head.count(UnitStatus::Fail).saturating_sub(blocking);
    let plural = |n: usize| if n == 1 { "unit" } else { "units" };
    if blocking == 0 {
        if let Some(o) = undecided_outcome(changes) {
            return o;
        }
    }
    if blocking > 0 {
        return Outcome {
            code: exit::GATE_FAILED,
            word: "fail",
            sentence: format!(
                "FAIL: the change is blocked: {blocking} {} fail here and passed on the base (no-regression)",
                plural(blocking)
            ),
            decided: true,
        };
    }
    match own.code {
        exit::GATE_FAILED => Outcome {
            code: exit::OK,
            word: "no-regression",
            sentence: format!(
                "no regression; the charter's gate is not met: {still} {} still fail{}",
                plural(still),
                if still == 1 { "s" } else { "" }
            ),
            decided: true,
        },
        _ => own,
    }
}

/// Exit 3 when a head failure's base did not decide and nothing blocks: never a pass, never
/// kept. The sentence names what settles it: a rerun (provider errors or trials missing on the
/// base) and/or labels (the base's unsure verdicts).
fn undecided_outcome(changes: &[UnitChange]) -> Option<Outcome> {
    let kinds: Vec<Settles> = changes.iter().filter_map(undecided).collect();
    if kinds.is_empty() {
        return None;
    }
    let rerun = kinds.iter().filter(|k| **k == Settles::Rerun).count();
    let label = kinds.len() - rerun;
    let units = |n: usize| format!("{n} unit{}", if n == 1 { "" } else { "s" });
    let mut why = Vec::new();
    if rerun > 0 {
        why.push(format!(
            "{} failing here could not be decided on the base (provider errors or trials missing there): run again",
            units(rerun)
        ));
    }
    if label > 0 {
        why.push(format!(
            "{} failing here {} unsure on the base: needs a label (harness label --decide, listed above)",
            units(label),
            if label == 1 { "is" } else { "are" }
        ));
    }
    Some(Outcome {
        code: exit::INCONCLUSIVE,
        word: "inconclusive",
        sentence: format!("NOT DECIDED: {} (no-regression)", why.join("; ")),
        decided: false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::change::compare;
    use super::super::{Unit, UnitTrial};
    use super::*;
    use crate::store::trial::TrialStatus;
    use checkers::{Criterion, Verdict};
    use TrialStatus::{Fail, Inconclusive, Pass, Unsure};

    fn trial(n: u32, status: TrialStatus) -> UnitTrial {
        let verdict = Verdict {
            case: "E1".into(),
            variant: "default".into(),
            checker_version: "1.0.0".into(),
            checker_source_sha256: String::new(),
            pass: status == Pass,
            inconclusive: status == Inconclusive,
            criteria: vec![Criterion::new("final-figure", status == Pass, "x")],
            final_figure: None,
            file: None,
        };
        UnitTrial {
            trial: n,
            status,
            failed: Vec::new().into(),
            verdict: crate::store::spool::Spool::new()
                .unwrap()
                .put(&verdict)
                .unwrap(),
        }
    }

    fn gate(trials: &[TrialStatus]) -> Gate {
        let units = vec![Unit {
            model: "m".into(),
            case: "E1".into(),
            variant: "default".into(),
            trials: (1..).zip(trials).map(|(n, s)| trial(n, *s)).collect(),
        }];
        Gate {
            required: 3,
            models: vec!["m".into()],
            units,
            partial: None,
            untestable: Vec::new(),
        }
    }

    /// The head fails E1 on m; the base is in `state`. The gate under each policy.
    fn decide_against(state: &str, policy: GatePolicy) -> Outcome {
        let head = gate(&[Fail, Fail, Fail]);
        let (base, held) = match state {
            "pass" => (gate(&[Pass, Pass, Pass]), true),
            "fail" => (gate(&[Fail, Fail, Fail]), true),
            "inconclusive" => (gate(&[Inconclusive, Inconclusive, Inconclusive]), true),
            "unsure" => (gate(&[Pass, Unsure, Pass]), true),
            "trials missing" => (gate(&[]), true),
            "some trials missing" => (gate(&[Pass]), true),
            "unit absent" => (gate(&[]), false),
            _ => unreachable!(),
        };
        let base = Gate {
            units: base
                .units
                .into_iter()
                .filter(|u| !u.trials.is_empty())
                .collect(),
            ..base
        };
        let changes = compare(&head, &base, &[], &|_, _, _| held);
        decide(policy, &head, Some(&changes))
    }

    #[test]
    fn no_regression_blocks_what_passed_on_the_base_or_is_new_and_waits_on_a_base_that_did_not_decide(
    ) {
        let cases = [
            ("pass", exit::GATE_FAILED, "FAIL: the change is blocked"),
            ("fail", exit::OK, "no regression"),
            ("inconclusive", exit::INCONCLUSIVE, "run again"),
            ("unsure", exit::INCONCLUSIVE, "needs a label"),
            ("trials missing", exit::INCONCLUSIVE, "run again"),
            ("some trials missing", exit::INCONCLUSIVE, "run again"),
            (
                "unit absent",
                exit::GATE_FAILED,
                "FAIL: the change is blocked",
            ),
        ];
        for (state, code, says) in cases {
            let o = decide_against(state, GatePolicy::NoRegression);
            assert_eq!(o.code, code, "base {state}: {}", o.sentence);
            assert!(o.sentence.contains(says), "base {state}: {}", o.sentence);
            if code == exit::INCONCLUSIVE {
                assert!(!o.decided && o.word != "pass" && o.word != "no-regression");
            }
        }
    }

    #[test]
    fn all_pass_fails_a_head_failure_whatever_the_base() {
        for state in [
            "pass",
            "fail",
            "inconclusive",
            "unsure",
            "trials missing",
            "some trials missing",
            "unit absent",
        ] {
            let o = decide_against(state, GatePolicy::AllPass);
            assert_eq!(o.code, exit::GATE_FAILED, "base {state}: {}", o.sentence);
        }
    }

    #[test]
    fn a_blocking_unit_wins_over_an_undecided_one() {
        let mut head = gate(&[Fail, Fail, Fail]);
        let mut second = head.units[0].clone();
        second.case = "E2".into();
        head.units.push(second);
        let mut base = gate(&[Pass, Pass, Pass]);
        let mut undecided = gate(&[Inconclusive]).units.remove(0);
        undecided.case = "E2".into();
        base.units.push(undecided);
        let changes = compare(&head, &base, &[], &|_, _, _| true);
        let o = decide(GatePolicy::NoRegression, &head, Some(&changes));
        assert_eq!(o.code, exit::GATE_FAILED, "{}", o.sentence);
    }
}
