//! A run's selection: the filters as run.json records them, the selection a resumed run folder
//! recorded, the flags of a resume checked against it, and what a resume says it will do.

use crate::error::{Error, Result};
use crate::run::inputs::Inputs;
use crate::run::options::arms_of;
use crate::run::options::parse_shard;
use crate::run::options::RunOptions;
use crate::run::runner::RunPlan;
use crate::store::record::RunRecord;
use crate::suite;
use std::path::Path;

/// The options a resume runs with: the folder's recorded selection, or with `all` the options'
/// own (never fewer trials than the folder has).
pub(crate) fn selection_of(opts: &RunOptions, prev: &RunRecord) -> Result<RunOptions> {
    let recorded_trials = prev.trials;
    if opts.all {
        // A base rerun asks for the head's trials of the units it needs, whatever its folder
        // holds; `--all` only widens.
        if let (Some(asked), Some(had), None) = (opts.trials, recorded_trials, &opts.only_units) {
            if asked < had {
                return Err(Error::input(format!(
                    "--resume --all --trials {asked}: the run already has {had} trials per unit; widening never drops trials"
                )));
            }
        }
        return Ok(RunOptions {
            trials: opts.trials.or(recorded_trials),
            arms: if opts.arms.is_empty() {
                prev.arms()
            } else {
                opts.arms.clone()
            },
            ..opts.clone()
        });
    }
    Ok(RunOptions {
        cases: prev.filters.case.clone(),
        variants: prev.filters.variant.clone(),
        models: prev.filters.model.clone(),
        trials: recorded_trials,
        shard: prev.shard.clone(),
        arms: prev.arms(),
        only_units: prev.units.clone(),
        ..opts.clone()
    })
}

/// `--resume DIR` with selection flags: they must say what the folder recorded, since a resume
/// finishes that selection and nothing else.
pub(crate) fn same_selection(
    asked: &RunOptions,
    recorded: &RunOptions,
    inputs: &Inputs,
) -> Result<()> {
    let dir = asked.resume.as_deref().unwrap_or(Path::new("."));
    let differs = |what: &str| {
        Error::input(format!(
            "{}: --resume finishes the run's own selection ({}), and {what} asks for another; \
             to add every unit of the manifest to this run: --resume {} --all; for another selection: a new run (--out)",
            dir.display(),
            describe(recorded),
            dir.display()
        ))
    };
    let unit_set = |o: &RunOptions| -> Result<std::collections::BTreeSet<(String, String)>> {
        Ok(suite::select(&inputs.suite, &o.cases, &o.variants)?
            .into_iter()
            .map(|(c, v)| (c.id.clone(), v.id.clone()))
            .collect())
    };
    if (!asked.cases.is_empty() || !asked.variants.is_empty())
        && unit_set(asked)? != unit_set(recorded)?
    {
        return Err(differs("--case/--variant"));
    }
    let model_set = |o: &RunOptions| -> Result<std::collections::BTreeSet<String>> {
        Ok(inputs
            .loaded
            .select_models(&o.models)?
            .iter()
            .map(|m| m.name().to_string())
            .collect())
    };
    if !asked.models.is_empty() && model_set(asked)? != model_set(recorded)? {
        return Err(differs("--model"));
    }
    let recorded_trials = recorded.trials.unwrap_or(inputs.loaded.manifest.run.trials);
    if asked.trials.is_some_and(|t| t != recorded_trials) {
        return Err(differs("--trials"));
    }
    let shard = |o: &RunOptions| o.shard.as_deref().map(parse_shard).transpose();
    if asked.shard.is_some() && shard(asked)? != shard(recorded)? {
        return Err(differs("--shard"));
    }
    let arm_set = |o: &RunOptions| {
        arms_of(o)
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
    };
    if !asked.arms.is_empty() && arm_set(asked) != arm_set(recorded) {
        return Err(differs("--arms"));
    }
    Ok(())
}

/// The filters as run.json records them: case ids as the suite spells them, model names, each
/// once (`--case E1 --case e1` is `--case E1`).
pub(crate) fn canonical(opts: &RunOptions, inputs: &Inputs) -> RunOptions {
    let once = |values: Vec<String>| {
        let mut out: Vec<String> = Vec::new();
        for v in values {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(&v)) {
                out.push(v);
            }
        }
        out
    };
    let split = crate::suite::split_list;
    let cases = split(&opts.cases)
        .into_iter()
        .map(|c| inputs.suite.case(&c).map_or(c, |case| case.id.clone()))
        .collect();
    let models = match opts.models.is_empty() {
        true => Vec::new(),
        false => inputs
            .providers
            .iter()
            .map(|(m, _)| m.name().to_string())
            .collect(),
    };
    RunOptions {
        cases: once(cases),
        variants: once(split(&opts.variants)),
        models,
        ..opts.clone()
    }
}

/// A selection as the flags that make it.
fn describe(o: &RunOptions) -> String {
    let mut units = Vec::new();
    for (flag, values) in [
        ("--case", &o.cases),
        ("--variant", &o.variants),
        ("--model", &o.models),
    ] {
        units.extend(values.iter().map(|v| format!("{flag} {v}")));
    }
    if let Some(s) = &o.shard {
        units.push(format!("--shard {s}"));
    }
    if let Some(u) = &o.only_units {
        units.push(format!("{} unit(s) of a base rerun", u.len()));
    }
    let mut more = Vec::new();
    if let Some(t) = o.trials {
        more.push(format!("--trials {t}"));
    }
    if arms_of(o) != ["charter"] {
        more.push(format!("--arms {}", arms_of(o).join(",")));
    }
    match (units.is_empty(), more.is_empty()) {
        (true, true) => "every unit of the manifest".to_string(),
        (true, false) => format!("every unit of the manifest, {}", more.join(" ")),
        _ => [units, more].concat().join(" "),
    }
}

/// What a resume will do, before its plan: how much of the selection is done, and with `all`
/// what widening adds.
pub(crate) fn resume_note(opts: &RunOptions, prev: &RunRecord, plan: &RunPlan) -> String {
    let (left, completed) = (plan.plan.len(), plan.plan.completed);
    let selected = left + completed;
    if opts.only_units.is_some() {
        return format!(
            "base rerun: {completed} of {selected} needed trials stored with the same inputs and reused; sending {left}\n"
        );
    }
    if opts.all {
        let before = selection_of(
            &RunOptions {
                all: false,
                ..opts.clone()
            },
            prev,
        )
        .map(|o| describe(&o))
        .unwrap_or_default();
        return format!(
            "resume --all: widening the run ({before}) to {}: {selected} trials, {completed} already completed, {left} added\n",
            describe(opts),
        );
    }
    format!(
        "resume: {completed} of {selected} trials already completed ({}); running the rest\n",
        describe(opts)
    )
}
