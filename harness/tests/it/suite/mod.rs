//! What a run is made of: case setups, lint, the readers of untrusted files.

mod blind;
mod blind49a;
mod case_setup;
mod fuzz;
mod lint;
mod lint_document;
mod lint_readings;
mod lint_same_meaning;
mod named_files;
mod readers;
