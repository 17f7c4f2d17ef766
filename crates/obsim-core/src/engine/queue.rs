//! Placeholder future-event list (replaced by the measured implementation).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::time::SimTime;

/// Handle of a scheduled event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventKey(u64);

struct Entry<E> {
    at: SimTime,
    seq: u64,
    ev: E,
}
impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(o.at, o.seq))
    }
}

/// Future-event list ordered by (time, insertion order).
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self { heap: BinaryHeap::new(), seq: 0 }
    }
    /// An empty queue with room for `n` events.
    pub fn with_capacity(n: usize) -> Self {
        Self { heap: BinaryHeap::with_capacity(n), seq: 0 }
    }
    /// Schedules `ev` at `at`.
    pub fn push(&mut self, at: SimTime, ev: E) -> EventKey {
        self.seq += 1;
        self.heap.push(Reverse(Entry { at, seq: self.seq, ev }));
        EventKey(self.seq)
    }
    /// Removes the earliest event.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.heap.pop().map(|Reverse(e)| (e.at, e.ev))
    }
    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }
    /// Pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}
