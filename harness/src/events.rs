//! Events the runner emits. The runner never prints; reporters turn events into output.

use checkers::Verdict;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrialStatus {
    Pass,
    Fail,
    Inconclusive,
}

impl TrialStatus {
    pub fn of(v: &Verdict) -> TrialStatus {
        if v.inconclusive {
            TrialStatus::Inconclusive
        } else if v.pass {
            TrialStatus::Pass
        } else {
            TrialStatus::Fail
        }
    }
}

#[derive(Debug, Clone)]
pub struct TrialRecord {
    pub model: String,
    pub case: String,
    pub variant: String,
    pub trial: u32,
    pub verdict: Verdict,
    pub path: PathBuf,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    /// Model ids the API reported that differ from the pinned one.
    pub alias_drift: Vec<String>,
    pub transcript: std::sync::Arc<checkers::Transcript>,
}

#[derive(Debug, Clone)]
pub enum Event {
    RunStarted {
        run_dir: PathBuf,
        per_model: Vec<(String, usize)>,
    },
    TrialFinished(TrialRecord),
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
    RunFinished,
}
