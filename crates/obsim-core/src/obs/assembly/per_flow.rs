//! Per-flow (PF) assembly: one burstifier queue per TCP flow (gonzalez2009
//! §3, the ideal desynchronised case; gurel2008 §3 with M = N). Queues are
//! created the first time a flow sends to an egress and kept for the rest of
//! the run, so a flow's queue index never changes.

use super::select::{Arrival, QueueSelection, Slot};
use super::Selection;

/// PF: a flow's first packet to an egress opens its own queue there.
#[derive(Clone, Copy, Debug)]
pub(super) struct PerFlow;

impl QueueSelection for PerFlow {
    const NAME: &'static str = "per_flow";

    fn from_selection(sel: &Selection) -> Option<Self> {
        matches!(sel, Selection::PerFlow).then_some(PerFlow)
    }

    /// None: the queues grow with the flows.
    fn initial_queues(&self) -> u32 {
        0
    }

    #[inline]
    fn select(&self, a: &mut Arrival<'_>) -> u32 {
        let q = a.slot().queue;
        if q != Slot::NONE {
            return q;
        }
        let q = a.open_queue();
        a.slot().queue = q;
        q
    }
}
