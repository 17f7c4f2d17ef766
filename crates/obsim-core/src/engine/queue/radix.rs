//! Design D: a *radix heap* (Ahuja, Mehlhorn, Orlin and Tarjan 1990) over
//! 128-bit keys `time << 64 | seq`, with lazy cancellation.
//!
//! A radix heap needs monotone keys, and ours are: a push is never earlier
//! than the last popped time, and its sequence number exceeds every earlier
//! one, so each new key is strictly greater than the last popped key `last`.
//! Bucket `b` holds keys whose highest bit differing from `last` is bit
//! `b - 1`; popping empties the lowest non-empty bucket, settles its minimum
//! as the new `last` and redistributes the rest into lower buckets. Each
//! entry therefore moves at most 128 times, in practice a handful. Because
//! the sequence number is part of the key, FIFO among equal times is exact.
//! Tombstones are dropped when their bucket is redistributed.

use super::clock::Clock;
use super::dary::Entry;
use super::slab::Slab;
use super::EventKey;
use crate::time::SimTime;

const BUCKETS: usize = 129;

/// `time << 64 | (seq + 1)`: the `+ 1` keeps every key above the initial
/// `last` of zero (sequence numbers never reach `u64::MAX`).
#[inline]
fn key(e: &Entry) -> u128 {
    (u128::from(e.time) << 64) | u128::from(e.seq + 1)
}

/// Lazy-cancellation radix heap.
#[derive(Clone, Debug)]
pub struct RadixQueue<E> {
    /// `buckets[0]` is unused between operations; see the module docs.
    buckets: Vec<Vec<Entry>>,
    /// Bit `b - 1` set iff `buckets[b]` is non-empty (`b` in `1..=128`).
    nonempty: u128,
    last: u128,
    slab: Slab<E>,
    clock: Clock,
    stale: usize,
}

impl<E> RadixQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue whose slab has room for `n` pending events (bucket
    /// buffers grow to their working size during warm-up).
    pub fn with_capacity(n: usize) -> Self {
        RadixQueue {
            buckets: vec![Vec::new(); BUCKETS],
            nonempty: 0,
            last: 0,
            slab: Slab::with_capacity(n),
            clock: Clock::default(),
            stale: 0,
        }
    }

    #[inline]
    fn bucket_of(&self, k: u128) -> usize {
        debug_assert!(k > self.last, "radix keys must increase");
        128 - (k ^ self.last).leading_zeros() as usize
    }

    /// Schedules `ev` at `at`.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        let (time, seq) = self.clock.stamp(at);
        let (slot, gen) = self.slab.insert(ev);
        let e = Entry {
            time,
            seq,
            slot,
            gen,
        };
        let b = self.bucket_of(key(&e));
        self.buckets[b].push(e);
        self.nonempty |= 1 << (b - 1);
        EventKey { slot, gen }
    }

    /// Removes the earliest pending event (FIFO among equal times).
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        loop {
            if self.nonempty == 0 {
                return None;
            }
            let b = self.nonempty.trailing_zeros() as usize + 1;
            self.nonempty &= !(1 << (b - 1));
            let mut v = std::mem::take(&mut self.buckets[b]);
            let mut best: Option<Entry> = None;
            for e in &v {
                if self.slab.is_live(e.slot, e.gen) {
                    if best.is_none_or(|m| key(e) < key(&m)) {
                        best = Some(*e);
                    }
                } else {
                    self.stale -= 1;
                }
            }
            let Some(top) = best else {
                v.clear();
                self.buckets[b] = v;
                continue;
            };
            self.last = key(&top);
            for e in v.drain(..) {
                if e != top && self.slab.is_live(e.slot, e.gen) {
                    let nb = self.bucket_of(key(&e));
                    debug_assert!(nb >= 1 && nb < b);
                    self.buckets[nb].push(e);
                    self.nonempty |= 1 << (nb - 1);
                }
            }
            self.buckets[b] = v;
            self.clock.advance(top.time);
            return Some((SimTime(top.time), self.slab.remove(top.slot)));
        }
    }

    /// Time of the last popped event (zero before the first pop).
    #[inline]
    pub fn now(&self) -> SimTime {
        SimTime(self.clock.now)
    }

    /// Time of the earliest pending event (scans the lowest bucket).
    pub fn peek_time(&self) -> Option<SimTime> {
        let mut mask = self.nonempty;
        while mask != 0 {
            let b = mask.trailing_zeros() as usize + 1;
            mask &= mask - 1;
            let min = self.buckets[b]
                .iter()
                .filter(|e| self.slab.is_live(e.slot, e.gen))
                .map(key)
                .min();
            if let Some(k) = min {
                return Some(SimTime((k >> 64) as u64)); // time half of the key
            }
        }
        None
    }

    /// Cancels a pending event; `false` if it already fired or was cancelled.
    #[inline]
    pub fn cancel(&mut self, key: EventKey) -> bool {
        if !self.slab.key_live(key) {
            return false;
        }
        drop(self.slab.remove(key.slot));
        self.stale += 1;
        if self.stale > self.slab.len() + 32 {
            self.compact();
        }
        true
    }

    #[cold]
    fn compact(&mut self) {
        let slab = &self.slab;
        self.nonempty = 0;
        for (b, v) in self.buckets.iter_mut().enumerate().skip(1) {
            v.retain(|e| slab.is_live(e.slot, e.gen));
            if !v.is_empty() {
                self.nonempty |= 1 << (b - 1);
            }
        }
        self.stale = 0;
    }

    /// Number of pending events.
    #[inline]
    pub fn len(&self) -> usize {
        self.slab.len()
    }

    /// Whether no event is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slab.len() == 0
    }

    /// Pending events the slab can hold before it next allocates (bucket
    /// buffers may still grow).
    pub fn capacity(&self) -> usize {
        self.slab.capacity()
    }

    /// Capacity of every internal buffer (for allocation tests).
    #[doc(hidden)]
    pub fn footprint(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.buckets.iter().map(Vec::capacity).collect();
        v.extend(self.slab.footprint());
        v
    }
}

impl<E> Default for RadixQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

forward_future_event_list!([] RadixQueue<E>, "lazy-radix");
