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

/// The flow ids `[trace] flows` may name: the declared flows `0..declared`,
/// and, with flow generators, every id from `generated` on (generated flows
/// are numbered after the declared flows and the `[[traffic]]` sources, in
/// arrival order: `engine/sim/flowgen.rs`). Which of those a run creates is
/// known only when it runs; an id it never creates traces nothing.
#[derive(Clone, Copy, Debug)]
pub(super) struct TraceIds {
    /// Declared flows.
    pub(super) declared: usize,
    /// The first generated flow id, if there are flow generators.
    pub(super) generated: Option<usize>,
}

impl TraceIds {
    /// Why `found` (an id outside the allowed ranges) is refused.
    fn reason(self, found: &Val) -> String {
        match self.generated {
            None => flow_id_reason(self.declared, found),
            Some(g) if self.declared == 0 => format!(
                "expected a generated flow id (from {g} on, in arrival order: the `flow` column of flow_records), found {}",
                found.describe()
            ),
            Some(g) => format!(
                "expected a declared flow id in 0..={} or a generated flow id (from {g} on, in arrival order: the `flow` column of flow_records), found {}",
                self.declared - 1,
                found.describe()
            ),
        }
    }

    /// `k` names a flow that is or may be created.
    fn allows(self, k: i128) -> bool {
        k < self.declared as i128 || self.generated.is_some_and(|g| k >= g as i128)
    }
}

/// Builds `[trace]` (absent = nothing traced); `ids` is known when the
/// flows, traffic sources and flow generators parsed, to check the flow ids.
pub(super) fn build_trace(
    errs: &mut Errors,
    top: &Table<'_>,
    ids: Option<TraceIds>,
    empty: &Val,
) -> Option<TraceSpec> {
    let t = Table::open(errs, "trace", top.raw("trace").unwrap_or(empty), TRACE_KEYS)?;
    let k = TraceKeys::read(errs, &t);
    let flows = match t.raw("flows") {
        None => Some(Vec::new()),
        Some(fv) => {
            let path = t.key_path("flows");
            let list = u64_list(errs, &path, fv);
            if let (Some(_), Some(allowed), Val::Array(items)) = (&list, ids, fv) {
                for (i, it) in items.iter().enumerate() {
                    if let Val::Int(k) = it {
                        if !allowed.allows(*k) {
                            errs.push(index(&path, i), allowed.reason(it));
                        }
                    }
                }
            }
            list.map(|v| {
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
