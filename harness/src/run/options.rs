//! What `harness run` is asked to do: its options, and the parse of what they name (the arms,
//! the shard, the trials per unit). Below the selection, which resolves them once.

use crate::error::{Error, Result};
use std::path::PathBuf;

/// What `harness run` was asked to do.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub matrix: PathBuf,
    pub cases: Vec<String>,
    pub variants: Vec<String>,
    pub models: Vec<String>,
    pub trials: Option<u32>,
    pub out: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    pub charter: Option<String>,
    /// The folder `charter` is relative to (default: the current folder).
    pub charter_dir: Option<PathBuf>,
    pub suite: Option<PathBuf>,
    pub shard: Option<String>,
    pub arms: Vec<String>,
    pub fail_fast: bool,
    /// Print each trial's story instead of progress.
    pub story: Option<crate::report::story::StoryOptions>,
    /// Run only these units (model, case, variant); others are skipped like another shard's.
    pub only_units: Option<Vec<(String, String, String)>>,
    /// Run model-influenced commands unconfined (`--no-sandbox`).
    pub no_sandbox: bool,
    /// With `resume`: the selection is these options', not the one the folder recorded
    /// (`--resume DIR --all`: every unit; a base rerun: the units it needs). Completed trials
    /// are kept either way.
    pub all: bool,
    /// `--max-concurrency N`: an upper bound on every model entry's `max_concurrency`.
    pub max_concurrency: Option<usize>,
    /// `--dry-run`: check and plan, send nothing, write nothing.
    pub dry_run: bool,
}

/// The arms a run asked for (`charter` unless told).
pub(crate) fn arms_of(opts: &RunOptions) -> Vec<String> {
    if opts.arms.is_empty() {
        vec!["charter".to_string()]
    } else {
        opts.arms.clone()
    }
}

/// The arms a run asked for, each one this harness knows, the charter's among them.
pub(crate) fn checked_arms(opts: &RunOptions) -> Result<Vec<String>> {
    let arms = arms_of(opts);
    if let Some(bad) = arms
        .iter()
        .find(|a| !["charter", "control"].contains(&a.as_str()))
    {
        return Err(Error::input(format!(
            "--arms: unknown arm {bad:?} (arms: charter, control)"
        )));
    }
    if !arms.iter().any(|a| a == "charter") {
        return Err(Error::input(
            "--arms must include charter: the gate is decided on the charter arm",
        ));
    }
    Ok(arms)
}

/// Trials per unit: `--trials` (or what the resumed run had), else the manifest's.
pub(crate) fn trials_of(opts: &RunOptions, manifest_trials: u32) -> Result<u32> {
    let trials = opts.trials.unwrap_or(manifest_trials);
    if trials == 0 {
        return Err(Error::input("--trials must be at least 1"));
    }
    if u64::from(trials) > crate::suite::manifest::MAX_TRIALS {
        return Err(Error::input(format!(
            "--trials {trials} is more than {} trials a unit",
            crate::suite::manifest::MAX_TRIALS
        )));
    }
    Ok(trials)
}

/// `K/N` as (k, n) with 1 ≤ k ≤ n.
pub(crate) fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let bad = || Error::input(format!("--shard {s:?}: want K/N with 1 ≤ K ≤ N, e.g. 1/2"));
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}
