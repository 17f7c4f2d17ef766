//! The events of a run.
//!
//! Order of simultaneous events: events at the same simulated time run in
//! the order they were scheduled (FIFO by insertion, see `queue`). The stop
//! event is scheduled before anything else, so a run covers `[0, duration)`:
//! events due exactly at `duration` do not run.

use crate::ids::{FlowId, LinkId, NodeId, PipeId};

/// Something that happens at an instant.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The oldest packet in flight on channel `0` has fully crossed it and
    /// reaches the channel's far end. The packet waits in the channel's
    /// in-flight FIFO (`engine/in_flight.rs`); only a channel's head has
    /// this event pending, stamped with the place its own event would have
    /// had, so the order of events is that of one event per packet.
    Arrive(LinkId),
    /// The burst in slot `burst` of the burst slab has fully crossed the
    /// optical channel `ch`.
    BurstArrive {
        /// Channel crossed.
        ch: LinkId,
        /// Slot in the engine's burst slab.
        burst: u32,
    },
    /// The burst control packet of the burst in slot `0` has been processed
    /// (Δ) at the node the burst is heading for: reserve its next link.
    Bcp(u32),
    /// The burst in slot `0`, lost by a burst loss model on the link it is
    /// crossing, would have reached the link's far end now.
    BurstLost(u32),
    /// Background burst generator `0` emits a burst.
    Generate(u32),
    /// Flow generator `0` (`flow_generators[0]`) has a flow arriving.
    FlowArrival(u32),
    /// The oldest packet in access-pipe lane `0` has crossed it: up into
    /// the network at the flow's node, or down to its endpoint (issue 12).
    /// Like [`Event::Arrive`], the packet waits in the lane's in-flight FIFO
    /// (`engine/pipes.rs`) and only the lane's head has this event pending.
    PipeArrive(PipeId),
    /// An edge node's earliest assembly timer may have expired.
    AssemblyTimer(NodeId),
    /// A flow's application starts sending.
    FlowStart(FlowId),
    /// A flow's retransmission timer may have expired (checked lazily: the
    /// sender's current deadline decides).
    SenderTimer(FlowId),
    /// A flow's delayed-ACK timer may have expired.
    ReceiverTimer(FlowId),
    /// A flow's sender held back by small queues (`tcp/small_queue.rs`: a
    /// packet of its has left its first hop) or by pacing (`tcp/pacing.rs`:
    /// its departure time has come) may send again.
    SenderWake(FlowId),
    /// UDP traffic source `n` (`Scenario::traffic[n]`) sends its next
    /// datagram (one pending event per source).
    TrafficSend(u32),
    /// Take one sample of every traced flow.
    TraceSample,
    /// Sample every flow for the aggregate metrics.
    MetricsSample,
    /// End of the warm-up period: statistics start here.
    WarmupEnd,
    /// End of the run.
    Stop,
}
