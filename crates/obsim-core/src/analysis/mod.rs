//! Analytic models used to validate the simulator.

pub mod pftk;
