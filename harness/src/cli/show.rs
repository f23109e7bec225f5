//! `harness show`: stored transcripts as stories, re-checked with the current checkers.

use super::{existing_or_latest_hint, SuiteArgs, LATEST};
use crate::error::Result;
use crate::inspect::show::{self, ShowOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ShowArgs {
    /// Transcript files, or folders searched for them.
    #[arg(default_value = LATEST)]
    paths: Vec<PathBuf>,
    /// Show the seeded turns (folded by default).
    #[arg(long)]
    seeded: bool,
    /// Print only the verdicts, one JSON object per line.
    #[arg(long)]
    json: bool,
    /// Colour: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t)]
    color: super::Color,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: ShowArgs) -> Result<u8> {
    existing_or_latest_hint(&args.paths)?;
    show::run(&ShowOptions {
        color: !args.json && args.color.resolve(),
        paths: args.paths,
        seeded: args.seeded,
        json: args.json,
        suite: args.suite.suite,
    })
}
