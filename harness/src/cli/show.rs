//! `harness show`: stored transcripts as stories, re-checked with the current checkers.

use super::{run_to_read, SuiteArgs, LATEST};
use crate::error::Result;
use crate::inspect::show::{self, ShowOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ShowArgs {
    /// Transcript files, or folders searched for them; a case id (`E8`) shows that case of
    /// results/latest. Without a path: results/latest (the newest full run), named on stderr
    /// with any newer narrowed run; before the first full run, the newest narrowed run.
    #[arg(default_value = LATEST)]
    paths: Vec<PathBuf>,
    /// Only these cases (E8, e8 and E08 are the same); repeatable, or comma-separated.
    #[arg(long = "case")]
    cases: Vec<String>,
    /// Only these models, by name; repeatable, or comma-separated.
    #[arg(long = "model")]
    models: Vec<String>,
    /// Only the trials that did not pass.
    #[arg(long)]
    failed: bool,
    /// Show the seeded turns (folded by default).
    #[arg(long)]
    seeded: bool,
    /// Print only the verdicts, one JSON object per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

/// Whether a path argument is a case id (`E8`, `e08`) rather than a file.
fn is_case_id(p: &std::path::Path) -> bool {
    !p.exists()
        && p.to_str()
            .and_then(checkers::registry::normalize_case_id)
            .is_some()
}

pub(super) fn run(mut args: ShowArgs) -> Result<u8> {
    // `harness show E8`: a case of results/latest.
    let (ids, paths): (Vec<PathBuf>, Vec<PathBuf>) =
        args.paths.into_iter().partition(|p| is_case_id(p));
    args.cases
        .extend(ids.iter().map(|p| p.to_string_lossy().into_owned()));
    args.paths = if paths.is_empty() {
        vec![PathBuf::from(LATEST)]
    } else {
        paths
    };
    args.paths = run_to_read(args.paths)?;
    show::run(&ShowOptions {
        color: !args.json && super::coloured(),
        cases: args.cases,
        models: args.models,
        failed: args.failed,
        paths: args.paths,
        seeded: args.seeded,
        json: args.json,
        suite: args.suite.suite,
    })
}
