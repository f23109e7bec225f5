//! Shared extraction, written once: numbers, the final reported claim, derivation expressions,
//! tool-call order and plain-text structure.

pub mod claims;
pub mod expr;
pub mod goals;
pub mod numbers;
pub mod text;
pub mod tools;
