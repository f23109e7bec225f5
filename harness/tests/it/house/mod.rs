//! The house itself: its layers, its size limits and its docs.

mod counts;
mod docs;
mod layers;
mod size;
mod skips;
