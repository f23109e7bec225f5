//! `harness calibrate`: the checkers' agreement with people's labels and the golden files.

use super::SuiteArgs;
use crate::error::Result;
use crate::inspect::calibrate::{self, CalibrateOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CalibrateArgs {
    /// Folders holding labels.jsonl files or golden files (e.g. checkers/tests/golden).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Print one JSON object per labelled transcript, then a summary object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: CalibrateArgs) -> Result<u8> {
    calibrate::run(&CalibrateOptions {
        dirs: args.dirs,
        json: args.json,
        suite: args.suite.suite,
    })
}
