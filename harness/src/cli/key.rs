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
    /// Print `{"key": …, "matrix": …}` instead of the bare key.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: KeyArgs) -> Result<u8> {
    let key = crate::run::key::inputs_key(&args.matrix, args.suite.suite.as_deref())?;
    if args.json {
        let v = serde_json::json!({"key": key, "matrix": args.matrix.to_string_lossy()});
        crate::output::out_json(&v.to_string());
    } else {
        outln!("{key}");
    }
    Ok(exit::OK)
}
