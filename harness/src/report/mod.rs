//! Reporters: they turn runner events and gate results into what people read.

pub mod progress;
pub mod story;
pub mod table;
