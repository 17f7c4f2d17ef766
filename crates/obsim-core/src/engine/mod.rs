//! The event kernel and the simulation main loop.

pub mod queue;

use crate::config::Scenario;
use crate::results::RunResults;

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
}

/// Runs `scenario` to completion.
pub fn run(scenario: &Scenario, opts: &RunOptions) -> Result<RunResults, SimError> {
    let _ = (scenario, opts);
    Err(SimError::Unroutable { path: String::new(), reason: "engine not implemented".into() })
}
