//! Commands over stored runs: labels and calibration, and the unsure path end to end.

mod calibrate;
mod unsure_path;
