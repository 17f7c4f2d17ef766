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
use crate::results::RunResults;
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
