//! The real providers against loopback servers.

mod providers;
