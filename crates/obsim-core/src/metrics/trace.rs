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
    /// Last recorded sample per flow (for change detection).
    last: Vec<Option<SenderSample>>,
    /// Which flows are traced.
    enabled: Vec<bool>,
    /// Whether sequence numbers matter for change detection.
    seq: bool,
    cwnd: bool,
}

impl TraceRecorder {
    /// A recorder for `n_flows` flows; `flows` empty means all of them.
    pub fn new(n_flows: usize, flows: &[FlowId], cwnd: bool, seq: bool) -> Self {
        let mut enabled = vec![flows.is_empty(); n_flows];
        for f in flows {
            if let Some(e) = enabled.get_mut(f.index()) {
                *e = true;
            }
        }
        Self {
            table: TraceTable::default(),
            last: vec![None; n_flows],
            enabled,
            seq,
            cwnd,
        }
    }

    /// True if flow `f` is traced.
    #[inline]
    pub fn traces(&self, f: FlowId) -> bool {
        self.enabled.get(f.index()).copied().unwrap_or(false)
    }

    /// Records `s` for flow `f` at `now` unconditionally.
    pub fn record(&mut self, now: SimTime, f: FlowId, s: SenderSample) {
        let t = &mut self.table;
        t.time_s.push(now.as_secs_f64());
        t.flow.push(f.0);
        t.cwnd.push(s.cwnd);
        t.ssthresh.push(s.ssthresh);
        t.snd_nxt.push(s.snd_nxt);
        t.snd_una.push(s.snd_una);
        self.last[f.index()] = Some(s);
    }

    /// Records `s` only if a traced quantity changed since the last row.
    #[inline]
    pub fn record_if_changed(&mut self, now: SimTime, f: FlowId, s: SenderSample) {
        let changed = match self.last[f.index()] {
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
