//! Optical burst switching: bursts, burst assembly at the ingress edge, and
//! per-burst loss in the optical core. The core handles a burst as one
//! object; per-packet work happens only at the edges.

pub mod assembly;
pub mod burst;
pub mod edge;
pub mod loss;
pub mod paths;
pub mod scheduler;
pub mod signalling;
pub mod switch;

pub use burst::Burst;
