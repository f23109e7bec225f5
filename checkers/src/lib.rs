//! Pure, synchronous checkers for the Reasoning Charter's conformance cases E1–E13.
//!
//! A checker reads one transcript (contract §3) and its case's ground truth and returns a
//! [`Verdict`]: pass/fail plus every criterion with the evidence it was decided on. Nothing here
//! does I/O, so verdicts can be recomputed offline and compared across runs.

mod borderline;
mod claimed;
pub use claimed::offered as offered_tools;
pub mod extract;
pub mod golden;
pub mod registry;
mod spans;
pub mod transcript;
pub mod truth;
mod understood;
pub mod verdict;
pub mod work;

mod e01;
mod e02;
mod e03;
mod e04;
mod e05;
mod e06;
mod e07;
mod e08;
mod e09;
mod e10;
mod e11;
mod e12;
mod e13;

pub use registry::{case_range, check, checker_for, CheckError, Checker, CASE_IDS};
pub use transcript::{
    CommandEffect, FileChange, Message, Outcome, PathDigest, ProbeResult, Role, ToolCall,
    ToolStatus, Transcript, Workspace,
};
pub use truth::{CheckContext, Truth};
pub use verdict::{Criterion, Verdict};
