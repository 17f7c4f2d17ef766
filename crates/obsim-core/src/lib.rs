//! # obsim-core
//!
//! The simulation core of obsim: a deterministic discrete-event simulator of
//! TCP over optical burst switched (OBS) networks. Pure Rust, no Python; the
//! `obsim-py` crate binds it.
//!
//! Layout: [`time`], [`ids`] and [`rng`] are the vocabulary; [`engine`] is the
//! event kernel; [`tcp`] is an I/O-free TCP model; [`net`] moves packets over
//! links; [`traffic`] makes flows; [`metrics`] records; [`config`] owns the
//! scenario schema and its validation; [`results`] is what a run returns.
// `deny`, not `forbid`: `engine/prefetch.rs` allows its one cache hint.
#![deny(unsafe_code)]

pub mod analysis;
pub mod config;
pub mod engine;
pub mod ids;
pub mod metrics;
pub mod net;
pub mod obs;
pub mod results;
pub mod rng;
pub mod tcp;
pub mod time;
pub mod traffic;

#[cfg(test)]
mod test_support;

/// Version of obsim-core, recorded in every result's metadata.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
