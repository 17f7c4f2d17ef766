//! Schema of `[metrics]`: sampling of the aggregate TCP-over-OBS metrics
//! (gonzalez2009 §3-4, gurel2008 Fig. 11).

use super::fields::positive_duration;
use super::scenario::MetricsSpec;
use super::walk::{count_in, Errors, Table, Val};
use crate::time::SimDuration;

pub(crate) const METRICS_KEYS: &[&str] = &["sample_interval", "throughput_bin", "burst_length_bin"];

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
    let d = MetricsSpec::default();
    let sample_interval = t
        .get(errs, "sample_interval", positive_duration)
        .or(d.sample_interval);
    let throughput_bin = match t.raw("throughput_bin") {
        Some(Val::Str(s)) if s.trim() == "none" => Some(None),
        _ => t
            .get(errs, "throughput_bin", |v| {
                positive_duration(v).map_err(|e| format!("{e}, or \"none\""))
            })
            .or(d.throughput_bin.unwrap_or(SimDuration::from_millis(3)))
            .map(Some),
    };
    let burst_length_bin = t
        .get(errs, "burst_length_bin", |v| {
            count_in(v, 1, i128::from(u32::MAX), "packets").map(|n| n as u32)
        })
        .or(d.burst_length_bin);
    Some(MetricsSpec {
        sample_interval: sample_interval?,
        throughput_bin: throughput_bin?,
        burst_length_bin: burst_length_bin?,
    })
}
