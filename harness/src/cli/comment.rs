//! `harness comment`: the pull-request comment the workflow posts, printed.

use crate::ci::comment::{self, CommentOptions, State};
use crate::error::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CommentArgs {
    /// The run folder whose gate to comment on (results/latest: the newest run).
    #[arg(default_value = super::LATEST, conflicts_with_all = ["lint", "lint_failed", "fork_waiting", "error"])]
    run_dir: PathBuf,
    /// Comment on lint findings instead: `harness lint … --json` output (JSON Lines: file,
    /// line, rule, kind = error|warning|needs-reviewer, message, fix).
    #[arg(long, value_name = "FILE")]
    lint: Option<PathBuf>,
    /// With a run's gate: the lint findings (`harness lint … --json` output) whose questions
    /// for a reviewer follow the gate.
    #[arg(long, value_name = "FILE", conflicts_with = "lint")]
    with_lint: Option<PathBuf>,
    /// The lint job failed before reporting: why.
    #[arg(long, value_name = "REASON")]
    lint_failed: Option<String>,
    /// A fork's pull request (this number) waits for a maintainer to run the gate.
    #[arg(long, value_name = "PR")]
    fork_waiting: Option<u64>,
    /// The gate did not finish (a job failed before it wrote a gate): why. An `error` status.
    #[arg(long, value_name = "REASON")]
    error: Option<String>,
    /// The workflow run's page: linked at the end and from the note when the comment is cut.
    #[arg(long, value_name = "URL")]
    run_url: Option<String>,
    /// The commit the gate tested (a full SHA), named at the end.
    #[arg(long, value_name = "SHA")]
    head: Option<String>,
    /// Also write the charter-gate status ({"state", "description"}) here; a comment that
    /// cannot be built is an `error` status with the reason, never a missing one.
    #[arg(long, value_name = "FILE")]
    status: Option<PathBuf>,
}

pub(super) fn run(args: CommentArgs) -> Result<u8> {
    let state = match (args.lint, args.lint_failed, args.fork_waiting, args.error) {
        (Some(f), _, _, _) => State::Lint(f),
        (_, Some(why), _, _) => State::LintFailed(why),
        (_, _, Some(pr), _) => State::ForkWaiting(pr),
        (_, _, _, Some(why)) => State::Error(why),
        _ => State::Gate(args.run_dir),
    };
    comment::run(&CommentOptions {
        state,
        run_url: args.run_url,
        status: args.status,
        lint: args.with_lint,
        head: args.head,
    })
}
