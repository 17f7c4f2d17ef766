//! Schema of the TCP parameters: profile defaults <- `[tcp]` <- `[flows.tcp]`.
//! Documented key by key in docs/SCENARIOS.md; the profiles are in
//! `tcp/profile.rs`.

use super::fields::{bytes_in, duration, positive_duration, Quantity};
use super::units::SIZE_UNITS;
use super::walk::{boolean, choice, count_in, join, u32_in, Errors, Table, Val};
use crate::tcp::config::{
    BackSource, FtoDetection, RtoEstimator, SsthreshBasis, TcpConfig, Variant,
};
use crate::tcp::profile::{profile, PROFILES};
use crate::time::SimDuration;

/// TCP profile when neither `[tcp]` nor `[flows.tcp]` names one.
pub const DEFAULT_PROFILE: &str = "rfc";

pub(crate) const TCP_KEYS: &[&str] = &[
    "profile",
    "variant",
    "mss",
    "header",
    "max_window",
    "rwnd",
    "initial_cwnd",
    "initial_ssthresh",
    "dupack_threshold",
    "ssthresh_basis",
    "delayed_ack",
    "delack_timeout",
    "sack_blocks",
    "abc",
    "limited_transmit",
    "reno_recover_check",
    "newreno_timer",
    "partial_window_deflation",
    "fto_detection",
    "back_source",
    "max_consecutive_fto",
    "rto",
];
pub(crate) const RTO_KEYS: &[&str] = &[
    "estimator",
    "initial",
    "min",
    "max",
    "granularity",
    "max_backoff",
    "ns2_rfc2988",
];

const SEG_SIZE: Quantity = Quantity {
    expected: "a segment size from 1 B to 65535 B like \"1040 B\"",
    units: SIZE_UNITS,
    unit: "B",
};
const HDR_SIZE: Quantity = Quantity {
    expected: "a header size from 0 B to 65535 B like \"40 B\"",
    units: SIZE_UNITS,
    unit: "B",
};

// ---------------------------------------------------------------------------
// TCP parameters: profile defaults <- [tcp] <- [flows.tcp]
// ---------------------------------------------------------------------------

/// The TCP keys one table sets (absent or invalid keys are `None`).
#[derive(Clone, Debug, Default)]
pub(super) struct TcpOverrides {
    path: String,
    profile: Option<String>,
    variant: Option<Variant>,
    mss: Option<u32>,
    header: Option<u32>,
    max_window: Option<u32>,
    rwnd: Option<u32>,
    initial_cwnd: Option<u32>,
    initial_ssthresh: Option<u32>,
    dupack_threshold: Option<u32>,
    ssthresh_basis: Option<SsthreshBasis>,
    delayed_ack: Option<bool>,
    delack_timeout: Option<SimDuration>,
    sack_blocks: Option<u8>,
    abc: Option<bool>,
    limited_transmit: Option<bool>,
    reno_recover_check: Option<bool>,
    newreno_slow_but_steady: Option<bool>,
    partial_window_deflation: Option<bool>,
    fto_detection: Option<&'static str>,
    back_source: Option<BackSource>,
    max_consecutive_fto: Option<u32>,
    rto_ns2_rfc2988: Option<bool>,
    rto_estimator: Option<RtoEstimator>,
    rto_initial: Option<SimDuration>,
    rto_min: Option<SimDuration>,
    rto_max: Option<SimDuration>,
    rto_granularity: Option<SimDuration>,
    rto_max_backoff: Option<u32>,
}

/// `initial_ssthresh`: segments, or `"infinite"`.
fn ssthresh(v: &Val) -> Result<u32, String> {
    match v {
        Val::Str(s) if s == "infinite" => Ok(u32::MAX),
        _ => count_in(v, 1, i128::from(u32::MAX), "segments")
            .map(|n| n as u32)
            .map_err(|e| e.replacen(" >= 1", " >= 1, or \"infinite\"", 1)),
    }
}

/// A positive number of segments.
fn segments(v: &Val) -> Result<u32, String> {
    count_in(v, 1, i128::from(u32::MAX), "segments").map(|n| n as u32)
}

/// Reads one `[tcp]` or `[flows.tcp]` table at `path`.
pub(super) fn parse_tcp(errs: &mut Errors, path: &str, val: &Val) -> TcpOverrides {
    let mut o = TcpOverrides {
        path: path.to_string(),
        ..TcpOverrides::default()
    };
    let Some(t) = Table::open(errs, path, val, TCP_KEYS) else {
        return o;
    };
    o.profile = t
        .get(errs, "profile", |v| choice(v, PROFILES).map(str::to_string))
        .value();
    o.variant = t
        .get(errs, "variant", |v| {
            choice(v, &["tahoe", "reno", "newreno", "sack"]).map(|c| match c {
                "tahoe" => Variant::Tahoe,
                "reno" => Variant::Reno,
                "newreno" => Variant::NewReno,
                _ => Variant::Sack,
            })
        })
        .value();
    o.mss = t
        .get(errs, "mss", |v| bytes_in(v, &SEG_SIZE, 1, 65535))
        .value();
    o.header = t
        .get(errs, "header", |v| bytes_in(v, &HDR_SIZE, 0, 65535))
        .value();
    o.max_window = t.get(errs, "max_window", segments).value();
    o.rwnd = t.get(errs, "rwnd", segments).value();
    o.initial_cwnd = t.get(errs, "initial_cwnd", segments).value();
    o.initial_ssthresh = t.get(errs, "initial_ssthresh", ssthresh).value();
    o.dupack_threshold = t.get(errs, "dupack_threshold", segments).value();
    o.ssthresh_basis = t
        .get(errs, "ssthresh_basis", |v| {
            choice(v, &["flight_size", "cwnd"]).map(|c| {
                if c == "cwnd" {
                    SsthreshBasis::Cwnd
                } else {
                    SsthreshBasis::FlightSize
                }
            })
        })
        .value();
    o.delayed_ack = t.get(errs, "delayed_ack", boolean).value();
    o.delack_timeout = t.get(errs, "delack_timeout", positive_duration).value();
    o.sack_blocks = t
        .get(errs, "sack_blocks", |v| u32_in(v, 1, 4).map(|n| n as u8))
        .value();
    o.abc = t.get(errs, "abc", boolean).value();
    o.limited_transmit = t.get(errs, "limited_transmit", boolean).value();
    o.reno_recover_check = t.get(errs, "reno_recover_check", boolean).value();
    o.fto_detection = t
        .get(errs, "fto_detection", |v| {
            choice(v, &["none", "ble", "back", "bnak"])
        })
        .value();
    o.back_source = t
        .get(errs, "back_source", |v| {
            choice(v, &["ingress", "egress", "both"]).map(|c| match c {
                "ingress" => BackSource::Ingress,
                "egress" => BackSource::Egress,
                _ => BackSource::Both,
            })
        })
        .value();
    o.max_consecutive_fto = t
        .get(errs, "max_consecutive_fto", |v| u32_in(v, 0, u32::MAX))
        .value();
    o.newreno_slow_but_steady = t
        .get(errs, "newreno_timer", |v| {
            choice(v, &["impatient", "slow_but_steady"]).map(|c| c == "slow_but_steady")
        })
        .value();
    o.partial_window_deflation = t.get(errs, "partial_window_deflation", boolean).value();
    if let Some(rv) = t.raw("rto") {
        let rpath = t.key_path("rto");
        if let Some(r) = Table::open(errs, &rpath, rv, RTO_KEYS) {
            o.rto_estimator = r
                .get(errs, "estimator", |v| {
                    choice(v, &["rfc6298", "ns2"]).map(|c| {
                        if c == "ns2" {
                            RtoEstimator::Ns2
                        } else {
                            RtoEstimator::Rfc6298
                        }
                    })
                })
                .value();
            o.rto_initial = r.get(errs, "initial", positive_duration).value();
            o.rto_min = r.get(errs, "min", duration).value();
            o.rto_max = r.get(errs, "max", positive_duration).value();
            o.rto_granularity = r.get(errs, "granularity", positive_duration).value();
            o.rto_max_backoff = r
                .get(errs, "max_backoff", |v| u32_in(v, 1, u32::MAX))
                .value();
            o.rto_ns2_rfc2988 = r.get(errs, "ns2_rfc2988", boolean).value();
        }
    }
    o
}

impl TcpOverrides {
    fn apply(&self, c: &mut TcpConfig) {
        fn set<T: Copy>(dst: &mut T, src: Option<T>) {
            if let Some(v) = src {
                *dst = v;
            }
        }
        set(&mut c.variant, self.variant);
        set(&mut c.mss, self.mss);
        set(&mut c.header, self.header);
        set(&mut c.max_window, self.max_window);
        set(&mut c.rwnd, self.rwnd);
        set(&mut c.initial_cwnd, self.initial_cwnd);
        set(&mut c.initial_ssthresh, self.initial_ssthresh);
        set(&mut c.dupack_threshold, self.dupack_threshold);
        set(&mut c.ssthresh_basis, self.ssthresh_basis);
        set(&mut c.delayed_ack, self.delayed_ack);
        set(&mut c.delack_timeout, self.delack_timeout);
        set(&mut c.sack_blocks, self.sack_blocks);
        set(&mut c.abc, self.abc);
        set(&mut c.limited_transmit, self.limited_transmit);
        set(&mut c.reno_recover_check, self.reno_recover_check);
        set(&mut c.newreno_slow_but_steady, self.newreno_slow_but_steady);
        set(
            &mut c.partial_window_deflation,
            self.partial_window_deflation,
        );
        // Burst TCP (yu2004 §IV): the detection method, then its parameters
        // (a later table keeps what an earlier one set unless it changes it).
        let limit = self
            .max_consecutive_fto
            .or(c.fto.max_consecutive_fto())
            .unwrap_or(crate::tcp::timeout::DEFAULT_MAX_CONSECUTIVE_FTO);
        let source = self.back_source.unwrap_or(match c.fto {
            FtoDetection::Back { source, .. } => source,
            _ => BackSource::Both,
        });
        let method = self.fto_detection.or(match c.fto {
            FtoDetection::None => None,
            FtoDetection::Ble { .. } => Some("ble"),
            FtoDetection::Back { .. } => Some("back"),
            FtoDetection::Bnak { .. } => Some("bnak"),
        });
        c.fto = match method {
            Some("ble") => FtoDetection::Ble {
                max_consecutive_fto: limit,
            },
            Some("back") => FtoDetection::Back {
                source,
                max_consecutive_fto: limit,
            },
            Some("bnak") => FtoDetection::Bnak {
                max_consecutive_fto: limit,
            },
            _ => FtoDetection::None,
        };
        set(&mut c.rto.ns2_rfc2988, self.rto_ns2_rfc2988);
        set(&mut c.rto.estimator, self.rto_estimator);
        set(&mut c.rto.initial, self.rto_initial);
        set(&mut c.rto.min, self.rto_min);
        set(&mut c.rto.max, self.rto_max);
        set(&mut c.rto.granularity, self.rto_granularity);
        set(&mut c.rto.max_backoff, self.rto_max_backoff);
    }
}

/// Profile defaults, then `top`, then `group`; `None` if a profile is
/// unknown (already reported). Checks rules that span several keys and
/// reports them at the most specific key that was written.
pub(super) fn resolve_tcp(
    errs: &mut Errors,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<TcpConfig> {
    let name = group
        .and_then(|g| g.profile.as_deref())
        .or(top.profile.as_deref())
        .unwrap_or(DEFAULT_PROFILE);
    let mut c = profile(name)?;
    top.apply(&mut c);
    if let Some(g) = group {
        g.apply(&mut c);
    }
    if c.rto.min > c.rto.max {
        let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
        let path = layers
            .iter()
            .find_map(|o| {
                if o.rto_min.is_some() {
                    Some(join(&o.path, "rto.min"))
                } else if o.rto_max.is_some() {
                    Some(join(&o.path, "rto.max"))
                } else {
                    None
                }
            })
            .unwrap_or_else(|| join(&layers[0].path, "profile"));
        errs.push(
            path,
            format!(
                "expected rto.min <= rto.max, found rto.min = {} and rto.max = {}",
                c.rto.min, c.rto.max
            ),
        );
        return None;
    }
    Some(c)
}
