//! The lanes of the generated flows' access pipes (`net/access.rs`), each
//! with its packets in flight and only its head in the future-event list.
//!
//! A lane is a FIFO serialiser followed by a constant delay
//! ([`PipeLane::pass`]): its `busy_until` never decreases, so its packets
//! arrive in the order they entered, exactly as on a channel. Each lane
//! therefore keeps an [`InFlight`] FIFO (the channels' structure,
//! `engine/in_flight.rs`, in the same [`PacketSlab`]) and the global queue
//! holds one
//! [`Event::PipeArrive`] per busy lane, pushed with the head's own stamp:
//! the order of events is that of one event per packet, and [`Event`] does
//! not carry a packet (i12-perf: 12-byte events).
//!
//! Lanes live in a pool indexed by [`PipeId`]. A flow opens its four lanes
//! when it is created and closes them when it ends; a closed lane is reused
//! once its last packet has left it (packets already in an ended flow's
//! pipes still come out: up into the network, or down to find the flow gone
//! and be discarded, as before the lanes had FIFOs). The pool and the
//! slab keep their memory, so in steady state nothing allocates.

use crate::engine::event::Event;
use crate::engine::in_flight::{InFlight, PacketSlab};
use crate::engine::queue::{EventQueue, Stamp};
use crate::ids::{NodeId, PipeId};
use crate::net::access::PipeLane;
use crate::net::Packet;
use crate::time::{SimDuration, SimTime};

/// Where a lane's packets go when they come out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneExit {
    /// Up from the host into the network at this node.
    Up(NodeId),
    /// Down from the node to the flow's TCP endpoint.
    Down,
}

/// One direction of one flow's access pipe.
#[derive(Debug)]
struct Lane {
    timing: PipeLane,
    in_flight: InFlight,
    exit: LaneExit,
    /// The flow has ended: free the lane once it is empty.
    closed: bool,
}

/// The pool of access-pipe lanes.
#[derive(Debug, Default)]
pub struct PipeLanes {
    lanes: Vec<Lane>,
    /// Closed, empty lanes, reused last-freed first (deterministic).
    free: Vec<PipeId>,
}

impl PipeLanes {
    /// An idle lane whose packets leave at `exit`: a freed one if any.
    pub fn open(&mut self, exit: LaneExit) -> PipeId {
        if let Some(id) = self.free.pop() {
            let lane = &mut self.lanes[id.index()];
            debug_assert!(lane.in_flight.is_empty());
            lane.timing = PipeLane::default();
            lane.exit = exit;
            lane.closed = false;
            return id;
        }
        self.lanes.push(Lane {
            timing: PipeLane::default(),
            in_flight: InFlight::default(),
            exit,
            closed: false,
        });
        PipeId(self.lanes.len() as u32 - 1)
    }

    /// The flow owning lane `id` has ended: the lane is reused once empty.
    pub fn close(&mut self, id: PipeId) {
        let lane = &mut self.lanes[id.index()];
        lane.closed = true;
        if lane.in_flight.is_empty() {
            self.free.push(id);
        }
    }

    /// `pkt` enters lane `id` at `now` (`rate_bps`, `delay`: the pipe's);
    /// its arrival is stamped now, and scheduled if it is the lane's head.
    /// Returns when its transmission into the lane ends.
    #[inline]
    // The slab and the queue are the run's, passed in (`engine/sim.rs`).
    #[allow(clippy::too_many_arguments)]
    pub fn send(
        &mut self,
        slab: &mut PacketSlab,
        queue: &mut EventQueue<Event>,
        now: SimTime,
        id: PipeId,
        pkt: Packet,
        rate_bps: u64,
        delay: SimDuration,
    ) -> SimTime {
        let lane = &mut self.lanes[id.index()];
        let at = lane.timing.pass(now, pkt.bytes, rate_bps, delay);
        let st = queue.stamp(at);
        if lane.in_flight.push(slab, st, pkt) {
            queue.push_stamped(st, Event::PipeArrive(id));
        }
        at - delay
    }

    /// The head of lane `id` comes out (its event just ran; the next
    /// head, if any, already holds the event: [`Self::second_stamp`]).
    /// Frees a closed lane that is now empty.
    #[inline]
    pub fn pop(&mut self, slab: &mut PacketSlab, id: PipeId) -> Option<(Packet, LaneExit)> {
        let lane = &mut self.lanes[id.index()];
        let (pkt, _) = lane.in_flight.pop(slab)?;
        let exit = lane.exit;
        if lane.closed && lane.in_flight.is_empty() {
            self.free.push(id);
        }
        Some((pkt, exit))
    }

    /// The stamp of the packet behind lane `id`'s head.
    #[inline]
    pub fn second_stamp(&self, slab: &PacketSlab, id: PipeId) -> Option<Stamp> {
        self.lanes[id.index()].in_flight.second_stamp(slab)
    }

    /// Lanes ever opened (the pool's size).
    pub fn slots(&self) -> usize {
        self.lanes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1000-byte packet tagged `tag`.
    fn pkt(tag: u32) -> Packet {
        Packet {
            bytes: 1000,
            ..crate::engine::in_flight::tests::pkt(tag)
        }
    }

    fn ms(m: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(m)
    }

    /// Pops every event, taking packets out of their lanes as the engine
    /// does (pop, then push the next head).
    fn drain(
        q: &mut EventQueue<Event>,
        lanes: &mut PipeLanes,
        slab: &mut PacketSlab,
    ) -> Vec<(u64, u32)> {
        let mut out = Vec::new();
        while let Some((t, ev)) = q.pop() {
            let Event::PipeArrive(id) = ev else {
                panic!("unexpected {ev:?}")
            };
            let next = lanes.second_stamp(slab, id);
            let (p, _) = lanes.pop(slab, id).unwrap();
            if let Some(st) = next {
                q.push_stamped(st, Event::PipeArrive(id));
            }
            out.push((t.0 / 1_000_000, p.flow.0));
        }
        out
    }

    #[test]
    fn lanes_deliver_fifo_with_serialisation_and_delay() {
        let mut queue = EventQueue::new();
        let mut lanes = PipeLanes::default();
        let mut slab = PacketSlab::default();
        let up = lanes.open(LaneExit::Up(NodeId(3)));
        let down = lanes.open(LaneExit::Down);
        // 8 Mbit/s: 1000 B take 1 ms; delay 5 ms.
        let (rate, delay) = (8_000_000, SimDuration::from_millis(5));
        lanes.send(&mut slab, &mut queue, ms(0), up, pkt(1), rate, delay);
        lanes.send(&mut slab, &mut queue, ms(0), up, pkt(2), rate, delay);
        lanes.send(&mut slab, &mut queue, ms(0), down, pkt(3), rate, delay);
        assert_eq!(queue.len(), 2, "one event per busy lane");
        assert_eq!(
            drain(&mut queue, &mut lanes, &mut slab),
            [(6, 1), (6, 3), (7, 2)]
        );
    }

    #[test]
    fn closed_lane_drains_then_is_reused() {
        let mut queue = EventQueue::new();
        let mut lanes = PipeLanes::default();
        let mut slab = PacketSlab::default();
        let (rate, delay) = (8_000_000, SimDuration::from_millis(5));
        let first = lanes.open(LaneExit::Down);
        lanes.send(&mut slab, &mut queue, ms(0), first, pkt(1), rate, delay);
        lanes.close(first);
        // Still holds a packet: not reused yet.
        let second = lanes.open(LaneExit::Down);
        assert_ne!(first, second);
        assert_eq!(drain(&mut queue, &mut lanes, &mut slab), [(6, 1)]);
        // Now empty and closed: the next open takes it, idle again.
        let again = lanes.open(LaneExit::Up(NodeId(0)));
        assert_eq!(again, first);
        lanes.send(&mut slab, &mut queue, ms(10), again, pkt(2), rate, delay);
        assert_eq!(drain(&mut queue, &mut lanes, &mut slab), [(16, 2)]);
        assert_eq!(lanes.slots(), 2);
    }

    #[test]
    fn steady_state_does_not_grow_the_pool() {
        // Flows come and go, two live at a time: the pool stays at their
        // lanes' count once every lane has drained.
        let mut queue = EventQueue::new();
        let mut lanes = PipeLanes::default();
        let mut slab = PacketSlab::default();
        let (rate, delay) = (8_000_000, SimDuration::from_millis(1));
        for round in 0..100u64 {
            let ids: Vec<PipeId> = (0..2).map(|_| lanes.open(LaneExit::Down)).collect();
            for &id in &ids {
                lanes.send(
                    &mut slab,
                    &mut queue,
                    ms(10 * round),
                    id,
                    pkt(0),
                    rate,
                    delay,
                );
                lanes.close(id);
            }
            drain(&mut queue, &mut lanes, &mut slab);
        }
        assert_eq!(lanes.slots(), 2);
    }
}
