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
use super::select::{QueueSelection, QueueTable, Slot};
use super::Selection;
use crate::ids::FlowId;
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
    fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, _cwnd: f64) -> u32 {
        let slot = *t.slot(g, flow);
        let cycle = t.cycle(slot.queue).unwrap_or(0);
        let realloc = needs_allocation(self.allocation, &slot, cycle);
        let q = if realloc {
            t.first(g) + uniform_below(&mut t.rng, self.queues.max(1))
        } else {
            slot.queue
        };
        let cycle = t.queues[q as usize].cycle as u32;
        let s = t.slot(g, flow);
        s.queue = q;
        s.cycle = cycle;
        if realloc {
            s.realloc = false;
        }
        q
    }

    /// A posteriori: the flows with a data segment in the lost burst are
    /// re-allocated when their current cycle ends (gonzalez2009 §4).
    fn on_burst_lost(&self, burst: &Burst, t: &mut QueueTable) {
        if self.allocation != DmqAllocation::APosteriori {
            return;
        }
        for p in burst.packets.iter().filter(|p| p.is_data()) {
            let Some(q) = t.existing_slot(p.flow).map(|s| s.queue) else {
                continue;
            };
            let same_egress = t
                .queues
                .get(q as usize)
                .is_some_and(|q| q.egress == burst.egress);
            if same_egress {
                if let Some(slot) = t.existing_slot(p.flow) {
                    slot.realloc = true;
                }
            }
        }
    }

    /// Proactive only: every flow's allocation ends with its cycle, so an
    /// ended flow's slot is dropped once its cycle is over. (A posteriori
    /// keeps a flow's queue until a loss, as random mapping does.)
    fn frees_ended_flows(&self) -> bool {
        self.allocation == DmqAllocation::Proactive
    }

    /// A slot that needs a new allocation is drawn anew at the flow's next
    /// segment exactly as a missing one (the same draw, the same new
    /// state), and a lost burst only marks it for re-allocation, which it
    /// already needs. The cycle is compared modulo 2^32 ([`Slot::cycle`]):
    /// a dropped slot could differ only for a packet arriving after its
    /// queue closed 2^32 more bursts.
    fn forgettable(&self, slot: &Slot, queue_cycle: u64) -> bool {
        needs_allocation(self.allocation, slot, queue_cycle)
    }
}

#[cfg(test)]
mod tests {
    use super::super::select::table_for;
    use super::*;
    use crate::ids::NodeId;
    use crate::net::{Packet, Payload};
    use crate::tcp::Segment;
    use crate::time::SimTime;

    fn dmq(allocation: DmqAllocation) -> Dmq {
        Dmq {
            queues: 4,
            allocation,
        }
    }

    #[test]
    fn proactive_keeps_a_flow_within_a_cycle_and_redraws_after() {
        let p = dmq(DmqAllocation::Proactive);
        let mut t = table_for(&p, 1);
        let q = p.select(&mut t, 0, FlowId(7), 1.0);
        assert_eq!(p.select(&mut t, 0, FlowId(7), 1.0), q, "same cycle");
        assert!(!needs_allocation(
            p.allocation,
            &t.flows[7],
            t.queues[q as usize].cycle
        ));
        t.queues[q as usize].cycle += 1; // its burst closed
        assert!(needs_allocation(
            p.allocation,
            &t.flows[7],
            t.queues[q as usize].cycle
        ));
        let redrawn = p.select(&mut t, 0, FlowId(7), 1.0);
        let slot = t.flows[7];
        assert_eq!(slot.queue, redrawn);
        assert_eq!(
            u64::from(slot.cycle),
            t.queues[redrawn as usize].cycle,
            "allocated anew"
        );
    }

    #[test]
    fn a_posteriori_marks_only_flows_in_the_lost_burst() {
        let p = dmq(DmqAllocation::APosteriori);
        let mut t = table_for(&p, 1);
        let qa = p.select(&mut t, 0, FlowId(1), 1.0);
        p.select(&mut t, 0, FlowId(2), 1.0);
        let data = |flow| Packet {
            flow: FlowId(flow),
            src: NodeId(0),
            dst: NodeId(9),
            bytes: 1040,
            payload: Payload::Data(Segment {
                seq: 0,
                len: 1000,
                retransmit: false,
                syn: false,
                push: false,
                sent_at: SimTime::ZERO,
                tsecr: 0,
            }),
        };
        let lost = Burst {
            id: 0,
            ingress: NodeId(0),
            egress: NodeId(1),
            queue: qa,
            opened: SimTime::ZERO,
            closed: SimTime::ZERO,
            payload_bytes: 1040,
            padding_bytes: 0,
            packets: vec![data(1)],
        };
        p.on_burst_lost(&lost, &mut t);
        assert!(t.flows[1].realloc && !t.flows[2].realloc);
        // Kept until its cycle ends, then re-allocated once.
        assert!(!needs_allocation(
            p.allocation,
            &t.flows[1],
            t.queues[qa as usize].cycle
        ));
        t.queues[qa as usize].cycle += 1;
        assert!(needs_allocation(
            p.allocation,
            &t.flows[1],
            t.queues[qa as usize].cycle
        ));
        p.select(&mut t, 0, FlowId(1), 1.0);
        assert!(!t.flows[1].realloc);
        // Proactive allocation ignores losses.
        let pro = dmq(DmqAllocation::Proactive);
        pro.on_burst_lost(&lost, &mut t);
        assert!(!t.flows[1].realloc);
    }
}
