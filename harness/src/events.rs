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
}

#[derive(Debug, Clone)]
pub enum Event {
    RunStarted {
        run_dir: PathBuf,
        per_model: Vec<(String, usize)>,
    },
    TrialFinished(TrialRecord),
    RunFinished,
}
