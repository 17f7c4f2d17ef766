//! Design B: `std::collections::BinaryHeap` of 24-byte keys over a payload
//! slab, with lazy cancellation by slot generation (tombstones), exactly as
//! [`LazyDaryQueue`](super::LazyDaryQueue) but on the standard binary heap.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::clock::Clock;
use super::dary::Entry;
use super::slab::Slab;
use super::EventKey;
use crate::time::SimTime;

/// Heap record ordered so that the max-heap yields the smallest `(time, seq)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MinEntry(Entry);

impl Ord for MinEntry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (other.0.time, other.0.seq).cmp(&(self.0.time, self.0.seq))
    }
}
impl PartialOrd for MinEntry {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Lazy-cancellation queue on `std`'s binary heap.
#[derive(Clone, Debug)]
pub struct StdHeapQueue<E> {
    heap: BinaryHeap<MinEntry>,
    slab: Slab<E>,
    clock: Clock,
    stale: usize,
}

impl<E> StdHeapQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue with room for `n` pending events before it allocates.
    pub fn with_capacity(n: usize) -> Self {
        StdHeapQueue {
            heap: BinaryHeap::with_capacity(n),
            slab: Slab::with_capacity(n),
            clock: Clock::default(),
            stale: 0,
        }
    }

    /// Schedules `ev` at `at`.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        let (time, seq) = self.clock.stamp(at);
        let (slot, gen) = self.slab.insert(ev);
        self.heap.push(MinEntry(Entry {
            time,
            seq,
            slot,
            gen,
        }));
        EventKey { slot, gen }
    }

    /// Removes the earliest pending event (FIFO among equal times).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let MinEntry(top) = self.heap.pop()?;
        debug_assert!(self.slab.is_live(top.slot, top.gen), "root must be live");
        self.clock.advance(top.time);
        let ev = self.slab.remove(top.slot);
        self.purge_root();
        Some((SimTime(top.time), ev))
    }

    /// Time of the last popped event (zero before the first pop).
    #[inline]
    pub fn now(&self) -> SimTime {
        SimTime(self.clock.now)
    }

    /// Time of the earliest pending event.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| SimTime(e.0.time))
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
            let slab = &self.slab;
            self.heap.retain(|e| slab.is_live(e.0.slot, e.0.gen));
            self.stale = 0;
        } else {
            self.purge_root();
        }
        true
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

    /// Pending events the queue can hold before it next allocates (lower bound).
    pub fn capacity(&self) -> usize {
        self.heap.capacity().min(self.slab.capacity())
    }

    /// Capacity of every internal buffer (for allocation tests).
    #[doc(hidden)]
    pub fn footprint(&self) -> Vec<usize> {
        let mut v = vec![self.heap.capacity()];
        v.extend(self.slab.footprint());
        v
    }

    #[inline]
    fn purge_root(&mut self) {
        while self.stale > 0 {
            match self.heap.peek() {
                Some(e) if !self.slab.is_live(e.0.slot, e.0.gen) => {
                    self.heap.pop();
                    self.stale -= 1;
                }
                _ => break,
            }
        }
    }
}

impl<E> Default for StdHeapQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

forward_future_event_list!([] StdHeapQueue<E>, "lazy-std-binary");
