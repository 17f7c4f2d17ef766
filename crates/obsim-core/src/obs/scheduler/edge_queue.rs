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

    /// A port of `w` wavelengths where wavelength `k` is busy until
    /// `busy[k]` µs.
    fn port(w: u16, busy: &[u64]) -> PortSchedule {
        let mut p = PortSchedule::new(w, false);
        for (k, &until) in busy.iter().enumerate() {
            if until > 0 {
                p.commit(k as u16, t(0), None, t(0), t(until));
            }
        }
        p
    }

    /// Queues bursts of `tx` µs that may start at `earliest` µs, one after
    /// another, with at most `max_wait` µs of waiting; returns (wavelength,
    /// start in µs) of each.
    fn queue(
        p: &mut PortSchedule,
        earliest: u64,
        tx: u64,
        max_wait: Option<u64>,
        n: usize,
    ) -> Vec<Option<(u16, u64)>> {
        (0..n)
            .map(|_| {
                queue_reserve(p, t(0), t(earliest), us(tx), max_wait.map(us))
                    .map(|(w, s)| (w, (s - SimTime::ZERO).as_nanos() / 1000))
            })
            .collect()
    }

    #[test]
    fn a_free_wavelength_is_taken_at_once_the_latest_freed_first() {
        assert_eq!(queue(&mut port(3, &[]), 0, 40, None, 1), [Some((0, 0))]);
        // Wavelength 1 frees at 40 µs, 2 at 20 µs: at 50 µs all three are
        // free and LAUC takes the one free latest (1).
        assert_eq!(
            queue(&mut port(3, &[0, 40, 20]), 50, 10, None, 1),
            [Some((1, 50))]
        );
    }

    #[test]
    fn a_busy_port_queues_on_the_wavelength_that_frees_first() {
        // Nothing free at 10 µs: wavelength 1 (free at 70 µs), then 0 at
        // 100 µs, then 1 again at 170 µs.
        assert_eq!(
            queue(&mut port(2, &[100, 70]), 10, 100, None, 3),
            [Some((1, 70)), Some((0, 100)), Some((1, 170))]
        );
    }

    #[test]
    fn a_finite_queue_drops_what_would_wait_too_long() {
        // The burst would start at 100 µs, 100 µs after `earliest`.
        assert_eq!(queue(&mut port(1, &[100]), 0, 10, Some(99), 1), [None]);
        assert_eq!(
            queue(&mut port(1, &[100]), 0, 10, Some(100), 1),
            [Some((0, 100))]
        );
    }
}
