//! UDP cross-traffic sources: when each datagram leaves. I/O-free (the
//! engine asks [`UdpSource::next_send`], sends, then calls
//! [`UdpSource::advance`]); no allocation after construction.
//!
//! Both models follow ns-2's traffic generators, which the studies used:
//!
//! * **CBR** (`Application/Traffic/CBR`, `random_ 0`): the first packet at the
//!   start time (ns-2's `CBR_Traffic::start` sends at once), then one packet
//!   every `interval = packet · 8 / rate`. Packet `k` leaves at exactly
//!   `start + ⌊k · packet · 8 · 10⁹ / rate⌋` ns, computed in integers from
//!   the start, so the long-run rate is exact and rounding never accumulates.
//! * **On/off** (`Application/Traffic/Exponential`, `EXPOO_Traffic`): a burst
//!   is a number of packets sent back to back at `rate` (spacing `interval`);
//!   before each burst the source is idle. As in `EXPOO_Traffic::next_interval`,
//!   the burst length in packets is `max(1, ⌊X + 0.5⌋)` with `X` exponential of
//!   mean `on / interval`, and the gap from a burst's last packet to the next
//!   burst's first is `interval + off`, `off` exponential of mean `off`. ns-2's
//!   `TrafficGenerator::start` schedules the first packet after
//!   `next_interval`, so the source starts idle: its first packet leaves at
//!   `start + interval + off₀`. With `distribution = "fixed"` both draws are
//!   replaced by their means (burst `max(1, ⌊on / interval + 0.5⌋)` packets).
//!
//! The long-run mean rate of an on/off source is therefore
//! `E[n] · packet · 8 / (E[n] · interval + E[off])` with `E[n]` the mean burst
//! length (see [`UdpSource::mean_rate_bps`]); about `rate · on / (on + off)`
//! when `on` spans many packets.

use crate::config::traffic::{OnOffDistribution, TrafficModel, TrafficSpec};
use crate::rng::{uniform01, SimRng};
use crate::time::{SimDuration, SimTime};

/// One source's schedule.
#[derive(Clone, Debug)]
pub struct UdpSource {
    /// `packet · 8 · 10⁹`: the numerator of a packet's spacing in ns.
    bit_ns: u128,
    /// Rate while sending, bit/s.
    rate: u128,
    /// Time of packet 0 of the current burst (CBR: of the whole run).
    origin: SimTime,
    /// Index in the current burst of the next packet.
    k: u64,
    /// Packets in the current burst (`u64::MAX` for CBR).
    burst: u64,
    /// No packet at or after this time.
    stop: SimTime,
    /// Mean burst length in packets before rounding (`on / interval`) and
    /// mean off time in ns; unused for CBR.
    mean_burst: f64,
    mean_off_ns: f64,
    fixed: bool,
    onoff: bool,
    rng: SimRng,
    /// Time of the next packet, `None` once stopped.
    next: Option<SimTime>,
}

impl UdpSource {
    /// The source of `spec`, starting at `start` (already drawn); `rng` is
    /// its own stream (on/off draws only).
    pub fn new(spec: &TrafficSpec, start: SimTime, rng: SimRng) -> Self {
        let bit_ns = u128::from(spec.packet_bytes) * 8 * 1_000_000_000;
        let rate = u128::from(spec.rate_bps.max(1));
        let interval_s = f64::from(spec.packet_bytes) * 8.0 / spec.rate_bps.max(1) as f64;
        let (mean_burst, mean_off_ns, fixed, onoff) = match spec.model {
            TrafficModel::Cbr => (0.0, 0.0, false, false),
            TrafficModel::OnOff {
                on,
                off,
                distribution,
            } => (
                on.as_secs_f64() / interval_s,
                off.0 as f64,
                distribution == OnOffDistribution::Fixed,
                true,
            ),
        };
        let mut s = Self {
            bit_ns,
            rate,
            origin: start,
            k: 0,
            burst: u64::MAX,
            stop: spec.stop.unwrap_or(SimTime::MAX),
            mean_burst,
            mean_off_ns,
            fixed,
            onoff,
            rng,
            next: None,
        };
        if onoff {
            // ns-2 starts idle: first packet after `interval + off`.
            s.origin = start + s.offset(1);
            s.new_burst();
        }
        s.next = s.due();
        s
    }

    /// Time of the next datagram, `None` once the source has stopped.
    #[inline]
    pub fn next_send(&self) -> Option<SimTime> {
        self.next
    }

    /// The datagram due at [`UdpSource::next_send`] has been sent: moves to
    /// the next one.
    pub fn advance(&mut self) {
        if self.next.is_none() {
            return;
        }
        self.k += 1;
        if self.k >= self.burst {
            // `interval` after the last packet, then the idle time.
            self.origin += self.offset(self.burst);
            self.k = 0;
            self.new_burst();
        }
        self.next = self.due();
    }

    /// Spacing of packets while sending (`packet · 8 / rate`, rounded down to
    /// the ns; the schedule itself never accumulates this rounding).
    pub fn interval(&self) -> SimDuration {
        self.offset(1)
    }

    /// Long-run mean rate in bit/s implied by the model (renewal-reward over
    /// one idle + burst cycle); the CBR rate for CBR.
    pub fn mean_rate_bps(&self) -> f64 {
        let rate = self.rate as f64;
        if !self.onoff {
            return rate;
        }
        let bits = self.bit_ns as f64 / 1e9;
        let n = if self.fixed {
            (self.mean_burst + 0.5).floor().max(1.0)
        } else {
            expected_burst(self.mean_burst)
        };
        let interval_s = bits / rate;
        n * bits / (n * interval_s + self.mean_off_ns / 1e9)
    }

    /// `⌊k · packet · 8 · 10⁹ / rate⌋` ns: where packet `k` of a burst leaves.
    #[inline]
    fn offset(&self, k: u64) -> SimDuration {
        let ns = u128::from(k) * self.bit_ns / self.rate;
        SimDuration(u64::try_from(ns).unwrap_or(u64::MAX))
    }

    #[inline]
    fn due(&self) -> Option<SimTime> {
        let t = self.origin.0.checked_add(self.offset(self.k).0)?;
        (t < self.stop.0).then_some(SimTime(t))
    }

    /// Draws the next burst length and the idle time before it (ns-2
    /// `EXPOO_Traffic::next_interval` when `rem_ == 0`).
    fn new_burst(&mut self) {
        let (n, off) = if self.fixed {
            ((self.mean_burst + 0.5).floor(), self.mean_off_ns)
        } else {
            let n = (exponential(&mut self.rng, self.mean_burst) + 0.5).floor();
            (n, exponential(&mut self.rng, self.mean_off_ns))
        };
        // `as` saturates; ns-2 makes an empty burst one packet.
        self.burst = (n as u64).max(1);
        self.origin += SimDuration(off.round() as u64);
    }
}

/// An exponential draw of mean `mean` (inversion, as ns-2's
/// `ExponentialRandomVariable`).
#[inline]
fn exponential(rng: &mut SimRng, mean: f64) -> f64 {
    -mean * (1.0 - uniform01(rng)).ln()
}

/// `E[max(1, ⌊X + 0.5⌋)]` for `X` exponential of mean `m`: the mean burst
/// length of ns-2's exponential on/off source. `P(⌊X + ½⌋ ≥ k) =
/// e^{-(k-½)/m}` for k ≥ 1, and the clamp adds `P(X < ½)`.
pub fn expected_burst(m: f64) -> f64 {
    if m <= 0.0 {
        return 1.0;
    }
    let q = (-1.0 / m).exp();
    let tail = (0.5 / m).exp() * q / (1.0 - q);
    tail + (1.0 - (-0.5 / m).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::scenario::StartSpec;
    use crate::ids::NodeId;
    use crate::rng::stream;

    fn spec(model: TrafficModel, rate_bps: u64, packet_bytes: u32) -> TrafficSpec {
        TrafficSpec {
            id: 0,
            group: "g".into(),
            src: NodeId(0),
            dst: NodeId(1),
            model,
            rate_bps,
            packet_bytes,
            start: StartSpec::At(SimTime::ZERO),
            stop: None,
        }
    }

    fn onoff(on_ms: u64, off_ms: u64, distribution: OnOffDistribution) -> TrafficModel {
        TrafficModel::OnOff {
            on: SimDuration::from_millis(on_ms),
            off: SimDuration::from_millis(off_ms),
            distribution,
        }
    }

    /// The first `n` send times.
    fn times(src: &mut UdpSource, n: usize) -> Vec<u64> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let Some(t) = src.next_send() else { break };
            out.push(t.0);
            src.advance();
        }
        out
    }

    // ---- CBR --------------------------------------------------------------

    #[test]
    fn cbr_spacing_is_exact() {
        // 1000 B at 3 Mbit/s: 8000/3 µs = 2_666_666.67 ns, not a whole ns.
        let sp = spec(TrafficModel::Cbr, 3_000_000, 1000);
        let start = SimTime(5_000);
        let mut s = UdpSource::new(&sp, start, stream(1, "t"));
        let t = times(&mut s, 3_000_001);
        assert_eq!(t[0], 5_000, "ns-2's CBR sends its first packet at start");
        for k in [1usize, 2, 3, 1_000, 3_000_000] {
            let exact = 5_000 + (k as u128 * 8_000 * 1_000_000_000 / 3_000_000) as u64;
            assert_eq!(t[k], exact, "packet {k}");
        }
        // Spacing alternates between floor and ceil of the interval only.
        for w in t.windows(2).take(10_000) {
            assert!((2_666_666..=2_666_667).contains(&(w[1] - w[0])));
        }
        // After exactly 3 M packets (8 Gbit), exactly 8000 s have passed.
        assert_eq!(t[3_000_000] - t[0], 8_000_000_000_000);
        assert_eq!(s.interval(), SimDuration(2_666_666));
        assert!((s.mean_rate_bps() - 3e6).abs() < 1e-6);
    }

    #[test]
    fn cbr_stops_before_stop_time() {
        let mut sp = spec(TrafficModel::Cbr, 8_000_000, 1000); // 1 ms spacing
        sp.stop = Some(SimTime::from_secs_f64(0.010));
        let mut s = UdpSource::new(&sp, SimTime::ZERO, stream(1, "t"));
        let t = times(&mut s, 100);
        assert_eq!(t.len(), 10, "packets at 0..=9 ms, none at 10 ms");
        assert_eq!(*t.last().unwrap(), 9_000_000);
        assert_eq!(s.next_send(), None);
        s.advance();
        assert_eq!(s.next_send(), None);
    }

    // ---- On/off -----------------------------------------------------------

    #[test]
    fn fixed_onoff_follows_ns2_schedule() {
        // 1000 B at 8 Mbit/s: 1 ms spacing; on 5 ms = 5 packets, off 20 ms.
        let sp = spec(onoff(5, 20, OnOffDistribution::Fixed), 8_000_000, 1000);
        let mut s = UdpSource::new(&sp, SimTime::ZERO, stream(1, "t"));
        let ms: Vec<u64> = times(&mut s, 11).iter().map(|t| t / 1_000_000).collect();
        // Starts idle: interval + off = 21 ms; then 5 packets 1 ms apart;
        // the next burst starts interval + off = 21 ms after the last one.
        assert_eq!(ms, vec![21, 22, 23, 24, 25, 46, 47, 48, 49, 50, 71]);
        assert!((s.mean_rate_bps() - 8e6 * 5.0 / 25.0).abs() < 1e-6);
    }

    #[test]
    fn short_on_period_still_sends_one_packet() {
        // on = 0.1 ms is a tenth of a packet: ns-2 sends bursts of 1.
        let sp = TrafficSpec {
            model: TrafficModel::OnOff {
                on: SimDuration(100_000),
                off: SimDuration::from_millis(9),
                distribution: OnOffDistribution::Fixed,
            },
            ..spec(TrafficModel::Cbr, 8_000_000, 1000)
        };
        let mut s = UdpSource::new(&sp, SimTime::ZERO, stream(1, "t"));
        let ms: Vec<u64> = times(&mut s, 3).iter().map(|t| t / 1_000_000).collect();
        assert_eq!(ms, vec![10, 20, 30]);
    }

    #[test]
    fn expected_burst_matches_its_series() {
        for m in [0.2, 1.0, 7.5, 62.5] {
            let direct: f64 = (1..10_000)
                .map(|k: i32| (-(f64::from(k) - 0.5) / m).exp())
                .sum::<f64>()
                + 1.0
                - (-0.5 / m).exp();
            assert!((expected_burst(m) - direct).abs() < 1e-9, "m = {m}");
        }
        // For long bursts the rounding is unbiased: E[n] ~ m.
        assert!((expected_burst(500.0) - 500.0).abs() < 0.01);
    }

    /// Over many on/off cycles the measured rate is within a 99.9% CI of the
    /// model's long-run mean (renewal-reward ratio estimator, delta method).
    #[test]
    fn onoff_mean_rate_within_ci() {
        // 500 B at 2 Mbit/s (2 ms spacing), on 20 ms (10 packets), off 30 ms.
        let sp = spec(
            onoff(20, 30, OnOffDistribution::Exponential),
            2_000_000,
            500,
        );
        let mut s = UdpSource::new(&sp, SimTime::ZERO, stream(42, "traffic/0/onoff"));
        let bits = 500.0 * 8.0;
        // Cycle = idle gap + burst: from one burst's first packet to the next's.
        let mut cycles: Vec<(f64, f64)> = Vec::new();
        let (mut first, mut count, mut prev) = (None::<u64>, 0u64, 0u64);
        while cycles.len() < 100_000 {
            let t = s.next_send().unwrap().0;
            s.advance();
            let gap = t.saturating_sub(prev);
            if first.is_some() && gap > 2_000_001 {
                let f = first.unwrap();
                cycles.push((count as f64 * bits, (t - f) as f64 / 1e9));
                first = Some(t);
                count = 0;
            }
            if first.is_none() {
                first = Some(t);
            }
            count += 1;
            prev = t;
        }
        let n = cycles.len() as f64;
        let (sb, st) = cycles
            .iter()
            .fold((0.0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
        let rate = sb / st;
        // Var of the ratio estimator: Var(b - r t) / (n · E[t]²).
        let mt = st / n;
        let var = cycles
            .iter()
            .map(|(b, t)| (b - rate * t).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let se = (var / n).sqrt() / mt;
        let expected = s.mean_rate_bps();
        assert!(
            (rate - expected).abs() < 3.3 * se,
            "measured {rate:.0} bit/s, model {expected:.0} ± {:.0}",
            3.3 * se
        );
        // And about rate · on / (on + off) = 0.8 Mbit/s.
        assert!((expected - 0.8e6).abs() < 0.05e6, "{expected}");
    }

    #[test]
    fn same_stream_same_schedule_other_stream_differs() {
        let sp = spec(
            onoff(10, 10, OnOffDistribution::Exponential),
            8_000_000,
            1000,
        );
        let a = times(
            &mut UdpSource::new(&sp, SimTime::ZERO, stream(7, "x")),
            5_000,
        );
        let b = times(
            &mut UdpSource::new(&sp, SimTime::ZERO, stream(7, "x")),
            5_000,
        );
        let c = times(
            &mut UdpSource::new(&sp, SimTime::ZERO, stream(8, "x")),
            5_000,
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.windows(2).all(|w| w[1] > w[0]), "strictly increasing");
    }
}
