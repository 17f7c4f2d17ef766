//! Recorders of what happens during a run.

pub mod aggregate;
pub mod judgement;
pub mod packets;
pub mod trace;

pub use trace::TraceRecorder;
