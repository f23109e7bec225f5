//! Runs end to end: the offline matrix, the plan against what a model receives, robustness, the built-in suite.

mod embedded_suite;
mod offline_run;
mod plan;
mod resume;
mod robustness;
