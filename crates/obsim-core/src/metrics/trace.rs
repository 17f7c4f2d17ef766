//! Per-flow time series of cwnd, ssthresh and sequence numbers, sampled at a
//! fixed interval or recorded on every change (the papers' cwnd and
//! "sequence number mod K" figures are drawn from these).

use crate::ids::FlowId;
use crate::results::TraceTable;
use crate::time::SimTime;

/// One observation of a sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenderSample {
    /// Congestion window, segments.
    pub cwnd: f64,
    /// Slow-start threshold, segments.
    pub ssthresh: f64,
    /// Next new segment to send.
    pub snd_nxt: u64,
    /// Oldest unacknowledged segment.
    pub snd_una: u64,
}

/// Collects trace rows in columns.
#[derive(Clone, Debug, Default)]
pub struct TraceRecorder {
    table: TraceTable,
    /// Last recorded sample per traced flow (for change detection): the
    /// declared flows by index, then the generated flows of `generated`.
    last: Vec<Option<SenderSample>>,
    /// Which declared flows are traced.
    enabled: Vec<bool>,
    /// Generated flows traced, by id, sorted (ids at or above the number
    /// of declared flows: `[trace] flows`; ramantas2008 Fig. 6 traces
    /// chosen short-lived flows).
    generated: Vec<u32>,
    /// Whether sequence numbers matter for change detection.
    seq: bool,
    cwnd: bool,
}

impl TraceRecorder {
    /// A recorder for `n_flows` declared flows; `flows` empty means all of
    /// them. Ids in `flows` at or above `n_flows` are generated flows,
    /// traced while they live.
    pub fn new(n_flows: usize, flows: &[FlowId], cwnd: bool, seq: bool) -> Self {
        let mut enabled = vec![flows.is_empty(); n_flows];
        let mut generated = Vec::new();
        for f in flows {
            match enabled.get_mut(f.index()) {
                Some(e) => *e = true,
                None => generated.push(f.0),
            }
        }
        generated.sort_unstable();
        generated.dedup();
        Self {
            table: TraceTable::default(),
            last: vec![None; n_flows + generated.len()],
            enabled,
            generated,
            seq,
            cwnd,
        }
    }

    /// Flow `f`'s index in `last`, if it is traced.
    #[inline]
    fn slot(&self, f: FlowId) -> Option<usize> {
        match self.enabled.get(f.index()) {
            Some(&on) => on.then_some(f.index()),
            None if self.generated.is_empty() => None,
            None => self
                .generated
                .binary_search(&f.0)
                .ok()
                .map(|k| self.enabled.len() + k),
        }
    }

    /// True if flow `f` is traced.
    #[inline]
    pub fn traces(&self, f: FlowId) -> bool {
        self.slot(f).is_some()
    }

    /// The generated flows traced, by id.
    pub fn generated(&self) -> &[u32] {
        &self.generated
    }

    /// Records `s` for flow `f` at `now` unconditionally (`f` traced).
    pub fn record(&mut self, now: SimTime, f: FlowId, s: SenderSample) {
        let t = &mut self.table;
        t.time_s.push(now.as_secs_f64());
        t.flow.push(f.0);
        t.cwnd.push(s.cwnd);
        t.ssthresh.push(s.ssthresh);
        t.snd_nxt.push(s.snd_nxt);
        t.snd_una.push(s.snd_una);
        if let Some(k) = self.slot(f) {
            self.last[k] = Some(s);
        }
    }

    /// Records `s` only if a traced quantity changed since the last row.
    #[inline]
    pub fn record_if_changed(&mut self, now: SimTime, f: FlowId, s: SenderSample) {
        let Some(k) = self.slot(f) else {
            return;
        };
        let changed = match self.last[k] {
            None => true,
            Some(l) => {
                (self.cwnd
                    && (l.cwnd.to_bits() != s.cwnd.to_bits()
                        || l.ssthresh.to_bits() != s.ssthresh.to_bits()))
                    || (self.seq && (l.snd_nxt != s.snd_nxt || l.snd_una != s.snd_una))
            }
        };
        if changed {
            self.record(now, f, s);
        }
    }

    /// The recorded table.
    pub fn finish(self) -> TraceTable {
        self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cwnd: f64) -> SenderSample {
        SenderSample {
            cwnd,
            ssthresh: 64.0,
            snd_nxt: 1,
            snd_una: 0,
        }
    }

    /// Ids beyond the declared flows are generated flows, traced by id,
    /// with their own change detection; other ids are not traced.
    #[test]
    fn generated_ids_are_traced_by_id() {
        let mut r = TraceRecorder::new(2, &[FlowId(1), FlowId(40), FlowId(7)], true, false);
        assert!(!r.traces(FlowId(0)) && r.traces(FlowId(1)));
        assert!(r.traces(FlowId(7)) && r.traces(FlowId(40)));
        assert!(!r.traces(FlowId(8)) && !r.traces(FlowId(2)));
        assert_eq!(r.generated(), &[7, 40]);
        r.record_if_changed(SimTime(1), FlowId(40), at(2.0));
        r.record_if_changed(SimTime(2), FlowId(40), at(2.0));
        r.record_if_changed(SimTime(3), FlowId(7), at(2.0));
        r.record_if_changed(SimTime(4), FlowId(40), at(3.0));
        r.record_if_changed(SimTime(5), FlowId(8), at(3.0));
        let t = r.finish();
        assert_eq!(t.flow, vec![40, 7, 40]);
        assert_eq!(t.cwnd, vec![2.0, 2.0, 3.0]);
        // No list: every declared flow, no generated one.
        let all = TraceRecorder::new(2, &[], true, false);
        assert!(all.traces(FlowId(1)) && !all.traces(FlowId(2)));
    }
}
