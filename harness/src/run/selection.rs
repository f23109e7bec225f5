//! A run's selection, resolved once from its options before anything runs: the selection a
//! resumed run folder recorded, the flags of a resume checked against it, the filters as
//! run.json records them, the trials, arms and shard, and the inputs they select, loaded. What
//! comes out (`Resolved`) flows down to the plan and the run; nothing asks here again.

use crate::error::{Error, Result};
use crate::run::inputs::Inputs;
use crate::run::options::{arms_of, checked_arms, parse_shard, trials_of, RunOptions};
use crate::store::record::RunRecord;
use crate::store::run_folder;
use crate::suite;
use std::path::Path;

/// A run's options resolved: the selection it runs with (a resume's: what its folder recorded),
/// its filters as run.json records them, typed; its inputs loaded and checked; the resumed
/// run's record. Everything is checked before any model is called.
pub(crate) struct Resolved {
    /// The options the run runs with, their filters as run.json records them.
    pub(crate) opts: RunOptions,
    /// Trials per unit.
    pub(crate) trials: u32,
    /// The arms to run (`charter`, and `control` with it).
    pub(crate) arms: Vec<String>,
    pub(crate) with_control: bool,
    /// This run's shard (k, n), if any.
    pub(crate) shard: Option<(usize, usize)>,
    pub(crate) inputs: Inputs,
    /// The resumed run's record (`--resume`).
    pub(crate) previous: Option<RunRecord>,
    /// What a resume does, said before its plan.
    pub(crate) resume: Option<Resume>,
}

/// What a resume does, as the selections it finishes or widens (the flags that make them).
pub(crate) enum Resume {
    /// A base rerun: the units the head's gate needs.
    BaseRerun,
    /// `--resume --all`: the recorded selection widened to this one.
    Widen { before: String, after: String },
    /// The recorded selection finished.
    Finish { selection: String },
}

/// The options a run runs with, its inputs loaded and checked, and the resumed run's record.
pub(crate) fn resolve_run(asked: &RunOptions) -> Result<Resolved> {
    let previous = (asked.resume.as_deref())
        .map(|dir| RunRecord::read(&dir.join("run.json")))
        .transpose()?;
    // A resumed run finishes its own selection; `all` (and a base rerun) selects anew.
    let opts = match &previous {
        Some(prev) => selection_of(asked, prev)?,
        None => asked.clone(),
    };
    let inputs = Inputs::load(&opts)?;
    let shard = opts.shard.as_deref().map(parse_shard).transpose()?;
    let arms = checked_arms(&opts)?;
    if previous.is_some() && !opts.all {
        same_selection(asked, &opts, &inputs)?;
    }
    let opts = canonical(&opts, &inputs);
    if let (Some(dir), Some(prev)) = (&opts.resume, &previous) {
        run_folder::check_resumable(dir, prev, &inputs.charter, &inputs.loaded)?;
    }
    let trials = trials_of(&opts, inputs.loaded.manifest.run.trials)?;
    let resume = previous.as_ref().map(|prev| resume_of(&opts, prev));
    Ok(Resolved {
        with_control: arms.iter().any(|a| a == "control"),
        opts,
        trials,
        arms,
        shard,
        inputs,
        previous,
        resume,
    })
}

/// The options a resume runs with: the folder's recorded selection, or with `all` the options'
/// own (never fewer trials than the folder has).
fn selection_of(opts: &RunOptions, prev: &RunRecord) -> Result<RunOptions> {
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
fn same_selection(asked: &RunOptions, recorded: &RunOptions, inputs: &Inputs) -> Result<()> {
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
fn canonical(opts: &RunOptions, inputs: &Inputs) -> RunOptions {
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

/// What a resume does: a base rerun, a widening (`all`: from the recorded selection to this
/// one), or the recorded selection finished.
fn resume_of(opts: &RunOptions, prev: &RunRecord) -> Resume {
    if opts.only_units.is_some() {
        return Resume::BaseRerun;
    }
    if opts.all {
        let recorded = RunOptions {
            all: false,
            ..opts.clone()
        };
        let before = selection_of(&recorded, prev)
            .map(|o| describe(&o))
            .unwrap_or_default();
        return Resume::Widen {
            before,
            after: describe(opts),
        };
    }
    Resume::Finish {
        selection: describe(opts),
    }
}
