//! `gate --charter-base --settle N`: for units the base comparison labels within noise, more
//! trials on both arms, one round at a time, until the label settles or each arm has N trials.
//! Planned and priced before the first call; the extra trials go to their own run folders
//! (`settle/head`, `settle/base-<sha>`), so the gate, decided on the run's own trials, never
//! changes. Every look at the data spends some of the 5% error rate: a round's label is
//! significant below 0.05 / (rounds + 1) (Bonferroni over the planned looks).

use crate::error::{Error, Result};
use crate::gate::stats::{self, Rate};
use crate::gate::Gate;
use crate::regate::base::{Change, UnitChange};
use crate::run::options::RunOptions;
use crate::run::session;
use crate::suite::Suite;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One arm of the comparison: the charter it runs under and the folder its extra trials go to.
pub struct Arm {
    pub charter: String,
    pub charter_dir: Option<PathBuf>,
    pub sha256: String,
    pub dir: PathBuf,
}

/// What `--settle` needs besides the comparison.
pub struct Inputs<'a> {
    pub max_trials: u32,
    pub head: &'a Gate,
    pub run: &'a crate::store::record::RunRecord,
    pub matrix: PathBuf,
    pub suite: Option<&'a Path>,
    pub suite_loaded: &'a Suite,
    pub head_arm: Arm,
    pub base_arm: Arm,
}

/// The plan, printed and recorded before the first call, and what the rounds did.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub max_trials: u32,
    /// Trials per arm and unit a round adds.
    pub round_trials: u32,
    pub rounds_planned: u32,
    /// Significance level of every look (0.05 over the planned looks).
    pub alpha: f64,
    /// If no unit settles early: trials, requests and dollars of every round.
    pub worst_case: Cost,
    pub worst_case_rounds: Vec<Cost>,
    pub rounds: Vec<Round>,
    pub head_dir: String,
    pub base_dir: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Cost {
    pub trials: u64,
    pub requests: u64,
    /// None when the run's models are unpriced.
    pub usd: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Round {
    pub round: u32,
    pub units: usize,
    /// Planned for this round before its first call (both arms).
    pub planned: Cost,
    /// Units whose label settled after this round.
    pub settled: Vec<String>,
}

/// Per unit: requests a trial took at most in the head run, and what a trial cost on its model.
struct UnitCost {
    requests: u64,
    usd: Option<f64>,
}

fn key(u: &UnitChange) -> (String, String, String) {
    (u.model.clone(), u.case.clone(), u.variant.clone())
}

fn name(u: &UnitChange) -> String {
    format!("{}/{} on {}", u.case, u.variant, u.model)
}

/// Trials of `arm` numbered 1..=`target` not yet completed under the arm's charter: what a
/// resumed run of the folder to `target` trials will run for the unit.
fn missing(arm: &Arm, u: &UnitChange, target: u32) -> u64 {
    (1..=target)
        .filter(|&t| {
            let path = crate::store::transcript_path(&arm.dir, &u.model, &u.case, &u.variant, t);
            !crate::store::read_transcript(&path).is_ok_and(|t| {
                t.outcome == checkers::Outcome::Completed && t.charter_sha256 == arm.sha256
            })
        })
        .count() as u64
}

/// The trials every arm of every unit ends a round with (beyond the gate's): round j adds
/// `round` trials, up to `max_trials` − the gate's trials.
fn targets(round: u32, extra: u32) -> Vec<u32> {
    let rounds = extra.div_ceil(round);
    (1..=rounds).map(|j| (j * round).min(extra)).collect()
}

fn cost_of(
    units: &[&UnitChange],
    costs: &HashMap<(String, String, String), UnitCost>,
    trials_of: impl Fn(&UnitChange) -> u64,
) -> Cost {
    let mut c = Cost {
        usd: Some(0.0),
        ..Default::default()
    };
    for u in units {
        let t = trials_of(u);
        let uc = &costs[&key(u)];
        c.trials += t;
        c.requests += t * uc.requests;
        c.usd = match (c.usd, uc.usd) {
            (Some(a), Some(b)) => Some(a + b * t as f64),
            _ => None,
        };
    }
    c
}

fn usd_text(c: &Cost) -> String {
    match c.usd {
        Some(v) if v < 0.01 => format!("about ${v:.4}"),
        Some(v) => format!("about ${v:.2}"),
        None => "unpriced (the manifest has no prices)".into(),
    }
}

/// Settle the units within noise; `changes` get the settled labels and rates. `run_dir` is the
/// head run's folder. None when no unit is within noise.
pub fn settle(
    changes: &mut [UnitChange],
    inputs: &Inputs,
    run_dir: &Path,
) -> Result<Option<Report>> {
    let required = inputs.head.required;
    if inputs.max_trials <= required {
        return Err(Error::input(format!(
            "--settle {}: must exceed the gate's {required} trials per unit",
            inputs.max_trials
        )));
    }
    let noisy: Vec<usize> = (0..changes.len())
        .filter(|&i| changes[i].change == Change::WithinNoise)
        .collect();
    if noisy.is_empty() {
        return Ok(None);
    }
    let extra = inputs.max_trials - required;
    let round = required;
    let targets = targets(round, extra);
    let alpha = stats::ALPHA / (targets.len() as f64 + 1.0);
    let base_units: Vec<&UnitChange> = noisy.iter().map(|&i| &changes[i]).collect();
    let costs = unit_costs(inputs, run_dir, &base_units)?;
    let (worst_case_rounds, worst_case) = worst_case(&targets, &base_units, &costs);
    announce_plan(inputs, noisy.len(), &targets, alpha, &worst_case);
    let mut report = Report {
        max_trials: inputs.max_trials,
        round_trials: round,
        rounds_planned: targets.len() as u32,
        alpha,
        worst_case,
        worst_case_rounds,
        rounds: Vec::new(),
        head_dir: inputs.head_arm.dir.display().to_string(),
        base_dir: inputs.base_arm.dir.display().to_string(),
    };
    let open = run_rounds(changes, inputs, &noisy, &targets, &costs, &mut report)?;
    // Units that ran every round and stayed within noise are labelled at the corrected level.
    for &k in &open {
        changes[noisy[k]].alpha = alpha;
    }
    Ok(Some(report))
}

/// The rounds, each to its target: the units still open rerun on both arms, then relabelled;
/// each round kept in `report`. The units still open after the last (indices into `noisy`).
fn run_rounds(
    changes: &mut [UnitChange],
    inputs: &Inputs,
    noisy: &[usize],
    targets: &[u32],
    costs: &HashMap<(String, String, String), UnitCost>,
    report: &mut Report,
) -> Result<Vec<usize>> {
    // The gate's own rates, to which each round's trials are added.
    let gate_rates: Vec<(Rate, Rate)> = noisy
        .iter()
        .map(|&i| {
            (
                changes[i].head_rate,
                changes[i].base_rate.unwrap_or(Rate::new(0, 0)),
            )
        })
        .collect();
    let open_units = OpenUnits {
        noisy,
        gate_rates: &gate_rates,
        alpha: report.alpha,
    };
    let mut open: Vec<usize> = (0..noisy.len()).collect();
    for (j, &target) in targets.iter().enumerate() {
        if open.is_empty() {
            break;
        }
        let units: Vec<&UnitChange> = open.iter().map(|&k| &changes[noisy[k]]).collect();
        let planned = announce_round(j, target, &units, costs, inputs);
        let only: Vec<(String, String, String)> = units.iter().map(|u| key(u)).collect();
        for arm in [&inputs.head_arm, &inputs.base_arm] {
            run_arm(arm, inputs, &only, target)?;
        }
        let settled = relabel(changes, &open_units, &mut open, inputs, target)?;
        report.rounds.push(Round {
            round: j as u32 + 1,
            units: only.len(),
            planned,
            settled,
        });
    }
    Ok(open)
}

/// The plan, before the first call: how many units, rounds and trials at most, the level
/// every look is significant at, and the worst case's cost.
fn announce_plan(inputs: &Inputs, units: usize, targets: &[u32], alpha: f64, worst_case: &Cost) {
    let round = inputs.head.required;
    outln!(
        "\nsettle: {} unit(s) within noise; up to {} round(s) of {round} more trial(s) per arm (head and base charters) per unit, until the label settles or each arm has {} trials; significant at p < {} (0.05 over {} looks)\n  worst case: {} trials, {} requests (each as many as the unit's trials took in this run), {}; the gate's decision does not change",
        units,
        targets.len(),
        inputs.max_trials,
        stats::p_text(alpha),
        targets.len() + 1,
        worst_case.trials,
        worst_case.requests,
        usd_text(worst_case)
    );
}

/// If no unit settles before each arm has N trials: the cost of every round, and in all.
fn worst_case(
    targets: &[u32],
    units: &[&UnitChange],
    costs: &HashMap<(String, String, String), UnitCost>,
) -> (Vec<Cost>, Cost) {
    let rounds: Vec<Cost> = targets
        .iter()
        .enumerate()
        .map(|(j, &t)| {
            let before = if j == 0 { 0 } else { targets[j - 1] };
            cost_of(units, costs, |_| 2 * (t - before) as u64)
        })
        .collect();
    let all = rounds.iter().fold(
        Cost {
            usd: Some(0.0),
            ..Default::default()
        },
        |a, c| Cost {
            trials: a.trials + c.trials,
            requests: a.requests + c.requests,
            usd: a.usd.zip(c.usd).map(|(x, y)| x + y),
        },
    );
    (rounds, all)
}

/// Price round `j` (to `target` trials per arm for `units`) before its first call and say so.
fn announce_round(
    j: usize,
    target: u32,
    units: &[&UnitChange],
    costs: &HashMap<(String, String, String), UnitCost>,
    inputs: &Inputs,
) -> Cost {
    let planned = cost_of(units, costs, |u| {
        missing(&inputs.head_arm, u, target) + missing(&inputs.base_arm, u, target)
    });
    outln!(
        "settle round {}: {} unit(s) to {} more trials per arm: {} trials, {} requests, {}",
        j + 1,
        units.len(),
        target,
        planned.trials,
        planned.requests,
        usd_text(&planned)
    );
    planned
}

/// The units within noise: their indexes in the changes, the gate's own rates (head, base) of
/// each, and the significance level every look uses.
struct OpenUnits<'a> {
    noisy: &'a [usize],
    gate_rates: &'a [(Rate, Rate)],
    alpha: f64,
}

/// After a round to `target` trials: every open unit's rates are the gate's plus the settle
/// folders', relabelled; the units whose label settled leave `open` and are named.
fn relabel(
    changes: &mut [UnitChange],
    units: &OpenUnits,
    open: &mut Vec<usize>,
    inputs: &Inputs,
    target: u32,
) -> Result<Vec<String>> {
    let head_extra = rates(&inputs.head_arm.dir, inputs.suite_loaded)?;
    let base_extra = rates(&inputs.base_arm.dir, inputs.suite_loaded)?;
    let mut settled = Vec::new();
    open.retain(|&k| {
        let c = &mut changes[units.noisy[k]];
        let zero = Rate::new(0, 0);
        let (h, b) = units.gate_rates[k];
        c.head_rate = h.plus(*head_extra.get(&key(c)).unwrap_or(&zero));
        c.base_rate = Some(b.plus(*base_extra.get(&key(c)).unwrap_or(&zero)));
        c.relabel(units.alpha);
        c.settle_trials = Some(target);
        let done = c.change != Change::WithinNoise;
        if done {
            settled.push(format!(
                "{}: {} (p = {})",
                name(c),
                c.change.as_str(),
                stats::p_text(c.p_value.unwrap_or(1.0))
            ));
        }
        !done
    });
    for s in &settled {
        outln!("  settled {s}");
    }
    Ok(settled)
}

/// Per unit of the head run: requests per trial (the most any of its trials took) and what a
/// trial cost on its model.
fn unit_costs(
    inputs: &Inputs,
    run_dir: &Path,
    units: &[&UnitChange],
) -> Result<HashMap<(String, String, String), UnitCost>> {
    let mut out = HashMap::new();
    let usage = inputs.run.usage.as_deref().unwrap_or_default();
    for u in units {
        let trials = inputs
            .head
            .unit(&u.model, &u.case, &u.variant)
            .map_or(&[][..], |unit| &unit.trials[..]);
        let mut requests = 1;
        for t in trials {
            let path =
                crate::store::transcript_path(run_dir, &u.model, &u.case, &u.variant, t.trial);
            if let Ok(tr) = crate::store::read_transcript(&path) {
                let n: u64 = tr
                    .request_ids
                    .iter()
                    .flatten()
                    .map(|r| r.attempts.max(1) as u64)
                    .sum();
                requests = requests.max(n);
            }
        }
        let trials_on_model: usize = inputs
            .head
            .units
            .iter()
            .filter(|x| x.model == u.model)
            .map(|x| x.trials.len())
            .sum();
        // The run's cost per trial on this model, from run.json's usage.
        let usd = usage
            .iter()
            .find(|m| m.model == u.model)
            .and_then(|m| m.cost_usd)
            .filter(|_| trials_on_model > 0)
            .map(|c| c / trials_on_model as f64);
        out.insert(key(u), UnitCost { requests, usd });
    }
    Ok(out)
}

/// One round on one arm: its folder run (or resumed) to `target` trials for the open units.
fn run_arm(
    arm: &Arm,
    inputs: &Inputs,
    only: &[(String, String, String)],
    target: u32,
) -> Result<()> {
    let exists = arm.dir.join("run.json").is_file();
    let opts = RunOptions {
        matrix: inputs.matrix.clone(),
        cases: only.iter().map(|(_, c, _)| c.clone()).collect(),
        models: only.iter().map(|(m, _, _)| m.clone()).collect(),
        trials: Some(target),
        out: (!exists).then(|| arm.dir.clone()),
        resume: exists.then(|| arm.dir.clone()),
        charter: Some(arm.charter.clone()),
        charter_dir: arm.charter_dir.clone(),
        suite: inputs.suite.map(Path::to_path_buf),
        arms: vec!["charter".into()],
        only_units: Some(only.to_vec()),
        // Each round selects anew (the open units, more trials); completed trials are kept.
        all: true,
        ..Default::default()
    };
    session::run(&opts)?;
    Ok(())
}

/// Each unit's passed of decided trials in a settle folder.
fn rates(dir: &Path, suite: &Suite) -> Result<HashMap<(String, String, String), Rate>> {
    if !dir.join("transcripts").exists() {
        return Ok(HashMap::new());
    }
    let records = crate::store::run_folder::stored_records(dir, suite)?;
    let gate = Gate::from_records(&records, 1);
    Ok(gate
        .units
        .iter()
        .map(|u| {
            (
                (u.model.clone(), u.case.clone(), u.variant.clone()),
                Rate::of(u),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn rounds_add_the_gate_trials_until_each_arm_has_n() {
        assert_eq!(super::targets(3, 17), vec![3, 6, 9, 12, 15, 17]);
        assert_eq!(super::targets(3, 3), vec![3]);
        assert_eq!(super::targets(1, 2), vec![1, 2]);
    }
}
