//! Commands over stored runs: labels and calibration.

mod calibrate;
mod label_writer;
mod comment;
