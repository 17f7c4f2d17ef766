//! M burstifiers per egress with a static flow-to-queue mapping (gurel2008
//! §2, Fig. 1: "a group of M assembly buffers generating bursts destined for
//! the same egress node"; M is chosen among the divisors of N there so that
//! the modulo mapping is balanced).

use super::select::{QueueSelection, QueueTable, Slot};
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
    fn select(&self, t: &mut QueueTable, g: u32, flow: FlowId, _cwnd: f64) -> u32 {
        match self.mapping {
            FlowMapping::Modulo => t.first(g) + modulo(flow, self.m),
            FlowMapping::Random => {
                let q = t.slot(g, flow).queue;
                if q != Slot::NONE {
                    return q;
                }
                let q = t.first(g) + uniform_below(&mut t.rng, self.m.max(1));
                t.slot(g, flow).queue = q;
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::select::table_for;
    use super::*;

    #[test]
    fn modulo_maps_flow_ids_into_the_group() {
        let p = PerEgress {
            m: 3,
            mapping: FlowMapping::Modulo,
        };
        let mut t = table_for(&p, 2);
        let got: Vec<u32> = (0..4)
            .map(|f| p.select(&mut t, 1, FlowId(f), 1.0))
            .collect();
        assert_eq!(got, vec![3, 4, 5, 3]);
    }

    #[test]
    fn random_mapping_draws_once_per_flow() {
        let p = PerEgress {
            m: 4,
            mapping: FlowMapping::Random,
        };
        let mut t = table_for(&p, 1);
        let first: Vec<u32> = (0..50)
            .map(|f| p.select(&mut t, 0, FlowId(f), 1.0))
            .collect();
        let again: Vec<u32> = (0..50)
            .map(|f| p.select(&mut t, 0, FlowId(f), 1.0))
            .collect();
        assert_eq!(first, again, "static after the first draw");
        assert!((0..4).all(|q| first.contains(&q)), "{first:?}");
    }
}
