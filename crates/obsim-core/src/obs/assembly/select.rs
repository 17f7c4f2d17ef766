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
use super::{AssemblyStats, Queue, Selection};
use crate::ids::{FlowId, NodeId};
use crate::obs::burst::Burst;
use crate::rng::SimRng;
use crate::time::SimDuration;

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

/// What a policy sees of the assembler when a packet arrives: the packet's
/// flow and window, its egress group, and on demand the flow's slot, the
/// queues' cycles, the random stream and a new queue.
pub(super) struct Arrival<'a> {
    /// The packet's flow.
    pub flow: FlowId,
    /// The flow's congestion window in segments (window-based assembly).
    pub cwnd: f64,
    /// Index at the ingress of the egress group's first fixed queue.
    pub first: u32,
    /// The egress group.
    pub(super) group: u32,
    /// Its egress node.
    pub(super) egress: NodeId,
    /// The trigger's assembly timer, for queues opened on arrival.
    pub(super) timer: Option<SimDuration>,
    pub(super) flows: &'a mut Vec<Slot>,
    pub(super) queues: &'a mut Vec<Queue>,
    pub(super) stats: &'a mut AssemblyStats,
    /// The assembler's random stream (random mapping, DMQ allocation).
    pub rng: &'a mut SimRng,
}

impl Arrival<'_> {
    /// The flow's slot in this group, growing the per-flow table on demand;
    /// a slot allocated in another group is reset.
    pub fn slot(&mut self) -> &mut Slot {
        let i = self.flow.index();
        if i >= self.flows.len() {
            self.flows.resize(i + 1, Slot::EMPTY);
        }
        let slot = &mut self.flows[i];
        if slot.queue != Slot::NONE && self.queues[slot.queue as usize].group != self.group {
            *slot = Slot::EMPTY;
        }
        slot
    }

    /// The current cycle (bursts closed so far) of queue `q`, if it exists.
    pub fn cycle(&self, q: u32) -> Option<u64> {
        self.queues.get(q as usize).map(|q| q.cycle)
    }

    /// Opens a new queue in this group, with the trigger's timer.
    pub fn open_queue(&mut self) -> u32 {
        super::add_queue(
            self.queues,
            self.stats,
            self.group,
            self.egress,
            self.timer,
        )
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
    /// The queue (index at the ingress) the arriving packet joins.
    fn select(&self, a: &mut Arrival<'_>) -> u32;
    /// `burst` (assembled here) was lost in the core; `flows` are the
    /// per-flow slots and `queues` the ingress's queues. The default ignores it.
    fn on_burst_lost(&self, _burst: &Burst, _flows: &mut [Slot], _queues: &[Queue]) {}
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
            pub(super) fn select(&self, a: &mut Arrival<'_>) -> u32 {
                match self {
                    $(Selector::$variant(p) => p.select(a),)+
                }
            }

            /// See [`QueueSelection::on_burst_lost`].
            pub(super) fn on_burst_lost(&self, burst: &Burst, flows: &mut [Slot], queues: &[Queue]) {
                match self {
                    $(Selector::$variant(p) => p.on_burst_lost(burst, flows, queues),)+
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
            },
        ];
        let names: Vec<_> = all.iter().map(Selection::name).collect();
        assert_eq!(names, SELECTION_NAMES);
    }
}
