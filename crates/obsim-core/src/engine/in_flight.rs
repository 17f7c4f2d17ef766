//! The packets in flight on each channel, oldest first, with only the head in
//! the future-event list; all channels' packets in one shared slab.
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
//! Storage: one [`PacketSlab`] of slots (a stamp, a packet and the index of
//! the next slot, 96 bytes) for every channel and access-pipe lane of a run,
//! each [`InFlight`] FIFO a singly linked list through it (head, tail,
//! length). Freed slots go on a last-in first-out free list, so a packet
//! sent takes the slot most recently freed, still in the cache; and the
//! slab's size is the largest number of packets in flight at once over the
//! whole network, where one growable ring per channel would keep the sum of
//! every channel's own largest backlog (issue 12: peak memory per flow).
//! The slab grows on demand and is kept: once the largest total backlog has
//! been seen, pushes and pops do not allocate. (Measured and rejected,
//! docs/PERFORMANCE.md: stamps and packets in two separate rings with the
//! packets on cache-line boundaries, 5-10% slower; a 64-byte packet, the
//! payload's tag in a niche of the SACK count, 10% slower.)

use crate::engine::prefetch::prefetch;
use crate::engine::queue::Stamp;
use crate::net::Packet;

/// No slot: the end of a list.
const NIL: u32 = u32::MAX;

/// One packet in flight: its arrival stamp, the packet, and the slot of the
/// packet behind it on the same channel (or of the next free slot). The
/// stamp and the link come first, in the first cache line, as the next
/// arrival reads them before the packet.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Slot {
    st: Stamp,
    next: u32,
    pkt: Packet,
}

/// The slots of every packet in flight in a run, shared by all the
/// channels' and lanes' [`InFlight`] lists, with a last-in first-out free
/// list.
#[derive(Clone, Debug)]
pub struct PacketSlab {
    slots: Vec<Slot>,
    /// The most recently freed slot (`NIL`: none; grow).
    free: u32,
}

impl Default for PacketSlab {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            free: NIL,
        }
    }
}

impl PacketSlab {
    /// A slot holding `st`, `pkt`, at the end of a list: the last freed one,
    /// or a new one.
    #[inline]
    fn take(&mut self, st: Stamp, pkt: Packet) -> u32 {
        let slot = Slot { st, next: NIL, pkt };
        if self.free == NIL {
            // 2^32 - 1 packets (400 GB) in flight at once cannot happen.
            debug_assert!(self.slots.len() < NIL as usize);
            self.slots.push(slot);
            (self.slots.len() - 1) as u32
        } else {
            let i = self.free;
            let s = &mut self.slots[i as usize];
            self.free = s.next;
            *s = slot;
            i
        }
    }

    /// Slots ever used (the largest number of packets in flight at once).
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Room before the next allocation (for no-allocation tests).
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }
}

/// The packets in flight on one channel (or access-pipe lane), in arrival
/// order: a list through the run's [`PacketSlab`].
#[derive(Clone, Copy, Debug)]
pub struct InFlight {
    head: u32,
    tail: u32,
    len: u32,
}

impl Default for InFlight {
    fn default() -> Self {
        Self {
            head: NIL,
            tail: NIL,
            len: 0,
        }
    }
}

impl InFlight {
    /// Appends `pkt`, stamped for its arrival. Returns true when it is the
    /// new head (the channel had nothing in flight): the caller must then
    /// schedule the head's arrival with `st`.
    #[inline]
    pub fn push(&mut self, slab: &mut PacketSlab, st: Stamp, pkt: Packet) -> bool {
        debug_assert!(
            self.len == 0 || slab.slots[self.tail as usize].st < st,
            "packets on a channel must arrive in the order they were sent"
        );
        let i = slab.take(st, pkt);
        if self.len == 0 {
            self.head = i;
        } else {
            slab.slots[self.tail as usize].next = i;
        }
        self.tail = i;
        self.len += 1;
        self.len == 1
    }

    /// Removes the head (the packet whose arrival event just ran). Returns it
    /// and, if another packet is in flight, the stamp of the new head, which
    /// the caller must schedule.
    #[inline]
    pub fn pop(&mut self, slab: &mut PacketSlab) -> Option<(Packet, Option<Stamp>)> {
        if self.len == 0 {
            return None;
        }
        let i = self.head;
        let s = &mut slab.slots[i as usize];
        let (pkt, next) = (s.pkt, s.next);
        s.next = slab.free;
        slab.free = i;
        self.len -= 1;
        if self.len == 0 {
            self.head = NIL;
            self.tail = NIL;
            return Some((pkt, None));
        }
        self.head = next;
        Some((pkt, Some(slab.slots[next as usize].st)))
    }

    /// The stamp of the packet right behind the head: the next head once
    /// the head has arrived. Prefetches the slot behind it, whose stamp the
    /// channel's next arrival reads (`engine/prefetch.rs`): it was written
    /// when sent, long enough ago to have left the cache. (Its index is in
    /// the second packet's slot, read here anyway.)
    #[inline]
    pub fn second_stamp(&self, slab: &PacketSlab) -> Option<Stamp> {
        if self.len < 2 {
            return None;
        }
        let second = &slab.slots[slab.slots[self.head as usize].next as usize];
        if self.len > 2 {
            prefetch(&slab.slots[second.next as usize]);
        }
        Some(second.st)
    }

    /// Packets in flight.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packets in flight, oldest first.
    pub fn packets<'a>(&self, slab: &'a PacketSlab) -> impl Iterator<Item = &'a Packet> {
        let mut i = self.head;
        (0..self.len).map(move |_| {
            let s = &slab.slots[i as usize];
            i = s.next;
            &s.pkt
        })
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
        let mut slab = PacketSlab::default();
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
                            if ch[c].push(&mut slab, st, pkt(tag)) {
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
                Some((_, &Ev::Head(c))) if rekey => match ch[c].second_stamp(&slab) {
                    Some(st) => q.reschedule_top(st).map(|(t, _)| (t, Ev::Head(c))),
                    None => q.pop(),
                },
                _ => q.pop(),
            };
            match popped {
                Some((t, Ev::Head(c))) if rekey => {
                    let (p, _) = ch[c].pop(&mut slab).unwrap();
                    out.push((t.0, p.flow.0));
                }
                Some((t, Ev::Head(c))) => {
                    let (p, next) = ch[c].pop(&mut slab).unwrap();
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
        let mut slab = PacketSlab::default();
        let mut fifo = InFlight::default();
        let mut q: EventQueue<()> = EventQueue::new();
        let first = q.stamp(SimTime(10));
        let tie = q.stamp(SimTime(10));
        let later = q.stamp(SimTime(12));
        assert!(
            fifo.push(&mut slab, first, pkt(1)),
            "first packet is the head"
        );
        assert!(!fifo.push(&mut slab, tie, pkt(2)));
        assert!(!fifo.push(&mut slab, later, pkt(3)));
        assert_eq!(fifo.len(), 3);
        assert_eq!(fifo.second_stamp(&slab), Some(tie));
        let (p, next) = fifo.pop(&mut slab).unwrap();
        assert_eq!((p.flow.0, next), (1, Some(tie)));
        let (p, next) = fifo.pop(&mut slab).unwrap();
        assert_eq!((p.flow.0, next), (2, Some(later)));
        assert_eq!(fifo.second_stamp(&slab), None);
        let (p, next) = fifo.pop(&mut slab).unwrap();
        assert_eq!((p.flow.0, next), (3, None));
        assert!(fifo.pop(&mut slab).is_none());
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
        let mut slab = PacketSlab::default();
        let mut f = InFlight::default();
        let mut q: EventQueue<()> = EventQueue::new();
        for i in 0..100 {
            f.push(&mut slab, q.stamp(SimTime(i)), pkt(0));
        }
        let cap = slab.capacity();
        for i in 100..10_000 {
            f.pop(&mut slab).unwrap();
            f.push(&mut slab, q.stamp(SimTime(i)), pkt(0));
        }
        assert_eq!(slab.capacity(), cap);
        assert_eq!(slab.slots(), 100);
    }

    #[test]
    fn slab_holds_the_simultaneous_peak_not_the_sum() {
        // Two channels take turns holding 50 packets: the slab holds 50
        // slots, not 100, and the packets come out in order with the slots
        // reused last-freed first.
        let mut slab = PacketSlab::default();
        let mut ch = [InFlight::default(); 2];
        let mut q: EventQueue<()> = EventQueue::new();
        let mut t = 0;
        for round in 0..10 {
            let c = &mut ch[round % 2];
            for k in 0..50 {
                t += 1;
                c.push(&mut slab, q.stamp(SimTime(t)), pkt(k));
            }
            assert_eq!(
                c.packets(&slab).map(|p| p.flow.0).collect::<Vec<_>>(),
                (0..50).collect::<Vec<_>>()
            );
            for k in 0..50 {
                let (p, next) = c.pop(&mut slab).unwrap();
                assert_eq!(p.flow.0, k);
                assert_eq!(next.is_some(), k < 49);
            }
            assert!(c.is_empty());
        }
        assert_eq!(slab.slots(), 50);
        // The next packet takes the slot freed last.
        let last_freed = slab.free;
        ch[0].push(&mut slab, q.stamp(SimTime(t + 1)), pkt(0));
        assert_eq!(ch[0].head, last_freed);
    }

    #[test]
    fn slot_is_96_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 96);
    }
}
