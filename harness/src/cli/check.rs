//! `harness check`: stored transcripts re-checked offline with the current checkers.

use super::{run_to_read, SuiteArgs, LATEST};
use crate::error::Result;
use crate::inspect::check::{self, CheckOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CheckArgs {
    /// Transcript files, or folders searched for them (a run folder, a unit folder). Without a
    /// path: results/latest (the newest full run), named on stderr with any newer narrowed run;
    /// before the first full run, the newest narrowed run.
    #[arg(default_value = LATEST)]
    paths: Vec<PathBuf>,
    /// Print one JSON verdict per line (format: docs/formats.md).
    #[arg(long)]
    json: bool,
    /// Print every verdict with its failed criteria, not only the ones that changed.
    #[arg(long, short)]
    verbose: bool,
    /// Compare against this charter's Core Invariants instead of each transcript's system prompt.
    #[arg(long)]
    charter: Option<String>,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: CheckArgs) -> Result<u8> {
    check::run(&CheckOptions {
        paths: run_to_read(args.paths)?,
        json: args.json,
        verbose: args.verbose,
        charter: args.charter,
        suite: args.suite.suite,
    })
}
