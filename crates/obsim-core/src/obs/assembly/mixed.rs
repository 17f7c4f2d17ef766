//! Mixed-flow (MF) assembly: one burstifier queue per egress that every flow
//! shares (gonzalez2009 §3, "normal case in OBS networks"; gurel2008 §2-3
//! with M = 1, "per-destination burstification").

use super::select::{QueueSelection, QueueTable};
use super::Selection;
use crate::ids::FlowId;

/// MF: every packet joins its egress group's only queue.
#[derive(Clone, Copy, Debug)]
pub(super) struct MixedFlow;

impl QueueSelection for MixedFlow {
    const NAME: &'static str = "mixed_flow";

    fn from_selection(sel: &Selection) -> Option<Self> {
        matches!(sel, Selection::MixedFlow).then_some(MixedFlow)
    }

    fn initial_queues(&self) -> u32 {
        1
    }

    #[inline]
    fn select(&self, t: &mut QueueTable, g: u32, _flow: FlowId, _cwnd: f64) -> u32 {
        t.first(g)
    }
}
