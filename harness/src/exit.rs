//! Exit codes of `run`, `gate` and `check` (docs/formats.md lists them). Every exit goes through these.

/// The gate passes; `check`: every transcript passes.
pub const OK: u8 = 0;
/// The gate fails: some unit is below its trials. `check`: some transcript fails.
pub const GATE_FAILED: u8 = 1;
/// Usage, manifest, charter or case error, found before any model is called; `check`: an
/// unreadable or unknown input.
pub const USAGE: u8 = 2;
/// Inconclusive: some unit has error transcripts and none failed.
pub const INCONCLUSIVE: u8 = 3;
/// `lint`: the worst finding needs a reviewer (a reworded rule whose meaning the linter cannot
/// judge). The same number as [`INCONCLUSIVE`]: exit 3 always means "a person or a rerun must
/// decide", and every output says which.
pub const NEEDS_REVIEWER: u8 = 3;
/// The harness itself could not finish: a disk full, a report or transcript it could not write.
/// The gate verdict, when it was computed, has been printed before.
pub const HARNESS_FAILED: u8 = 4;
/// Interrupted (Ctrl-C, SIGINT: 128 + 2; SIGTERM is handled the same way and exits with this too):
/// the trials written are kept, `--resume` finishes them.
pub const INTERRUPTED: u8 = 130;
