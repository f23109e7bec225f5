//! Gates decided again: settling a comparison, and the gate in a real charter repository and its workflow.

mod settle;
mod undecided_base;
mod unsure_walkthrough;
mod untestable;
mod walkthrough;
mod workflow;
