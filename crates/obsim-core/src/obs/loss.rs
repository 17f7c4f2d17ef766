//! PLACEHOLDER for per-burst loss models (replaced on merge).
#![allow(missing_docs, clippy::pedantic)]

use serde::Serialize;

use crate::ids::FlowId;
use crate::obs::Burst;
use crate::rng::{uniform01, SimRng};

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum BurstLossPattern {
    Random,
    Even,
    Batch(u32),
}
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BurstLossSpec {
    pub p: f64,
    pub pattern: BurstLossPattern,
    pub only_flow: Option<FlowId>,
}
pub struct BurstLossModel {
    p: f64,
    rng: SimRng,
}
impl BurstLossModel {
    pub fn new(spec: &BurstLossSpec, rng: SimRng) -> Self {
        Self { p: spec.p, rng }
    }
    pub fn lose(&mut self, _burst: &Burst) -> bool {
        uniform01(&mut self.rng) < self.p
    }
}
