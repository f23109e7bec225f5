//! `harness cases`: the cases and variants of the suite, with their workspace and tools.

use super::SuiteArgs;
use crate::error::Result;
use crate::exit;
use crate::suite::{self, Suite};
use clap::Args;

#[derive(Args)]
pub(super) struct CasesArgs {
    /// One JSON object a line per case (id, title, checker, variants, rules, passes_when).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    suite: SuiteArgs,
}

pub(super) fn run(args: CasesArgs) -> Result<u8> {
    let suite = Suite::load(&suite::locate(args.suite.suite.as_deref())?)?;
    for c in &suite.cases {
        if args.json {
            crate::output::json::out_doc(crate::output::json::CASES, &c.listing_json());
        } else {
            out!("{}", c.listing());
        }
    }
    Ok(exit::OK)
}
