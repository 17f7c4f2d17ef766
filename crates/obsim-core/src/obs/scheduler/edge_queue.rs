//! The electronic burst queue of an ingress edge (gurel2008 §2: no loss at
//! the edge): bursts wait in electronic memory in front of the W
//! transmitters of an output fibre instead of being dropped when no
//! wavelength is free at their offset time.

use super::{ChannelSet, PortSchedule};
use crate::time::{SimDuration, SimTime};

/// Queues a burst at an ingress edge's electronic burst queue in front of
/// the W transmitters of `port`: it may start at `earliest`; among the
/// wavelengths free by then, it takes the one that freed latest (the LAUC
/// rule, Xiong et al. 2000); if none is, the one that frees first (ties to
/// the lowest index). The burst goes after every reservation already on that
/// wavelength (the queue is FIFO per wavelength; transit bursts of other
/// nodes may still fill voids) and holds it for `tx`. Returns the
/// wavelength and the start, or `None` when the burst would wait longer
/// than `max_wait` (a finite burst queue, `edge_queue = "<duration>"`, drops
/// it at the edge; `None` = unlimited).
pub fn queue_reserve(
    port: &mut PortSchedule,
    now: SimTime,
    earliest: SimTime,
    tx: SimDuration,
    max_wait: Option<SimDuration>,
) -> Option<(u16, SimTime)> {
    let (w, start) = if let Some(w) = port.latest_available(earliest, ChannelSet::All) {
        (w, earliest)
    } else {
        let w = (0..port.channels())
            .min_by_key(|&c| port.horizon(c))
            .expect("a link has at least one wavelength");
        (w, port.horizon(w))
    };
    if max_wait.is_some_and(|m| start.saturating_since(earliest) > m) {
        return None; // the finite burst queue drops it
    }
    port.commit(w, now, None, start, start + tx);
    Some((w, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(us: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_micros(us)
    }

    fn us(n: u64) -> SimDuration {
        SimDuration::from_micros(n)
    }

    #[test]
    fn a_free_wavelength_is_taken_at_once_the_latest_freed_first() {
        let mut p = PortSchedule::new(3, false);
        // Wavelength 1 frees at 40 µs, 2 at 20 µs, 0 never used.
        assert_eq!(
            queue_reserve(&mut p, t(0), t(0), us(40), None),
            Some((0, t(0)))
        );
        let mut p = PortSchedule::new(3, false);
        p.commit(1, t(0), None, t(0), t(40));
        p.commit(2, t(0), None, t(0), t(20));
        // At 50 µs all three are free: LAUC takes the one free latest (1).
        assert_eq!(
            queue_reserve(&mut p, t(0), t(50), us(10), None),
            Some((1, t(50)))
        );
    }

    #[test]
    fn a_busy_port_queues_on_the_wavelength_that_frees_first() {
        let mut p = PortSchedule::new(2, false);
        p.commit(0, t(0), None, t(0), t(100));
        p.commit(1, t(0), None, t(0), t(70));
        // Nothing free at 10 µs: wait for wavelength 1 (free at 70 µs).
        assert_eq!(
            queue_reserve(&mut p, t(0), t(10), us(100), None),
            Some((1, t(70)))
        );
        // Next: wavelength 0 at 100 µs, then 1 again at 170 µs.
        assert_eq!(
            queue_reserve(&mut p, t(0), t(10), us(100), None),
            Some((0, t(100)))
        );
        assert_eq!(
            queue_reserve(&mut p, t(0), t(10), us(100), None),
            Some((1, t(170)))
        );
    }

    #[test]
    fn a_finite_queue_drops_what_would_wait_too_long() {
        let mut p = PortSchedule::new(1, false);
        p.commit(0, t(0), None, t(0), t(100));
        // Would start at 100 µs, 100 µs after `earliest`.
        assert_eq!(
            queue_reserve(&mut p, t(0), t(0), us(10), Some(us(99))),
            None
        );
        assert_eq!(
            queue_reserve(&mut p, t(0), t(0), us(10), Some(us(100))),
            Some((0, t(100)))
        );
    }
}
