//! Design A: a d-ary heap of 24-byte keys over a payload slab, with *lazy*
//! cancellation. `cancel` frees the payload slot at once (bumping its
//! generation) and leaves the heap entry behind as a tombstone, which is
//! skipped when it reaches the root. The root is kept live after every
//! operation so that [`peek_time`](LazyDaryQueue::peek_time) needs only `&self`,
//! and the heap is compacted in O(n) when tombstones outnumber live events.

use super::clock::Clock;
use super::dary::{self, Entry};
use super::slab::Slab;
use super::EventKey;
use crate::time::SimTime;

/// Lazy-cancellation d-ary heap (`D` children per node; 4 is the sweet spot).
#[derive(Clone, Debug)]
pub struct LazyDaryQueue<E, const D: usize = 4> {
    heap: Vec<Entry>,
    slab: Slab<E>,
    clock: Clock,
    stale: usize,
}

#[inline]
fn no_track(_: u32, _: usize) {}

impl<E, const D: usize> LazyDaryQueue<E, D> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue with room for `n` pending events before it allocates.
    pub fn with_capacity(n: usize) -> Self {
        const { assert!(D >= 2, "a heap needs at least two children per node") };
        LazyDaryQueue {
            heap: Vec::with_capacity(n),
            slab: Slab::with_capacity(n),
            clock: Clock::default(),
            stale: 0,
        }
    }

    /// Schedules `ev` at `at` (see the module docs for past times).
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        let (time, seq) = self.clock.stamp(at);
        let (slot, gen) = self.slab.insert(ev);
        self.heap.push(Entry {
            time,
            seq,
            slot,
            gen,
        });
        let i = self.heap.len() - 1;
        dary::sift_up::<D>(&mut self.heap, i, no_track);
        EventKey { slot, gen }
    }

    /// Removes the earliest pending event (FIFO among equal times).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let top = dary::pop_root::<D>(&mut self.heap, no_track)?;
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
        self.heap.first().map(|e| SimTime(e.time))
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
        } else {
            self.purge_root();
        }
        true
    }

    /// Number of pending (not cancelled) events.
    #[inline]
    pub fn len(&self) -> usize {
        self.slab.len()
    }

    /// Whether no event is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slab.len() == 0
    }

    /// Pending events the queue can hold before it next allocates (a lower
    /// bound: tombstones share the heap's room).
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

    /// Drops tombstones from the root until it is live.
    #[inline]
    fn purge_root(&mut self) {
        while self.stale > 0 {
            match self.heap.first() {
                Some(e) if !self.slab.is_live(e.slot, e.gen) => {
                    dary::pop_root::<D>(&mut self.heap, no_track);
                    self.stale -= 1;
                }
                _ => break,
            }
        }
    }

    /// Removes every tombstone and rebuilds the heap in O(n).
    #[cold]
    fn compact(&mut self) {
        let slab = &self.slab;
        self.heap.retain(|e| slab.is_live(e.slot, e.gen));
        dary::heapify::<D>(&mut self.heap, no_track);
        self.stale = 0;
    }
}

impl<E, const D: usize> Default for LazyDaryQueue<E, D> {
    fn default() -> Self {
        Self::new()
    }
}

forward_future_event_list!([const D: usize] LazyDaryQueue<E, D>, if D == 4 { "lazy-4ary" } else { "lazy-dary" });
