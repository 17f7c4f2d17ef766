//! The packets in flight on one channel, oldest first, with only the head in
//! the future-event list.
//!
//! A channel is FIFO at a constant rate (`net/channel.rs`): a packet's
//! arrival at the far end is `busy_until + delay`, and `busy_until` never
//! decreases, so packets arrive in the order they were enqueued, and their
//! queue stamps `(time, seq)` (drawn at enqueue, [`Stamp`]) increase along
//! the channel. Keeping them in a per-channel FIFO and giving the global
//! queue one `Arrive(ch)` event for the head only is therefore exact: the
//! global minimum over all pending events is always some channel's head, and
//! since each head carries the stamp it was given at enqueue, events pop in
//! the same `(time, push order)` order as if every packet had its own event.
//! The global queue holds O(channels + timers) events instead of one per
//! packet in flight (issue 12: at 1 000 flows the per-packet heap grew with
//! the bandwidth-delay product and `pop` took 60% of the run).
//!
//! Each entry is a stamp and a packet, 88 bytes, side by side. (Measured
//! and rejected, docs/PERFORMANCE.md: stamps and packets in two separate
//! rings with the packets on cache-line boundaries, 5-10% slower; a 64-byte
//! packet, the payload's tag in a niche of the SACK count, 10% slower.)
//!
//! Memory grows on demand (a `VecDeque` that doubles) and is kept: after the
//! largest backlog has been seen once, pushes and pops do not allocate.

use std::collections::VecDeque;

use crate::engine::prefetch::prefetch;
use crate::engine::queue::Stamp;
use crate::net::Packet;

/// The packets in flight on one channel, in arrival order.
#[derive(Clone, Debug, Default)]
pub struct InFlight {
    fifo: VecDeque<(Stamp, Packet)>,
}

impl InFlight {
    /// Appends `pkt`, stamped for its arrival. Returns true when it is the
    /// new head (the channel had nothing in flight): the caller must then
    /// schedule the head's arrival with `st`.
    #[inline]
    pub fn push(&mut self, st: Stamp, pkt: Packet) -> bool {
        debug_assert!(
            self.fifo.back().is_none_or(|&(last, _)| last < st),
            "packets on a channel must arrive in the order they were sent"
        );
        self.fifo.push_back((st, pkt));
        self.fifo.len() == 1
    }

    /// Removes the head (the packet whose arrival event just ran). Returns it
    /// and, if another packet is in flight, the stamp of the new head, which
    /// the caller must schedule.
    #[inline]
    pub fn pop(&mut self) -> Option<(Packet, Option<Stamp>)> {
        let (_, pkt) = self.fifo.pop_front()?;
        Some((pkt, self.fifo.front().map(|&(st, _)| st)))
    }

    /// The stamp of the packet right behind the head: the next head once
    /// the head has arrived. Prefetches the entry behind it, whose stamp the
    /// channel's next arrival reads (`engine/prefetch.rs`): it was written
    /// when sent, long enough ago to have left the cache.
    #[inline]
    pub fn second_stamp(&self) -> Option<Stamp> {
        let st = self.fifo.get(1).map(|&(st, _)| st);
        if let Some(e) = self.fifo.get(2) {
            prefetch(e);
        }
        st
    }

    /// Packets in flight.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    /// Whether nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    /// The packets in flight, oldest first.
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.fifo.iter().map(|(_, p)| p)
    }

    /// Room before the next allocation (for no-allocation tests).
    pub fn capacity(&self) -> usize {
        self.fifo.capacity()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::queue::EventQueue;
    use crate::ids::{FlowId, NodeId};
    use crate::net::{Datagram, Payload};
    use crate::time::SimTime;

    /// A 100-byte datagram tagged `tag` (its flow id and source).
    pub(crate) fn pkt(tag: u32) -> Packet {
        Packet {
            flow: FlowId(tag),
            src: NodeId(0),
            dst: NodeId(1),
            bytes: 100,
            payload: Payload::Datagram(Datagram {
                source: tag,
                seq: 0,
            }),
        }
    }

    /// What the engine does: a sender offers packets to channels, each
    /// channel's head is the only queued event; `Other(n)` stands for every
    /// other kind of event. Returns the order in which things happen.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Ev {
        Head(usize),
        Other(u32),
    }

    /// A script: per step, events to push as `(channel or None, time, tag)`;
    /// after each step one event pops.
    type Script = [Vec<(Option<usize>, u64, u32)>];

    /// The time an entry is pushed at: never before now, and on a channel
    /// never before the channel's previous packet (a FIFO link).
    fn due(now: SimTime, last: &mut [u64], c: Option<usize>, t: u64) -> u64 {
        let t = t.max(now.0);
        match c {
            Some(c) => {
                last[c] = last[c].max(t);
                last[c]
            }
            None => t,
        }
    }

    /// The script run with one FIFO per channel, heads only in the queue,
    /// the next head pushed after the head pops.
    fn run_fifo(script: &Script, channels: usize) -> Vec<(u64, u32)> {
        let a = run_fifo_with(script, channels, false);
        // And as the engine does it: the head's entry moved to the next
        // head's stamp in place (`EventQueue::reschedule_top`).
        let b = run_fifo_with(script, channels, true);
        assert_eq!(a, b, "reschedule_top differs from pop + push_stamped");
        a
    }

    fn run_fifo_with(script: &Script, channels: usize, rekey: bool) -> Vec<(u64, u32)> {
        let mut q = EventQueue::new();
        let mut ch: Vec<InFlight> = vec![InFlight::default(); channels];
        let mut last = vec![0; channels];
        let mut out = Vec::new();
        let mut step = 0;
        loop {
            if let Some(pushes) = script.get(step) {
                for &(c, t, tag) in pushes {
                    let t = due(q.now(), &mut last, c, t);
                    match c {
                        Some(c) => {
                            let st = q.stamp(SimTime(t));
                            if ch[c].push(st, pkt(tag)) {
                                q.push_stamped(st, Ev::Head(c));
                            }
                        }
                        None => {
                            q.push(SimTime(t), Ev::Other(tag));
                        }
                    }
                }
            }
            step += 1;
            let popped = match q.peek() {
                Some((_, &Ev::Head(c))) if rekey => match ch[c].second_stamp() {
                    Some(st) => q.reschedule_top(st).map(|(t, _)| (t, Ev::Head(c))),
                    None => q.pop(),
                },
                _ => q.pop(),
            };
            match popped {
                Some((t, Ev::Head(c))) if rekey => {
                    let (p, _) = ch[c].pop().unwrap();
                    out.push((t.0, p.flow.0));
                }
                Some((t, Ev::Head(c))) => {
                    let (p, next) = ch[c].pop().unwrap();
                    if let Some(st) = next {
                        q.push_stamped(st, Ev::Head(c));
                    }
                    out.push((t.0, p.flow.0));
                }
                Some((t, Ev::Other(tag))) => out.push((t.0, tag)),
                None if step >= script.len() => break,
                None => {}
            }
        }
        out
    }

    /// The same script with one plain queued event per packet (the design the
    /// FIFO replaces): the reference order.
    fn run_plain(script: &Script, channels: usize) -> Vec<(u64, u32)> {
        let mut q = EventQueue::new();
        let mut last = vec![0; channels];
        let mut out = Vec::new();
        let mut step = 0;
        loop {
            if let Some(pushes) = script.get(step) {
                for &(c, t, tag) in pushes {
                    let t = due(q.now(), &mut last, c, t);
                    q.push(SimTime(t), tag);
                }
            }
            step += 1;
            match q.pop() {
                Some((t, tag)) => out.push((t.0, tag)),
                None if step >= script.len() => break,
                None => {}
            }
        }
        out
    }

    #[test]
    fn head_only_is_reported_once() {
        let mut fifo = InFlight::default();
        let mut q: EventQueue<()> = EventQueue::new();
        let first = q.stamp(SimTime(10));
        let tie = q.stamp(SimTime(10));
        let later = q.stamp(SimTime(12));
        assert!(fifo.push(first, pkt(1)), "first packet is the head");
        assert!(!fifo.push(tie, pkt(2)));
        assert!(!fifo.push(later, pkt(3)));
        assert_eq!(fifo.len(), 3);
        assert_eq!(fifo.second_stamp(), Some(tie));
        let (p, next) = fifo.pop().unwrap();
        assert_eq!((p.flow.0, next), (1, Some(tie)));
        let (p, next) = fifo.pop().unwrap();
        assert_eq!((p.flow.0, next), (2, Some(later)));
        assert_eq!(fifo.second_stamp(), None);
        let (p, next) = fifo.pop().unwrap();
        assert_eq!((p.flow.0, next), (3, None));
        assert!(fifo.pop().is_none());
        assert!(fifo.is_empty());
    }

    #[test]
    fn order_matches_one_event_per_packet() {
        // Two channels and other events, with times that interleave.
        let script = vec![
            vec![
                (Some(0), 10, 1),
                (Some(1), 10, 2),
                (None, 10, 3),
                (Some(0), 11, 4),
            ],
            vec![(Some(1), 12, 5), (None, 11, 6)],
            vec![],
            vec![(Some(0), 14, 7)],
        ];
        let fifo = run_fifo(&script, 2);
        assert_eq!(fifo, run_plain(&script, 2));
        assert_eq!(
            fifo,
            vec![
                (10, 1),
                (10, 2),
                (10, 3),
                (11, 4),
                (11, 6),
                (12, 5),
                (14, 7)
            ]
        );
    }

    #[test]
    fn ties_pop_in_push_order_across_channels_and_events() {
        // Everything at the same time: the order is the push order, even
        // though channel 0's second packet enters the global queue only
        // after its first has popped (later than the events pushed between).
        let script = vec![vec![
            (Some(0), 5, 1),
            (Some(0), 5, 2),
            (None, 5, 3),
            (Some(1), 5, 4),
            (Some(0), 5, 5),
            (None, 5, 6),
        ]];
        let fifo = run_fifo(&script, 2);
        assert_eq!(
            fifo.iter().map(|x| x.1).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6]
        );
        assert_eq!(fifo, run_plain(&script, 2));
    }

    #[test]
    fn channel_goes_idle_and_busy_again() {
        // Channel 0 empties at step 1, then gets packets again; the new first
        // packet must be scheduled as the head again.
        let script = vec![
            vec![(Some(0), 3, 1)],
            vec![],
            vec![(Some(0), 7, 2), (None, 7, 3), (Some(0), 8, 4)],
            vec![],
            vec![],
            vec![(Some(0), 20, 5)],
        ];
        let fifo = run_fifo(&script, 1);
        assert_eq!(fifo, vec![(3, 1), (7, 2), (7, 3), (8, 4), (20, 5)]);
        assert_eq!(fifo, run_plain(&script, 1));
    }

    #[test]
    fn random_scripts_match_one_event_per_packet() {
        // xorshift64: a fixed pseudo-random sequence, enough for scripts.
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut rnd = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..500 {
            let channels = 1 + rnd(4) as usize;
            let mut tag = 0u32;
            let mut script = Vec::new();
            for s in 0..=rnd(40) {
                let mut step = Vec::new();
                for _ in 0..rnd(4) {
                    tag += 1;
                    // Small times, many ties; `due` keeps them legal.
                    let t = s / 2 + rnd(3);
                    let c = (rnd(10) < 7).then(|| rnd(channels as u64) as usize);
                    step.push((c, t, tag));
                }
                script.push(step);
            }
            assert_eq!(
                run_fifo(&script, channels),
                run_plain(&script, channels),
                "{script:?}"
            );
        }
    }

    #[test]
    fn steady_state_does_not_allocate() {
        let mut f = InFlight::default();
        let mut q: EventQueue<()> = EventQueue::new();
        for i in 0..100 {
            f.push(q.stamp(SimTime(i)), pkt(0));
        }
        let cap = f.capacity();
        for i in 100..10_000 {
            f.pop().unwrap();
            f.push(q.stamp(SimTime(i)), pkt(0));
        }
        assert_eq!(f.capacity(), cap);
    }
}
