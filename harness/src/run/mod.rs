//! A run end to end, one way down: the options (what was asked), the selection that resolves
//! them once (with the inputs it loads), the session that drives the run from what was
//! resolved, the plan of its trials, the runner that replays them, and what serves the run
//! (interrupts, warm-up, suite preparation, the banner, `harness key`, the shared end).

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
