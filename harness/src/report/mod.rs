//! Reporters: they turn runner events and gate results into what people read.

pub mod files;
pub mod html;
pub mod junit;
pub mod lift;
pub mod markdown;
pub mod progress;
pub mod registry;
pub mod story;
pub mod table;
