//! The `harness` binary: parse the command line, run it, map the result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    match harness::cli::run() {
        Ok(status) => ExitCode::from(status),
        Err(err) => err.report(),
    }
}
