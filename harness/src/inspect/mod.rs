//! Commands over stored runs: re-check transcripts, show them, replay one, calibrate against
//! human labels, compare two runs.

pub mod calibrate;
pub mod check;
pub mod compare;
pub mod replay;
pub mod show;
