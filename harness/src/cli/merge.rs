//! `harness merge`: the run folders of sharded jobs combined into one, then gated.

use super::SuiteArgs;
use crate::error::Result;
use crate::regate::merge::{self, MergeOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct MergeArgs {
    /// Run folders of the shards.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The merged run folder to write (must not exist or be empty).
    #[arg(long)]
    out: PathBuf,
    /// Write nothing to $GITHUB_STEP_SUMMARY (a later `gate --charter-base` writes it).
    #[arg(long)]
    quiet_summary: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: MergeArgs) -> Result<u8> {
    merge::merge(&MergeOptions {
        dirs: args.dirs,
        out: args.out,
        step_summary: !args.quiet_summary,
        suite: args.suite.suite,
    })
}
