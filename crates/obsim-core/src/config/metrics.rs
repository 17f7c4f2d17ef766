//! Schema of `[metrics]`: sampling of the aggregate TCP-over-OBS metrics
//! (gonzalez2009 §3-4, gurel2008 Fig. 11).

use std::collections::BTreeMap;

use super::fields::positive_duration;
use super::nodes::node_ref;
use super::scenario::MetricsSpec;
use super::walk::{boolean, count_in, index, named, Errors, Table, Val};
use crate::ids::NodeId;
use crate::metrics::aggregate::SyncIndexDef;
use crate::time::SimDuration;

key_table! {
    /// What `[metrics]` sets over [`MetricsSpec::default`].
    struct MetricsKeys for MetricsSpec, keys METRICS_KEYS;
    sample_interval: SimDuration = positive_duration => sample_interval;
    throughput_bin: Option<SimDuration> = throughput_bin => throughput_bin;
    burst_length_bin: u32 = |v| {
        count_in(v, 1, i128::from(u32::MAX), "packets").map(|n| n as u32)
    } => burst_length_bin;
    sync_index: SyncIndexDef = |v| named(v, &SyncIndexDef::ALL) => sync_index;
    pair_bins: bool = boolean => pair_bins;
    pair_series: bool = boolean => pair_series;
    (pair);
}

/// `throughput_bin`: a bin width, or `"none"` for no profile.
fn throughput_bin(v: &Val) -> Result<Option<SimDuration>, String> {
    match v {
        Val::Str(s) if s.trim() == "none" => Ok(None),
        _ => positive_duration(v)
            .map(Some)
            .map_err(|e| format!("{e}, or \"none\"")),
    }
}

/// `pair`: two different node names, the flows' source and destination.
/// `Err(())` once every problem is pushed to `errs`.
fn pair(
    errs: &mut Errors,
    path: &str,
    v: &Val,
    names: &BTreeMap<String, NodeId>,
) -> Result<(NodeId, NodeId), ()> {
    let Val::Array(items) = v else {
        errs.push(
            path,
            format!(
                "expected a list of two node names [source, destination], found {}",
                v.describe()
            ),
        );
        return Err(());
    };
    if items.len() != 2 {
        errs.push(
            path,
            format!(
                "expected a list of two node names [source, destination], found a list of {}",
                items.len()
            ),
        );
        return Err(());
    }
    let mut ids = [NodeId(0); 2];
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        match node_ref(it, names) {
            Ok(n) => ids[i] = n,
            Err(e) => {
                errs.push(index(path, i), e);
                ok = false;
            }
        }
    }
    if ok && ids[0] == ids[1] {
        errs.push(
            index(path, 1),
            "expected a destination different from the source",
        );
        ok = false;
    }
    if ok {
        Ok((ids[0], ids[1]))
    } else {
        Err(())
    }
}

/// `[metrics]`: sampling of the aggregate TCP-over-OBS metrics; `names`
/// (the nodes that parsed) resolves `pair`.
pub(super) fn build_metrics(
    errs: &mut Errors,
    top: &Table<'_>,
    names: &BTreeMap<String, NodeId>,
    empty: &Val,
) -> Option<MetricsSpec> {
    let t = Table::open(
        errs,
        "metrics",
        top.raw("metrics").unwrap_or(empty),
        METRICS_KEYS,
    )?;
    let k = MetricsKeys::read(errs, &t);
    let pair = match t.raw("pair") {
        None => None,
        Some(v) => Some(pair(errs, &t.key_path("pair"), v, names).ok()?),
    };
    if !k.valid() {
        return None;
    }
    let mut spec = MetricsSpec::default();
    k.set(&mut spec);
    spec.pair = pair;
    if spec.pair_bins && spec.throughput_bin.is_none() {
        errs.push(
            t.key_path("pair_bins"),
            "pair_bins = true needs bins: set throughput_bin to a duration (it is \"none\")",
        );
        return None;
    }
    if spec.pair_series && !(spec.pair_bins && spec.pair.is_some()) {
        let missing = match (spec.pair_bins, spec.pair.is_some()) {
            (false, false) => "set pair_bins = true and pair = [source, destination]",
            (false, true) => "set pair_bins = true (it is false)",
            _ => "set pair = [source, destination] (it is unset)",
        };
        errs.push(
            t.key_path("pair_series"),
            format!("pair_series = true needs the pair's bins: {missing}"),
        );
        return None;
    }
    Some(spec)
}
