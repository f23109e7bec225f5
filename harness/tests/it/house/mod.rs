//! The house itself: its layers and its size limits.

mod layers;
mod size;
mod skips;
