//! Schema of `[metrics]`: sampling of the aggregate TCP-over-OBS metrics
//! (gonzalez2009 §3-4, gurel2008 Fig. 11).

use super::fields::positive_duration;
use super::scenario::MetricsSpec;
use super::walk::{count_in, Errors, Table, Val};
use crate::time::SimDuration;

key_table! {
    /// What `[metrics]` sets over [`MetricsSpec::default`].
    struct MetricsKeys for MetricsSpec, keys METRICS_KEYS;
    sample_interval: SimDuration = positive_duration => sample_interval;
    throughput_bin: Option<SimDuration> = throughput_bin => throughput_bin;
    burst_length_bin: u32 = |v| {
        count_in(v, 1, i128::from(u32::MAX), "packets").map(|n| n as u32)
    } => burst_length_bin;
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

/// `[metrics]`: sampling of the aggregate TCP-over-OBS metrics.
pub(super) fn build_metrics(
    errs: &mut Errors,
    top: &Table<'_>,
    empty: &Val,
) -> Option<MetricsSpec> {
    let t = Table::open(
        errs,
        "metrics",
        top.raw("metrics").unwrap_or(empty),
        METRICS_KEYS,
    )?;
    let k = MetricsKeys::read(errs, &t);
    k.valid().then(|| {
        let mut spec = MetricsSpec::default();
        k.set(&mut spec);
        spec
    })
}
