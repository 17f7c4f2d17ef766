//! Recorders of what happens during a run.

pub mod trace;

pub use trace::TraceRecorder;
