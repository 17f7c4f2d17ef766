//! Analytic models used to validate the simulator.

pub mod erlang;
pub mod pftk;
