//! The real providers against loopback servers.

mod limits;
mod providers;
