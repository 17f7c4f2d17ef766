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

/// Per-flow allocation state in one egress group.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    /// Queue (index at the ingress) the flow is in, `NONE` if never allocated.
    pub queue: u32,
    /// Cycle (burst count, mod 2^32) of `queue` the flow joined.
    pub cycle: u32,
    /// A posteriori: the flow lost a segment and awaits re-allocation.
    pub realloc: bool,
}

impl Slot {
    /// Not yet allocated.
    pub const NONE: u32 = u32::MAX;
    /// An unallocated flow.
    pub const EMPTY: Slot = Slot {
        queue: Slot::NONE,
        cycle: 0,
        realloc: false,
    };
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
