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
    /// The base revision the gate is decided against: its manifest's `[run] gate` (the
    /// base's policy, which the pull request cannot change) is part of the key, so a gate
    /// stored under one policy is never reused under another.
    #[arg(long, value_name = "REV")]
    charter_base: Option<String>,
    /// Print `{"key": …, "matrix": …}` instead of the bare key.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: KeyArgs) -> Result<u8> {
    let key = crate::run::key::inputs_key(&args.matrix, args.suite.suite.as_deref())?;
    let key = match &args.charter_base {
        Some(rev) => {
            let manifest = crate::suite::manifest::resolve(&args.matrix);
            let policy = crate::regate::base::base_policy(&manifest, rev)?;
            crate::run::key::with_policy(&key, policy)
        }
        None => key,
    };
    if args.json {
        let v = serde_json::json!({"key": key, "matrix": args.matrix.to_string_lossy()});
        crate::output::json::out_doc(crate::output::json::KEY, &v);
    } else {
        outln!("{key}");
    }
    Ok(exit::OK)
}
