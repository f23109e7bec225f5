//! The command line as a user meets it: the first hour, messages, bad input, help texts, debugging.

mod builtin_names;
mod conventions;
mod debugging;
mod defaults;
mod first_hour;
mod help;
mod input_errors;
mod install;
mod json;
mod logs;
mod messages;
mod no_charter;
mod noise;
mod readme;
mod run_flags;
mod subfolder;
