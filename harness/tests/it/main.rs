//! The harness's integration tests, one binary: each module drives the built `harness` binary
//! (or the library) the way a user or CI would. One binary links once, and `common` is shared
//! without dead-code allowances.

mod common;

mod ci;
mod cli;
mod house;
mod inspect;
mod provider;
mod regate;
mod report;
mod run;
mod suite;
mod trial;
