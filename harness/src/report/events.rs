//! Events the runner emits. The runner never prints; reporters turn events into output.

use crate::store::trial::TrialRecord;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub enum Event {
    RunStarted {
        run_dir: PathBuf,
        per_model: Vec<(String, usize)>,
    },
    TrialFinished {
        record: TrialRecord,
        /// The first failed criterion, `name: detail`, for a progress line.
        why: Option<String>,
    },
    /// A request failed and will be retried after `wait_ms`.
    Retry {
        model: String,
        case: String,
        variant: String,
        trial: u32,
        attempt: u32,
        reason: String,
        wait_ms: u64,
    },
    /// A request waits on its account's rate limits (not a failure): about `wait_ms` as the
    /// limiter knows now.
    Waiting {
        model: String,
        account: String,
        wait_ms: u64,
    },
    RunFinished,
}
