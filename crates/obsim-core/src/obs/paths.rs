//! The paths of the optical domain, one per (ingress, egress) pair met in a
//! run: their JET route facts ([`JetPath`]) and their burst counters per
//! class (assembled TCP bursts, background bursts) and per burst length
//! (the `paths` and `burst_lengths` result tables; gurel2008 §4 reports
//! loss per path and class, ramantas2007 §3 loss per burst length).

use crate::ids::NodeId;
use crate::metrics::aggregate::{Moments, StreamBins};
use crate::obs::signalling::JetPath;
use crate::results::{BurstLengthResult, PairBinResult, PathResult};
use crate::time::{SimDuration, SimTime};

/// Counters of one path and class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCounters {
    /// Bursts sent.
    pub bursts: u64,
    /// Bursts lost (blocked or lost on a link).
    pub lost: u64,
    /// Bursts refused for want of a wavelength.
    pub blocked: u64,
    /// Wire bytes sent.
    pub bytes: u64,
}

/// One path.
#[derive(Clone, Debug)]
struct PathRecord {
    ingress: NodeId,
    egress: NodeId,
    jet: JetPath,
    /// [assembled, background].
    counters: [PathCounters; 2],
    /// Assembled bursts (sent, lost) per length bin.
    by_len: Vec<(u64, u64)>,
    /// Bytes per bin of its assembled bursts reaching the far end of the
    /// ingress's output fibre (`metrics.pair_bins`).
    bins: Option<StreamBins>,
}

/// Every path of a run, indexed in order of first use.
#[derive(Clone, Debug, Default)]
pub struct PathTable {
    paths: Vec<PathRecord>,
    /// Path of each (ingress, egress) pair: `index[ingress][egress]`,
    /// [`PathTable::NONE`] when not yet used; grown on first use (a dense
    /// look-up per launched burst, no hashing).
    index: Vec<Vec<u32>>,
    /// Packets per burst-length bin (`metrics.burst_length_bin`, >= 1).
    bin_width: u32,
    /// Per-path bytes-per-bin profile: bin width and the warm-up's end
    /// (`metrics.pair_bins` with `metrics.throughput_bin`); `None`: off.
    pair_bins: Option<(SimDuration, SimTime)>,
    /// The (ingress, egress) path whose bins are all kept
    /// (`metrics.pair_series`), if any.
    series: Option<(NodeId, NodeId)>,
}

impl PathTable {
    /// No path yet for this pair.
    const NONE: u32 = u32::MAX;

    /// An empty table with burst-length bins of `bin_width` packets (0 is
    /// taken as 1) and, if `pair_bins` is given (bin width, warm-up end),
    /// each path's bytes-per-bin profile at its first hop.
    pub fn new(bin_width: u32, pair_bins: Option<(SimDuration, SimTime)>) -> Self {
        Self {
            bin_width: bin_width.max(1),
            pair_bins,
            ..Self::default()
        }
    }

    /// Keeps every bin of the path from `ingress` to `egress` (with
    /// `pair_bins` only), for the `pair_bins` table (`metrics.pair_series`).
    /// Call before that path is first used.
    pub fn keep_series(&mut self, ingress: NodeId, egress: NodeId) {
        self.series = Some((ingress, egress));
    }

    /// The index of the path from `ingress` to `egress`, built with `walk`
    /// on first use.
    pub fn path(&mut self, ingress: NodeId, egress: NodeId, walk: impl FnOnce() -> JetPath) -> u32 {
        let (a, b) = (ingress.index(), egress.index());
        if let Some(&i) = self.index.get(a).and_then(|row| row.get(b)) {
            if i != Self::NONE {
                return i;
            }
        }
        let i = self.paths.len() as u32;
        self.paths.push(PathRecord {
            ingress,
            egress,
            jet: walk(),
            counters: [PathCounters::default(); 2],
            by_len: Vec::new(),
            bins: self.pair_bins.map(|(w, from)| {
                let b = StreamBins::new(w, from);
                if self.series == Some((ingress, egress)) {
                    b.keep_series()
                } else {
                    b
                }
            }),
        });
        if self.index.len() <= a {
            self.index.resize_with(a + 1, Vec::new);
        }
        let row = &mut self.index[a];
        if row.len() <= b {
            row.resize(b + 1, Self::NONE);
        }
        row[b] = i;
        i
    }

    /// The route facts of path `i`.
    pub fn jet(&self, i: u32) -> &JetPath {
        &self.paths[i as usize].jet
    }

    /// The counters of path `i` for assembled (`background = false`) or
    /// background bursts.
    pub fn counters(&self, i: u32, background: bool) -> PathCounters {
        self.paths[i as usize].counters[usize::from(background)]
    }

    fn bin(&self, packets: usize) -> usize {
        packets.saturating_sub(1) / self.bin_width as usize
    }

    /// Counts a burst of `packets` packets and `wire_bytes` sent on path `i`.
    pub fn on_sent(&mut self, i: u32, background: bool, wire_bytes: u64, packets: usize) {
        let b = self.bin(packets);
        let p = &mut self.paths[i as usize];
        let c = &mut p.counters[usize::from(background)];
        c.bursts += 1;
        c.bytes += wire_bytes;
        if !background {
            if p.by_len.len() <= b {
                p.by_len.resize(b + 1, (0, 0));
            }
            p.by_len[b].0 += 1;
        }
    }

    /// An assembled burst of path `i`, scheduled at `now` on the ingress's
    /// output fibre, brings `wire_bytes` to its far end (the first core
    /// router) at `tail` (gonzalez2009 §4, Table 2: "bytes/s received by
    /// the first core router" for one pair, in 3 ms spans).
    #[inline]
    pub fn on_first_hop(&mut self, i: u32, now: SimTime, tail: SimTime, wire_bytes: u64) {
        if let Some(b) = self.paths[i as usize].bins.as_mut() {
            b.add(now, tail, wire_bytes);
        }
    }

    /// Counts a burst sent on path `i` refused for want of a wavelength
    /// (it is then also lost: [`PathTable::on_lost`]).
    pub fn on_blocked(&mut self, i: u32, background: bool) {
        self.paths[i as usize].counters[usize::from(background)].blocked += 1;
    }

    /// Counts a lost burst of `packets` packets sent on path `i` (counted
    /// sent by [`PathTable::on_sent`]).
    pub fn on_lost(&mut self, i: u32, background: bool, packets: usize) {
        let b = self.bin(packets);
        let p = &mut self.paths[i as usize];
        p.counters[usize::from(background)].lost += 1;
        if !background {
            p.by_len[b].1 += 1;
        }
    }

    /// The `paths`, `burst_lengths` and `pair_bins` tables, paths sorted by
    /// (ingress, egress) id; `name` names a node; the bin profiles and the
    /// kept series end at `end` and are reported only if `measured` (the
    /// warm-up was reached).
    pub fn results(
        &self,
        name: impl Fn(NodeId) -> String,
        end: SimTime,
        measured: bool,
    ) -> (Vec<PathResult>, Vec<BurstLengthResult>, Vec<PairBinResult>) {
        let mut paths = Vec::new();
        let mut lengths = Vec::new();
        let mut series = Vec::new();
        let ratio = |l: u64, b: u64| if b > 0 { l as f64 / b as f64 } else { f64::NAN };
        let mut order: Vec<&PathRecord> = self.paths.iter().collect();
        order.sort_by_key(|p| (p.ingress, p.egress));
        for p in order {
            if let Some(b) = p.bins.as_ref().filter(|_| measured) {
                let (ingress, egress) = (name(p.ingress), name(p.egress));
                series.extend(b.series(end).into_iter().map(|(t, bytes)| PairBinResult {
                    ingress: ingress.clone(),
                    egress: egress.clone(),
                    start_s: t.as_secs_f64(),
                    bytes,
                    rate_bps: b.rate_of(bytes),
                }));
            }
            for (k, class) in ["tcp", "background"].iter().enumerate() {
                let c = p.counters[k];
                if c.bursts == 0 {
                    continue;
                }
                let bins = match (&p.bins, k) {
                    (Some(b), 0) if measured => b.moments(end),
                    _ => Moments::of(std::iter::empty()),
                };
                paths.push(PathResult {
                    ingress: name(p.ingress),
                    egress: name(p.egress),
                    class: (*class).to_string(),
                    hops: p.jet.hops,
                    offset_s: p.jet.offset.as_secs_f64(),
                    bursts: c.bursts,
                    lost: c.lost,
                    blocked: c.blocked,
                    bytes: c.bytes,
                    loss_ratio: ratio(c.lost, c.bursts),
                    bin_rate_mean_bps: bins.mean,
                    bin_rate_std_bps: bins.std,
                    bin_rate_min_bps: bins.min,
                    bin_rate_max_bps: bins.max,
                });
            }
            let w = self.bin_width;
            for (b, &(sent, lost)) in p.by_len.iter().enumerate() {
                if sent == 0 {
                    continue;
                }
                lengths.push(BurstLengthResult {
                    ingress: name(p.ingress),
                    egress: name(p.egress),
                    packets_lo: b as u32 * w + 1,
                    packets_hi: (b as u32 + 1) * w,
                    bursts: sent,
                    lost,
                    loss_ratio: ratio(lost, sent),
                });
            }
        }
        (paths, lengths, series)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::LinkId;
    use crate::time::SimDuration;

    fn jet() -> JetPath {
        JetPath {
            first: LinkId(0),
            hops: 2,
            offset: SimDuration::from_micros(40),
        }
    }

    #[test]
    fn paths_count_per_class_and_length_bin() {
        let mut t = PathTable::new(10, None);
        let p = t.path(NodeId(3), NodeId(1), jet);
        assert_eq!(
            t.path(NodeId(3), NodeId(1), || unreachable!("built once")),
            p
        );
        let q = t.path(NodeId(0), NodeId(1), jet);
        t.on_sent(p, false, 1000, 10); // bin 1..=10
        t.on_sent(p, false, 2000, 11); // bin 11..=20
        t.on_sent(p, true, 500, 0);
        t.on_blocked(p, false);
        t.on_lost(p, false, 11);
        assert_eq!(
            t.counters(p, false),
            PathCounters {
                bursts: 2,
                lost: 1,
                blocked: 1,
                bytes: 3000
            }
        );
        t.on_sent(q, false, 7, 1);
        let (paths, lengths, series) = t.results(|n| format!("n{}", n.0), SimTime(0), true);
        assert!(series.is_empty(), "no pair_bins");
        // Sorted by ingress: n0 first; n3 has both classes.
        let rows: Vec<(&str, &str, u64)> = paths
            .iter()
            .map(|r| (r.ingress.as_str(), r.class.as_str(), r.bursts))
            .collect();
        assert_eq!(
            rows,
            [("n0", "tcp", 1), ("n3", "tcp", 2), ("n3", "background", 1)]
        );
        assert_eq!((paths[1].hops, paths[1].loss_ratio), (2, 0.5));
        let bins: Vec<(u32, u32, u64, u64)> = lengths
            .iter()
            .map(|r| (r.packets_lo, r.packets_hi, r.bursts, r.lost))
            .collect();
        assert_eq!(bins, [(1, 10, 1, 0), (1, 10, 1, 0), (11, 20, 1, 1)]);
    }
}
