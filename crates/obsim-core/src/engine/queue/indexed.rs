//! Design C: an *indexed* d-ary heap. Every slot records its entry's heap
//! position (in the slab's dense side table), so `cancel` removes the entry
//! for real in O(log n): no tombstones, and the heap never holds more than
//! the pending events. The price is one extra 8-byte write per entry move.

use super::clock::Clock;
use super::dary::{self, Entry};
use super::slab::{Meta, Slab};
use super::{EventKey, Stamp};
use crate::time::SimTime;

/// Indexed d-ary heap with a position map and true O(log n) removal.
#[derive(Clone, Debug)]
pub struct IndexedDaryQueue<E, const D: usize = 4> {
    heap: Vec<Entry>,
    slab: Slab<E>,
    clock: Clock,
}

/// The move hook: record the new position of `slot`.
#[inline]
fn track(meta: &mut [Meta]) -> impl FnMut(u32, usize) + '_ {
    move |slot, pos| meta[slot as usize].link = pos as u32
}

impl<E, const D: usize> IndexedDaryQueue<E, D> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue with room for `n` pending events before it allocates.
    pub fn with_capacity(n: usize) -> Self {
        const { assert!(D >= 2, "a heap needs at least two children per node") };
        IndexedDaryQueue {
            heap: Vec::with_capacity(n),
            slab: Slab::with_capacity(n),
            clock: Clock::default(),
        }
    }

    /// Schedules `ev` at `at`.
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
        dary::sift_up::<D>(&mut self.heap, i, track(&mut self.slab.meta));
        EventKey { slot, gen }
    }

    /// Draws the `(time, seq)` stamp a push at `at` would get now, without
    /// scheduling anything: the event keeps its place in the push order
    /// when [`Self::push_stamped`] schedules it later.
    #[inline]
    pub fn stamp(&mut self, at: SimTime) -> Stamp {
        let (time, seq) = self.clock.stamp(at);
        Stamp { time, seq }
    }

    /// Schedules `ev` with a stamp drawn earlier by [`Self::stamp`]. The
    /// stamp's time must not precede the last popped time.
    #[inline]
    pub fn push_stamped(&mut self, st: Stamp, ev: E) -> EventKey {
        debug_assert!(
            st.time >= self.clock.now,
            "stamped event pushed in the past: at {:?} < now {:?}",
            SimTime(st.time),
            SimTime(self.clock.now)
        );
        let (slot, gen) = self.slab.insert(ev);
        self.heap.push(Entry {
            time: st.time,
            seq: st.seq,
            slot,
            gen,
        });
        let i = self.heap.len() - 1;
        dary::sift_up::<D>(&mut self.heap, i, track(&mut self.slab.meta));
        EventKey { slot, gen }
    }

    /// The earliest pending event, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<(SimTime, &E)> {
        let e = self.heap.first()?;
        Some((SimTime(e.time), self.slab.get(e.slot)))
    }

    /// Runs the earliest pending event's time (as [`Self::pop`] does) but
    /// keeps its payload pending, rescheduled at `st`: the same as popping
    /// it and pushing it back with [`Self::push_stamped`], with one sift-down
    /// from the root instead of a pop and a push. Returns the time popped
    /// and the event's new key (keys issued before no longer name it).
    #[inline]
    pub fn reschedule_top(&mut self, st: Stamp) -> Option<(SimTime, EventKey)> {
        let top = self.heap.first_mut()?;
        let t = top.time;
        debug_assert!(
            (st.time, st.seq) > (t, top.seq),
            "rescheduled before the event it replaces"
        );
        self.clock.advance(t);
        let slot = top.slot;
        let gen = self.slab.renew(slot);
        *top = Entry {
            time: st.time,
            seq: st.seq,
            slot,
            gen,
        };
        dary::sift_down::<D>(&mut self.heap, 0, track(&mut self.slab.meta));
        Some((SimTime(t), EventKey { slot, gen }))
    }

    /// Removes the earliest pending event (FIFO among equal times).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let top = dary::pop_root::<D>(&mut self.heap, track(&mut self.slab.meta))?;
        self.clock.advance(top.time);
        Some((SimTime(top.time), self.slab.remove(top.slot)))
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

    /// Cancels a pending event in O(log n); `false` if it already fired or
    /// was cancelled.
    #[inline]
    pub fn cancel(&mut self, key: EventKey) -> bool {
        if !self.slab.key_live(key) {
            return false;
        }
        let pos = self.slab.meta[key.slot as usize].link as usize;
        let e = dary::remove_at::<D>(&mut self.heap, pos, track(&mut self.slab.meta));
        debug_assert_eq!((e.slot, e.gen), (key.slot, key.gen));
        drop(self.slab.remove(key.slot));
        true
    }

    /// Number of pending events.
    #[inline]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Pending events the queue can hold before it next allocates.
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
}

impl<E, const D: usize> Default for IndexedDaryQueue<E, D> {
    fn default() -> Self {
        Self::new()
    }
}

forward_future_event_list!([const D: usize] IndexedDaryQueue<E, D>, if D == 4 {
    "indexed-4ary"
} else {
    "indexed-dary"
});
