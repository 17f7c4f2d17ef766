//! A pool of k shared wavelength converters, for partial wavelength
//! conversion (gonzalez2009 §4 compares full, partial and no conversion in
//! the core). The engine keeps one pool per node (share-per-node) or one per
//! output port (share-per-link) and asks it before scheduling a burst whose
//! wavelength would have to change.
//!
//! A converter is summarised by the time it is in use until, as a channel is
//! by its horizon in Horizon scheduling (Turner 1999): a converter booked up
//! to `t` counts as busy until `t`, even over an earlier idle gap. This is
//! conservative when residual offsets differ (a void on a converter is never
//! reused).
//!
//! Typical use, for a burst arriving on wavelength `w`:
//! ```text
//! match pool.available(start) {
//!     Some(k) => if let Some(c) = sched.reserve(port, now, start, end, ChannelSet::All) {
//!                    if c != w { pool.commit(k, end) }     // converted
//!                } // else dropped
//!     None    => sched.reserve(port, now, start, end, ChannelSet::Only(w)),
//! }
//! ```

use crate::time::SimTime;

/// k shared wavelength converters, each free from its `in_use_until` on
/// (horizon model, Turner 1999).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConverterPool {
    in_use_until: Vec<SimTime>,
    conversions: u64,
}

impl ConverterPool {
    /// A pool of `k` idle converters (`k = 0`: no conversion).
    pub fn new(k: usize) -> Self {
        ConverterPool {
            in_use_until: vec![SimTime::ZERO; k],
            conversions: 0,
        }
    }

    /// Number of converters k.
    #[inline]
    pub fn len(&self) -> usize {
        self.in_use_until.len()
    }

    /// True for a pool without converters.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.in_use_until.is_empty()
    }

    /// Conversions committed so far.
    #[inline]
    pub fn conversions(&self) -> u64 {
        self.conversions
    }

    /// The time converter `k` is booked until.
    #[inline]
    pub fn in_use_until(&self, k: usize) -> SimTime {
        self.in_use_until[k]
    }

    /// A converter free over `[start, ..)`: the one whose booking ends
    /// latest but no later than `start` (the LAUC rule, which keeps the
    /// converters that free earlier for bursts that start earlier); ties to
    /// the lowest index. Read-only.
    pub fn available(&self, start: SimTime) -> Option<usize> {
        let mut best: Option<(usize, SimTime)> = None;
        for (k, &t) in self.in_use_until.iter().enumerate() {
            if t <= start && best.is_none_or(|(_, bt)| t > bt) {
                best = Some((k, t));
            }
        }
        best.map(|(k, _)| k)
    }

    /// True when some converter is free from `start` on.
    #[inline]
    pub fn is_free(&self, start: SimTime) -> bool {
        self.available(start).is_some()
    }

    /// Books converter `k` until `end` (it must be [`Self::available`] at
    /// the burst's start).
    #[inline]
    pub fn commit(&mut self, k: usize, end: SimTime) {
        debug_assert!(end >= self.in_use_until[k], "converter booked backwards");
        self.in_use_until[k] = end;
        self.conversions += 1;
    }

    /// Books a free converter over `[start, end)` and returns it, or `None`
    /// when all are busy.
    pub fn reserve(&mut self, start: SimTime, end: SimTime) -> Option<usize> {
        let k = self.available(start)?;
        self.commit(k, end);
        Some(k)
    }

    /// Frees converter `k` from `at` on, if it was booked later than that
    /// (for a burst cut short or a reservation undone by the engine).
    #[inline]
    pub fn release(&mut self, k: usize, at: SimTime) {
        if at < self.in_use_until[k] {
            self.in_use_until[k] = at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converters_are_shared_and_released() {
        let mut p = ConverterPool::new(2);
        assert_eq!(p.reserve(SimTime(0), SimTime(100)), Some(0));
        assert_eq!(p.reserve(SimTime(10), SimTime(50)), Some(1));
        assert!(!p.is_free(SimTime(20)));
        // At 60 only converter 1 is free; at 100 both are, and the later
        // one (0, free at 100) is preferred.
        assert_eq!(p.available(SimTime(60)), Some(1));
        assert_eq!(p.available(SimTime(100)), Some(0));
        p.release(0, SimTime(30));
        assert_eq!(p.available(SimTime(40)), Some(0));
        assert_eq!(p.conversions(), 2);
        assert!(ConverterPool::new(0).available(SimTime::MAX).is_none());
    }
}
