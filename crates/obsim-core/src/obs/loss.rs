//! Per-burst loss models for the optical core: each burst is lost with mean
//! probability `p`, independently of its length (the burst-length independent
//! loss model of gurel2008 §3, "Bernoulli distributed drop probability p";
//! gonzalez2009 §3, Table 1), with the three loss patterns of yu2004 §III
//! (Tables III-IV): random, evenly distributed, and evenly spaced batches of
//! back-to-back losses. A model may apply to one flow's bursts only (yu2004
//! §II-III study a single fast flow; the bursts of other traffic pass).

use crate::ids::FlowId;
use crate::obs::burst::Burst;
use crate::rng::{uniform01, SimRng};

/// How the lost bursts are placed in the sequence of bursts the model sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum BurstLossPattern {
    /// Each burst is lost independently with probability `p` (Bernoulli).
    Random,
    /// Every `round(1/p)`-th burst is lost: the n-th, 2n-th, ... (yu2004
    /// §III, "evenly distributed"). Deterministic.
    Even,
    /// One loss in each block of `round(1/p)` bursts, at a position drawn
    /// uniformly within the block (stratified, or jittered, sampling): the
    /// count of `Even` without its fixed phase, which a sender whose burst
    /// sizes repeat with a period dividing `round(1/p)` would alias with
    /// (docs/VALIDATION.md "L1" section 12).
    Stratified,
    /// Batches of `k` back-to-back losses, one batch closing every
    /// `round(k/p)` bursts, so the long-run rate is `k / round(k/p)` ≈ p
    /// (yu2004 §III, "4 losses occur back to back as a batch, and there is a
    /// fixed amount of time between two batches"). Deterministic;
    /// `Batch(1)` is `Even`.
    Batch(u32),
    /// Exactly one loss: the burst with this 0-based index among those the
    /// model applies to; `p` is ignored. For scripted single-burst-loss
    /// experiments (yu2004 §III.A, Figs. 1-3).
    Single(u64),
}

/// Parameters of a burst loss model.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BurstLossSpec {
    /// Mean burst loss probability, in `[0, 1]` (values outside are clamped).
    pub p: f64,
    /// Placement of the losses.
    pub pattern: BurstLossPattern,
    /// Apply only to bursts carrying a data segment of this flow; other bursts
    /// always pass and do not advance the pattern.
    pub only_flow: Option<FlowId>,
}

/// A per-burst loss model on one optical link (or the whole core).
#[derive(Clone, Debug)]
pub struct BurstLossModel {
    p: f64,
    pattern: BurstLossPattern,
    only_flow: Option<FlowId>,
    /// Pattern period in eligible bursts (`Even`, `Batch`, `Stratified`);
    /// 0 = never lose.
    period: u64,
    /// `Stratified`: the lost position within the current block.
    target: u64,
    /// Losses per period (`Batch` k, `Even` 1).
    run: u64,
    rng: SimRng,
    seen: u64,
    lost: u64,
}

impl BurstLossModel {
    /// A model following `spec`, drawing from `rng` (`Random` once per
    /// burst, `Stratified` once per block).
    pub fn new(spec: &BurstLossSpec, rng: SimRng) -> Self {
        let p = if spec.p.is_nan() {
            0.0
        } else {
            spec.p.clamp(0.0, 1.0)
        };
        let run = match spec.pattern {
            BurstLossPattern::Random
            | BurstLossPattern::Even
            | BurstLossPattern::Stratified
            | BurstLossPattern::Single(_) => 1,
            BurstLossPattern::Batch(k) => u64::from(k.max(1)),
        };
        let period = if p > 0.0 {
            ((run as f64 / p).round() as u64).max(run)
        } else {
            0
        };
        BurstLossModel {
            p,
            pattern: spec.pattern,
            only_flow: spec.only_flow,
            period,
            target: 0,
            run,
            rng,
            seen: 0,
            lost: 0,
        }
    }

    /// Decides whether `burst` is lost. Call once per burst, in the order the
    /// bursts reach the lossy element.
    pub fn lose(&mut self, burst: &Burst) -> bool {
        if let Some(f) = self.only_flow {
            if !burst.carries_data_of(f) {
                return false;
            }
        }
        let i = self.seen;
        self.seen += 1;
        let lost = match self.pattern {
            BurstLossPattern::Random => self.p > 0.0 && uniform01(&mut self.rng) < self.p,
            BurstLossPattern::Even | BurstLossPattern::Batch(_) => {
                self.period > 0 && i % self.period >= self.period - self.run
            }
            BurstLossPattern::Stratified => {
                if self.period == 0 {
                    false
                } else {
                    let k = i % self.period;
                    if k == 0 {
                        // The block's position: uniform over its bursts.
                        let u = uniform01(&mut self.rng);
                        self.target = ((u * self.period as f64) as u64).min(self.period - 1);
                    }
                    k == self.target
                }
            }
            BurstLossPattern::Single(n) => i == n,
        };
        self.lost += u64::from(lost);
        lost
    }

    /// Bursts the model has decided on (those it applies to).
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Bursts it has dropped.
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// The long-run loss rate of the pattern: `p` for `Random`, `run/period`
    /// for the deterministic patterns (differs from `p` by rounding).
    pub fn long_run_rate(&self) -> f64 {
        match self.pattern {
            BurstLossPattern::Random => self.p,
            BurstLossPattern::Single(_) => 0.0,
            _ if self.period == 0 => 0.0,
            _ => self.run as f64 / self.period as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;
    use crate::net::{Packet, Payload};
    use crate::rng::stream;
    use crate::tcp::Segment;
    use crate::time::SimTime;

    fn burst_of(flow: u32) -> Burst {
        let seg = Segment {
            seq: 0,
            len: 1000,
            retransmit: false,
            syn: false,
            push: false,
            sent_at: SimTime::ZERO,
            tsecr: 0,
        };
        let p = Packet {
            flow: FlowId(flow),
            src: NodeId(0),
            dst: NodeId(1),
            bytes: 1040,
            payload: Payload::Data(seg),
        };
        Burst {
            packets: vec![p],
            payload_bytes: 1040,
            ..Burst::default()
        }
    }

    fn model(p: f64, pattern: BurstLossPattern, only_flow: Option<FlowId>) -> BurstLossModel {
        BurstLossModel::new(
            &BurstLossSpec {
                p,
                pattern,
                only_flow,
            },
            stream(1, "loss"),
        )
    }

    fn losses(m: &mut BurstLossModel, n: usize) -> Vec<bool> {
        let b = burst_of(0);
        (0..n).map(|_| m.lose(&b)).collect()
    }

    /// `Stratified`: exactly one loss per block of round(1/p) bursts, at
    /// positions that vary from block to block and cover the block.
    #[test]
    fn stratified_loses_one_burst_per_block_at_a_drawn_position() {
        let l = losses(&mut model(0.1, BurstLossPattern::Stratified, None), 10_000);
        let mut at = [0u32; 10];
        for block in l.chunks(10) {
            let lost: Vec<usize> = (0..10).filter(|&k| block[k]).collect();
            assert_eq!(lost.len(), 1);
            at[lost[0]] += 1;
        }
        // 1 000 blocks: every position is drawn, each about 100 times.
        assert!(at.iter().all(|&n| (60..=140).contains(&n)), "{at:?}");
        // Unlike Even, whose loss is always the block's last burst.
        let even = losses(&mut model(0.1, BurstLossPattern::Even, None), 100);
        assert!(even
            .chunks(10)
            .all(|b| b[9] && b.iter().filter(|&&x| x).count() == 1));
    }

    #[test]
    fn random_rate_is_p_within_binomial_bound() {
        for p in [0.001, 0.01, 0.1, 0.5] {
            let n = 200_000usize;
            let lost = losses(&mut model(p, BurstLossPattern::Random, None), n)
                .iter()
                .filter(|&&x| x)
                .count();
            let mean = n as f64 * p;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (lost as f64 - mean).abs() < 5.0 * sd,
                "p={p}: {lost} lost, expected {mean} ± {sd}"
            );
        }
        assert!(!losses(&mut model(0.0, BurstLossPattern::Random, None), 1000).contains(&true));
        assert!(!losses(&mut model(1.0, BurstLossPattern::Random, None), 1000).contains(&false));
    }

    #[test]
    fn even_loses_exactly_every_nth_burst() {
        let l = losses(&mut model(0.1, BurstLossPattern::Even, None), 1000);
        for (i, &x) in l.iter().enumerate() {
            assert_eq!(x, (i + 1) % 10 == 0, "burst {i}");
        }
        // 1/0.03 = 33.3 -> every 33rd.
        let l = losses(&mut model(0.03, BurstLossPattern::Even, None), 99);
        let idx: Vec<usize> = (0..99).filter(|&i| l[i]).collect();
        assert_eq!(idx, vec![32, 65, 98]);
    }

    /// Lengths of the runs of consecutive losses.
    fn runs(l: &[bool]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut r = 0;
        for &x in l {
            if x {
                r += 1;
            } else if r > 0 {
                out.push(r);
                r = 0;
            }
        }
        if r > 0 {
            out.push(r);
        }
        out
    }

    #[test]
    fn batch_loses_runs_of_exactly_k_at_long_run_rate_p() {
        for (k, p) in [(4u32, 0.01), (4, 0.03), (2, 0.1), (1, 0.05)] {
            let mut m = model(p, BurstLossPattern::Batch(k), None);
            let n = 100_000;
            let l = losses(&mut m, n);
            let r = runs(&l);
            assert!(
                r.iter().all(|&x| x == k as usize),
                "k={k} p={p}: runs {:?}",
                &r[..5.min(r.len())]
            );
            let period = (f64::from(k) / p).round() as usize;
            assert_eq!(r.len(), n / period, "k={k} p={p}");
            let rate = l.iter().filter(|&&x| x).count() as f64 / n as f64;
            // Measured rate is the pattern's k/period up to one partial period.
            assert!(
                (rate - m.long_run_rate()).abs() <= f64::from(k) / n as f64,
                "rate {rate}"
            );
            assert!(
                (m.long_run_rate() - p).abs() < 0.02 * p,
                "{}",
                m.long_run_rate()
            );
        }
        // Batch(1) is Even.
        assert_eq!(
            losses(&mut model(0.07, BurstLossPattern::Batch(1), None), 500),
            losses(&mut model(0.07, BurstLossPattern::Even, None), 500)
        );
    }

    #[test]
    fn only_flow_spares_other_bursts() {
        for pattern in [
            BurstLossPattern::Random,
            BurstLossPattern::Even,
            BurstLossPattern::Batch(3),
        ] {
            let mut m = model(0.5, pattern, Some(FlowId(2)));
            let (mine, other) = (burst_of(2), burst_of(5));
            let mut lost_mine = 0;
            for _ in 0..1000 {
                assert!(!m.lose(&other), "{pattern:?} dropped another flow's burst");
                lost_mine += usize::from(m.lose(&mine));
            }
            assert_eq!(m.seen(), 1000);
            assert_eq!(m.lost(), lost_mine as u64);
            assert!((350..=650).contains(&lost_mine), "{pattern:?}: {lost_mine}");
        }
        // A burst carrying only an ACK of the flow is not its data.
        let mut b = burst_of(2);
        b.packets[0].payload = Payload::Ack(crate::tcp::Ack::default());
        assert!(!model(1.0, BurstLossPattern::Random, Some(FlowId(2))).lose(&b));
    }

    #[test]
    fn same_seed_same_losses() {
        let a = losses(&mut model(0.2, BurstLossPattern::Random, None), 500);
        let b = losses(&mut model(0.2, BurstLossPattern::Random, None), 500);
        assert_eq!(a, b);
        let c = losses(
            &mut BurstLossModel::new(
                &BurstLossSpec {
                    p: 0.2,
                    pattern: BurstLossPattern::Random,
                    only_flow: None,
                },
                stream(2, "loss"),
            ),
            500,
        );
        assert_ne!(a, c);
    }

    #[test]
    fn single_loses_exactly_the_indexed_burst_of_the_flow() {
        let spec = BurstLossSpec {
            p: 0.0,
            pattern: BurstLossPattern::Single(2),
            only_flow: Some(FlowId(1)),
        };
        let mut m = BurstLossModel::new(&spec, stream(1, "t"));
        // Bursts of flow 0 are not counted; the third burst of flow 1 is lost.
        let lost: Vec<bool> = [1, 0, 1, 0, 1, 1, 1]
            .iter()
            .map(|&f| m.lose(&burst_of(f)))
            .collect();
        assert_eq!(lost, vec![false, false, false, false, true, false, false]);
        assert_eq!((m.seen(), m.lost()), (5, 1));
    }
}
