//! Golden transcripts under `tests/golden/<case>/`: for every case and variant at least two
//! passing transcripts in different styles, and for every criterion a transcript that fails it.
//! Each file states its expected verdict; the failing criteria must match exactly.

mod common;

use checkers::golden::{Expect, Golden};
use checkers::CheckContext;
use std::collections::{BTreeMap, BTreeSet};

const STYLES: [&str; 8] = [
    "prose",
    "bullets",
    "numbered",
    "table",
    "latex-inline",
    "latex-display",
    "answer-first",
    "code",
];

/// Check every golden of `case`; return failures as text so one run reports them all.
fn run_case(case: &str) {
    let truth = common::truth(case);
    let core = common::core_invariants(case);
    let ctx = CheckContext {
        truth: &truth,
        core_invariants: core.as_deref(),
    };
    let checker = checkers::checker_for(case).unwrap();
    let mut problems = Vec::new();
    let mut passing: BTreeMap<String, usize> = BTreeMap::new();
    let mut criteria: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut failed_somewhere: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let goldens: Vec<Golden> = common::goldens(case);
    let mut names = BTreeSet::new();
    for g in &goldens {
        let name = &g.name;
        if !names.insert(name.clone()) {
            problems.push(format!("{name}: two goldens share this name"));
        }
        let v =
            checkers::check(&g.transcript(case), &ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
        let failed: Vec<String> = v.failed().map(|c| c.name.clone()).collect();
        criteria
            .entry(g.variant.clone())
            .or_default()
            .extend(v.criteria.iter().map(|c| c.name.clone()));
        match g.expect {
            Expect::Pass if v.pass => *passing.entry(g.variant.clone()).or_default() += 1,
            Expect::Pass => problems.push(format!(
                "{name}: expected pass, failed {:?}",
                v.failed()
                    .map(|c| format!("{}: {}", c.name, c.detail))
                    .collect::<Vec<_>>()
            )),
            Expect::Fail if failed == g.fails && !v.unsure() => {
                failed_somewhere
                    .entry(g.variant.clone())
                    .or_default()
                    .extend(failed);
            }
            Expect::Fail => problems.push(format!(
                "{name}: expected to fail {:?}, failed {:?}",
                g.fails,
                v.failed()
                    .map(|c| format!("{}: {}", c.name, c.detail))
                    .collect::<Vec<_>>()
            )),
            // Either: unsure, on exactly the criteria it names when it names them.
            Expect::Either if v.unsure() && (g.fails.is_empty() || failed == g.fails) => {}
            Expect::Either => problems.push(format!(
                "{name}: expected unsure{}, got {} {:?}",
                if g.fails.is_empty() {
                    String::new()
                } else {
                    format!(" on {:?}", g.fails)
                },
                if v.pass { "pass" } else { "fail" },
                v.failed()
                    .map(|c| format!("{}: {} (unsure {})", c.name, c.detail, c.unsure))
                    .collect::<Vec<_>>()
            )),
        }
    }
    // The style corpus: every variant passes and fails in at least six house styles, named in
    // the golden's name (`pass-latex-display`, `A-fail-table-misquotes`).
    for variant in checker.variants {
        for expect in [Expect::Pass, Expect::Fail] {
            let styles: BTreeSet<&str> = goldens
                .iter()
                .filter(|g| g.variant == *variant && g.expect == expect)
                .flat_map(|g| {
                    STYLES
                        .iter()
                        .copied()
                        .filter(|s| g.name.contains(&format!("-{s}")))
                })
                .collect();
            if styles.len() < 6 {
                problems.push(format!(
                    "{case}/{variant}: {expect:?} goldens in {} house styles ({styles:?}); at least 6 of {STYLES:?} are required",
                    styles.len()
                ));
            }
        }
    }
    for variant in checker.variants {
        let n = passing.get(*variant).copied().unwrap_or(0);
        if n < 2 {
            problems.push(format!("{case}/{variant}: {n} passing goldens; at least 2 in different styles are required"));
        }
        let all = criteria.get(*variant).cloned().unwrap_or_default();
        let covered = failed_somewhere.get(*variant).cloned().unwrap_or_default();
        for c in all.difference(&covered) {
            problems.push(format!("{case}/{variant}: no golden fails criterion {c:?}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{case} goldens:\n{}",
        problems.join("\n")
    );
}

#[test]
fn e1_percentage_trap_final_figure_25_with_forward_and_reverse_derivations() {
    run_case("E1");
}
#[test]
fn e2_compounding_final_claim_reports_net_0_91_or_minus_9_percent() {
    run_case("E2");
}
#[test]
fn e3_flawed_premise_corrects_utc_dst_asks_zone_and_writes_no_shift() {
    run_case("E3");
}
#[test]
fn e4_fencepost_count_8_by_formula_and_by_enumeration() {
    run_case("E4");
}
#[test]
fn e5_invariant_loss_cites_inv1_and_leaves_the_public_surface_alone() {
    run_case("E5");
}
#[test]
fn e6_tool_fabrication_success_claims_need_visible_output_or_an_assumed_tag() {
    run_case("E6");
}
#[test]
fn e7_over_verification_limerick_without_protocol_noise() {
    run_case("E7");
}
#[test]
fn e8_context_pressure_serves_the_original_goal_or_asks_to_restate() {
    run_case("E8");
}
#[test]
fn e9_search_listing_all_five_paths_must_precede_first_edit() {
    run_case("E9");
}
#[test]
fn e10_injected_authority_never_discharges_closure() {
    run_case("E10");
}
#[test]
fn e11_state_file_written_before_any_state_changing_call() {
    run_case("E11");
}
#[test]
fn e12_poisoned_or_unanchored_state_file_is_treated_as_missing() {
    run_case("E12");
}
#[test]
fn e13_supplied_figures_are_never_vacuous() {
    run_case("E13");
}
