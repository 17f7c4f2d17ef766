//! Queue selection: which burstifier queue of its egress group a packet
//! joins. One trait, [`QueueSelection`], one file per policy (`mixed.rs`,
//! `per_flow.rs`, `per_egress.rs`, `smq.rs`, `dmq.rs`, `window.rs`), and an
//! enum, [`Selector`], that dispatches to them statically (a `match`, no
//! virtual call), as `obs/scheduler/` does for channel schedulers.
//!
//! To add a policy: a new file with a type implementing [`QueueSelection`]
//! (and its tests), one line in the `selectors!` list below, and its
//! variant in [`Selection`] (the scenario's configuration of it).

use super::{dmq, mixed, per_egress, per_flow, smq, window};
use super::{AssemblyStats, Group, Queue, Selection};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::engine::flowpool::IdHasher;
use crate::ids::{FlowId, NodeId};
use crate::obs::burst::Burst;
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};

/// Per-flow selection state in one egress group: the queue of PF and of the
/// random mapping, the allocation of DMQ. One 12-byte slot per flow id
/// (kept small for 10^5-flow runs).
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    /// Queue (index at the ingress) the flow is in, `NONE` if never allocated.
    pub queue: u32,
    /// DMQ: cycle (burst count, mod 2^32) of `queue` the flow joined.
    pub cycle: u32,
    /// DMQ a posteriori: the flow lost a segment and awaits re-allocation.
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

/// Slots by flow id, hashed as the flow pool's id map is ([`IdHasher`]);
/// only looked up, never iterated, so its hashing orders nothing.
pub(super) type SlotMap = HashMap<u32, Slot, BuildHasherDefault<IdHasher>>;

/// The assembler's queues, as a policy sees and changes them: the egress
/// groups, every queue, the per-flow slots, the random stream and the
/// per-queue counters.
#[derive(Debug)]
pub(super) struct QueueTable {
    /// Egress groups, by group index.
    pub(super) groups: Vec<Group>,
    /// Every queue of the ingress, by index.
    pub(super) queues: Vec<Queue>,
    /// Per-flow state, indexed by flow id, of the flows below
    /// `sparse_from` (all of them unless the policy frees ended flows). A
    /// slot whose queue belongs to another egress group is treated as
    /// unallocated in this one.
    pub(super) flows: Vec<Slot>,
    /// Per-flow state of the flows from `sparse_from` on (generated flows,
    /// when the policy frees ended flows' slots: issue 12, item 3), by id.
    pub(super) sparse: SlotMap,
    /// First flow id kept in `sparse` (`u32::MAX`: none).
    pub(super) sparse_from: u32,
    /// The assembler's random stream (random mapping, DMQ allocation).
    pub(super) rng: SimRng,
    /// Counters.
    pub(super) stats: AssemblyStats,
    /// The trigger's assembly timer, for queues opened on arrival.
    pub(super) timer: Option<SimDuration>,
}

impl QueueTable {
    /// Index at the ingress of group `g`'s first fixed queue.
    #[inline]
    pub fn first(&self, g: u32) -> u32 {
        self.groups[g as usize].first
    }

    /// The slot of `flow` in group `g`, growing the per-flow table on
    /// demand; a slot allocated in another group is reset.
    #[inline]
    pub fn slot(&mut self, g: u32, flow: FlowId) -> &mut Slot {
        let slot = if flow.0 >= self.sparse_from {
            self.sparse.entry(flow.0).or_insert(Slot::EMPTY)
        } else {
            let i = flow.index();
            if i >= self.flows.len() {
                self.flows.resize(i + 1, Slot::EMPTY);
            }
            &mut self.flows[i]
        };
        if slot.queue != Slot::NONE && self.queues[slot.queue as usize].group != g {
            *slot = Slot::EMPTY;
        }
        slot
    }

    /// The slot of `flow`, if it has one (no slot is made).
    #[inline]
    pub fn existing_slot(&mut self, flow: FlowId) -> Option<&mut Slot> {
        if flow.0 >= self.sparse_from {
            self.sparse.get_mut(&flow.0)
        } else {
            self.flows.get_mut(flow.index())
        }
    }

    /// The current cycle (bursts closed so far) of queue `q`, if it exists.
    #[inline]
    pub fn cycle(&self, q: u32) -> Option<u64> {
        self.queues.get(q as usize).map(|q| q.cycle)
    }

    /// Opens a new queue in group `g`, with the trigger's timer.
    pub fn open_queue(&mut self, g: u32) -> u32 {
        let egress = self.groups[g as usize].egress;
        self.add_queue(g, egress, self.timer)
    }

    /// Appends a new idle queue of group `g` (for `egress`) with its
    /// counters; returns its index at the ingress.
    pub(super) fn add_queue(&mut self, g: u32, egress: NodeId, timer: Option<SimDuration>) -> u32 {
        let q = self.queues.len() as u32;
        self.queues.push(Queue {
            egress,
            group: g,
            packets: Vec::new(),
            bytes: 0,
            opened: SimTime::ZERO,
            deadline: SimTime::MAX,
            timer,
            cycle: 0,
        });
        self.stats.queue_bursts.push(0);
        self.stats.queue_packets.push(0);
        q
    }
}

/// A queue-selection policy (gurel2008 §2, gonzalez2009 §3-4,
/// ramantas2007 §5).
pub(super) trait QueueSelection {
    /// The policy's name in scenario files (`edge.selection`).
    const NAME: &'static str;
    /// The policy `sel` configures, if it is this one.
    fn from_selection(sel: &Selection) -> Option<Self>
    where
        Self: Sized;
    /// Queues each egress group starts with (per-flow queues grow later).
    fn initial_queues(&self) -> u32;
    /// Assembly timer of the group's `k`-th initial queue, given the
    /// trigger's; the default is the trigger's.
    fn queue_timer(&self, _k: u32, trigger: Option<SimDuration>) -> Option<SimDuration> {
        trigger
    }
    /// The queue (index at the ingress) a packet of `flow` joins in egress
    /// group `g`, when the flow's congestion window is `cwnd` segments.
    fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, cwnd: f64) -> u32;
    /// `burst` (assembled here) was lost in the core. The default ignores it.
    fn on_burst_lost(&self, _burst: &Burst, _t: &mut QueueTable) {}
    /// Whether the slot of a flow that has ended can be dropped once
    /// [`QueueSelection::forgettable`] holds for it (issue 12, item 3). The
    /// default, no: the policy keeps a flow's queue for the run (random
    /// mapping, PF), so a late packet of the ended flow (a spurious
    /// retransmission still in the network) must find it.
    fn frees_ended_flows(&self) -> bool {
        false
    }
    /// Whether `slot`, whose queue is in cycle `queue_cycle`, behaves as
    /// no slot at all for every later packet or lost burst: then dropping
    /// it changes nothing. The default, never.
    fn forgettable(&self, _slot: &Slot, _queue_cycle: u64) -> bool {
        false
    }
}

/// Declares the registry: the [`Selector`] enum, its static dispatch, and
/// the list of policy names.
macro_rules! selectors {
    ($($variant:ident($ty:ty)),+ $(,)?) => {
        /// The policy of one assembler, for static dispatch.
        #[derive(Clone, Copy, Debug)]
        pub(super) enum Selector {
            $(
                #[doc = concat!("[`", stringify!($ty), "`]")]
                $variant($ty),
            )+
        }

        /// Every queue-selection policy's name in scenario files, in
        /// registry order.
        pub const SELECTION_NAMES: &[&str] = &[$(<$ty as QueueSelection>::NAME),+];

        impl Selector {
            /// The policy `sel` configures.
            pub(super) fn new(sel: &Selection) -> Self {
                $(
                    if let Some(p) = <$ty as QueueSelection>::from_selection(sel) {
                        return Selector::$variant(p);
                    }
                )+
                unreachable!("every Selection has a policy: {sel:?}")
            }

            /// The policy's name in scenario files.
            pub(super) fn name(&self) -> &'static str {
                match self {
                    $(Selector::$variant(_) => <$ty as QueueSelection>::NAME,)+
                }
            }

            /// See [`QueueSelection::initial_queues`].
            #[inline]
            pub(super) fn initial_queues(&self) -> u32 {
                match self {
                    $(Selector::$variant(p) => p.initial_queues(),)+
                }
            }

            /// See [`QueueSelection::queue_timer`].
            #[inline]
            pub(super) fn queue_timer(&self, k: u32, trigger: Option<SimDuration>) -> Option<SimDuration> {
                match self {
                    $(Selector::$variant(p) => p.queue_timer(k, trigger),)+
                }
            }

            /// See [`QueueSelection::select`].
            #[inline]
            pub(super) fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, cwnd: f64) -> u32 {
                match self {
                    $(Selector::$variant(p) => p.select(t, g, flow, cwnd),)+
                }
            }

            /// See [`QueueSelection::frees_ended_flows`].
            pub(super) fn frees_ended_flows(&self) -> bool {
                match self {
                    $(Selector::$variant(p) => p.frees_ended_flows(),)+
                }
            }

            /// See [`QueueSelection::forgettable`].
            pub(super) fn forgettable(&self, slot: &Slot, queue_cycle: u64) -> bool {
                match self {
                    $(Selector::$variant(p) => p.forgettable(slot, queue_cycle),)+
                }
            }

            /// See [`QueueSelection::on_burst_lost`].
            pub(super) fn on_burst_lost(&self, burst: &Burst, t: &mut QueueTable) {
                match self {
                    $(Selector::$variant(p) => p.on_burst_lost(burst, t),)+
                }
            }
        }
    };
}

selectors! {
    MixedFlow(mixed::MixedFlow),
    PerFlow(per_flow::PerFlow),
    PerEgress(per_egress::PerEgress),
    Smq(smq::Smq),
    Dmq(dmq::Dmq),
    Window(window::WindowBased),
}

/// A table of `groups` egress groups (egress node `1 + g`) for `policy`,
/// built as the assembler builds it, for the policies' own tests.
#[cfg(test)]
pub(super) fn table_for<P: QueueSelection>(policy: &P, groups: u32) -> QueueTable {
    let timer = Some(SimDuration::from_millis(1));
    let mut t = QueueTable {
        groups: Vec::new(),
        queues: Vec::new(),
        flows: Vec::new(),
        sparse: SlotMap::default(),
        sparse_from: u32::MAX,
        rng: crate::rng::stream(1, "select"),
        stats: AssemblyStats::default(),
        timer,
    };
    for g in 0..groups {
        let egress = NodeId(1 + g);
        let first = t.queues.len() as u32;
        t.groups.push(Group { egress, first });
        for k in 0..policy.initial_queues() {
            t.add_queue(g, egress, policy.queue_timer(k, timer));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_flow_state_is_small() {
        // One slot per flow id per ingress: keep it small for 10^5-flow runs.
        assert_eq!(std::mem::size_of::<Slot>(), 12);
    }

    /// Names are unique, and each names the policy it configures.
    #[test]
    fn every_policy_is_registered_once_under_its_name() {
        use super::super::{DmqAllocation, FlowMapping};
        let ms = SimDuration::from_millis(1);
        let all = [
            Selection::MixedFlow,
            Selection::PerFlow,
            Selection::PerEgress {
                m: 2,
                mapping: FlowMapping::Modulo,
            },
            Selection::Smq { queues: 2 },
            Selection::Dmq {
                queues: 2,
                allocation: DmqAllocation::Proactive,
            },
            Selection::WindowBased {
                b: 1.0,
                c: 2.0,
                timers: [ms; 3],
                source: super::super::WindowSource::Sender,
            },
        ];
        let names: Vec<_> = all.iter().map(Selection::name).collect();
        assert_eq!(names, SELECTION_NAMES);
    }
}
