//! Schema of `[trace]`: which per-flow time series to record.

use super::fields::{flow_id_reason, positive_duration, u64_list};
use super::scenario::TraceSpec;
use super::walk::{boolean, index, Errors, Table, Val};
use crate::ids::FlowId;
use crate::time::SimDuration;

key_table! {
    /// What `[trace]` sets over [`TraceSpec::default`] (nothing traced);
    /// `flows` is read by [`build_trace`], which knows the flows.
    struct TraceKeys for TraceSpec, keys TRACE_KEYS;
    cwnd: bool = boolean => cwnd;
    seq: bool = boolean => seq;
    interval: Option<SimDuration> = |v| positive_duration(v).map(Some) => interval;
    per_ack: bool = boolean => per_ack;
    packets: bool = boolean => packets;
    (flows);
}

/// Builds `[trace]` (absent = nothing traced); `n_flows` is known when the
/// flows parsed, to check the flow ids.
pub(super) fn build_trace(
    errs: &mut Errors,
    top: &Table<'_>,
    n_flows: Option<usize>,
    empty: &Val,
) -> Option<TraceSpec> {
    let t = Table::open(errs, "trace", top.raw("trace").unwrap_or(empty), TRACE_KEYS)?;
    let k = TraceKeys::read(errs, &t);
    let flows = match t.raw("flows") {
        None => Some(Vec::new()),
        Some(fv) => {
            let path = t.key_path("flows");
            let ids = u64_list(errs, &path, fv);
            if let (Some(_), Some(n), Val::Array(items)) = (&ids, n_flows, fv) {
                {
                    for (i, it) in items.iter().enumerate() {
                        if let Val::Int(k) = it {
                            if *k >= n as i128 {
                                errs.push(index(&path, i), flow_id_reason(n, it));
                            }
                        }
                    }
                }
            }
            ids.map(|v| {
                v.into_iter()
                    .map(|k| FlowId(k.min(u64::from(u32::MAX)) as u32))
                    .collect()
            })
        }
    };
    let flows = flows?;
    let mut spec = TraceSpec::default();
    if !k.valid() {
        return None;
    }
    k.set(&mut spec);
    if spec.per_ack && spec.interval.is_some() {
        errs.push(
            t.key_path("interval"),
            "per_ack = true records a row at every ACK and timeout; remove interval (or set per_ack = false to sample at an interval)",
        );
        return None;
    }
    Some(TraceSpec { flows, ..spec })
}
