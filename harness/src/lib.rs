//! Charter Harness: replays a charter's conformance cases against a pinned model matrix, checks
//! every transcript with a versioned checker and decides the change gate.
//!
//! The runner emits [`events::Event`]s and never prints; reporters turn events into terminal
//! output. Configuration is parsed by serde into types and validated once, before any model
//! is called.

/// `println!` for the harness: the text goes through [`report::inert`], since what the harness
/// prints quotes models, servers, transcripts and manifests. No control character, bidi
/// override or key reaches a terminal or a log.
macro_rules! outln {
    () => { $crate::report::out("\n") };
    ($($t:tt)*) => { $crate::report::out(&format!("{}\n", format_args!($($t)*))) };
}
/// `print!` through [`report::inert`].
macro_rules! out {
    ($($t:tt)*) => { $crate::report::out(&format!($($t)*)) };
}
/// `eprintln!` through [`report::inert`].
macro_rules! errln {
    ($($t:tt)*) => { $crate::report::err(&format!("{}\n", format_args!($($t)*))) };
}
/// `eprint!` through [`report::inert`].
macro_rules! err {
    ($($t:tt)*) => { $crate::report::err(&format!($($t)*)) };
}

pub mod banner;
pub mod base;
pub mod beneath;
pub mod budget;
pub mod calibrate;
pub mod case;
pub mod charter;
pub mod check;
pub mod cli;
pub mod compare;
pub mod decide;
pub mod embedded;
pub mod episode;
pub mod error;
pub mod events;
pub mod exit;
pub mod gate;
pub mod init;
pub mod interrupt;
pub mod key;
pub mod lint;
pub mod manifest;
pub mod merge;
pub mod outcome;
pub mod plan;
pub mod prepare;
pub mod probe;
pub mod provider;
pub mod record;
pub mod replay;
pub mod report;
pub mod run_folder;
pub mod runner;
pub mod runs;
pub mod sandbox;
pub mod secrets;
pub mod selection;
pub mod session;
pub mod settle;
pub mod show;
pub mod spool;
pub mod stats;
pub mod store;
pub mod suite;
pub mod tools;
pub mod warmup;
pub mod workspace;
