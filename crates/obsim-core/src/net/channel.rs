//! One direction of a point-to-point link: a FIFO transmitter of fixed bit
//! rate behind a drop-tail buffer, followed by a propagation delay.
//!
//! The channel is *analytic*: because service is FIFO at a constant rate, a
//! packet's transmission start and end are known the moment it is enqueued
//! (start = max(now, end of the previous packet)). The simulator therefore
//! schedules a single event per packet per hop (its arrival at the far end)
//! instead of separate enqueue / start / end events. Buffer occupancy is kept
//! as the sizes of the packets whose transmission has not yet started, with
//! the start of the oldest: each waiting packet starts when the one before
//! it ends, so the other starts follow from the sizes. A packet
//! limit `N` counts the packet on the wire too, as ns-2's DropTail `limit_`
//! does (`enque` drops when `length + 1 >= limit_`, `length` excluding the
//! packet the link holds).

use std::collections::VecDeque;

use crate::config::scenario::Buffer;
use crate::ids::NodeId;
use crate::time::{SimDuration, SimTime};

/// Counters of one channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelStats {
    /// Packets accepted into the buffer or straight into service.
    pub packets: u64,
    /// Bytes accepted.
    pub bytes: u64,
    /// Packets refused because the buffer was full.
    pub drops_buffer: u64,
    /// Packets lost by the loss model after crossing the channel.
    pub drops_loss: u64,
    /// Bursts sent (optical channels).
    pub bursts: u64,
    /// Bursts lost by the burst loss model.
    pub bursts_lost: u64,
}

/// A simplex channel `from -> to`.
#[derive(Clone, Debug)]
pub struct Channel {
    /// Transmitting node.
    pub from: NodeId,
    /// Receiving node.
    pub to: NodeId,
    /// Bit rate, bits per second.
    pub rate_bps: u64,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Buffer limit.
    pub buffer: Buffer,
    /// End of the last scheduled transmission.
    busy_until: SimTime,
    /// Sizes in bytes of the packets not yet in service, oldest first (4
    /// bytes a queued packet: at the reference dumbbell's slow-start peak the
    /// access buffers hold 80 000 packets; issue 12, peak memory per flow).
    waiting: VecDeque<u32>,
    /// Transmission start of the oldest waiting packet (meaningful while
    /// `waiting` is not empty). A packet waits only behind another, so it
    /// starts when the one before it ends: the next one's start is this
    /// plus the oldest's transmission time.
    head_start: SimTime,
    /// Bytes in `waiting`.
    waiting_bytes: u64,
    /// Total transmission time scheduled so far (for utilisation).
    busy_total: SimDuration,
    /// Memo of the last (bytes, transmission time): traffic has few packet
    /// sizes, and this spares a 128-bit division per packet.
    last_tx: (u32, SimDuration),
    /// Counters.
    pub stats: ChannelStats,
}

impl AsRef<Channel> for Channel {
    fn as_ref(&self) -> &Channel {
        self
    }
}

impl Channel {
    /// A channel with an empty buffer.
    pub fn new(
        from: NodeId,
        to: NodeId,
        rate_bps: u64,
        delay: SimDuration,
        buffer: Buffer,
    ) -> Self {
        Self {
            from,
            to,
            rate_bps,
            delay,
            buffer,
            busy_until: SimTime::ZERO,
            // Grows on demand and keeps its largest size: a pre-sized buffer
            // cost 16 bytes x limit per channel, most of a flow's memory.
            waiting: VecDeque::new(),
            head_start: SimTime::ZERO,
            waiting_bytes: 0,
            busy_total: SimDuration::ZERO,
            last_tx: (0, SimDuration::ZERO),
            stats: ChannelStats::default(),
        }
    }

    /// Offers a packet of `bytes` at `now`. Returns the time its last bit
    /// reaches the far end, or `None` if the drop-tail buffer is full.
    #[inline]
    pub fn enqueue(&mut self, now: SimTime, bytes: u32) -> Option<SimTime> {
        // Packets whose transmission has started have left the buffer.
        while let Some(&b) = self.waiting.front() {
            if self.head_start > now {
                break;
            }
            self.waiting.pop_front();
            self.waiting_bytes -= u64::from(b);
            let tx = self.tx_time(b);
            self.head_start += tx;
        }
        let start = self.busy_until.max(now);
        if start > now {
            let full = match self.buffer {
                Buffer::Packets(n) => self.waiting.len() + 1 >= n as usize,
                Buffer::Bytes(n) => self.waiting_bytes + u64::from(bytes) > n,
                Buffer::Unlimited => false,
            };
            if full {
                self.stats.drops_buffer += 1;
                return None;
            }
            if self.waiting.is_empty() {
                self.head_start = start;
            }
            self.waiting.push_back(bytes);
            self.waiting_bytes += u64::from(bytes);
        }
        let tx = self.tx_time(bytes);
        self.busy_until = start + tx;
        self.busy_total += tx;
        self.stats.packets += 1;
        self.stats.bytes += u64::from(bytes);
        Some(self.busy_until + self.delay)
    }

    /// Offers a burst of `bytes` whose transmission also takes `guard`, at
    /// `now`, on an optical channel: bursts queue without limit in the
    /// electronic burst queue of the sending edge (gurel2008 §2: no loss at
    /// the edge) and are sent one at a time. Returns the time its last bit
    /// reaches the far end.
    /// A channel carries packets or bursts, not both: a burst does not
    /// queue behind waiting packets, whose starts follow one another.
    pub fn enqueue_burst(&mut self, now: SimTime, bytes: u64, guard: SimDuration) -> SimTime {
        debug_assert!(self.waiting.is_empty(), "bursts and packets on one channel");
        let start = self.busy_until.max(now);
        let tx = SimDuration::transmission(bytes, self.rate_bps) + guard;
        self.busy_until = start + tx;
        self.busy_total += tx;
        self.stats.bursts += 1;
        self.stats.bytes += bytes;
        self.busy_until + self.delay
    }

    /// Transmission time of `bytes` at the channel's rate, memoised for the
    /// last size seen (the same function every start and end is computed
    /// with, so the waiting packets' starts follow exactly).
    #[inline]
    fn tx_time(&mut self, bytes: u32) -> SimDuration {
        if self.last_tx.0 == bytes {
            self.last_tx.1
        } else {
            let tx = SimDuration::transmission(u64::from(bytes), self.rate_bps);
            self.last_tx = (bytes, tx);
            tx
        }
    }

    /// Packets waiting (not yet in service) at the last enqueue.
    pub fn backlog(&self) -> usize {
        self.waiting.len()
    }

    /// Busy time in `[0, t]`, where `t` is the current time (every enqueue
    /// happened at or before `t`, so `[t, busy_until]` is one busy period).
    pub fn busy_time_until(&self, t: SimTime) -> SimDuration {
        // Everything scheduled ends by busy_until; subtract what lies beyond t.
        let beyond = self.busy_until.saturating_since(t);
        self.busy_total - beyond
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(buffer: Buffer) -> Channel {
        // 8 Mbit/s: a 1000-byte packet takes exactly 1 ms.
        Channel::new(
            NodeId(0),
            NodeId(1),
            8_000_000,
            SimDuration::from_millis(10),
            buffer,
        )
    }

    #[test]
    fn idle_channel_sends_immediately() {
        let mut c = ch(Buffer::Packets(0));
        // No waiting room, but an idle link still takes the packet.
        let t = c.enqueue(SimTime::ZERO, 1000).unwrap();
        assert_eq!(t, SimTime(11_000_000));
    }

    #[test]
    fn droptail_limit_counts_the_packet_on_the_wire() {
        // ns-2 limit_ 3: two waiting plus the one on the wire.
        let mut c = ch(Buffer::Packets(3));
        let t0 = SimTime::ZERO;
        assert_eq!(c.enqueue(t0, 1000), Some(SimTime(11_000_000))); // in service
        assert_eq!(c.enqueue(t0, 1000), Some(SimTime(12_000_000))); // waiting 1
        assert_eq!(c.enqueue(t0, 1000), Some(SimTime(13_000_000))); // waiting 2
        assert_eq!(c.enqueue(t0, 1000), None); // full
        assert_eq!(c.stats.drops_buffer, 1);
        // At 1 ms the second packet enters service: one place frees up.
        assert_eq!(
            c.enqueue(SimTime(1_000_000), 1000),
            Some(SimTime(14_000_000))
        );
        assert_eq!(c.enqueue(SimTime(1_000_000), 1000), None);
    }

    #[test]
    fn waiting_starts_follow_from_mixed_sizes() {
        // 1000 B take 1 ms and 500 B take 0.5 ms: B starts at 1 ms, C at
        // 1.5 ms, E at 2.5 ms; each leaves the buffer at its start.
        let mut c = ch(Buffer::Packets(3));
        let t0 = SimTime::ZERO;
        assert_eq!(c.enqueue(t0, 1000), Some(SimTime(11_000_000))); // A on the wire
        assert_eq!(c.enqueue(t0, 500), Some(SimTime(11_500_000))); // B waits
        assert_eq!(c.enqueue(t0, 1000), Some(SimTime(12_500_000))); // C waits
        assert_eq!(c.enqueue(t0, 500), None); // full

        // At 1.4 ms only B has started.
        let t = SimTime(1_400_000);
        assert_eq!(c.enqueue(t, 1000), Some(SimTime(13_500_000))); // E
        assert_eq!(c.backlog(), 2);
        assert_eq!(c.enqueue(t, 500), None);
        // At 2.499 ms C has started, E has not; at 2.5 ms E has too.
        assert_eq!(
            c.enqueue(SimTime(2_499_999), 500),
            Some(SimTime(14_000_000))
        );
        assert_eq!(c.backlog(), 2);
        assert_eq!(
            c.enqueue(SimTime(2_500_000), 500),
            Some(SimTime(14_500_000))
        );
        assert_eq!(c.backlog(), 2);
        assert_eq!(c.stats.drops_buffer, 2);
    }

    #[test]
    fn byte_buffer_and_utilisation() {
        let mut c = ch(Buffer::Bytes(1500));
        assert!(c.enqueue(SimTime::ZERO, 1000).is_some());
        assert!(c.enqueue(SimTime::ZERO, 1000).is_some());
        assert!(c.enqueue(SimTime::ZERO, 1000).is_none());
        assert_eq!(
            c.busy_time_until(SimTime(1_500_000)),
            SimDuration(1_500_000)
        );
        assert_eq!(
            c.busy_time_until(SimTime(5_000_000)),
            SimDuration(2_000_000)
        );
    }
}
