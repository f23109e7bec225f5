//! The gate's policy (`[run] gate`): `all-pass`, the charter's rule, or `no-regression`, which
//! against a base blocks only what the change broke (by status, not by a statistical test) and
//! says plainly that the charter's own gate is still not met.

use super::change::{Change, UnitChange};
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
    if !own.decided {
        return own;
    }
    let blocking = changes.iter().filter(|u| blocks(u)).count();
    let still = head.count(UnitStatus::Fail) - blocking;
    let plural = |n: usize| if n == 1 { "unit" } else { "units" };
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
