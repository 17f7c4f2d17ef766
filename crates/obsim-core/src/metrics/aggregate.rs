//! Aggregate metrics of TCP-over-OBS studies (gonzalez2009 §3-4):
//! the aggregated throughput Σ cwnd_i / RTT_i, the normalized congestion
//! window Σ cwnd_i / (W_M · N_F), the synchronization index I of eq. (1),
//! all from every flow's window sampled at a fixed interval, and the
//! bytes-per-bin profile of optical channels.

use serde::Serialize;

use crate::time::{SimDuration, SimTime};

/// One flow as seen at a sampling instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowSample {
    /// The sampler's memory slot of the flow: a declared flow's index, or
    /// a generated flow's pool slot after the declared ones. A slot is
    /// reused by later flows; `id` tells them apart.
    pub slot: usize,
    /// The flow's id (unique over the run).
    pub id: u32,
    /// The flow has started and not completed.
    pub active: bool,
    /// Effective window in segments: min(cwnd, W_M, rwnd).
    pub window: f64,
    /// The flow's W_M in segments.
    pub max_window: f64,
    /// Smoothed RTT in seconds, if measured yet.
    pub rtt_s: Option<f64>,
    /// Payload bytes per segment.
    pub mss: u32,
    /// Loss events detected so far (TD + TO).
    pub loss_events: u64,
    /// cwnd < ssthresh (slow start, RFC 5681 §3.1).
    pub slow_start: bool,
}

/// Which flows the synchronization index counts at each sample
/// (`metrics.sync_index`; docs/NSFNET_STUDIES.md §2.10). Both equal
/// gonzalez2009 eq. (1) when the flows are the same at every sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncIndexDef {
    /// N_F = flows active at the sample; N_d = those of them whose loss
    /// count grew since the previous sample (a flow that started inside
    /// the interval counts from zero).
    #[default]
    AtSample,
    /// Over each sampling interval (t_{i-1}, t_i]: N_F,i = flows active at
    /// both t_{i-1} and t_i, N_di = those of them whose loss count grew.
    Churn,
}

impl SyncIndexDef {
    /// Every value with its name in scenarios (`metrics.sync_index`).
    pub const ALL: [(&'static str, SyncIndexDef); 2] = [
        ("at_sample", SyncIndexDef::AtSample),
        ("churn", SyncIndexDef::Churn),
    ];

    /// True for the default (the scenario echo omits it).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// What the sampler remembers of the flow in one slot from the previous
/// sample.
#[derive(Clone, Copy, Debug)]
struct Memo {
    /// The flow seen in the slot ([`NO_FLOW`]: none yet).
    id: u32,
    /// Its loss count then.
    losses: u64,
    /// It was active then.
    active: bool,
}

/// `Memo::id` of a slot no flow has been sampled in (flow ids stop below
/// `u32::MAX`: `engine/flowpool.rs`).
const NO_FLOW: u32 = u32::MAX;

/// Columns of the sampled aggregate series (`series` table).
#[derive(Clone, Debug, Default, Serialize)]
pub struct SeriesTable {
    /// Sample time, seconds.
    pub time_s: Vec<f64>,
    /// Active flows at the sample.
    pub active_flows: Vec<u64>,
    /// Σ window_i · MSS_i · 8 / RTT_i over active flows with an RTT, bit/s.
    pub agg_throughput_bps: Vec<f64>,
    /// Σ window_i / Σ W_M,i over active flows (gonzalez2009 Fig. 6).
    pub norm_cwnd: Vec<f64>,
    /// Active flows that detected a loss since the previous sample (N_di).
    pub flows_with_loss: Vec<u64>,
    /// Fraction of the active flows in slow start (cwnd < ssthresh); NaN
    /// with no active flow.
    pub slow_start_fraction: Vec<f64>,
    /// Flows active at this sample and the previous one (N_F,i of the
    /// churn index, docs/NSFNET_STUDIES.md §2.10).
    pub flows_both_ends: Vec<u64>,
    /// Those of them whose loss count grew in between (N_di of the churn
    /// index).
    pub flows_with_loss_both_ends: Vec<u64>,
}

/// What `meta` reports of the series (samples after the warm-up with an
/// active flow).
#[derive(Clone, Copy, Debug)]
pub struct SeriesSummary {
    /// Moments of the aggregated throughput, bit/s.
    pub throughput: Moments,
    /// Moments of the normalized cwnd.
    pub norm_cwnd: Moments,
    /// Moments of the fraction of active flows in slow start.
    pub slow_start: Moments,
    /// The synchronization index ([`Sampler::sync_index`]).
    pub sync_index: f64,
}

/// Mean, standard deviation (population), min, max and coefficient of
/// variation of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Moments {
    /// Number of values.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    /// Standard deviation (divide by n).
    pub std: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// std / mean (NaN for a zero mean).
    pub cov: f64,
}

impl Moments {
    /// Moments of `xs` (all NaN for an empty sample).
    pub fn of(xs: impl IntoIterator<Item = f64>) -> Self {
        let (mut n, mut sum, mut sq, mut min, mut max) =
            (0u64, 0.0, 0.0, f64::INFINITY, f64::NEG_INFINITY);
        for x in xs {
            n += 1;
            sum += x;
            sq += x * x;
            min = min.min(x);
            max = max.max(x);
        }
        if n == 0 {
            return Self {
                n,
                mean: f64::NAN,
                std: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
                cov: f64::NAN,
            };
        }
        let mean = sum / n as f64;
        let std = (sq / n as f64 - mean * mean).max(0.0).sqrt();
        Self {
            n,
            mean,
            std,
            min,
            max,
            cov: if mean == 0.0 { f64::NAN } else { std / mean },
        }
    }
}

/// Samples every flow at fixed instants and accumulates the series and
/// the synchronization index. Its memory is one [`Memo`] per slot (declared
/// flows, then the generated flows' pool slots), so a sample costs
/// O(slots) and allocates nothing once the slots stop growing.
#[derive(Clone, Debug, Default)]
pub struct Sampler {
    series: SeriesTable,
    memo: Vec<Memo>,
    def: SyncIndexDef,
    /// Σ N_di and Σ N_F over samples (after warm-up) where some flow lost,
    /// by the chosen definition.
    sum_lossy_flows: u64,
    sum_flows_at_lossy_samples: u64,
}

impl Sampler {
    /// A sampler for `n_flows` declared flows (generated flows add slots as
    /// they come), counting the synchronization index by `def`.
    pub fn new(n_flows: usize, def: SyncIndexDef) -> Self {
        Self {
            memo: (0..n_flows)
                .map(|i| Memo {
                    id: i as u32,
                    losses: 0,
                    active: false,
                })
                .collect(),
            def,
            ..Self::default()
        }
    }

    /// Takes one sample at `now`; `counted` says whether it falls in the
    /// measured window (after warm-up).
    pub fn sample(&mut self, now: SimTime, flows: impl Iterator<Item = FlowSample>, counted: bool) {
        let (mut active, mut thr, mut win, mut wmax, mut lossy) = (0u64, 0.0, 0.0, 0.0, 0u64);
        let (mut both, mut lossy_both, mut slow) = (0u64, 0u64, 0u64);
        for f in flows {
            if f.slot >= self.memo.len() {
                // A new pool slot: grows with the most flows live at once.
                let blank = Memo {
                    id: NO_FLOW,
                    losses: 0,
                    active: false,
                };
                self.memo.resize(f.slot + 1, blank);
            }
            let m = &mut self.memo[f.slot];
            // A flow new to the slot counts its losses from zero.
            let (prev, was_active) = if m.id == f.id {
                (m.losses, m.active)
            } else {
                (0, false)
            };
            let lost = f.loss_events > prev;
            *m = Memo {
                id: f.id,
                losses: f.loss_events,
                active: f.active,
            };
            if !f.active {
                continue;
            }
            active += 1;
            win += f.window;
            wmax += f.max_window;
            if let Some(rtt) = f.rtt_s.filter(|r| *r > 0.0) {
                thr += f.window * f64::from(f.mss) * 8.0 / rtt;
            }
            lossy += u64::from(lost);
            slow += u64::from(f.slow_start);
            if was_active {
                both += 1;
                lossy_both += u64::from(lost);
            }
        }
        let s = &mut self.series;
        s.time_s.push(now.as_secs_f64());
        s.active_flows.push(active);
        s.agg_throughput_bps.push(thr);
        s.norm_cwnd
            .push(if wmax > 0.0 { win / wmax } else { f64::NAN });
        s.flows_with_loss.push(lossy);
        s.slow_start_fraction.push(if active > 0 {
            slow as f64 / active as f64
        } else {
            f64::NAN
        });
        s.flows_both_ends.push(both);
        s.flows_with_loss_both_ends.push(lossy_both);
        let (n_d, n_f) = match self.def {
            SyncIndexDef::AtSample => (lossy, active),
            SyncIndexDef::Churn => (lossy_both, both),
        };
        if counted && n_d > 0 {
            self.sum_lossy_flows += n_d;
            self.sum_flows_at_lossy_samples += n_f;
        }
    }

    /// Synchronization index I = Σ N_di / (N_F · Σ N_sdi) (gonzalez2009
    /// eq. 1), with N_F and N_di taken at each lossy sample as
    /// [`SyncIndexDef`] says: Σ N_di / Σ N_F; NaN if no sample saw a loss.
    pub fn sync_index(&self) -> f64 {
        if self.sum_flows_at_lossy_samples == 0 {
            f64::NAN
        } else {
            self.sum_lossy_flows as f64 / self.sum_flows_at_lossy_samples as f64
        }
    }

    /// The series and its summary over the samples at or after `from` with
    /// an active flow.
    pub fn finish(self, from: SimTime) -> (SeriesTable, SeriesSummary) {
        let from_s = from.as_secs_f64();
        let s = &self.series;
        let keep = |i: &usize| s.time_s[*i] >= from_s && s.active_flows[*i] > 0;
        let idx: Vec<usize> = (0..s.time_s.len()).filter(keep).collect();
        let summary = SeriesSummary {
            throughput: Moments::of(idx.iter().map(|&i| s.agg_throughput_bps[i])),
            norm_cwnd: Moments::of(idx.iter().map(|&i| s.norm_cwnd[i])),
            slow_start: Moments::of(idx.iter().map(|&i| s.slow_start_fraction[i])),
            sync_index: self.sync_index(),
        };
        (self.series, summary)
    }
}

/// Bytes entering a channel per fixed bin (gonzalez2009 §4: "bytes/s
/// received by the first core router", in 3 ms spans).
#[derive(Clone, Debug)]
pub struct BinCounter {
    width: SimDuration,
    bytes: Vec<u64>,
}

impl BinCounter {
    /// Bins of `width`.
    pub fn new(width: SimDuration) -> Self {
        Self {
            width,
            bytes: Vec::new(),
        }
    }

    /// Adds `bytes` at time `t`.
    #[inline]
    pub fn add(&mut self, t: SimTime, bytes: u64) {
        let i = (t.0 / self.width.0.max(1)) as usize;
        if self.bytes.len() <= i {
            self.bytes.resize(i + 1, 0);
        }
        self.bytes[i] += bytes;
    }

    /// Moments of the rate (bit/s) over the whole bins within `[from, to)`.
    pub fn rate_moments(&self, from: SimTime, to: SimTime) -> Moments {
        let w = self.width.0.max(1);
        let first = from.0.div_ceil(w);
        let last = to.0 / w; // bins [first, last) end by `to`
        let secs = self.width.as_secs_f64();
        Moments::of(
            (first..last)
                .map(|i| self.bytes.get(i as usize).copied().unwrap_or(0) as f64 * 8.0 / secs),
        )
    }
}

/// Bytes per fixed bin of one stream whose bytes arrive at most a bounded
/// time ahead of the clock (a burst's tail reaches the far end of its
/// channel after it is scheduled), summarised as it goes: a bin is closed
/// into running moments once the clock has passed it, so memory is the
/// few bins between now and the furthest tail, not the run's length
/// (per-pair bytes per 3 ms into the first core router, gonzalez2009 §4,
/// Table 2). The rates match [`BinCounter::rate_moments`] over the whole
/// bins from `from` on.
#[derive(Clone, Debug)]
pub struct StreamBins {
    /// Bin width, ns (> 0).
    width: u64,
    /// First bin counted: the first whole bin at or after `from`.
    first: u64,
    /// Bin index of `open[0]`; every bin before it is closed.
    base: u64,
    /// Bytes of the open bins `base, base + 1, ...`.
    open: std::collections::VecDeque<u64>,
    acc: RateAcc,
    /// If kept ([`StreamBins::keep_series`]): bytes of every closed counted
    /// bin, `first, first + 1, ...` (one `u64` per bin: gonzalez2009
    /// Figs. 15-16 plot the series itself).
    series: Option<Vec<u64>>,
}

/// Running sums of bin rates.
#[derive(Clone, Copy, Debug)]
struct RateAcc {
    n: u64,
    sum: f64,
    sq: f64,
    min: f64,
    max: f64,
}

impl RateAcc {
    const EMPTY: Self = Self {
        n: 0,
        sum: 0.0,
        sq: 0.0,
        min: f64::INFINITY,
        max: f64::NEG_INFINITY,
    };

    fn push(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sq += x * x;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    /// `k` bins of rate 0 (the same sums as `k` pushes of 0.0).
    fn zeros(&mut self, k: u64) {
        if k > 0 {
            self.n += k;
            self.min = self.min.min(0.0);
            self.max = self.max.max(0.0);
        }
    }

    fn moments(self) -> Moments {
        if self.n == 0 {
            return Moments::of(std::iter::empty());
        }
        let mean = self.sum / self.n as f64;
        let std = (self.sq / self.n as f64 - mean * mean).max(0.0).sqrt();
        Moments {
            n: self.n,
            mean,
            std,
            min: self.min,
            max: self.max,
            cov: if mean == 0.0 { f64::NAN } else { std / mean },
        }
    }
}

impl StreamBins {
    /// Bins of `width` (> 0), counted from the first whole bin at or after
    /// `from`.
    pub fn new(width: SimDuration, from: SimTime) -> Self {
        let w = width.0.max(1);
        Self {
            width: w,
            first: from.0.div_ceil(w),
            base: 0,
            open: std::collections::VecDeque::new(),
            acc: RateAcc::EMPTY,
            series: None,
        }
    }

    /// Also keeps every counted bin, for [`StreamBins::series`] (memory: one
    /// `u64` per bin of the run after `from`).
    #[must_use]
    pub fn keep_series(mut self) -> Self {
        self.series = Some(Vec::new());
        self
    }

    fn rate(&self, bytes: u64) -> f64 {
        bytes as f64 * 8.0 / SimDuration(self.width).as_secs_f64()
    }

    /// Closes bin `i` holding `bytes` into `acc` (if it is counted).
    fn close(&self, acc: &mut RateAcc, i: u64, bytes: u64) {
        if i >= self.first {
            acc.push(self.rate(bytes));
        }
    }

    /// Adds `bytes` arriving at `t`, known at `now` (`t >= now`; no later
    /// call has an earlier `now`). Closes the bins before `now`'s.
    pub fn add(&mut self, now: SimTime, t: SimTime, bytes: u64) {
        debug_assert!(t >= now);
        let mut acc = self.acc;
        let upto = now.0 / self.width;
        while self.base < upto {
            if let Some(b) = self.open.pop_front() {
                self.close(&mut acc, self.base, b);
                if self.base >= self.first {
                    if let Some(s) = self.series.as_mut() {
                        s.push(b);
                    }
                }
                self.base += 1;
            } else {
                // Nothing open: the bins up to `upto` held nothing.
                let k = upto - self.base.max(self.first).min(upto);
                acc.zeros(k);
                if let Some(s) = self.series.as_mut() {
                    s.resize(s.len() + k as usize, 0);
                }
                self.base = upto;
            }
        }
        self.acc = acc;
        let i = (t.0 / self.width).max(self.base);
        let k = (i - self.base) as usize;
        if self.open.len() <= k {
            self.open.resize(k + 1, 0);
        }
        self.open[k] += bytes;
    }

    /// Moments of the rate (bit/s) over the counted whole bins before `to`
    /// (bins `[first, to / width)`), the open ones included.
    pub fn moments(&self, to: SimTime) -> Moments {
        let last = to.0 / self.width;
        let mut acc = self.acc;
        let mut i = self.base;
        for &b in &self.open {
            if i >= last {
                break;
            }
            self.close(&mut acc, i, b);
            i += 1;
        }
        if i < last {
            acc.zeros(last - i.max(self.first).min(last));
        }
        acc.moments()
    }

    /// The kept series ([`StreamBins::keep_series`]; empty otherwise): the
    /// start and bytes of each counted whole bin before `to` (the bins
    /// [`StreamBins::moments`] summarises, the open ones included), in
    /// order; `rate` turns bytes into bit/s.
    pub fn series(&self, to: SimTime) -> Vec<(SimTime, u64)> {
        let Some(closed) = self.series.as_ref() else {
            return Vec::new();
        };
        let last = to.0 / self.width;
        let n = last.saturating_sub(self.first);
        let mut out = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
        let open = self
            .open
            .iter()
            .enumerate()
            .map(|(k, &b)| (self.base + k as u64, b));
        let closed = closed
            .iter()
            .enumerate()
            .map(|(k, &b)| (self.first + k as u64, b));
        // Closed bins, then the open ones (bins before `first` skipped), then
        // empty bins up to `last`.
        let mut next = self.first;
        for (i, b) in closed.chain(open).filter(|&(i, _)| i >= self.first) {
            if i >= last {
                break;
            }
            debug_assert_eq!(i, next, "bins are contiguous");
            out.push((SimTime(i * self.width), b));
            next = i + 1;
        }
        for i in next..last {
            out.push((SimTime(i * self.width), 0));
        }
        out
    }

    /// The rate (bit/s) of a bin holding `bytes`.
    pub fn rate_of(&self, bytes: u64) -> f64 {
        self.rate(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs(active: bool, window: f64, rtt: f64, losses: u64) -> FlowSample {
        FlowSample {
            slot: 0,
            id: 0,
            active,
            window,
            max_window: 100.0,
            rtt_s: Some(rtt),
            mss: 1000,
            loss_events: losses,
            slow_start: false,
        }
    }

    /// Flow `id` in `slot`, active, with `losses` so far.
    fn at(slot: usize, id: u32, losses: u64) -> FlowSample {
        FlowSample {
            slot,
            id,
            ..fs(true, 10.0, 0.1, losses)
        }
    }

    /// Declared flow `i` (its own slot).
    fn flow(i: u32, losses: u64) -> FlowSample {
        at(i as usize, i, losses)
    }

    #[test]
    fn sync_index_counts_flows_losing_together() {
        let mut s = Sampler::new(4, SyncIndexDef::AtSample);
        // Sample 1: no loss. Sample 2: all 4 lose. Sample 3: 1 of 4 loses.
        s.sample(SimTime(0), (0..4).map(|i| flow(i, 0)), true);
        s.sample(SimTime(1), (0..4).map(|i| flow(i, 1)), true);
        s.sample(
            SimTime(2),
            (0..4).map(|i| flow(i, 1 + u64::from(i == 0))),
            true,
        );
        assert!((s.sync_index() - 5.0 / 8.0).abs() < 1e-12);
        let (series, sum) = s.finish(SimTime(0));
        let (thr, norm) = (sum.throughput, sum.norm_cwnd);
        assert_eq!(series.flows_with_loss, vec![0, 4, 1]);
        // The same flows at every sample: the churn counts agree from the
        // second sample on.
        assert_eq!(series.flows_both_ends, vec![0, 4, 4]);
        assert_eq!(series.flows_with_loss_both_ends, vec![0, 4, 1]);
        // 4 flows x 10 segments x 8000 bit / 0.1 s.
        assert!((thr.mean - 3.2e6).abs() < 1e-6 && thr.std.abs() < 1e-6);
        assert!((norm.mean - 0.1).abs() < 1e-12);
    }

    /// A constant population (every flow active at every sample, losses at
    /// random): both definitions give the same index and the same series,
    /// eq. (1) exactly.
    #[test]
    fn definitions_agree_on_a_constant_population() {
        let mut a = Sampler::new(8, SyncIndexDef::AtSample);
        let mut c = Sampler::new(8, SyncIndexDef::Churn);
        let mut losses = [0u64; 8];
        let mut x = 12_345u64;
        for t in 0..200 {
            for l in &mut losses {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                *l += u64::from((x >> 33) % 5 == 0);
            }
            let samples = || (0..8u32).map(|i| flow(i, losses[i as usize]));
            a.sample(SimTime(t), samples(), t >= 20);
            c.sample(SimTime(t), samples(), t >= 20);
        }
        let i = a.sync_index();
        assert!(i > 0.1 && i < 0.5, "{i}");
        assert_eq!(i.to_bits(), c.sync_index().to_bits());
        let (sa, ..) = a.finish(SimTime(0));
        let (sc, ..) = c.finish(SimTime(0));
        assert_eq!(format!("{sa:?}"), format!("{sc:?}"));
    }

    /// Churn (NSFNET_STUDIES.md §2.10): a flow that arrives inside an
    /// interval and loses counts under `AtSample` but not under `Churn`; a
    /// new flow reusing a slot starts from zero losses, not the previous
    /// owner's count.
    #[test]
    fn churn_counts_only_flows_active_at_both_ends() {
        let run = |def| {
            let mut s = Sampler::new(0, def);
            // t0: flows 10 (slot 0) and 11 (slot 1).
            s.sample(SimTime(0), [at(0, 10, 0), at(1, 11, 0)].into_iter(), true);
            // t1: 10 lost; 11 ended; 12 arrived in slot 1 and lost once.
            s.sample(SimTime(1), [at(0, 10, 1), at(1, 12, 1)].into_iter(), true);
            // t2: 12 lost again (it was active at t1: counted by both);
            // 10 did not.
            s.sample(SimTime(2), [at(0, 10, 1), at(1, 12, 2)].into_iter(), true);
            let (series, ..) = s.clone().finish(SimTime(0));
            assert_eq!(series.flows_with_loss, vec![0, 2, 1]);
            assert_eq!(series.flows_both_ends, vec![0, 1, 2]);
            assert_eq!(series.flows_with_loss_both_ends, vec![0, 1, 1]);
            s.sync_index()
        };
        // AtSample: (2 + 1) / (2 + 2). Churn: (1 + 1) / (1 + 2).
        assert!((run(SyncIndexDef::AtSample) - 0.75).abs() < 1e-12);
        assert!((run(SyncIndexDef::Churn) - 2.0 / 3.0).abs() < 1e-12);
    }

    /// The slow-start fraction: active flows with cwnd < ssthresh over
    /// active flows; inactive flows count in neither.
    #[test]
    fn slow_start_fraction_of_active_flows() {
        let mut s = Sampler::new(4, SyncIndexDef::AtSample);
        let f = |i: u32, active: bool, slow: bool| FlowSample {
            active,
            slow_start: slow,
            ..flow(i, 0)
        };
        s.sample(
            SimTime(0),
            [
                f(0, true, true),
                f(1, true, false),
                f(2, false, true),
                f(3, true, true),
            ]
            .into_iter(),
            true,
        );
        s.sample(SimTime(1), [f(0, false, true)].into_iter(), true);
        let (series, sum) = s.finish(SimTime(0));
        assert!((series.slow_start_fraction[0] - 2.0 / 3.0).abs() < 1e-12);
        assert!(series.slow_start_fraction[1].is_nan());
        assert_eq!(sum.slow_start.n, 1, "samples with an active flow only");
    }

    /// Streamed bins give the moments a full bin array gives, with bytes
    /// arriving ahead of the clock, gaps of empty bins, a warm-up cut and
    /// an end inside a bin; memory stays the look-ahead.
    #[test]
    fn stream_bins_match_the_bin_array() {
        let w = SimDuration::from_millis(3);
        let (from, to) = (SimTime(10_000_000), SimTime(2_000_500_000));
        let mut full = BinCounter::new(w);
        let mut stream = StreamBins::new(w, from).keep_series();
        let mut x = 7u64;
        let mut now = SimTime(0);
        let mut peak = 0;
        while now < to {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            // Gaps from 0 to ~60 ms, arrivals up to ~8 ms ahead.
            now += SimDuration((x >> 40) % 60_000_000);
            if now >= to {
                break; // the run's end: no later add
            }
            let t = now + SimDuration((x >> 20) % 8_000_000);
            let bytes = 1 + (x >> 50);
            full.add(t, bytes);
            stream.add(now, t, bytes);
            peak = peak.max(stream.open.len());
        }
        let (a, b) = (full.rate_moments(from, to), stream.moments(to));
        assert_eq!(a.n, b.n);
        assert!(a.n > 600);
        for (p, q) in [
            (a.mean, b.mean),
            (a.std, b.std),
            (a.min, b.min),
            (a.max, b.max),
        ] {
            assert!((p - q).abs() <= 1e-9 * p.abs().max(1.0), "{a:?} {b:?}");
        }
        assert!(peak <= 5, "look-ahead bins {peak}");
        // The kept series is the bin array over the same whole bins.
        let first = from.0.div_ceil(w.0);
        let want: Vec<(SimTime, u64)> = (first..to.0 / w.0)
            .map(|i| {
                (
                    SimTime(i * w.0),
                    full.bytes.get(i as usize).copied().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(stream.series(to), want);
        assert_eq!(want.len() as u64, a.n);
        assert!(StreamBins::new(w, from).series(to).is_empty(), "not kept");
        let none = StreamBins::new(w, from).moments(to);
        assert_eq!(none.n, a.n);
        assert_eq!((none.mean, none.max), (0.0, 0.0));
    }

    #[test]
    fn bins_and_moments() {
        let mut b = BinCounter::new(SimDuration::from_millis(1));
        b.add(SimTime(500_000), 1000);
        b.add(SimTime(1_500_000), 3000);
        let m = b.rate_moments(SimTime(0), SimTime(2_000_000));
        assert_eq!(m.n, 2);
        assert!((m.mean - 16e6).abs() < 1e-6);
        assert!((m.min - 8e6).abs() < 1e-6 && (m.max - 24e6).abs() < 1e-6);
        assert!((m.cov - 0.5).abs() < 1e-12);
        let empty = Moments::of(std::iter::empty());
        assert!(empty.mean.is_nan());
    }
}
