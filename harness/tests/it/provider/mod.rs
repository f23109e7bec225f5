//! The real providers against loopback servers.

mod bounds;
mod limits;
mod local_model;
mod providers;
mod reasoning;
mod vendor_types;
mod vendors;
