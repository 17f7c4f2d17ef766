//! Per-flow (PF) assembly: one burstifier queue per TCP flow (gonzalez2009
//! §3, the ideal desynchronised case; gurel2008 §3 with M = N). Queues are
//! created the first time a flow sends to an egress and kept for the rest of
//! the run, so a flow's queue index never changes.

use super::select::{QueueSelection, QueueTable, Slot};
use super::Selection;
use crate::ids::FlowId;

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
    fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, _cwnd: f64) -> u32 {
        let q = t.slot(g, flow).queue;
        if q != Slot::NONE {
            return q;
        }
        let q = t.open_queue(g);
        t.slot(g, flow).queue = q;
        q
    }
}

#[cfg(test)]
mod tests {
    use super::super::select::table_for;
    use super::*;

    #[test]
    fn a_flow_opens_its_own_queue_once_per_egress() {
        let mut t = table_for(&PerFlow, 2);
        assert_eq!(t.queues.len(), 0);
        let a = PerFlow.select(&mut t, 0, FlowId(4), 1.0);
        let b = PerFlow.select(&mut t, 0, FlowId(9), 1.0);
        assert_eq!((a, b), (0, 1));
        assert_eq!(PerFlow.select(&mut t, 0, FlowId(4), 1.0), 0, "kept");
        // The same flow towards another egress gets a queue there.
        assert_eq!(PerFlow.select(&mut t, 1, FlowId(4), 1.0), 2);
        assert_eq!(t.queues[2].group, 1);
        assert_eq!(t.queues.len(), 3);
        assert_eq!(t.stats.queue_bursts.len(), 3);
    }
}
