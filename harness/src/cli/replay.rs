//! `harness replay`: a stored trial's first model request sent again to the same model.

use super::SuiteArgs;
use crate::error::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ReplayArgs {
    /// The transcript to replay.
    path: PathBuf,
    /// The manifest whose model entry (URL, key variable) the replay uses, matched by the
    /// transcript's model name; a transcript that recorded another URL is refused.
    #[arg(long)]
    matrix: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: ReplayArgs) -> Result<u8> {
    crate::inspect::replay::run(&args.path, &args.matrix, args.suite.suite.as_deref())
}
