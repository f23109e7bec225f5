//! `harness compare`: two runs compared unit by unit.

use super::SuiteArgs;
use crate::error::Result;
use crate::inspect::compare::{self, CompareOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CompareArgs {
    /// The first run folder (or DIR:MODEL).
    a: String,
    /// The second run folder (or DIR:MODEL); changes read from A to B.
    b: String,
    /// Print JSON instead of Markdown.
    #[arg(long)]
    json: bool,
    /// Also write the comparison as a self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: CompareArgs) -> Result<u8> {
    compare::run(&CompareOptions {
        a: args.a,
        b: args.b,
        json: args.json,
        html: args.html,
        suite: args.suite.suite,
    })
}
