//! Charter Harness: replays a charter's conformance cases against a pinned model matrix, checks
//! every transcript with a versioned checker and decides the change gate.
//!
//! The runner emits [`report::events::Event`]s and never prints; reporters turn events into terminal
//! output. Configuration is parsed by serde into types and validated once, before any model
//! is called.

/// `println!` for the harness: the text goes through [`output::printable`], since what the harness
/// prints quotes models, servers, transcripts and manifests. No control character, bidi
/// override or key reaches a terminal or a log.
macro_rules! outln {
    () => { $crate::output::out("\n") };
    ($($t:tt)*) => { $crate::output::out(&format!("{}\n", format_args!($($t)*))) };
}
/// `print!` through [`output::printable`].
macro_rules! out {
    ($($t:tt)*) => { $crate::output::out(&format!($($t)*)) };
}
/// `eprintln!` through [`output::printable`].
macro_rules! errln {
    ($($t:tt)*) => { $crate::output::err(&format!("{}\n", format_args!($($t)*))) };
}
/// `eprint!` through [`output::printable`].
macro_rules! err {
    ($($t:tt)*) => { $crate::output::err(&format!($($t)*)) };
}

pub mod ci;
pub mod cli;
pub mod error;
pub mod exit;
pub mod files;
pub mod gate;
pub mod inspect;
pub mod output;
pub mod provider;
pub mod regate;
pub mod report;
pub mod run;
pub mod store;
pub mod suite;
pub mod trial;
