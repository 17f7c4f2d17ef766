//! M burstifiers per egress with a static flow-to-queue mapping (gurel2008
//! §2, Fig. 1: "a group of M assembly buffers generating bursts destined for
//! the same egress node"; M is chosen among the divisors of N there so that
//! the modulo mapping is balanced).

use super::select::{Arrival, QueueSelection, Slot};
use super::Selection;
use crate::ids::FlowId;
pub(crate) use crate::rng::uniform_below;

/// How a flow is mapped to one of the M burstifiers of its egress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum FlowMapping {
    /// Queue = flow id mod M: balanced when flow ids are consecutive and M
    /// divides N (gurel2008 §2).
    Modulo,
    /// Each flow draws its queue uniformly among the M once, from the
    /// assembler's rng, the first time it sends to the egress ("uniform
    /// random ids").
    Random,
}

/// The queue of `flow` among `m` under the modulo mapping.
#[inline]
pub(super) fn modulo(flow: FlowId, m: u32) -> u32 {
    flow.0 % m.max(1)
}

/// M burstifiers per egress (gurel2008 §2).
#[derive(Clone, Copy, Debug)]
pub(super) struct PerEgress {
    /// Burstifiers per egress (M).
    m: u32,
    mapping: FlowMapping,
}

impl QueueSelection for PerEgress {
    const NAME: &'static str = "per_egress";

    fn from_selection(sel: &Selection) -> Option<Self> {
        match *sel {
            Selection::PerEgress { m, mapping } => Some(PerEgress { m, mapping }),
            _ => None,
        }
    }

    fn initial_queues(&self) -> u32 {
        self.m.max(1)
    }

    #[inline]
    fn select(&self, a: &mut Arrival<'_>) -> u32 {
        match self.mapping {
            FlowMapping::Modulo => a.first + modulo(a.flow, self.m),
            FlowMapping::Random => {
                let q = a.slot().queue;
                if q != Slot::NONE {
                    return q;
                }
                let q = a.first + uniform_below(a.rng, self.m.max(1));
                a.slot().queue = q;
                q
            }
        }
    }
}
