//! The control arm's verdict on the cases: per case, the pass rate with the charter minus the
//! pass rate without it. A case the control passes as often as the charter does not
//! discriminate: it cannot tell a good charter edit from a bad one.

use crate::store::record::CaseLift;
use crate::store::trial::TrialRecord;
use crate::store::trial::TrialStatus;
use std::fmt::Write;

fn rate(records: &[TrialRecord], case: &str) -> Option<f64> {
    let decided: Vec<&TrialRecord> = records
        .iter()
        .filter(|r| &*r.case == case && r.status != TrialStatus::Inconclusive)
        .collect();
    (!decided.is_empty()).then(|| {
        decided
            .iter()
            .filter(|r| r.status == TrialStatus::Pass)
            .count() as f64
            / decided.len() as f64
    })
}

pub fn case_lifts(charter: &[TrialRecord], control: &[TrialRecord]) -> Vec<CaseLift> {
    checkers::CASE_IDS
        .iter()
        .filter_map(|case| {
            let (with, without) = (rate(charter, case)?, rate(control, case)?);
            Some(CaseLift {
                case: case.to_string(),
                charter_pass_rate: with,
                control_pass_rate: without,
                lift: with - without,
                discriminates: with > without,
            })
        })
        .collect()
}

/// A Markdown table of the lift, with the cases that do not discriminate named.
pub fn lift_table(lifts: &[CaseLift]) -> String {
    let mut out = String::from("| case | with charter | control | lift |\n|---|---|---|---|\n");
    for l in lifts {
        let note = if l.discriminates {
            ""
        } else {
            " (control passes too: does not discriminate)"
        };
        let _ = writeln!(
            out,
            "| {} | {:.0}% | {:.0}% | {:+.0} pts{note} |",
            l.case,
            l.charter_pass_rate * 100.0,
            l.control_pass_rate * 100.0,
            l.lift * 100.0
        );
    }
    out
}
