//! What the harness writes for people: every printed line made inert (no key value, no control
//! character), and the register of key values to mask.

pub mod secrets;
