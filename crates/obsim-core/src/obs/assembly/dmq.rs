//! Dynamic multi-queue (DMQ) assembly (gonzalez2009 §4): n queues per egress;
//! *flows*, not segments, are allocated to queues, and a flow's allocation is
//! decided at its first segment in an assembly cycle and kept until that
//! cycle ends ("Allocation of flows to queues is initiated with the arrival of
//! the first segment of each flow and was kept constant per aggregation
//! cycle").
//!
//! Assembly cycle: the life of one burst of the queue the flow was allocated
//! to, from the packet that opens it to its closing trigger. The allocation of
//! a flow is stale as soon as that burst has closed; the flow's next segment
//! triggers a new decision.
//!
//! Allocation algorithm: the paper's "bounding alternate trials with n
//! possible outcomes" (Eqs. 2-3) evaluated with equal probabilities
//! (p_1 = 1/n, "the random but equal distribution of flows to different
//! queues", "allocation ... with equal probabilities"), which is a uniform
//! draw among the n queues from the assembler's rng.

use super::per_egress::uniform_below;
use super::select::{Arrival, QueueSelection, Slot};
use super::{Queue, Selection};
use crate::obs::burst::Burst;

/// Which flows the DMQ allocation algorithm is applied to (gonzalez2009 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum DmqAllocation {
    /// Every flow is re-allocated (uniform draw) at its first segment of every
    /// assembly cycle, so the same flows do not keep sharing bursts.
    Proactive,
    /// A flow is allocated once at its first segment and keeps its queue,
    /// except that flows with a data segment in a lost burst (reported through
    /// `Assembler::on_burst_lost`) are re-allocated at their first segment
    /// after their current cycle ends ("applied to only the flows that
    /// suffered from a burst loss").
    APosteriori,
}

/// Whether a flow in `slot` needs a new allocation, given the current cycle
/// number of the queue it is in (ignored when unallocated).
#[inline]
pub(super) fn needs_allocation(alloc: DmqAllocation, slot: &Slot, queue_cycle: u64) -> bool {
    if slot.queue == Slot::NONE {
        return true;
    }
    let cycle_over = queue_cycle as u32 != slot.cycle;
    match alloc {
        DmqAllocation::Proactive => cycle_over,
        DmqAllocation::APosteriori => slot.realloc && cycle_over,
    }
}

/// DMQ with `queues` queues per egress.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dmq {
    queues: u32,
    allocation: DmqAllocation,
}

impl QueueSelection for Dmq {
    const NAME: &'static str = "dmq";

    fn from_selection(sel: &Selection) -> Option<Self> {
        match *sel {
            Selection::Dmq { queues, allocation } => Some(Dmq { queues, allocation }),
            _ => None,
        }
    }

    fn initial_queues(&self) -> u32 {
        self.queues.max(1)
    }

    /// The flow's queue for this cycle: kept, or drawn anew when
    /// [`needs_allocation`] says so.
    #[inline]
    fn select(&self, a: &mut Arrival<'_>) -> u32 {
        let slot = *a.slot();
        let cycle = a.cycle(slot.queue).unwrap_or(0);
        let realloc = needs_allocation(self.allocation, &slot, cycle);
        let q = if realloc {
            a.first + uniform_below(a.rng, self.queues.max(1))
        } else {
            slot.queue
        };
        let cycle = a.cycle(q).expect("a queue of this group") as u32;
        let s = a.slot();
        s.queue = q;
        s.cycle = cycle;
        if realloc {
            s.realloc = false;
        }
        q
    }

    /// A posteriori: the flows with a data segment in the lost burst are
    /// re-allocated when their current cycle ends (gonzalez2009 §4).
    fn on_burst_lost(&self, burst: &Burst, flows: &mut [Slot], queues: &[Queue]) {
        if self.allocation != DmqAllocation::APosteriori {
            return;
        }
        for p in burst.packets.iter().filter(|p| p.is_data()) {
            if let Some(slot) = flows.get_mut(p.flow.index()) {
                let same_egress = queues
                    .get(slot.queue as usize)
                    .is_some_and(|q| q.egress == burst.egress);
                if same_egress {
                    slot.realloc = true;
                }
            }
        }
    }
}
