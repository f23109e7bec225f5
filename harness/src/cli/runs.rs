//! `harness runs`: the runs of a results folder, newest first.

use crate::error::Result;
use crate::exit;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct RunsArgs {
    #[arg(default_value = "results")]
    dir: PathBuf,
    /// One JSON object a line per run (schema_version, run, started, charter_version,
    /// verdict, models, charter, narrowed), newest first; no line when the folder holds no run.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(mut args: RunsArgs) -> Result<u8> {
    if args.dir == std::path::Path::new("results") {
        args.dir = super::at_root(&args.dir);
    }
    // run.json files are as untrusted as the transcripts beside them.
    if args.json {
        for row in crate::store::runs::rows(&args.dir)? {
            crate::output::json::out_doc(crate::output::json::RUNS, &row);
        }
        return Ok(exit::OK);
    }
    out!("{}", crate::store::runs::list(&args.dir)?);
    Ok(exit::OK)
}
