//! `harness runs`: the runs of a results folder, newest first.

use crate::error::Result;
use crate::exit;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct RunsArgs {
    #[arg(default_value = "results")]
    dir: PathBuf,
}

pub(super) fn run(args: RunsArgs) -> Result<u8> {
    // run.json files are as untrusted as the transcripts beside them.
    out!("{}", crate::store::runs::list(&args.dir)?);
    Ok(exit::OK)
}
