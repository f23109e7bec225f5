//! `harness comment`: the pull-request comment the workflow posts, printed.

use crate::error::Result;
use crate::inspect::comment::{self, CommentOptions, State};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CommentArgs {
    /// The run folder whose gate to comment on (results/latest: the newest run).
    #[arg(default_value = super::LATEST, conflicts_with_all = ["lint", "lint_failed", "fork_waiting"])]
    run_dir: PathBuf,
    /// Comment on lint findings instead: `harness lint … --json` output (JSON Lines: file,
    /// line, rule, kind = error|warning|needs-reviewer, message, fix).
    #[arg(long, value_name = "FILE")]
    lint: Option<PathBuf>,
    /// The lint job failed before reporting: why.
    #[arg(long, value_name = "REASON")]
    lint_failed: Option<String>,
    /// A fork's pull request (this number) waits for a maintainer to run the gate.
    #[arg(long, value_name = "PR")]
    fork_waiting: Option<u64>,
    /// The workflow run's page: linked at the end and from the note when the comment is cut.
    #[arg(long, value_name = "URL")]
    run_url: Option<String>,
    /// Also write the charter-gate status ({"state", "description"}) here; a comment that
    /// cannot be built is an `error` status with the reason, never a missing one.
    #[arg(long, value_name = "FILE")]
    status: Option<PathBuf>,
}

pub(super) fn run(args: CommentArgs) -> Result<u8> {
    let state = match (args.lint, args.lint_failed, args.fork_waiting) {
        (Some(f), _, _) => State::Lint(f),
        (_, Some(why), _) => State::LintFailed(why),
        (_, _, Some(pr)) => State::ForkWaiting(pr),
        _ => State::Gate(args.run_dir),
    };
    comment::run(&CommentOptions {
        state,
        run_url: args.run_url,
        status: args.status,
    })
}
