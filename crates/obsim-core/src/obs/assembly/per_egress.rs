//! M burstifiers per egress with a static flow-to-queue mapping (gurel2008
//! §2, Fig. 1: "a group of M assembly buffers generating bursts destined for
//! the same egress node"; M is chosen among the divisors of N there so that
//! the modulo mapping is balanced).

use crate::ids::FlowId;

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

pub(crate) use crate::rng::uniform_below;
