//! One trial, contained: the episode's conversation loop, the tools offered, the workspace, the
//! sandbox every model-started process runs in, the behavioural probe, the run's spending limit
//! its requests are held to.

pub mod cache_role;
pub mod confined;
pub mod episode;
pub mod probe;
pub mod reply;
pub mod sandbox;
pub mod spending_limit;
pub mod tools;
pub mod workspace;
