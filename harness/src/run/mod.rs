//! A run end to end: the session that validates its inputs and drives it, the selection and plan
//! of its trials, the runner that replays them, and what serves the run (interrupts, warm-up,
//! suite preparation, the banner, `harness key`).

pub mod banner;
pub mod inputs;
pub mod interrupt;
pub mod key;
pub mod limits;
pub mod options;
pub mod outcome;
pub mod plan;
pub mod prepare;
pub mod runner;
pub mod selection;
pub mod session;
pub mod warmup;
