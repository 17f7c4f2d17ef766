//! Time and sequence stamping shared by every design.

use crate::time::SimTime;

/// The queue's notion of "now" (the time of the last popped event) and the
/// next insertion sequence number.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    pub(super) now: u64,
    next_seq: u64,
}

impl Clock {
    /// Stamps a push at `at`: returns `(time, seq)`. A time before `now` is a
    /// caller bug: it panics in debug builds and is clamped to `now` otherwise.
    #[inline]
    pub(super) fn stamp(&mut self, at: SimTime) -> (u64, u64) {
        debug_assert!(
            at.0 >= self.now,
            "event pushed in the past: at {at:?} < now {:?}",
            SimTime(self.now)
        );
        let seq = self.next_seq;
        self.next_seq += 1;
        (at.0.max(self.now), seq)
    }

    /// Records that an event at `t` was popped.
    #[inline]
    pub(super) fn advance(&mut self, t: u64) {
        debug_assert!(
            t >= self.now,
            "time moved backwards: popped {:?} after {:?}",
            SimTime(t),
            SimTime(self.now)
        );
        self.now = t;
    }
}
