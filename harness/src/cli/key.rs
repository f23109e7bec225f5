//! `harness key`: the key of a gate's inputs, equal when a stored gate can be reused.

use super::SuiteArgs;
use crate::error::Result;
use crate::exit;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct KeyArgs {
    /// The manifest, as for `run`.
    #[arg(long)]
    matrix: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: KeyArgs) -> Result<u8> {
    outln!(
        "{}",
        crate::run::key::inputs_key(&args.matrix, args.suite.suite.as_deref())?
    );
    Ok(exit::OK)
}
