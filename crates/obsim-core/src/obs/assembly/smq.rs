//! Static multi-queue (SMQ) assembly (gonzalez2009 §3.4): a few queues per
//! egress ("two assembly queues per FEC" in the paper), flows "statically
//! assigned to these", each queue aggregating its flows as in MF. The paper
//! does not say how flows are grouped; obsim groups them by flow id modulo the
//! number of queues, which gives balanced groups for consecutive flow ids and
//! makes SMQ with n queues the same as `PerEgress { m: n, mapping: Modulo }`.

use crate::ids::FlowId;

/// The static group (queue) of `flow` among `queues`.
#[inline]
pub(super) fn group(flow: FlowId, queues: u32) -> u32 {
    super::per_egress::modulo(flow, queues)
}
