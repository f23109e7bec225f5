//! `harness gate`: a run folder's gate decided again from its stored transcripts, optionally
//! against the charter at a base revision.

use super::{existing_or_latest_hint, SuiteArgs, LATEST};
use crate::error::Result;
use crate::regate::{self, BaseOptions, GateOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct GateArgs {
    /// The run folder (results/latest: the newest run in this folder).
    #[arg(default_value = LATEST)]
    run_dir: PathBuf,
    /// Also rerun the failing units on the charter at this git revision, each needed trial
    /// once (planned and priced before the first call; transcripts stored for the same inputs
    /// are reused), and report regressions and improvements per unit. The revision is checked
    /// before anything is written.
    #[arg(long, value_name = "REV")]
    charter_base: Option<String>,
    /// A run folder made on the base charter to reuse (its charter sha256 must match).
    #[arg(long, requires = "charter_base")]
    base_results: Option<PathBuf>,
    /// The manifest for the base run (default: the one the run recorded).
    #[arg(long, requires = "charter_base")]
    matrix: Option<PathBuf>,
    /// For units whose difference from the base is within noise: more trials on both charters,
    /// one round (the gate's trials per unit) at a time, until the label settles or each arm has
    /// N trials. The worst case is planned and priced before the first call; the gate's decision
    /// never changes (the trials go to settle/ in the run folder).
    #[arg(long, value_name = "N", requires = "charter_base")]
    settle: Option<u32>,
    /// Print the run's summary on stdout, one JSON object (summary.json's record, with its
    /// schema_version); the table and verdict line go to stderr. Nothing on stdout when the
    /// gate is not computed (exit 2).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: GateArgs) -> Result<u8> {
    crate::output::json::set_stdout_json(args.json);
    let run_dir = existing_or_latest_hint(vec![args.run_dir])?.remove(0);
    regate::gate(&GateOptions {
        run_dir,
        suite: args.suite.suite,
        // clap requires --charter-base for the options that go with it.
        base: args.charter_base.map(|rev| BaseOptions {
            rev,
            base_results: args.base_results,
            matrix: args.matrix,
            settle: args.settle,
        }),
        step_summary: true,
    })
}
