//! The gate and its reports, byte for byte.

mod gate_reports;
mod inert;
mod report_bytes;
