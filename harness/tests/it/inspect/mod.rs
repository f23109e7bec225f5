//! Commands over stored runs: labels and calibration.

mod calibrate;
mod comment;
