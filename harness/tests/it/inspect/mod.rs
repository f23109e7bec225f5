//! Commands over stored runs: labels and calibration, the unsure path end to end, and
//! reasoning shown apart from the reply.

mod calibrate;
mod label_writer;
mod reasoning_shown;
mod unsure_path;
