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
//! Storage: one [`PacketSlab`] for every channel and access-pipe lane of a
//! run, of chunks of [`CHUNK`] entries (a stamp and a packet, 88 bytes,
//! side by side); each [`InFlight`] FIFO is a singly linked list of chunks
//! (head chunk and position, tail chunk and fill, length). Emptied chunks
//! go on a last-in first-out free list, so a channel that needs a chunk
//! takes the one most recently emptied, still in the cache; and the slab's
//! size is the largest number of chunks in use at once over the whole
//! network (the packets in flight plus less than two chunks per busy
//! channel), where one growable ring per channel kept the sum of every
//! channel's own largest backlog, with doubling slack (issue 12: peak
//! memory per flow). Within a chunk a channel's packets are contiguous, as
//! in a ring: one slot per packet linked singly (measured, docs/PERFORMANCE.md)
//! scattered each channel's packets over the slab and was 37% slower at
//! 10 000 flows. The slab grows on demand and is kept: once the largest
//! total backlog has been seen, pushes and pops do not allocate. (Also
//! measured and rejected: stamps and packets in two separate rings with the
//! packets on cache-line boundaries, 5-10% slower; a 64-byte packet, the
//! payload's tag in a niche of the SACK count, 10% slower.)

use crate::engine::prefetch::prefetch;
use crate::engine::queue::Stamp;
use crate::net::Packet;

/// No chunk: the end of a list.
const NIL: u32 = u32::MAX;

/// Packets per chunk of the slab: contiguous enough for the cache, small
/// enough that the partly used head and tail chunks of the busy channels
/// cost little memory (measured, docs/PERFORMANCE.md).
pub const CHUNK: usize = 8;

/// `CHUNK` consecutive packets of one channel with their arrival stamps,
/// and the chunk after them on the same channel (or the next free chunk).
#[derive(Clone, Copy, Debug)]
struct Chunk {
    entries: [(Stamp, Packet); CHUNK],
    next: u32,
}

/// The chunks of every packet in flight in a run, shared by all the
/// channels' and lanes' [`InFlight`] lists, with a last-in first-out free
/// list.
#[derive(Clone, Debug)]
pub struct PacketSlab {
    chunks: Vec<Chunk>,
    /// The most recently freed chunk (`NIL`: none; grow).
    free: u32,
}

impl Default for PacketSlab {
    fn default() -> Self {
        Self {
            chunks: Vec::new(),
            free: NIL,
        }
    }
}

impl PacketSlab {
    /// An empty chunk at the end of a list: the last freed one, or a new one.
    #[inline]
    fn take(&mut self, st: Stamp, pkt: Packet) -> u32 {
        if self.free == NIL {
            // 2^32 - 1 chunks (3 TB) cannot happen.
            debug_assert!(self.chunks.len() < NIL as usize);
            self.chunks.push(Chunk {
                entries: [(st, pkt); CHUNK],
                next: NIL,
            });
            (self.chunks.len() - 1) as u32
        } else {
            let i = self.free;
            let c = &mut self.chunks[i as usize];
            self.free = c.next;
            c.next = NIL;
            i
        }
    }

    /// Puts chunk `i` on the free list.
    #[inline]
    fn give(&mut self, i: u32) {
        self.chunks[i as usize].next = self.free;
        self.free = i;
    }

    /// The entry `k` places behind position `pos` of chunk `c` (`k < CHUNK`).
    #[inline]
    fn entry(&self, c: u32, pos: u32, k: u32) -> &(Stamp, Packet) {
        let p = (pos + k) as usize;
        let ch = &self.chunks[c as usize];
        if p < CHUNK {
            &ch.entries[p]
        } else {
            &self.chunks[ch.next as usize].entries[p - CHUNK]
        }
    }

    /// Chunks ever used (the largest number in use at once).
    pub fn slots(&self) -> usize {
        self.chunks.len()
    }

    /// Room before the next allocation (for no-allocation tests).
    pub fn capacity(&self) -> usize {
        self.chunks.capacity()
    }
}

/// The packets in flight on one channel (or access-pipe lane), in arrival
/// order: a list of chunks of the run's [`PacketSlab`].
#[derive(Clone, Copy, Debug)]
pub struct InFlight {
    head: u32,
    tail: u32,
    /// Position of the oldest packet in the head chunk.
    head_pos: u32,
    /// Packets written in the tail chunk.
    tail_fill: u32,
    len: u32,
}

impl Default for InFlight {
    fn default() -> Self {
        Self {
            head: NIL,
            tail: NIL,
            head_pos: 0,
            tail_fill: 0,
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
            self.len == 0 || slab.entry(self.head, self.head_pos, 0).0 < st,
            "packets on a channel must arrive in the order they were sent"
        );
        if self.len == 0 {
            let c = slab.take(st, pkt);
            self.head = c;
            self.tail = c;
            self.head_pos = 0;
            self.tail_fill = 0;
        } else if self.tail_fill as usize == CHUNK {
            let c = slab.take(st, pkt);
            slab.chunks[self.tail as usize].next = c;
            self.tail = c;
            self.tail_fill = 0;
        }
        slab.chunks[self.tail as usize].entries[self.tail_fill as usize] = (st, pkt);
        self.tail_fill += 1;
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
        let c = &slab.chunks[self.head as usize];
        let (_, pkt) = c.entries[self.head_pos as usize];
        let next = c.next;
        self.len -= 1;
        self.head_pos += 1;
        if self.len == 0 {
            slab.give(self.head);
            *self = Self::default();
            return Some((pkt, None));
        }
        if self.head_pos as usize == CHUNK {
            slab.give(self.head);
            self.head = next;
            self.head_pos = 0;
        }
        Some((pkt, Some(slab.entry(self.head, self.head_pos, 0).0)))
    }

    /// The stamp of the packet right behind the head: the next head once
    /// the head has arrived. Prefetches the entry behind it, whose stamp the
    /// channel's next arrival reads (`engine/prefetch.rs`): it was written
    /// when sent, long enough ago to have left the cache.
    #[inline]
    pub fn second_stamp(&self, slab: &PacketSlab) -> Option<Stamp> {
        if self.len < 2 {
            return None;
        }
        let st = slab.entry(self.head, self.head_pos, 1).0;
        if self.len > 2 {
            prefetch(slab.entry(self.head, self.head_pos, 2));
        }
        Some(st)
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
        let (mut c, mut p) = (self.head, self.head_pos as usize);
        (0..self.len).map(move |_| {
            if p == CHUNK {
                c = slab.chunks[c as usize].next;
                p = 0;
            }
            p += 1;
            &slab.chunks[c as usize].entries[p - 1].1
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
        assert!(slab.slots() <= 100 / CHUNK + 2);
    }

    #[test]
    fn slab_holds_the_simultaneous_peak_not_the_sum() {
        // Two channels take turns holding 50 packets: the slab holds the
        // chunks of 50, not 100, and the packets come out in order with the
        // chunks reused last-freed first.
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
        assert_eq!(slab.slots(), 50_usize.div_ceil(CHUNK));
        // The next packet takes the chunk freed last.
        let last_freed = slab.free;
        ch[0].push(&mut slab, q.stamp(SimTime(t + 1)), pkt(0));
        assert_eq!(ch[0].head, last_freed);
    }
}
