//! The gate and its reports, byte for byte.

mod gate_reports;
mod report_bytes;
