//! `harness cases`: the cases and variants of the suite, with their workspace and tools.

use super::SuiteArgs;
use crate::error::Result;
use crate::exit;
use crate::suite::{self, Suite};

pub(super) fn run(args: SuiteArgs) -> Result<u8> {
    let suite = Suite::load(&suite::locate(args.suite.as_deref())?)?;
    for c in &suite.cases {
        out!("{}", c.listing());
    }
    Ok(exit::OK)
}
