//! Design E: a *calendar queue* (Brown, "Calendar queues: a fast O(1)
//! priority queue implementation for the simulation event set problem",
//! CACM 31(10), 1988) over the 24-byte keys, with lazy cancellation.
//!
//! Time is cut into days of `2^shift` ns; day `d` lives in bucket
//! `d mod B` (B a power of two), so one bucket holds the events of days `d`,
//! `d + B`, `d + 2B`, ... ("years"). Each bucket is kept sorted, earliest
//! last. The queue is *settled* after every operation: while it is not
//! empty, the current day's bucket ends with the earliest pending event, and
//! that event falls on the current day. Popping takes it and walks forward
//! day by day to the next one; a walk of a whole year without an event of
//! the year ends in a direct search of the buckets' minima. Because keys are
//! `(time, seq)` and each bucket is sorted on both, FIFO among equal times
//! is exact, as in the heaps.
//!
//! The calendar is rebuilt (B doubled or halved, the day width measured
//! anew from the earliest pending events) when the number of events leaves
//! `[B / 4, 2B]` (the lower bound judged with the width), and the width alone when pops walk too far (days too
//! short) or find crowded buckets (days too long), judged every
//! [`TUNE_EVERY`] pops.

use super::clock::Clock;
use super::dary::Entry;
use super::slab::Slab;
use super::{EventKey, Stamp};
use crate::time::SimTime;

/// Pops between two checks of the day width.
const TUNE_EVERY: u32 = 4096;

/// Fewest buckets.
const MIN_BUCKETS: usize = 16;

/// Lazy-cancellation calendar queue.
#[derive(Clone, Debug)]
pub struct CalendarQueue<E> {
    /// `B` buckets, each sorted by `(time, seq)` descending (earliest last).
    buckets: Vec<Vec<Entry>>,
    /// A day is `2^shift` ns.
    shift: u32,
    /// The current day; no pending entry falls before it.
    day: u64,
    /// Entries in the buckets, tombstones included.
    entries: usize,
    slab: Slab<E>,
    clock: Clock,
    /// Buckets walked and entries found in the popped bucket since the last
    /// width check, and pops since then.
    walked: u64,
    crowd: u64,
    pops: u32,
}

#[inline]
fn before(a: &Entry, b: &Entry) -> bool {
    (a.time, a.seq) < (b.time, b.seq)
}

impl<E> CalendarQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty queue whose slab has room for `n` pending events.
    pub fn with_capacity(n: usize) -> Self {
        CalendarQueue {
            buckets: vec![Vec::new(); MIN_BUCKETS],
            shift: 10,
            day: 0,
            entries: 0,
            slab: Slab::with_capacity(n),
            clock: Clock::default(),
            walked: 0,
            crowd: 0,
            pops: 0,
        }
    }

    /// The bucket of day `d`: `d mod B`.
    #[inline]
    #[allow(clippy::cast_possible_truncation)] // below B, a usize
    fn bucket(&self, d: u64) -> usize {
        (d & (self.buckets.len() as u64 - 1)) as usize
    }

    /// Puts `e` in its day's bucket, in order (earliest last: after every
    /// later entry), and counts it.
    #[inline]
    fn insert_sorted(&mut self, e: Entry) {
        let i = self.bucket(e.time >> self.shift);
        let b = &mut self.buckets[i];
        let at = b.partition_point(|x| before(&e, x));
        b.insert(at, e);
        self.entries += 1;
    }

    /// The day of the earliest entry in any bucket (a direct search).
    fn earliest_day(&self) -> Option<u64> {
        self.buckets
            .iter()
            .filter_map(|b| b.last())
            .map(|e| e.time >> self.shift)
            .min()
    }

    /// Files `e` in its day's bucket, and makes its day current if it is
    /// the new earliest event.
    #[inline]
    fn file(&mut self, e: Entry) {
        let d = e.time >> self.shift;
        self.insert_sorted(e);
        // A later day leaves the queue settled; an earlier one (or the
        // first entry) becomes the current day.
        if self.entries == 1 || d < self.day {
            self.day = d;
        }
        if self.entries > 2 * self.buckets.len() {
            self.rebuild(self.buckets.len() * 2);
        }
    }

    /// Walks to the earliest live entry and makes its day current (drops
    /// tombstones met on the way). Leaves `day` unchanged when empty.
    #[inline]
    fn settle(&mut self) {
        let mut steps = 0usize;
        while self.entries > 0 {
            let i = self.bucket(self.day);
            let b = &mut self.buckets[i];
            match b.last() {
                Some(e) if e.time >> self.shift == self.day => {
                    if self.slab.is_live(e.slot, e.gen) {
                        self.walked += steps as u64;
                        return;
                    }
                    b.pop();
                    self.entries -= 1;
                    continue;
                }
                _ => {}
            }
            steps += 1;
            if steps > self.buckets.len() {
                // A whole year without an event: jump to the earliest.
                self.day = self.earliest_day().expect("entries > 0");
                steps = 0;
                continue;
            }
            self.day += 1;
        }
    }

    /// The earliest pending entry (the queue is settled).
    #[inline]
    fn top(&self) -> Option<&Entry> {
        if self.entries == 0 {
            return None;
        }
        self.buckets[self.bucket(self.day)].last()
    }

    /// Takes the earliest pending entry out of its bucket.
    #[inline]
    fn take_top(&mut self) -> Option<Entry> {
        if self.entries == 0 {
            return None;
        }
        let i = self.bucket(self.day);
        let b = &mut self.buckets[i];
        let e = b.pop()?;
        self.crowd += b.len() as u64;
        self.entries -= 1;
        self.pops += 1;
        if self.pops >= TUNE_EVERY {
            self.tune();
        }
        Some(e)
    }

    /// Judges the day width on the last [`TUNE_EVERY`] pops.
    #[cold]
    fn tune(&mut self) {
        let walk = self.walked / u64::from(self.pops);
        let crowd = self.crowd / u64::from(self.pops);
        self.walked = 0;
        self.crowd = 0;
        self.pops = 0;
        let buckets = self.buckets.len();
        if self.slab.len() < buckets / 4 && buckets > MIN_BUCKETS {
            self.rebuild(buckets / 2);
        } else if walk > 4 || crowd > 4 {
            self.rebuild(buckets);
        }
    }

    /// Refiles every live entry into `n` buckets with a day width measured
    /// from the earliest pending events: three times their mean spacing,
    /// rounded up to a power of two (Brown's rule).
    #[cold]
    fn rebuild(&mut self, buckets: usize) {
        let buckets = buckets.max(MIN_BUCKETS).next_power_of_two();
        let slab = &self.slab;
        let mut all: Vec<Entry> = self
            .buckets
            .iter_mut()
            .flat_map(std::mem::take)
            .filter(|e| slab.is_live(e.slot, e.gen))
            .collect();
        let sampled = all.len().min(64);
        if sampled >= 2 {
            all.select_nth_unstable_by_key(sampled - 1, |e| (e.time, e.seq));
            let sample = &all[..sampled];
            let lo = sample.iter().map(|e| e.time).min().unwrap_or(0);
            let hi = sample.iter().map(|e| e.time).max().unwrap_or(0);
            let gap = (hi - lo) / (sampled as u64 - 1);
            self.shift = (3 * gap).max(1).next_power_of_two().trailing_zeros();
        }
        self.buckets = vec![Vec::new(); buckets];
        self.entries = 0;
        for e in all {
            self.insert_sorted(e);
        }
        self.day = self.earliest_day().unwrap_or(self.clock.now >> self.shift);
    }

    /// Files the payload in `slot` (generation `gen`) at `st` and settles.
    #[inline]
    fn schedule(&mut self, st: Stamp, slot: u32, gen: u32) -> EventKey {
        self.file(Entry {
            time: st.time,
            seq: st.seq,
            slot,
            gen,
        });
        self.settle();
        EventKey { slot, gen }
    }

    /// Schedules `ev` at `at`.
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        let st = self.stamp(at);
        self.push_stamped(st, ev)
    }

    /// Draws the stamp a push at `at` would get now.
    #[inline]
    pub fn stamp(&mut self, at: SimTime) -> Stamp {
        let (time, seq) = self.clock.stamp(at);
        Stamp { time, seq }
    }

    /// Schedules `ev` with a stamp drawn earlier by [`Self::stamp`].
    #[inline]
    pub fn push_stamped(&mut self, st: Stamp, ev: E) -> EventKey {
        let (slot, gen) = self.slab.insert(ev);
        self.schedule(st, slot, gen)
    }

    /// The earliest pending event, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<(SimTime, &E)> {
        let e = self.top()?;
        Some((SimTime(e.time), self.slab.get(e.slot)))
    }

    /// Pops the earliest event's time but keeps its payload pending at `st`.
    #[inline]
    pub fn reschedule_top(&mut self, st: Stamp) -> Option<(SimTime, EventKey)> {
        let top = self.take_top()?;
        self.clock.advance(top.time);
        let gen = self.slab.renew(top.slot);
        Some((SimTime(top.time), self.schedule(st, top.slot, gen)))
    }

    /// Removes the earliest pending event (FIFO among equal times).
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let top = self.take_top()?;
        self.clock.advance(top.time);
        let ev = self.slab.remove(top.slot);
        self.settle();
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
        self.top().map(|e| SimTime(e.time))
    }

    /// Cancels a pending event; `false` if it already fired or was cancelled.
    #[inline]
    pub fn cancel(&mut self, key: EventKey) -> bool {
        if !self.slab.key_live(key) {
            return false;
        }
        drop(self.slab.remove(key.slot));
        if self.slab.len() == 0 {
            for b in &mut self.buckets {
                b.clear();
            }
            self.entries = 0;
        } else if self.entries > 2 * self.slab.len() + 32 {
            self.rebuild(self.buckets.len());
        } else {
            self.settle();
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

    /// Pending events the slab can hold before it next allocates.
    pub fn capacity(&self) -> usize {
        self.slab.capacity()
    }

    /// Capacity of every internal buffer (for allocation tests).
    #[doc(hidden)]
    pub fn footprint(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.buckets.iter().map(Vec::capacity).collect();
        v.push(self.buckets.capacity());
        v.extend(self.slab.footprint());
        v
    }
}

impl<E> Default for CalendarQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

forward_future_event_list!([] CalendarQueue<E>, "lazy-calendar");
