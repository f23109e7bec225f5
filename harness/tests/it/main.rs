//! The harness's integration tests, one binary: each module drives the built `harness` binary
//! (or the library) the way a user or CI would. One binary links once, and `common` is shared
//! without dead-code allowances.

mod common;

mod calibrate;
mod case_setup;
mod debugging;
mod embedded_suite;
mod first_hour;
mod fuzz;
mod gate_reports;
mod help;
mod hostile;
mod input_errors;
mod lint;
mod messages;
mod offline_run;
mod plan;
mod probe;
mod providers;
mod report_bytes;
mod robustness;
mod sandbox;
mod settle;
mod size;
mod workflow;
