//! The event kernel and the simulation main loop.

pub mod event;
pub mod flowpool;
pub mod in_flight;
pub mod links;
pub mod pipes;
pub mod prefetch;
pub mod queue;
pub mod sim;
#[cfg(test)]
mod tests;
pub mod timer;

use crate::config::Scenario;
use crate::results::{FlowRecord, RunResults};
use crate::time::SimTime;

/// Options of one run that are not part of the scenario.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Overrides `simulation.seed`.
    pub seed: Option<u64>,
}

/// A run that could not complete.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The scenario is valid but cannot be simulated (e.g. no route).
    #[error("{path}: {reason}")]
    Unroutable {
        /// Key path of the offending item.
        path: String,
        /// Why.
        reason: String,
    },
    /// The progress observer asked the run to stop. The run is not lost:
    /// `partial` holds its results up to `at`, collected as at a normal end
    /// but with `meta.stop_reason == "interrupted"`.
    #[error("run interrupted at simulated time {at}")]
    Interrupted {
        /// Simulated time reached.
        at: SimTime,
        /// The results up to `at` (boxed: they are large and rare).
        partial: Box<RunResults>,
    },
}

/// Runs `scenario` to completion.
pub fn run(scenario: &Scenario, opts: &RunOptions) -> Result<RunResults, SimError> {
    sim::Simulation::new(scenario, opts)?.run()
}

/// Where a run is, as reported to a progress observer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Current simulated time.
    pub now: SimTime,
    /// Simulated time at which the run will stop at the latest.
    pub end: SimTime,
    /// Events executed so far.
    pub events: u64,
}

impl Progress {
    /// Fraction of simulated time done, in [0, 1].
    pub fn fraction(&self) -> f64 {
        if self.end.0 == 0 {
            1.0
        } else {
            (self.now.0 as f64 / self.end.0 as f64).min(1.0)
        }
    }
}

/// What a progress observer wants the run to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Stop now and report [`SimError::Interrupted`] with the results so far
    /// (e.g. on Ctrl-C).
    Abort,
}

/// Events between two calls of the progress observer (about 20 ms of wall
/// time at the engine's usual speed).
pub const PROGRESS_EVERY: u64 = 1 << 18;

/// Runs `scenario`, calling `observer` every [`PROGRESS_EVERY`] events and
/// once at the end. The observer only sees time; it cannot change the run,
/// so results are identical with or without it.
pub fn run_observed(
    scenario: &Scenario,
    opts: &RunOptions,
    observer: &mut dyn FnMut(Progress) -> Control,
) -> Result<RunResults, SimError> {
    sim::Simulation::new(scenario, opts)?.run_observed(observer)
}

/// Records per chunk handed to a [`RecordSink`] unless the caller names
/// another size: 8 192 records, about 2 MB in memory at once (a
/// [`FlowRecord`] is about 250 bytes with its names), a multiple of Arrow's
/// and Parquet's 1 024-row batches. Larger chunks only hold more: on R2's
/// NSFNET scenario a 65 536-record chunk kept 45 000 flows (16 s) in one
/// chunk and peaked 27 MB higher (docs/PERFORMANCE.md, session 11).
pub const RECORD_CHUNK: usize = 1 << 13;

/// Where a streamed run hands the per-flow records of its generated flows
/// (issue 12 items 3 and 4: memory bounded by the flows live at once, not
/// by the flows a run ever had).
///
/// The run keeps at most `chunk` records: each time `chunk` flows have
/// ended it calls `write` with their records, in the order they ended, and
/// forgets them. At the end (or on an interruption) it hands on the records
/// still held, then the records of the flows still running, by id, in
/// chunks of `chunk` (only the last one shorter). The concatenated chunks
/// are exactly [`RunResults::flow_records`] of the same run without a sink,
/// and the run's `flow_records` is then empty. The sink only receives
/// records; the simulation is the same with or without it.
pub struct RecordSink<'a> {
    /// Records per chunk (at least 1: 0 is taken as 1).
    pub chunk: usize,
    /// Called with each chunk. [`Control::Abort`] stops the run as a
    /// progress observer's does ([`SimError::Interrupted`]); `write` is not
    /// called again.
    pub write: &'a mut dyn FnMut(&[FlowRecord]) -> Control,
}

/// Runs `scenario` as [`run_observed`] does, streaming the generated flows'
/// records to `sink` in chunks instead of keeping them
/// ([`RecordSink`]).
pub fn run_streamed(
    scenario: &Scenario,
    opts: &RunOptions,
    observer: &mut dyn FnMut(Progress) -> Control,
    sink: RecordSink<'_>,
) -> Result<RunResults, SimError> {
    sim::Simulation::new(scenario, opts)?.run_streamed(observer, Some(sink))
}
