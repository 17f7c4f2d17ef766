//! Flow generators (issue 12; ramantas2007 §3, ramantas2008 §3, gonzalez2009
//! §4): short-lived TCP flows arriving as a Poisson process of rate λ at a
//! source node, each sending a size drawn from a [`SizeLaw`] to a
//! destination drawn from a row of the traffic matrix (uniform when no
//! weights are given). I/O free: the engine asks for the first arrival,
//! and at each arrival gets the flow to create and the next arrival time;
//! it creates and tears down the flows itself.
//!
//! Three named streams per generator (`flowgen/<name>/arrivals`,
//! `flowgen/<name>/sizes`, `flowgen/<name>/dest`), so neither adding a
//! generator nor changing one law (say, the size law) moves another draw.

use rand::RngExt;
use rand_distr::Exp1;

use crate::config::scenario::FlowGenSpec;
use crate::ids::NodeId;
use crate::rng::{stream, uniform01, SimRng};
use crate::time::{SimDuration, SimTime};
use crate::traffic::size::SizeLaw;

/// One flow to create, as drawn at its arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowDraw {
    /// Destination node.
    pub dst: NodeId,
    /// Bytes to send.
    pub bytes: u64,
}

/// One generator's arrival process and draws.
#[derive(Clone, Debug)]
pub struct FlowGenerator {
    to: Vec<NodeId>,
    /// Cumulative destination probabilities (last = 1), from `weights`.
    cum: Vec<f64>,
    mean_gap_ns: f64,
    start: SimTime,
    stop: Option<SimTime>,
    size: SizeLaw,
    arrivals: SimRng,
    sizes: SimRng,
    dest: SimRng,
}

impl FlowGenerator {
    /// The generator of `spec` in a run with `seed`.
    pub fn new(spec: &FlowGenSpec, seed: u64) -> Self {
        let total: f64 = spec.weights.iter().sum();
        let mut acc = 0.0;
        let mut cum: Vec<f64> = spec
            .weights
            .iter()
            .map(|w| {
                acc += w / total;
                acc
            })
            .collect();
        if let Some(last) = cum.last_mut() {
            *last = 1.0;
        }
        let name = |what: &str| format!("flowgen/{}/{what}", spec.name);
        Self {
            to: spec.to.clone(),
            cum,
            mean_gap_ns: 1e9 / spec.rate,
            start: spec.start,
            stop: spec.stop,
            size: spec.size.clone(),
            arrivals: stream(seed, &name("arrivals")),
            sizes: stream(seed, &name("sizes")),
            dest: stream(seed, &name("dest")),
        }
    }

    /// An exponential gap of mean 1/λ: the Poisson process's inter-arrival
    /// time, rounded to the nanosecond (at least 1 ns, so arrivals advance).
    fn gap(&mut self) -> SimDuration {
        let e: f64 = self.arrivals.sample(Exp1);
        SimDuration(((e * self.mean_gap_ns).round() as u64).max(1))
    }

    /// `t` if the generator still creates flows then.
    fn live(&self, t: SimTime) -> Option<SimTime> {
        self.stop.is_none_or(|s| t < s).then_some(t)
    }

    /// The first arrival: one gap after `start` (the process starts at
    /// `start`, so no arrival is exactly at it). `None` if after `stop`.
    pub fn first(&mut self) -> Option<SimTime> {
        let t = self.start + self.gap();
        self.live(t)
    }

    /// The flow arriving now and the time of the next arrival (`None` once
    /// past `stop`). Draws the destination (only with more than one), the
    /// size, then the gap, each from its own stream.
    pub fn arrive(&mut self, now: SimTime) -> (FlowDraw, Option<SimTime>) {
        let dst = if self.to.len() == 1 {
            self.to[0]
        } else {
            let u = uniform01(&mut self.dest);
            let i = self.cum.partition_point(|&c| c <= u).min(self.to.len() - 1);
            self.to[i]
        };
        let bytes = self.size.sample(&mut self.sizes);
        let next = now + self.gap();
        (FlowDraw { dst, bytes }, self.live(next))
    }
}

/// The time integral of the number of active generated flows, for Little's
/// law (L = λ W): the mean number active over a window is the integral
/// over the window divided by its length.
#[derive(Clone, Copy, Debug, Default)]
pub struct ActiveFlows {
    active: u64,
    since: SimTime,
    /// Integral of the count since the window opened, in flow·ns.
    area: u128,
    opened: SimTime,
    /// Largest count seen.
    pub peak: u64,
}

impl ActiveFlows {
    fn advance(&mut self, now: SimTime) {
        self.area += u128::from(self.active) * u128::from(now.saturating_since(self.since).0);
        self.since = now;
    }

    /// A flow starts at `now`.
    pub fn up(&mut self, now: SimTime) {
        self.advance(now);
        self.active += 1;
        self.peak = self.peak.max(self.active);
    }

    /// A flow ends at `now`.
    pub fn down(&mut self, now: SimTime) {
        self.advance(now);
        self.active -= 1;
    }

    /// Restarts the integral at `now` (the warm-up's end).
    pub fn reopen(&mut self, now: SimTime) {
        self.advance(now);
        self.area = 0;
        self.opened = now;
    }

    /// Flows active now.
    pub fn active(&self) -> u64 {
        self.active
    }

    /// The mean number active from the window's opening to `now`.
    pub fn mean(&mut self, now: SimTime) -> f64 {
        self.advance(now);
        let len = now.saturating_since(self.opened).0;
        if len == 0 {
            return f64::NAN;
        }
        self.area as f64 / len as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::scenario::Access;

    fn spec(rate: f64, to: &[u32], weights: &[f64]) -> FlowGenSpec {
        FlowGenSpec {
            name: "g".into(),
            src: NodeId(0),
            to: to.iter().map(|&n| NodeId(n)).collect(),
            weights: weights.to_vec(),
            rate,
            size: SizeLaw::Constant { bytes: 1000 },
            start: SimTime::ZERO,
            stop: None,
            tcp: crate::tcp::profile::profile(crate::config::schema::DEFAULT_PROFILE).unwrap(),
            access: Access::Shared,
        }
    }

    fn gaps(g: &mut FlowGenerator, n: usize) -> Vec<f64> {
        let mut t = g.first().unwrap();
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let (_, next) = g.arrive(t);
            let next = next.unwrap();
            out.push((next - t).as_secs_f64());
            t = next;
        }
        out
    }

    /// Inter-arrival times are exponential of mean 1/λ: Kolmogorov-Smirnov
    /// on 10^5 draws at the 1% level (critical value 1.628/sqrt(n)).
    #[test]
    fn inter_arrivals_are_exponential_of_rate_lambda() {
        let lambda = 50.0;
        let mut g = FlowGenerator::new(&spec(lambda, &[1], &[1.0]), 7);
        let mut x = gaps(&mut g, 100_000);
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        assert!((mean * lambda - 1.0).abs() < 0.01, "mean gap {mean}");
        x.sort_by(f64::total_cmp);
        let d = x
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let f = 1.0 - (-lambda * v).exp();
                (f - i as f64 / n).abs().max((f - (i + 1) as f64 / n).abs())
            })
            .fold(0.0, f64::max);
        assert!(d < 1.628 / n.sqrt(), "KS distance {d}");
    }

    /// The arrivals come from `flowgen/<name>/arrivals` alone: the same
    /// seed and name give the same times, whatever the destinations and
    /// weights (which draw from `.../dest`), and another name differs.
    #[test]
    fn arrivals_come_from_their_named_stream() {
        let a = gaps(&mut FlowGenerator::new(&spec(10.0, &[1], &[1.0]), 3), 100);
        let b = gaps(
            &mut FlowGenerator::new(&spec(10.0, &[1, 2, 3], &[1.0, 2.0, 3.0]), 3),
            100,
        );
        assert_eq!(a, b);
        let mut other = spec(10.0, &[1], &[1.0]);
        other.name = "h".into();
        assert_ne!(a, gaps(&mut FlowGenerator::new(&other, 3), 100));
        let mut rng = stream(3, "flowgen/g/arrivals");
        let e: f64 = rng.sample(Exp1);
        let first = FlowGenerator::new(&spec(10.0, &[1], &[1.0]), 3).first();
        assert_eq!(
            first,
            Some(SimTime::ZERO + SimDuration((e * 1e8).round() as u64))
        );
    }

    /// Destinations follow the weights (a traffic-matrix row): 1:3 over
    /// 40,000 draws within 5 standard deviations.
    #[test]
    fn destinations_follow_the_matrix_row() {
        let mut g = FlowGenerator::new(&spec(1.0, &[4, 9], &[1.0, 3.0]), 11);
        let n = 40_000;
        let mut t = g.first().unwrap();
        let mut nine = 0;
        for _ in 0..n {
            let (d, next) = g.arrive(t);
            nine += u32::from(d.dst == NodeId(9));
            t = next.unwrap();
        }
        let p = f64::from(nine) / f64::from(n);
        let sd = (0.75 * 0.25 / f64::from(n)).sqrt();
        assert!((p - 0.75).abs() < 5.0 * sd, "share {p}");
    }

    #[test]
    fn no_arrival_at_or_after_stop() {
        let mut s = spec(1000.0, &[1], &[1.0]);
        s.stop = Some(SimTime::ZERO + SimDuration::from_millis(100));
        let mut g = FlowGenerator::new(&s, 1);
        let mut t = g.first();
        let mut n = 0;
        while let Some(now) = t {
            assert!(now < s.stop.unwrap());
            t = g.arrive(now).1;
            n += 1;
        }
        assert!((50..150).contains(&n), "{n} arrivals in 100 ms at 1000/s");
    }

    #[test]
    fn active_flow_integral() {
        let ms = |m| SimTime::ZERO + SimDuration::from_millis(m);
        let mut a = ActiveFlows::default();
        a.up(ms(0));
        a.up(ms(10));
        a.down(ms(20));
        // 1 flow over [0,10), 2 over [10,20), 1 over [20,40): 50 / 40.
        assert!((a.mean(ms(40)) - 1.25).abs() < 1e-12);
        assert_eq!(a.peak, 2);
        a.reopen(ms(40));
        assert!((a.mean(ms(50)) - 1.0).abs() < 1e-12);
    }
}
