//! `harness init`: a charter repository set up for the gate.

use crate::error::Result;
use crate::exit;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct InitArgs {
    /// The charter repository's root (default: the current folder).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Overwrite files that exist.
    #[arg(long)]
    force: bool,
    /// The action every job installs the harness with, OWNER/REPO@REF: REF a release tag or a
    /// full commit SHA (default: this release of charter-harness/charter-harness).
    #[arg(long, value_name = "OWNER/REPO@REF")]
    action: Option<String>,
    /// The branch whose pushes store the gate (default: the repository's default branch, read
    /// from origin/HEAD, else the branch checked out, else main).
    #[arg(long)]
    branch: Option<String>,
    /// The charter, from the repository root, when it is not CHARTER.md (e.g. docs/charter.md):
    /// the manifest's [charter] source and the workflow's path filters name it.
    #[arg(long, value_name = "PATH")]
    charter: Option<String>,
    /// For a repository with no charter yet: also write the harness's example charter at
    /// CHARTER.md (or --charter PATH), to try the gate on.
    #[arg(long)]
    example: bool,
}

pub(super) fn run(args: InitArgs) -> Result<u8> {
    let init = if args.example {
        crate::suite::init::run_with_example
    } else {
        crate::suite::init::run
    };
    init(
        &args.dir,
        args.action.as_deref(),
        args.branch,
        args.charter,
        args.force,
    )?;
    Ok(exit::OK)
}
