//! STUB (issue 12, branch i12-flowgen): flow-size laws. The real module is
//! written on branch `i12-sizes` (Pareto, bounded Pareto, exponential,
//! empirical; gurel2008 §4.2); this stub has the agreed signature and only
//! the constant law, so flow generators can be built and tested meanwhile.
//! Replace it by merging `i12-sizes` (keep theirs on conflict).

use crate::rng::SimRng;

/// How a generated flow's size is drawn.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum SizeLaw {
    /// Every flow sends exactly `bytes`.
    Constant {
        /// Size in bytes (at least 1).
        bytes: u64,
    },
}

impl SizeLaw {
    /// One size in bytes (at least 1), drawn from `rng`.
    pub fn sample(&self, _rng: &mut SimRng) -> u64 {
        match *self {
            SizeLaw::Constant { bytes } => bytes.max(1),
        }
    }

    /// The law's mean in bytes.
    pub fn mean(&self) -> f64 {
        match *self {
            SizeLaw::Constant { bytes } => bytes as f64,
        }
    }
}
