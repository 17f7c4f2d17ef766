//! The future-event list: a deterministic priority queue of timed events with
//! cancellation handles.
//!
//! # Order of simultaneous events
//!
//! Events are totally ordered by `(time, insertion sequence number)`: the
//! earliest time first, and among events scheduled for the *same* time, the
//! one pushed first pops first (FIFO). Every push draws the next number of a
//! per-queue `u64` counter, so the order never depends on payloads, hashing,
//! slot reuse or the heap's internal layout, and two runs that push the same
//! events in the same order pop them in the same order, bit for bit.
//! [`EventQueue::stamp`] draws a number without scheduling anything;
//! [`EventQueue::push_stamped`] and [`EventQueue::reschedule_top`] schedule
//! an event later at the place it was stamped for (a channel's packets in
//! flight, `engine/in_flight.rs`), so the order is still push order.
//!
//! # Time never runs backwards
//!
//! The queue remembers the time of the last popped event ("now"). `pop`
//! debug-asserts that time never moves backwards. Pushing an event *before*
//! now is a logic error in the caller: debug builds panic; release builds
//! clamp the event to now (it then pops after every event already pending at
//! now, by the FIFO rule), so a release run never reorders history. Pushing
//! *at* now is fine and common (zero-delay events).
//!
//! # Cancellation
//!
//! [`EventQueue::push`] returns an [`EventKey`]. [`EventQueue::cancel`]
//! returns `true` exactly once for a pending event and `false` afterwards,
//! and `false` for an event that already popped. Keys carry a slot generation,
//! so a stale key never cancels a later event that reuses the slot.
//!
//! # Designs
//!
//! [`EventQueue`] wraps [`IndexedDaryQueue`] with `D = 4` (indexed 4-ary
//! heap, true O(log n) removal): the fastest design in the benchmark that
//! also keeps memory constant in steady state (see `docs/PERFORMANCE.md`,
//! "Event queue"). Production code never cancels (its timers are lazy, see
//! `engine/sim.rs`), so `cancel` is exercised by tests and benchmarks only.
//!
//! Four alternative designs, compiled only with the `bench-queues` cargo
//! feature (which `benches/kernel.rs` requires), keep that comparison
//! rerunnable; all share a payload slab, 24-byte heap keys and the clock:
//!
//! * `LazyDaryQueue`: 4-ary heap, lazy cancellation (tombstones).
//! * `StdHeapQueue`: `std::collections::BinaryHeap`, lazy cancellation.
//! * `RadixQueue`: radix heap on `(time, seq)` keys, lazy cancellation.
//! * `CalendarQueue`: calendar queue (Brown 1988), lazy cancellation.

/// Implements [`FutureEventList`] for a design by forwarding every method to
/// the design's inherent method of the same name (the designs share one API).
macro_rules! forward_future_event_list {
    ([$($gen:tt)*] $ty:ty, $name:expr) => {
        impl<E, $($gen)*> $crate::engine::queue::FutureEventList<E> for $ty {
            const NAME: &'static str = $name;
            fn with_capacity(n: usize) -> Self {
                Self::with_capacity(n)
            }
            fn push(&mut self, at: $crate::time::SimTime, ev: E) -> $crate::engine::queue::EventKey {
                self.push(at, ev)
            }
            fn pop(&mut self) -> Option<($crate::time::SimTime, E)> {
                self.pop()
            }
            fn peek_time(&self) -> Option<$crate::time::SimTime> {
                self.peek_time()
            }
            fn cancel(&mut self, key: $crate::engine::queue::EventKey) -> bool {
                self.cancel(key)
            }
            fn len(&self) -> usize {
                self.len()
            }
            fn capacity(&self) -> usize {
                self.capacity()
            }
            fn footprint(&self) -> Vec<usize> {
                self.footprint()
            }
        }
    };
}

#[cfg(feature = "bench-queues")]
mod calendar;
mod clock;
mod dary;
mod indexed;
#[cfg(feature = "bench-queues")]
mod lazy_dary;
#[cfg(feature = "bench-queues")]
mod radix;
mod slab;
#[cfg(feature = "bench-queues")]
mod std_heap;

#[cfg(feature = "bench-queues")]
pub use calendar::CalendarQueue;
pub use indexed::IndexedDaryQueue;
#[cfg(feature = "bench-queues")]
pub use lazy_dary::LazyDaryQueue;
#[cfg(feature = "bench-queues")]
pub use radix::RadixQueue;
#[cfg(feature = "bench-queues")]
pub use std_heap::StdHeapQueue;

use crate::time::SimTime;

/// Handle to a scheduled event, for [`EventQueue::cancel`]. Cheap to copy;
/// only meaningful for the queue that issued it. It names a slab slot and
/// that slot's generation; a stale key could alias a later event only after
/// the same slot had been reused 2^32 times while the key was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventKey {
    slot: u32,
    gen: u32,
}

/// A place in the queue's order drawn before the event is scheduled: the
/// event's time and its insertion sequence number. [`EventQueue::stamp`]
/// draws one; [`EventQueue::push_stamped`] schedules an event with it later,
/// at the place in the `(time, push order)` order it had when stamped. This
/// lets a channel keep its packets in flight in its own FIFO and hand only
/// its head to the queue (`engine/in_flight.rs`) while every event pops
/// exactly where a plain push at stamping time would have put it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    time: u64,
    seq: u64,
}

impl Stamp {
    /// The stamped time (clamped to the queue's now, as a push would be).
    #[inline]
    pub fn time(self) -> SimTime {
        SimTime(self.time)
    }
}

/// The operations every future-event-list design provides; lets benchmarks and
/// tests drive all designs through one code path.
pub trait FutureEventList<E> {
    /// Short name of the design, used as a benchmark label.
    const NAME: &'static str;
    /// An empty queue with room for `n` pending events.
    fn with_capacity(n: usize) -> Self;
    /// Schedules `ev` at `at`; see the module docs for times in the past.
    fn push(&mut self, at: SimTime, ev: E) -> EventKey;
    /// Removes the earliest event (FIFO among equal times).
    fn pop(&mut self) -> Option<(SimTime, E)>;
    /// Time of the earliest pending event.
    fn peek_time(&self) -> Option<SimTime>;
    /// Cancels a pending event; `true` if it was pending.
    fn cancel(&mut self, key: EventKey) -> bool;
    /// Number of pending events.
    fn len(&self) -> usize;
    /// Whether no event is pending.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Pending events the queue can hold before it next allocates.
    fn capacity(&self) -> usize;
    /// Capacity of every internal buffer, for no-allocation tests.
    fn footprint(&self) -> Vec<usize>;
}

/// The design behind [`EventQueue`].
type Inner<E> = IndexedDaryQueue<E, 4>;

/// The simulator's future-event list: pops events in `(time, push order)`
/// order and cancels them by [`EventKey`]. See the module docs for the
/// ordering and past-time rules.
#[derive(Clone, Debug)]
pub struct EventQueue<E>(Inner<E>);

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue(Inner::new())
    }

    /// An empty queue with room for `n` pending events before it allocates.
    pub fn with_capacity(n: usize) -> Self {
        EventQueue(Inner::with_capacity(n))
    }

    /// Schedules `ev` at `at` and returns a key that can cancel it. `at`
    /// must not precede the last popped time (debug panic; clamped in release).
    #[inline]
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        self.0.push(at, ev)
    }

    /// Draws the [`Stamp`] a push at `at` would get now (time clamped as by
    /// [`Self::push`]; the sequence number is used up) without scheduling
    /// anything.
    #[inline]
    pub fn stamp(&mut self, at: SimTime) -> Stamp {
        self.0.stamp(at)
    }

    /// Schedules `ev` at the place `st` was drawn for: it pops among events
    /// of the same time as if it had been pushed when `st` was drawn. Each
    /// stamp must be pushed at most once, before its time is popped past.
    #[inline]
    pub fn push_stamped(&mut self, st: Stamp, ev: E) -> EventKey {
        self.0.push_stamped(st, ev)
    }

    /// The earliest pending event and its time, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<(SimTime, &E)> {
        self.0.peek()
    }

    /// Runs the earliest pending event's time as [`Self::pop`] does but keeps
    /// the event pending, rescheduled at `st`: exactly a pop followed by
    /// [`Self::push_stamped`] of the same payload, in one sift-down. A
    /// channel whose head arrives hands its next packet's stamp here
    /// (`engine/sim.rs`, `next_event`). Returns the popped time and the new
    /// key; `None` when the queue is empty.
    #[inline]
    pub fn reschedule_top(&mut self, st: Stamp) -> Option<(SimTime, EventKey)> {
        self.0.reschedule_top(st)
    }

    /// Removes and returns the earliest pending event; among events at the
    /// same time, the one pushed first.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.0.pop()
    }

    /// Time of the earliest pending event, without removing it.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.0.peek_time()
    }

    /// Cancels the event `key` names. Returns `true` if it was pending, and
    /// `false` if it already popped or was cancelled before.
    #[inline]
    pub fn cancel(&mut self, key: EventKey) -> bool {
        self.0.cancel(key)
    }

    /// Number of pending (not popped, not cancelled) events.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no event is pending.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Pending events the queue can hold before it next allocates.
    pub fn capacity(&self) -> usize {
        self.0.capacity()
    }

    /// Time of the last popped event (zero before the first pop): the
    /// earliest time a new event may be pushed at.
    pub fn now(&self) -> SimTime {
        self.0.now()
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> FutureEventList<E> for EventQueue<E> {
    const NAME: &'static str = "EventQueue";
    fn with_capacity(n: usize) -> Self {
        Self::with_capacity(n)
    }
    fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        self.push(at, ev)
    }
    fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop()
    }
    fn peek_time(&self) -> Option<SimTime> {
        self.peek_time()
    }
    fn cancel(&mut self, key: EventKey) -> bool {
        self.cancel(key)
    }
    fn len(&self) -> usize {
        self.len()
    }
    fn capacity(&self) -> usize {
        self.capacity()
    }
    fn footprint(&self) -> Vec<usize> {
        self.0.footprint()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use proptest::prelude::*;

    use super::*;

    fn t(n: u64) -> SimTime {
        SimTime(n)
    }

    // ---- generic checks, run against every design ------------------------

    fn fifo_for_equal_times<Q: FutureEventList<u32>>() {
        let mut q = Q::with_capacity(4);
        for i in 0..10 {
            q.push(t(5), i);
            q.push(t(3), 100 + i);
        }
        let got: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let want: Vec<_> = (0..10)
            .map(|i| (t(3), 100 + i))
            .chain((0..10).map(|i| (t(5), i)))
            .collect();
        assert_eq!(got, want, "{}", Q::NAME);
        assert!(q.is_empty());
    }

    fn cancel_once<Q: FutureEventList<u32>>() {
        let mut q = Q::with_capacity(0);
        let ka = q.push(t(1), 1);
        let kb = q.push(t(2), 2);
        let kc = q.push(t(3), 3);
        assert_eq!(q.peek_time(), Some(t(1)));
        assert!(q.cancel(ka), "{}", Q::NAME);
        assert!(!q.cancel(ka), "{}: second cancel", Q::NAME);
        assert_eq!(q.len(), 2);
        assert_eq!(q.peek_time(), Some(t(2)), "{}: root purged", Q::NAME);
        assert_eq!(q.pop(), Some((t(2), 2)));
        assert!(!q.cancel(kb), "{}: cancel after pop", Q::NAME);
        // The freed slot is reused; the old key must not hit the new event.
        let kd = q.push(t(4), 4);
        assert_ne!(kd, ka);
        assert!(!q.cancel(ka) && !q.cancel(kb));
        assert!(q.cancel(kc));
        assert_eq!(q.pop(), Some((t(4), 4)));
        assert_eq!(q.pop(), None);
        assert_eq!(q.peek_time(), None);
    }

    /// Hold loop with the cancel/reschedule pattern; after warm-up no buffer
    /// may grow.
    fn no_alloc_in_steady_state<Q: FutureEventList<[u64; 12]>>() {
        let n = 1000;
        let mut q = Q::with_capacity(n);
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut keys = Vec::with_capacity(n);
        for i in 0..n {
            keys.push(q.push(t(rnd() % 10_000), [i as u64; 12]));
        }
        let mut hold = |q: &mut Q, keys: &mut Vec<EventKey>, step: usize| {
            let (now, ev) = q.pop().unwrap();
            let id = ev[0] as usize;
            keys[id] = q.push(now + crate::time::SimDuration(rnd() % 10_000), ev);
            if step % 4 == 0 {
                let victim = (rnd() % n as u64) as usize;
                assert!(q.cancel(keys[victim]));
                keys[victim] = q.push(
                    now + crate::time::SimDuration(rnd() % 10_000),
                    [victim as u64; 12],
                );
            }
        };
        for step in 0..20 * n {
            hold(&mut q, &mut keys, step);
        }
        let caps = q.footprint();
        let cap = q.capacity();
        for step in 0..100 * n {
            hold(&mut q, &mut keys, step);
            assert_eq!(q.len(), n);
        }
        assert_eq!(
            q.footprint(),
            caps,
            "{}: buffers grew in steady state",
            Q::NAME
        );
        assert_eq!(q.capacity(), cap);
        assert!(cap >= n);
    }

    /// Cancelling most of a large population triggers compaction in the
    /// lazy designs; order and counts must survive it.
    fn mass_cancel<Q: FutureEventList<u32>>() {
        let mut q = Q::with_capacity(0);
        let keys: Vec<_> = (0..500u32)
            .map(|i| q.push(t(u64::from(i % 50)), i))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            if i % 10 != 3 {
                assert!(q.cancel(*k));
            }
        }
        assert_eq!(q.len(), 50);
        let got: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, i)| i).collect();
        let mut want: Vec<u32> = (0..500).filter(|i| i % 10 == 3).collect();
        want.sort_by_key(|i| (i % 50, *i));
        assert_eq!(got, want, "{}", Q::NAME);
    }

    macro_rules! for_each_design {
        ($check:ident) => {{
            $check::<EventQueue<_>>();
            $check::<IndexedDaryQueue<_, 4>>();
            $check::<IndexedDaryQueue<_, 2>>();
            #[cfg(feature = "bench-queues")]
            {
                $check::<LazyDaryQueue<_, 4>>();
                $check::<LazyDaryQueue<_, 2>>();
                $check::<StdHeapQueue<_>>();
                $check::<RadixQueue<_>>();
                $check::<CalendarQueue<_>>();
            }
        }};
    }

    #[test]
    fn equal_times_pop_in_push_order() {
        for_each_design!(fifo_for_equal_times);
    }

    #[test]
    fn cancel_returns_true_once() {
        for_each_design!(cancel_once);
    }

    #[test]
    fn mass_cancel_compacts_and_keeps_order() {
        for_each_design!(mass_cancel);
    }

    #[test]
    fn steady_state_hold_does_not_allocate() {
        no_alloc_in_steady_state::<EventQueue<_>>();
        no_alloc_in_steady_state::<IndexedDaryQueue<_, 4>>();
        no_alloc_in_steady_state::<IndexedDaryQueue<_, 2>>();
        #[cfg(feature = "bench-queues")]
        {
            no_alloc_in_steady_state::<LazyDaryQueue<_, 4>>();
            no_alloc_in_steady_state::<LazyDaryQueue<_, 2>>();
            no_alloc_in_steady_state::<StdHeapQueue<_>>();
        }
    }

    /// The radix heap's bucket buffers keep growing to new high-water marks
    /// long after warm-up (a known cost of that design), but stay bounded by
    /// the live events plus the tombstones that compaction allows.
    #[test]
    #[cfg(feature = "bench-queues")]
    fn radix_buffers_stay_bounded() {
        let n = 1000;
        let mut q = RadixQueue::with_capacity(n);
        let mut keys: Vec<_> = (0..n).map(|i| q.push(t(i as u64 * 7 % 1000), i)).collect();
        let mut x = 12345u64;
        for step in 0..200 * n {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let (now, id) = q.pop().unwrap();
            keys[id] = q.push(now + crate::time::SimDuration((x >> 33) % 10_000), id);
            if step % 4 == 0 {
                let v = (x >> 20) as usize % n;
                assert!(q.cancel(keys[v]));
                keys[v] = q.push(now + crate::time::SimDuration((x >> 40) % 10_000), v);
            }
        }
        let bound = (2 * n + 33).next_power_of_two();
        assert!(
            q.footprint().iter().all(|&c| c <= bound),
            "{:?}",
            q.footprint()
        );
    }

    /// The calendar queue rebuilds itself (more or fewer buckets, a new
    /// day width) as the population and the spacing of events change; over
    /// many such rebuilds it must still pop exactly the heap's order. The
    /// model proptest stays below its first width check (4 096 pops).
    #[test]
    #[cfg(feature = "bench-queues")]
    fn calendar_pops_the_heap_order_across_rebuilds() {
        let mut cal = CalendarQueue::with_capacity(0);
        let mut heap = EventQueue::with_capacity(0);
        let mut x = 99u64;
        let mut next = |x: &mut u64| {
            *x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *x >> 33
        };
        let mut id = 0u64;
        // Phases: grow to 5 000 events with short gaps, hold with long and
        // far gaps mixed (timers), then drain to a handful.
        for (pushes, pops, spread) in [
            (5_000, 0, 1_000),
            (20_000, 20_000, 50),
            (0, 4_990, 1_000_000),
        ] {
            for i in 0..pushes.max(pops) {
                if i < pushes {
                    let now = heap.now().0;
                    let gap = if next(&mut x) % 10 == 0 {
                        200_000_000
                    } else {
                        next(&mut x) % spread
                    };
                    cal.push(t(now + gap), id);
                    heap.push(t(now + gap), id);
                    id += 1;
                }
                if i < pops {
                    assert_eq!(cal.pop(), heap.pop());
                }
            }
        }
        while let Some(e) = heap.pop() {
            assert_eq!(cal.pop(), Some(e));
        }
        assert!(cal.is_empty());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "event pushed in the past")]
    fn push_in_the_past_panics_in_debug() {
        let mut q = EventQueue::new();
        q.push(t(10), ());
        q.pop();
        q.push(t(9), ());
    }

    #[test]
    #[cfg(not(debug_assertions))]
    fn push_in_the_past_is_clamped_in_release() {
        let mut q = EventQueue::new();
        q.push(t(10), 'a');
        q.push(t(10), 'b');
        assert_eq!(q.pop(), Some((t(10), 'a')));
        q.push(t(3), 'c');
        assert_eq!(q.peek_time(), Some(t(10)));
        assert_eq!(q.pop(), Some((t(10), 'b')));
        assert_eq!(q.pop(), Some((t(10), 'c')));
    }

    // ---- model-based property test ----------------------------------------

    #[derive(Clone, Debug)]
    enum Op {
        /// Push at now + delay (small delays make many ties).
        Push(u64),
        Pop,
        /// Cancel the k-th key ever issued (modulo the count): hits pending,
        /// popped and already-cancelled events alike.
        Cancel(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u64..6).prop_map(Op::Push),
            1 => (0u64..1000).prop_map(Op::Push),
            3 => Just(Op::Pop),
            2 => any::<usize>().prop_map(Op::Cancel),
        ]
    }

    /// Reference: a `BTreeMap` keyed by `(time, seq)`.
    fn run_against_model<Q: FutureEventList<u64>>(ops: &[Op]) -> Result<(), TestCaseError> {
        let mut q = Q::with_capacity(0);
        let mut model: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        let mut keys: Vec<(EventKey, (u64, u64))> = Vec::new();
        let mut by_key: HashMap<EventKey, (u64, u64)> = HashMap::new();
        let mut now = 0;
        for (seq, op) in (0u64..).zip(ops) {
            match *op {
                Op::Push(dt) => {
                    let at = now + dt;
                    let k = q.push(t(at), seq);
                    prop_assert!(
                        by_key.insert(k, (at, seq)).is_none(),
                        "{}: key reused while live",
                        Q::NAME
                    );
                    model.insert((at, seq), seq);
                    keys.push((k, (at, seq)));
                }
                Op::Pop => {
                    let want = model.pop_first().map(|((at, _), v)| (t(at), v));
                    let got = q.pop();
                    prop_assert_eq!(got, want, "{}", Q::NAME);
                    if let Some((at, v)) = got {
                        now = at.0;
                        by_key.retain(|_, id| id.1 != v);
                    }
                }
                Op::Cancel(i) => {
                    if keys.is_empty() {
                        continue;
                    }
                    let (k, id) = keys[i % keys.len()];
                    let pending = model.remove(&id).is_some();
                    if pending {
                        by_key.remove(&k);
                    }
                    prop_assert_eq!(q.cancel(k), pending, "{}: cancel", Q::NAME);
                }
            }
            prop_assert_eq!(q.len(), model.len());
            prop_assert_eq!(q.is_empty(), model.is_empty());
            prop_assert_eq!(q.peek_time(), model.keys().next().map(|&(at, _)| t(at)));
        }
        while let Some(got) = q.pop() {
            let want = model.pop_first().map(|((at, _), v)| (t(at), v));
            prop_assert_eq!(Some(got), want);
        }
        prop_assert!(model.is_empty());
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn matches_reference_model(ops in prop::collection::vec(op(), 0..400)) {
            run_against_model::<EventQueue<u64>>(&ops)?;
            run_against_model::<IndexedDaryQueue<u64, 4>>(&ops)?;
            run_against_model::<IndexedDaryQueue<u64, 2>>(&ops)?;
            #[cfg(feature = "bench-queues")]
            {
                run_against_model::<LazyDaryQueue<u64, 4>>(&ops)?;
                run_against_model::<LazyDaryQueue<u64, 3>>(&ops)?;
                run_against_model::<StdHeapQueue<u64>>(&ops)?;
                run_against_model::<RadixQueue<u64>>(&ops)?;
                run_against_model::<CalendarQueue<u64>>(&ops)?;
            }
        }
    }
}
