//! Static multi-queue (SMQ) assembly (gonzalez2009 §3.4): a few queues per
//! egress ("two assembly queues per FEC" in the paper), flows "statically
//! assigned to these", each queue aggregating its flows as in MF. The paper
//! does not say how flows are grouped; obsim groups them by flow id modulo the
//! number of queues, which gives balanced groups for consecutive flow ids and
//! makes SMQ with n queues the same as `PerEgress { m: n, mapping: Modulo }`.

use super::select::{QueueSelection, QueueTable};
use super::Selection;
use crate::ids::FlowId;

/// SMQ with `queues` queues per egress.
#[derive(Clone, Copy, Debug)]
pub(super) struct Smq {
    queues: u32,
}

impl QueueSelection for Smq {
    const NAME: &'static str = "smq";

    fn from_selection(sel: &Selection) -> Option<Self> {
        match *sel {
            Selection::Smq { queues } => Some(Smq { queues }),
            _ => None,
        }
    }

    fn initial_queues(&self) -> u32 {
        self.queues.max(1)
    }

    /// The flow's static group: flow id modulo the number of queues.
    #[inline]
    fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, _cwnd: f64) -> u32 {
        t.first(g) + super::per_egress::modulo(flow, self.queues)
    }
}
