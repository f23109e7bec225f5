//! A finished trial as the run keeps it: its status and the record the gate and reports read,
//! pointing at the transcript file and the verdict in the spool.

use checkers::Verdict;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrialStatus {
    Pass,
    Fail,
    Inconclusive,
    /// The checker could not decide and no label or policy has: needs a person's label.
    Unsure,
}

impl TrialStatus {
    pub fn of(v: &Verdict) -> TrialStatus {
        if v.inconclusive {
            TrialStatus::Inconclusive
        } else if v.unsure() {
            TrialStatus::Unsure
        } else if v.pass {
            TrialStatus::Pass
        } else {
            TrialStatus::Fail
        }
    }
}

/// What a finished trial leaves behind in memory: what the gate and the reports' summary lines
/// need, and where the rest is (the transcript file, the verdict in the run's spool). Its size
/// does not depend on the transcript's, so a run's memory stays flat however many trials it has.
#[derive(Debug, Clone)]
pub struct TrialRecord {
    pub model: std::sync::Arc<str>,
    pub case: std::sync::Arc<str>,
    pub variant: std::sync::Arc<str>,
    pub trial: u32,
    pub status: TrialStatus,
    /// The names of the criteria that failed, a list shared by every trial that failed the
    /// same way; empty unless the trial failed. Their details are in the verdict.
    pub failed: std::sync::Arc<[std::sync::Arc<str>]>,
    /// The whole verdict, read back on demand.
    pub verdict: crate::store::spool::VerdictRef,
    /// The run folder the transcript is in (see `path`).
    pub run_dir: std::sync::Arc<std::path::Path>,
    pub usage: crate::provider::Usage,
    /// Model ids the API reported that differ from the pinned one.
    pub alias_drift: Box<[String]>,
    /// Why the trial is inconclusive (the transcript's `error`).
    pub error: Option<Box<str>>,
    /// The provider's failure by kind, when that is why (the transcript's `provider_error`).
    pub provider_error: Option<Box<crate::provider::ProviderError>>,
    pub duration_ms: u64,
    /// A digest of the final reply: trials with the same reply and failures fold together in
    /// the reports without their text in memory.
    pub reply_digest: u64,
}

impl TrialRecord {
    /// The transcript's file.
    pub fn path(&self) -> PathBuf {
        crate::store::transcript_path(
            &self.run_dir,
            &self.model,
            &self.case,
            &self.variant,
            self.trial,
        )
    }

    /// The transcript, read back from its file.
    pub fn transcript(&self) -> crate::error::Result<checkers::Transcript> {
        crate::store::read_transcript(&self.path())
    }
}
