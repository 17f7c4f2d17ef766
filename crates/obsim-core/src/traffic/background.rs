//! Background burst generators (gurel2008 §4): bursts injected straight
//! into the optical domain at an edge, with Poisson arrivals (exponential
//! interarrival times) and exponential or fixed lengths, towards one of a
//! set of egress edges chosen uniformly. They load the core without TCP
//! flows of their own. I/O free: the engine asks for the next emission time
//! and launches the burst each emission returns.

use rand::RngExt;
use rand_distr::Exp1;

use crate::config::scenario::{GeneratorSpec, LengthDistribution};
use crate::ids::NodeId;
use crate::obs::Burst;
use crate::rng::{stream, SimRng};
use crate::time::{SimDuration, SimTime};

/// One generator. Its stream `generator/<name>` draws, per burst, the
/// destination (only with more than one), the length (only when
/// exponential) and then the gap to the next burst, in that order.
#[derive(Clone, Debug)]
pub struct BackgroundSource {
    at: NodeId,
    to: Vec<NodeId>,
    /// Mean length in bytes, per destination.
    mean_bytes: Vec<f64>,
    exponential: bool,
    interarrival_ns: f64,
    start: SimTime,
    stop: Option<SimTime>,
    extra_offset: SimDuration,
    rng: SimRng,
    next_id: u64,
}

impl BackgroundSource {
    /// The generator of `spec` in a run with `seed`. Its mean lengths in
    /// bytes are set once routes are known ([`BackgroundSource::set_mean_bytes`]).
    pub fn new(spec: &GeneratorSpec, seed: u64) -> Self {
        Self {
            at: spec.at,
            to: spec.to.clone(),
            mean_bytes: Vec::new(),
            exponential: spec.distribution == LengthDistribution::Exponential,
            interarrival_ns: spec.interarrival.as_nanos() as f64,
            start: spec.start,
            stop: spec.stop,
            extra_offset: spec.extra_offset,
            rng: stream(seed, &format!("generator/{}", spec.name)),
            next_id: 0,
        }
    }

    /// Sets the mean burst length in bytes towards each destination (a
    /// time length converted at the rate of the first link there).
    pub fn set_mean_bytes(&mut self, means: Vec<f64>) {
        debug_assert_eq!(means.len(), self.to.len());
        self.mean_bytes = means;
    }

    /// The ingress edge.
    pub fn at(&self) -> NodeId {
        self.at
    }

    /// Extra offset of its bursts.
    pub fn extra_offset(&self) -> SimDuration {
        self.extra_offset
    }

    fn gap(&mut self) -> SimDuration {
        let e: f64 = self.rng.sample(Exp1);
        SimDuration((e * self.interarrival_ns).round() as u64)
    }

    /// `at`, if the generator is still running then.
    fn before_stop(&self, at: SimTime) -> Option<SimTime> {
        self.stop.is_none_or(|s| at < s).then_some(at)
    }

    /// The time of the first burst (`None`: after `stop`).
    pub fn first(&mut self) -> Option<SimTime> {
        let at = self.start + self.gap();
        self.before_stop(at)
    }

    /// Emits a burst now: the burst (its payload is its whole length, it has
    /// no packets) and the time of the next one (`None`: after `stop`).
    pub fn emit(&mut self, now: SimTime) -> (Burst, Option<SimTime>) {
        let j = if self.to.len() == 1 {
            0
        } else {
            crate::rng::uniform_below(&mut self.rng, self.to.len() as u32) as usize
        };
        let mean = self.mean_bytes[j];
        let bytes = if self.exponential {
            let e: f64 = self.rng.sample(Exp1);
            (e * mean).round().max(1.0) as u64
        } else {
            mean.round().max(1.0) as u64
        };
        self.next_id += 1;
        let burst = Burst {
            id: self.next_id - 1,
            ingress: self.at,
            egress: self.to[j],
            queue: u32::MAX,
            opened: now,
            closed: now,
            payload_bytes: bytes,
            ..Burst::default()
        };
        let next = now + self.gap();
        (burst, self.before_stop(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::scenario::BurstLength;

    fn spec(to: &[u32], distribution: LengthDistribution) -> GeneratorSpec {
        GeneratorSpec {
            name: "g".into(),
            at: NodeId(0),
            to: to.iter().map(|&n| NodeId(n)).collect(),
            interarrival: SimDuration::from_micros(100),
            length: BurstLength::Bytes(1000),
            distribution,
            start: SimTime::ZERO,
            stop: Some(SimTime::ZERO + SimDuration::from_millis(1)),
            extra_offset: SimDuration::ZERO,
        }
    }

    fn run(g: &mut BackgroundSource) -> Vec<(SimTime, u32, u64)> {
        let mut out = Vec::new();
        let mut at = g.first();
        while let Some(t) = at {
            let (b, next) = g.emit(t);
            assert!(b.packets.is_empty() && b.ingress == NodeId(0));
            out.push((t, b.egress.0, b.payload_bytes));
            at = next;
        }
        out
    }

    #[test]
    fn a_generator_is_a_function_of_its_seed_and_name() {
        let s = spec(&[1, 2], LengthDistribution::Exponential);
        let mut a = BackgroundSource::new(&s, 3);
        let mut b = BackgroundSource::new(&s, 3);
        a.set_mean_bytes(vec![1000.0, 2000.0]);
        b.set_mean_bytes(vec![1000.0, 2000.0]);
        let (ra, rb) = (run(&mut a), run(&mut b));
        assert_eq!(ra, rb);
        // About 10 bursts in 1 ms at 100 µs mean gap, all before the stop.
        assert!((4..=20).contains(&ra.len()), "{}", ra.len());
        assert!(ra
            .iter()
            .all(|r| r.0 < SimTime::ZERO + SimDuration::from_millis(1)));
        assert!(ra.iter().any(|r| r.1 == 1) && ra.iter().any(|r| r.1 == 2));
        let mut c = BackgroundSource::new(&s, 4);
        c.set_mean_bytes(vec![1000.0, 2000.0]);
        assert_ne!(run(&mut c), ra);
    }

    #[test]
    fn fixed_lengths_use_the_mean_and_draw_only_gaps() {
        let fixed = spec(&[1], LengthDistribution::Fixed);
        let mut g = BackgroundSource::new(&fixed, 1);
        g.set_mean_bytes(vec![1234.4]);
        let r = run(&mut g);
        assert!(r.iter().all(|&(_, e, b)| e == 1 && b == 1234));
        // Only gaps are drawn: the times are those of the stream's
        // exponential draws, one after another.
        let mut rng = stream(1, "generator/g");
        let mut t = SimTime::ZERO;
        for &(at, _, _) in &r {
            let e: f64 = rng.sample(Exp1);
            t += SimDuration((e * 100_000.0).round() as u64);
            assert_eq!(at, t);
        }
        // Ids count up from 0.
        let (b, _) = g.emit(SimTime::ZERO);
        assert_eq!(b.id, r.len() as u64);
    }
}
