//! Burst-closing triggers: timer (T_MAX), size (B_MAX) and hybrid
//! (gurel2008 §1-3, gonzalez2009 §1 and Table 1, yu2004 §II).

use crate::time::SimDuration;

/// When a burstifier queue closes its burst.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum Trigger {
    /// Timer-based assembly: the burst closes `T_MAX` after its first packet
    /// entered the empty queue (gurel2008 §3 uses only this one;
    /// gonzalez2009 Table 1 `T_MAX` = 3 ms).
    Timer(SimDuration),
    /// Size-based (threshold) assembly: the burst closes on the arrival that
    /// makes it reach the limit; that packet is in the burst.
    Size(SizeLimit),
    /// Hybrid timer/size assembly: whichever of the two fires first.
    Hybrid(SimDuration, SizeLimit),
}

/// The size threshold of a size or hybrid trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum SizeLimit {
    /// Close when the payload (sum of packet wire bytes) reaches this many bytes.
    Bytes(u64),
    /// Close when the burst holds this many packets.
    Packets(u32),
}

impl Trigger {
    /// The assembly timer `T_MAX`, if this trigger has one.
    #[inline]
    pub fn timer(&self) -> Option<SimDuration> {
        match *self {
            Trigger::Timer(t) | Trigger::Hybrid(t, _) => Some(t),
            Trigger::Size(_) => None,
        }
    }

    /// The size threshold, if this trigger has one.
    #[inline]
    pub fn size(&self) -> Option<SizeLimit> {
        match *self {
            Trigger::Size(s) | Trigger::Hybrid(_, s) => Some(s),
            Trigger::Timer(_) => None,
        }
    }
}

impl SizeLimit {
    /// True when a burst of `bytes` payload bytes in `packets` packets has
    /// reached the limit (closing condition `>=`).
    #[inline]
    pub fn reached(&self, bytes: u64, packets: usize) -> bool {
        match *self {
            SizeLimit::Bytes(b) => bytes >= b,
            SizeLimit::Packets(n) => packets >= n as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_each_trigger() {
        let t = SimDuration::from_millis(2);
        assert_eq!(Trigger::Timer(t).timer(), Some(t));
        assert_eq!(Trigger::Timer(t).size(), None);
        assert_eq!(Trigger::Size(SizeLimit::Packets(3)).timer(), None);
        assert_eq!(
            Trigger::Hybrid(t, SizeLimit::Bytes(9)).size(),
            Some(SizeLimit::Bytes(9))
        );
        assert!(SizeLimit::Bytes(100).reached(100, 1));
        assert!(!SizeLimit::Bytes(100).reached(99, 7));
        assert!(SizeLimit::Packets(3).reached(0, 3));
        assert!(!SizeLimit::Packets(3).reached(10_000, 2));
    }
}
