//! The scenario schema: walks a [`Val`] tree (from TOML or JSON), applies
//! defaults, checks every key and every cross-reference, and builds the
//! resolved [`Scenario`]. `docs/SCENARIOS.md` documents every key; keep the
//! two in step.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;

use super::error::ConfigErrors;
use super::scenario::{
    AppSpec, Buffer, FlowSpec, LinkSpec, LossSpec, MetricsSpec, NodeKind, NodeSpec, OpticalSpec,
    Routing, Scenario, StartSpec, SwitchSpec, TraceSpec,
};
use super::units::{self, quote, Amount, UnitError, DURATION_UNITS, RATE_UNITS, SIZE_UNITS};
use super::walk::{
    boolean, choice, count_in, edit_distance, index, int_in, join, name, probability, u32_in,
    Errors, Table, Val,
};
use crate::ids::{FlowId, NodeId};
use crate::tcp::config::{
    BackSource, FtoDetection, RtoEstimator, SsthreshBasis, TcpConfig, Variant,
};
use crate::tcp::profile::{profile, PROFILES};
use crate::time::{SimDuration, SimTime};

/// Scenario name when `name` is absent.
pub const DEFAULT_NAME: &str = "scenario";
/// Output buffer when a link gives no `buffer`: ns-2's `Queue set limit_ 50`.
pub const DEFAULT_BUFFER: Buffer = Buffer::Packets(50);
/// TCP profile when neither `[tcp]` nor `[flows.tcp]` names one.
pub const DEFAULT_PROFILE: &str = "rfc";
/// Most flows a scenario may expand to (guards against `count = 1e18`); also
/// the most traffic sources.
pub const MAX_FLOWS: usize = 1_000_000;

pub(crate) const TOP_KEYS: &[&str] = &[
    "name",
    "simulation",
    "tcp",
    "nodes",
    "links",
    "flows",
    "trace",
    "metrics",
    "optical",
    "generators",
    "traffic",
];
pub(crate) const METRICS_KEYS: &[&str] = &["sample_interval", "throughput_bin", "burst_length_bin"];
pub(crate) const SIM_KEYS: &[&str] = &["duration", "warmup", "seed", "stop", "routing"];
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
pub(crate) const NODE_KEYS: &[&str] = &["name", "kind", "assembly", "switch"];
pub(crate) const LINK_KEYS: &[&str] = &[
    "from",
    "to",
    "rate",
    "delay",
    "buffer",
    "duplex",
    "loss",
    "reverse_loss",
    "kind",
    "burst_loss",
    "reverse_burst_loss",
    "wavelengths",
];
pub(crate) const FLOW_KEYS: &[&str] = &["name", "from", "to", "count", "start", "size", "tcp"];
pub(crate) const TRACE_KEYS: &[&str] = &["cwnd", "seq", "interval", "flows"];
const LOSS_MODELS: &[&str] = &["none", "bernoulli", "packets", "segments"];

// ---------------------------------------------------------------------------
// Quantities with units
// ---------------------------------------------------------------------------

/// What a quantity should look like, for error messages.
pub(super) struct Quantity {
    /// `a duration like "10 ms"`.
    pub(super) expected: &'static str,
    /// The accepted units.
    pub(super) units: &'static str,
    /// Unit suggested for a bare number.
    pub(super) unit: &'static str,
}

const DURATION: Quantity = Quantity {
    expected: "a duration like \"10 ms\"",
    units: DURATION_UNITS,
    unit: "ms",
};
const POS_DURATION: Quantity = Quantity {
    expected: "a positive duration like \"10 ms\"",
    units: DURATION_UNITS,
    unit: "ms",
};
const RATE: Quantity = Quantity {
    expected: "a positive bit rate like \"1 Gbit/s\"",
    units: RATE_UNITS,
    unit: "Mbit/s",
};
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
const FLOW_SIZE: Quantity = Quantity {
    expected: "a positive size like \"10 MB\", or \"infinite\"",
    units: SIZE_UNITS,
    unit: "B",
};
const BUFFER: Quantity = Quantity {
    expected: "a buffer size like \"100 packets\" or \"64 KB\", or \"unlimited\"",
    units: "packets, B, KB, MB, GB, KiB, MiB, GiB",
    unit: "packets",
};

/// Parses a quantity string with `f`, then checks it with `check` (which
/// returns a hint when the value is out of range).
#[allow(clippy::many_single_char_names)]
pub(super) fn quantity<T: Copy>(
    v: &Val,
    q: &Quantity,
    f: impl Fn(&str) -> Result<T, UnitError>,
    check: impl Fn(T) -> Option<String>,
) -> Result<T, String> {
    let expected = format!("expected {} (units {})", q.expected, q.units);
    match v {
        Val::Str(s) => match f(s) {
            Ok(t) => match check(t) {
                None => Ok(t),
                Some(hint) => Err(format!("{expected}, found {}; {hint}", quote(s))),
            },
            Err(UnitError::BareNumber) => Err(format!(
                "{expected}, found {}; a unit is required, e.g. {}",
                quote(s),
                quote(&format!("{} {}", s.trim(), q.unit))
            )),
            Err(e) => Err(format!("{expected}, found {}; {}", quote(s), e.hint())),
        },
        Val::Int(_) | Val::Float(_) => {
            let n = match v {
                Val::Int(i) => i.to_string(),
                Val::Float(x) => x.to_string(),
                _ => String::new(),
            };
            Err(format!(
                "{expected}, found {}; a bare number has no unit: write a string such as {}",
                v.describe(),
                quote(&format!("{n} {}", q.unit))
            ))
        }
        _ => Err(format!("{expected}, found {}", v.describe())),
    }
}

pub(super) fn duration(v: &Val) -> Result<SimDuration, String> {
    quantity(v, &DURATION, units::parse_duration_ns, |_| None).map(SimDuration)
}

pub(super) fn positive_duration(v: &Val) -> Result<SimDuration, String> {
    quantity(v, &POS_DURATION, units::parse_duration_ns, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
    .map(SimDuration)
}

pub(super) fn rate(v: &Val) -> Result<u64, String> {
    quantity(v, &RATE, units::parse_rate_bps, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
}

fn bytes_in(v: &Val, q: &Quantity, lo: u64, hi: u64) -> Result<u32, String> {
    quantity(v, q, units::parse_bytes, |n| {
        (!(lo..=hi).contains(&n)).then(|| format!("it must be from {lo} B to {hi} B"))
    })
    .map(|n| n as u32)
}

fn buffer(v: &Val) -> Result<Buffer, String> {
    if let Val::Str(s) = v {
        if s.trim() == "unlimited" {
            return Ok(Buffer::Unlimited);
        }
    }
    let a = quantity(
        v,
        &BUFFER,
        |s| units::parse_amount(s, true),
        |a| match a {
            Amount::Packets(p) if p > u64::from(u32::MAX) => {
                Some(format!("at most {} packets", u32::MAX))
            }
            _ => None,
        },
    )?;
    Ok(match a {
        Amount::Packets(p) => Buffer::Packets(p as u32),
        Amount::Bytes(b) => Buffer::Bytes(b),
    })
}

fn flow_size(v: &Val) -> Result<Option<u64>, String> {
    if let Val::Str(s) = v {
        if s.trim() == "infinite" {
            return Ok(None);
        }
    }
    quantity(v, &FLOW_SIZE, units::parse_bytes, |n| {
        (n == 0).then(|| "it must be greater than zero".into())
    })
    .map(Some)
}

// ---------------------------------------------------------------------------
// TCP parameters: profile defaults <- [tcp] <- [flows.tcp]
// ---------------------------------------------------------------------------

/// The TCP keys one table sets (absent or invalid keys are `None`).
#[derive(Clone, Debug, Default)]
struct TcpOverrides {
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

fn ssthresh(v: &Val) -> Result<u32, String> {
    match v {
        Val::Str(s) if s == "infinite" => Ok(u32::MAX),
        _ => count_in(v, 1, i128::from(u32::MAX), "segments")
            .map(|n| n as u32)
            .map_err(|e| e.replacen(" >= 1", " >= 1, or \"infinite\"", 1)),
    }
}

fn segments(v: &Val) -> Result<u32, String> {
    count_in(v, 1, i128::from(u32::MAX), "segments").map(|n| n as u32)
}

fn parse_tcp(errs: &mut Errors, path: &str, val: &Val) -> TcpOverrides {
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
fn resolve_tcp(
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

// ---------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------

/// Builds and validates a scenario from a parsed document.
pub fn build(root: &Val) -> Result<Scenario, ConfigErrors> {
    let mut errs = Errors::default();
    let s = build_inner(&mut errs, root);
    errs.finish(s)
}

#[allow(clippy::too_many_lines)]
fn build_inner(errs: &mut Errors, root: &Val) -> Option<Scenario> {
    let empty = Val::Table(Vec::new());
    let top = Table::open(errs, "", root, TOP_KEYS)?;
    let name = top.get(errs, "name", name).or(DEFAULT_NAME.to_string());

    // [simulation]
    let sim = Table::open(
        errs,
        "simulation",
        top.raw("simulation").unwrap_or(&empty),
        SIM_KEYS,
    );
    let (mut duration_v, mut warmup, mut seed, mut stop, mut routing) =
        (None, None, None, None, None);
    if let Some(t) = &sim {
        duration_v = t.req(
            errs,
            "duration",
            "a positive duration like \"100 s\"",
            positive_duration,
        );
        warmup = t.get(errs, "warmup", duration).or(SimDuration::ZERO);
        seed = t
            .get(errs, "seed", |v| {
                int_in(v, 0, i128::from(u64::MAX)).map(|i| i as u64)
            })
            .or(1);
        stop = t
            .get(errs, "stop", |v| {
                choice(v, &["time", "flows_done"]).map(|c| c == "flows_done")
            })
            .or(false);
        routing = t
            .get(errs, "routing", |v| {
                choice(v, &["hops", "delay"]).map(|c| {
                    if c == "delay" {
                        Routing::Delay
                    } else {
                        Routing::Hops
                    }
                })
            })
            .or(Routing::Hops);
        if let (Some(d), Some(w)) = (duration_v, warmup) {
            if w >= d {
                errs.push(
                    t.key_path("warmup"),
                    format!("expected a warm-up shorter than simulation.duration ({d}), found {w}"),
                );
            }
        }
    }

    // [tcp]
    let tcp_top = parse_tcp(errs, "tcp", top.raw("tcp").unwrap_or(&empty));
    // The [tcp] table alone must resolve (reports rto.min > rto.max there).
    let tcp_top_ok = resolve_tcp(errs, &tcp_top, None).is_some();

    // [optical]: switching defaults every edge and core node starts from.
    let optical = super::optical::switch(
        errs,
        "optical",
        top.raw("optical").unwrap_or(&empty),
        &SwitchSpec::default(),
    );
    // [[nodes]]
    let (nodes, names) = build_nodes(errs, &top, optical.as_ref());
    // [[links]]
    let (links, seg_refs) = build_links(errs, &top, &names);
    let topology_ok = nodes.iter().all(Option::is_some) && links.iter().all(Option::is_some);
    let mut generators = None;
    if topology_ok {
        let nd: Vec<NodeSpec> = nodes.iter().flatten().cloned().collect();
        let lk: Vec<LinkSpec> = links.iter().flatten().cloned().collect();
        super::optical::check_topology(errs, &nd, &lk);
        let items = table_array(errs, &top, "generators");
        generators = super::optical::generators(errs, items, &names, &nd);
    }
    // [[flows]]
    let flows = build_flows(
        errs,
        &top,
        &names,
        &tcp_top,
        tcp_top_ok,
        duration_v,
        &nodes,
        &links,
        topology_ok,
    );

    if let Some(flows) = &flows {
        for (path, id) in seg_refs {
            if id >= flows.len() as u64 {
                errs.push(path, flow_id_reason(flows.len(), &Val::Int(i128::from(id))));
            }
        }
        if stop == Some(true)
            && !flows
                .iter()
                .any(|f| matches!(f.app, AppSpec::Bulk(Some(_))))
        {
            errs.push(
                "simulation.stop",
                "\"flows_done\" needs at least one flow with a finite size; found none (use \"time\")",
            );
        }
    }

    // [[traffic]]
    let traffic =
        super::traffic::build(errs, &top, &names, duration_v, &nodes, &links, topology_ok);

    // [trace]
    let trace = build_trace(errs, &top, flows.as_ref().map(Vec::len), &empty);
    // [metrics]
    let metrics = build_metrics(errs, &top, &empty);

    Some(Scenario {
        name: name?,
        seed: seed?,
        duration: duration_v?,
        warmup: warmup?,
        stop_when_flows_done: stop?,
        routing: routing?,
        nodes: nodes.into_iter().collect::<Option<Vec<_>>>()?,
        links: links.into_iter().collect::<Option<Vec<_>>>()?,
        flows: flows?,
        trace: trace?,
        metrics: metrics?,
        optical: optical?,
        generators: generators?,
        traffic: traffic?,
    })
}

/// `[metrics]`: sampling of the aggregate TCP-over-OBS metrics.
fn build_metrics(errs: &mut Errors, top: &Table<'_>, empty: &Val) -> Option<MetricsSpec> {
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

fn flow_id_reason(n: usize, found: &Val) -> String {
    if n == 0 {
        format!(
            "expected a flow id, but the scenario has no flows; found {}",
            found.describe()
        )
    } else {
        format!(
            "expected a flow id in 0..={} (flows numbered after expansion), found {}",
            n - 1,
            found.describe()
        )
    }
}

/// The elements of the array-of-tables `key` (absent = empty).
pub(super) fn table_array<'a>(errs: &mut Errors, top: &Table<'a>, key: &str) -> &'a [Val] {
    match top.raw(key) {
        None => &[],
        Some(Val::Array(a)) => a,
        Some(v) => {
            errs.push(
                key,
                format!(
                    "expected an array of tables ([[{key}]]), found {}",
                    v.describe()
                ),
            );
            &[]
        }
    }
}

fn build_nodes(
    errs: &mut Errors,
    top: &Table<'_>,
    optical: Option<&SwitchSpec>,
) -> (Vec<Option<NodeSpec>>, BTreeMap<String, NodeId>) {
    let mut nodes = Vec::new();
    let mut names: BTreeMap<String, NodeId> = BTreeMap::new();
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    for (i, v) in table_array(errs, top, "nodes").iter().enumerate() {
        let path = index("nodes", i);
        let Some(t) = Table::open(errs, &path, v, NODE_KEYS) else {
            nodes.push(None);
            continue;
        };
        let n = t.req(errs, "name", "a node name like \"r0\"", name);
        let kind = t
            .get(errs, "kind", |v| {
                choice(v, &["host", "router", "edge", "core"]).map(|c| match c {
                    "host" => NodeKind::Host,
                    "edge" => NodeKind::Edge,
                    "core" => NodeKind::Core,
                    _ => NodeKind::Router,
                })
            })
            .or(NodeKind::Router);
        let switch = match (kind, t.raw("switch"), optical) {
            (_, _, None) => None,
            (Some(NodeKind::Edge | NodeKind::Core), Some(sv), Some(base)) => {
                super::optical::switch(errs, &t.key_path("switch"), sv, base)
            }
            (Some(_), Some(_), Some(_)) => {
                errs.push(
                    t.key_path("switch"),
                    "only edge and core nodes switch bursts: set kind = \"edge\" or \"core\", or remove it",
                );
                None
            }
            (_, _, Some(base)) => Some(*base),
        };
        // An edge without [nodes.assembly] only sources generated bursts or
        // forwards; the engine rejects TCP data that would need assembling
        // there.
        let edge = match (kind, t.raw("assembly")) {
            (Some(NodeKind::Edge), Some(av)) => {
                super::obs::assembly(errs, &t.key_path("assembly"), av).map(Some)
            }
            (_, Some(_)) => {
                errs.push(
                    t.key_path("assembly"),
                    "only edge nodes assemble bursts: set kind = \"edge\" or remove it",
                );
                None
            }
            (_, None) => Some(None),
        };
        if let Some(n) = &n {
            if let Some(j) = first.get(n) {
                errs.push(
                    t.key_path("name"),
                    format!("duplicate node name {} (also nodes[{j}].name)", quote(n)),
                );
            } else {
                first.insert(n.clone(), i);
                names.insert(n.clone(), NodeId(i as u32));
            }
        }
        nodes.push(match (n, kind, edge, switch) {
            (Some(name), Some(kind), Some(edge), Some(switch)) => Some(NodeSpec {
                name,
                kind,
                edge,
                switch,
            }),
            _ => None,
        });
    }
    (nodes, names)
}

fn node_ref(v: &Val, names: &BTreeMap<String, NodeId>) -> Result<NodeId, String> {
    let Val::Str(s) = v else {
        return Err(format!(
            "expected the name of a node declared in [[nodes]], found {}",
            v.describe()
        ));
    };
    if let Some(id) = names.get(s) {
        return Ok(*id);
    }
    let mut r = format!(
        "expected the name of a node declared in [[nodes]], found {}; no such node",
        quote(s)
    );
    // Suggestions cost an edit distance per node: only for small topologies.
    if let Some((_, best)) = names
        .keys()
        .take(if names.len() <= 1000 { 1000 } else { 0 })
        .map(|k| (edit_distance(s, k), k))
        .filter(|(d, _)| *d <= 2 && *d < s.chars().count())
        .min_by_key(|(d, _)| *d)
    {
        let _ = write!(r, " (did you mean {}?)", quote(best));
    }
    Err(r)
}

fn u64_list(errs: &mut Errors, path: &str, v: &Val) -> Option<Vec<u64>> {
    let Val::Array(items) = v else {
        errs.push(
            path,
            format!(
                "expected an array of non-negative integers, found {}",
                v.describe()
            ),
        );
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        match int_in(it, 0, i128::from(u64::MAX)) {
            Ok(n) => out.push(n as u64),
            Err(e) => {
                errs.push(index(path, i), e);
                ok = false;
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    ok.then_some(out)
}

/// Parses a loss model; `seg_refs` collects the flow ids `segments` names,
/// checked once flows are expanded.
fn loss(
    errs: &mut Errors,
    path: &str,
    v: &Val,
    seg_refs: &mut Vec<(String, u64)>,
) -> Option<LossSpec> {
    let Val::Table(_) = v else {
        errs.push(
            path,
            format!(
                "expected a loss table like {{ model = \"bernoulli\", p = 0.001 }}, found {}",
                v.describe()
            ),
        );
        return None;
    };
    let probe = Table::open(&mut Errors::default(), path, v, &[])?;
    let model_v = probe.raw("model");
    let model = match model_v.map(|m| choice(m, LOSS_MODELS)) {
        None => {
            errs.push(
                join(path, "model"),
                format!(
                    "required key is missing: expected one of {}",
                    quoted_list(LOSS_MODELS)
                ),
            );
            return None;
        }
        Some(Err(e)) => {
            errs.push(join(path, "model"), e);
            return None;
        }
        Some(Ok(m)) => m,
    };
    let keys: &[&str] = match model {
        "none" => &["model"],
        "bernoulli" => &["model", "p", "data_only"],
        "packets" => &["model", "indices"],
        _ => &["model", "flow", "seqs", "retransmissions"],
    };
    let t = Table::open(errs, path, v, keys)?;
    match model {
        "none" => Some(LossSpec::None),
        "bernoulli" => {
            let p = t.req(errs, "p", "a probability in [0, 1]", probability);
            let data_only = t.get(errs, "data_only", boolean).or(false);
            Some(LossSpec::Bernoulli {
                p: p?,
                data_only: data_only?,
            })
        }
        "packets" => {
            let indices = match t.raw("indices") {
                None => {
                    errs.push(
                        t.key_path("indices"),
                        "required key is missing: expected an array of packet indices",
                    );
                    None
                }
                Some(iv) => u64_list(errs, &t.key_path("indices"), iv),
            };
            Some(LossSpec::Packets { indices: indices? })
        }
        _ => {
            let flow = t.req(errs, "flow", "a flow id (an integer)", |v| {
                int_in(v, 0, i128::from(u32::MAX))
                    .map(|i| i as u64)
                    .map_err(|e| format!("{e} (a flow id)"))
            });
            if let Some(f) = flow {
                seg_refs.push((t.key_path("flow"), f));
            }
            let seqs = match t.raw("seqs") {
                None => {
                    errs.push(
                        t.key_path("seqs"),
                        "required key is missing: expected an array of segment numbers",
                    );
                    None
                }
                Some(sv) => u64_list(errs, &t.key_path("seqs"), sv),
            };
            let retransmissions = t.get(errs, "retransmissions", boolean).or(false);
            Some(LossSpec::Segments {
                flow: FlowId(flow? as u32),
                seqs: seqs?,
                retransmissions: retransmissions?,
            })
        }
    }
}

pub(super) fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ")
}

type SegRefs = Vec<(String, u64)>;

// One block per key; splitting it would scatter the link rules.
#[allow(clippy::too_many_lines)]
fn build_links(
    errs: &mut Errors,
    top: &Table<'_>,
    names: &BTreeMap<String, NodeId>,
) -> (Vec<Option<LinkSpec>>, SegRefs) {
    let mut links = Vec::new();
    let mut seg_refs = Vec::new();
    // Directed channel -> index of the link that created it.
    let mut channels: BTreeMap<(NodeId, NodeId), usize> = BTreeMap::new();
    for (i, v) in table_array(errs, top, "links").iter().enumerate() {
        let path = index("links", i);
        let Some(t) = Table::open(errs, &path, v, LINK_KEYS) else {
            links.push(None);
            continue;
        };
        let node = |v: &Val| node_ref(v, names);
        let from = t.req(errs, "from", "a node name", node);
        let to = t.req(errs, "to", "a node name", node);
        let rate_bps = t.req(errs, "rate", "a positive bit rate like \"1 Gbit/s\"", rate);
        let delay = t.req(errs, "delay", "a duration like \"1 ms\"", duration);
        let optical = t
            .get(errs, "kind", |v| {
                choice(v, &["electronic", "optical"]).map(|c| c == "optical")
            })
            .or(false);
        let buf = if optical == Some(true) {
            if t.has("buffer") {
                errs.push(
                    t.key_path("buffer"),
                    "an optical link has an unlimited electronic burst queue at its sending edge (no loss at the edge); remove buffer",
                );
            }
            Some(Buffer::Unlimited)
        } else {
            t.get(errs, "buffer", buffer).or(DEFAULT_BUFFER)
        };
        let mut burst_loss = |key: &str, refs: &mut SegRefs| match t.raw(key) {
            None => Some(None),
            Some(_) if optical != Some(true) => {
                errs.push(
                    t.key_path(key),
                    "only optical links lose bursts: set kind = \"optical\" or remove it",
                );
                None
            }
            Some(bv) => super::obs::burst_loss(errs, &t.key_path(key), bv, refs).map(Some),
        };
        let fwd_burst = burst_loss("burst_loss", &mut seg_refs);
        let rev_burst = burst_loss("reverse_burst_loss", &mut seg_refs);
        let duplex = t.get(errs, "duplex", boolean).or(true);
        let fwd = match t.raw("loss") {
            None => Some(LossSpec::None),
            Some(lv) => loss(errs, &t.key_path("loss"), lv, &mut seg_refs),
        };
        let rev = match t.raw("reverse_loss") {
            None => Some(LossSpec::None),
            Some(lv) => loss(errs, &t.key_path("reverse_loss"), lv, &mut seg_refs),
        };
        if duplex == Some(false) && rev.as_ref().is_some_and(|r| *r != LossSpec::None) {
            errs.push(
                t.key_path("reverse_loss"),
                "a simplex link (duplex = false) has no reverse channel: remove reverse_loss or set duplex = true",
            );
        }
        if let (Some(a), Some(b)) = (from, to) {
            if a == b {
                errs.push(
                    t.key_path("to"),
                    format!(
                        "a link cannot connect a node to itself, found {}",
                        t.raw("to").map_or(String::new(), Val::describe)
                    ),
                );
            } else {
                let mut dirs = vec![(a, b)];
                if duplex == Some(true) {
                    dirs.push((b, a));
                }
                for d in dirs {
                    if let Some(j) = channels.get(&d) {
                        errs.push(
                            path.clone(),
                            format!("duplicate link: links[{j}] already connects these nodes in this direction"),
                        );
                        break;
                    }
                    channels.insert(d, i);
                }
            }
        }
        let wavelengths = match t.raw("wavelengths") {
            Some(_) if optical == Some(false) => {
                errs.push(
                    t.key_path("wavelengths"),
                    "only optical links have wavelengths: set kind = \"optical\" or remove it",
                );
                None
            }
            _ => t
                .get(errs, "wavelengths", |v| {
                    count_in(v, 1, i128::from(u16::MAX), "wavelengths").map(|n| n as u16)
                })
                .or(1),
        };
        let optical = match (optical, fwd_burst, rev_burst, wavelengths) {
            (Some(true), Some(burst_loss), Some(reverse_burst_loss), Some(wavelengths)) => {
                Some(Some(OpticalSpec {
                    wavelengths,
                    burst_loss,
                    reverse_burst_loss,
                }))
            }
            (Some(false), _, _, _) => Some(None),
            _ => None,
        };
        links.push(
            match (from, to, rate_bps, delay, buf, duplex, fwd, rev, optical) {
                (
                    Some(from),
                    Some(to),
                    Some(rate_bps),
                    Some(delay),
                    Some(buffer),
                    Some(duplex),
                    Some(loss),
                    Some(rev),
                    Some(optical),
                ) if from != to => Some(LinkSpec {
                    from,
                    to,
                    rate_bps,
                    delay,
                    buffer,
                    duplex,
                    loss,
                    reverse_loss: rev,
                    optical,
                }),
                _ => None,
            },
        );
    }
    (links, seg_refs)
}

/// Pairs sources with destinations (`from`, `to` of a flow or traffic
/// group): equal-length lists are zipped, a single name is paired with
/// every entry of the other list; other lengths are an error at `to`.
pub(super) fn pair_nodes(
    errs: &mut Errors,
    t: &Table<'_>,
    src: &[NodeId],
    dst: &[NodeId],
) -> Option<Vec<(NodeId, NodeId)>> {
    match (src, dst) {
        (s, d) if s.len() == d.len() => Some(s.iter().copied().zip(d.iter().copied()).collect()),
        (s, d) if d.len() == 1 => Some(s.iter().map(|&a| (a, d[0])).collect()),
        (s, d) if s.len() == 1 => Some(d.iter().map(|&b| (s[0], b)).collect()),
        (s, d) => {
            errs.push(
                t.key_path("to"),
                format!(
                    "expected one node name or a list as long as `from` ({} names), found a list of {} names",
                    s.len(),
                    d.len()
                ),
            );
            None
        }
    }
}

/// Who each node can send to directly, over the links that parsed.
pub(super) fn adjacency(n: usize, links: &[Option<LinkSpec>]) -> Vec<Vec<NodeId>> {
    let mut adj: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for l in links.iter().flatten() {
        adj[l.from.index()].push(l.to);
        if l.duplex {
            adj[l.to.index()].push(l.from);
        }
    }
    adj
}

/// One node name, or a non-empty list of them.
pub(super) fn node_list(
    errs: &mut Errors,
    path: &str,
    v: &Val,
    names: &BTreeMap<String, NodeId>,
) -> Option<Vec<NodeId>> {
    match v {
        Val::Array(a) if !a.is_empty() => {
            let mut out = Vec::new();
            for (i, it) in a.iter().enumerate() {
                match node_ref(it, names) {
                    Ok(id) => out.push(id),
                    Err(e) => errs.push(index(path, i), e),
                }
            }
            (out.len() == a.len()).then_some(out)
        }
        Val::Array(_) => {
            errs.push(
                path,
                "expected a node name or a non-empty list of node names, found an empty array",
            );
            None
        }
        _ => match node_ref(v, names) {
            Ok(id) => Some(vec![id]),
            Err(e) => {
                errs.push(path, e);
                None
            }
        },
    }
}

/// `start`: one time, or a `[lo, hi]` range (uniform); absent = time zero.
pub(super) fn start(errs: &mut Errors, t: &Table<'_>) -> Option<StartSpec> {
    let path = t.key_path("start");
    match t.raw("start") {
        None => Some(StartSpec::At(SimTime::ZERO)),
        Some(Val::Array(a)) if a.len() == 2 => {
            let mut bounds = [None, None];
            for (i, x) in a.iter().enumerate() {
                match duration(x) {
                    Ok(d) => bounds[i] = Some(d),
                    Err(e) => errs.push(index(&path, i), e),
                }
            }
            let (lo, hi) = (bounds[0]?, bounds[1]?);
            if lo > hi {
                errs.push(
                    path,
                    format!("expected a range [lo, hi] with lo <= hi, found [{lo}, {hi}]; the first bound must not exceed the second"),
                );
                return None;
            }
            Some(StartSpec::Uniform(SimTime(lo.0), SimTime(hi.0)))
        }
        Some(Val::Array(a)) => {
            errs.push(
                path,
                format!(
                    "expected a start time like \"0 s\", or a range [\"0 s\", \"1 s\"] of two times, found an array of {} elements",
                    a.len()
                ),
            );
            None
        }
        Some(v) => match duration(v) {
            Ok(d) => Some(StartSpec::At(SimTime(d.0))),
            Err(e) => {
                errs.push(
                    path,
                    format!("{e}; or a range [\"0 s\", \"1 s\"] (uniform)"),
                );
                None
            }
        },
    }
}

/// Nodes reachable from `src` over the channels; hosts forward nothing, so
/// a path may pass only through routers.
pub(super) fn reachable(src: NodeId, nodes: &[Option<NodeSpec>], adj: &[Vec<NodeId>]) -> Vec<bool> {
    let mut seen = vec![false; nodes.len()];
    let mut queue = VecDeque::from([src]);
    seen[src.index()] = true;
    while let Some(u) = queue.pop_front() {
        let forwards = u == src
            || nodes[u.index()]
                .as_ref()
                .is_some_and(|n| n.kind != NodeKind::Host);
        if !forwards {
            continue;
        }
        for &w in &adj[u.index()] {
            if !seen[w.index()] {
                seen[w.index()] = true;
                queue.push_back(w);
            }
        }
    }
    seen
}

#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
fn build_flows(
    errs: &mut Errors,
    top: &Table<'_>,
    names: &BTreeMap<String, NodeId>,
    tcp_top: &TcpOverrides,
    tcp_top_ok: bool,
    duration_v: Option<SimDuration>,
    nodes: &[Option<NodeSpec>],
    links: &[Option<LinkSpec>],
    topology_ok: bool,
) -> Option<Vec<FlowSpec>> {
    let groups = table_array(errs, top, "flows");
    let adj = adjacency(nodes.len(), links);
    let mut reach: BTreeMap<NodeId, Vec<bool>> = BTreeMap::new();
    let mut flows = Vec::new();
    let mut all_ok = tcp_top_ok;
    let mut group_names: BTreeMap<String, usize> = BTreeMap::new();
    for (i, v) in groups.iter().enumerate() {
        let path = index("flows", i);
        let Some(t) = Table::open(errs, &path, v, FLOW_KEYS) else {
            all_ok = false;
            continue;
        };
        let group = t.get(errs, "name", name).or(path.clone());
        if let Some(g) = &group {
            if let Some(j) = group_names.get(g) {
                errs.push(
                    t.key_path("name"),
                    format!("duplicate flow group name {} (also flows[{j}])", quote(g)),
                );
            } else {
                group_names.insert(g.clone(), i);
            }
        }
        let src = match t.raw("from") {
            None => {
                errs.push(
                    t.key_path("from"),
                    "required key is missing: expected a node name or a list of node names",
                );
                None
            }
            Some(fv) => node_list(errs, &t.key_path("from"), fv, names),
        };
        let dst = match t.raw("to") {
            None => {
                errs.push(
                    t.key_path("to"),
                    "required key is missing: expected a node name or a list of node names",
                );
                None
            }
            Some(tv) => node_list(errs, &t.key_path("to"), tv, names),
        };
        let count = t
            .get(errs, "count", |v| {
                int_in(v, 1, MAX_FLOWS as i128).map(|c| c as usize)
            })
            .or(1);
        let st = start(errs, &t);
        if let (Some(s), Some(d)) = (st, duration_v) {
            let last = match s {
                StartSpec::At(a) | StartSpec::Uniform(_, a) => a,
            };
            if last.0 >= d.0 {
                errs.push(
                    t.key_path("start"),
                    format!(
                        "expected a start time earlier than simulation.duration ({d}), found {}",
                        SimDuration(last.0)
                    ),
                );
            }
        }
        let size = t.get(errs, "size", flow_size).or(None);
        let group_tcp = t
            .raw("tcp")
            .map(|tv| parse_tcp(errs, &t.key_path("tcp"), tv));
        let cfg = resolve_tcp(errs, tcp_top, group_tcp.as_ref());

        let pairs = match (&src, &dst) {
            (Some(s), Some(d)) => pair_nodes(errs, &t, s, d),
            _ => None,
        };
        if let Some(pairs) = &pairs {
            for &(a, b) in pairs {
                let name_of = |n: NodeId| {
                    nodes[n.index()]
                        .as_ref()
                        .map_or(String::new(), |s| quote(&s.name))
                };
                if a == b {
                    errs.push(
                        t.key_path("to"),
                        format!("a flow cannot go from node {} to itself", name_of(a)),
                    );
                    continue;
                }
                if !topology_ok {
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    let r = reach.entry(x).or_insert_with(|| reachable(x, nodes, &adj));
                    if !r[y.index()] {
                        errs.push(
                            t.key_path("to"),
                            format!(
                                "no route from node {} to node {} over the links (hosts do not forward; check duplex)",
                                name_of(x),
                                name_of(y)
                            ),
                        );
                        break;
                    }
                }
            }
        }

        match (group, pairs, count, st, size, cfg) {
            (Some(group), Some(pairs), Some(count), Some(start), Some(size), Some(tcp)) => {
                if flows.len() + pairs.len().saturating_mul(count) > MAX_FLOWS {
                    errs.push(
                        t.key_path("count"),
                        format!("a scenario may have at most {MAX_FLOWS} flows in total"),
                    );
                    return None;
                }
                for (s, d) in pairs {
                    for _ in 0..count {
                        flows.push(FlowSpec {
                            id: FlowId(flows.len() as u32),
                            group: group.clone(),
                            src: s,
                            dst: d,
                            start,
                            app: AppSpec::Bulk(size),
                            tcp: tcp.clone(),
                        });
                    }
                }
            }
            _ => all_ok = false,
        }
    }
    all_ok.then_some(flows)
}

fn build_trace(
    errs: &mut Errors,
    top: &Table<'_>,
    n_flows: Option<usize>,
    empty: &Val,
) -> Option<TraceSpec> {
    let t = Table::open(errs, "trace", top.raw("trace").unwrap_or(empty), TRACE_KEYS)?;
    let cwnd = t.get(errs, "cwnd", boolean).or(false);
    let seq = t.get(errs, "seq", boolean).or(false);
    let interval = t.get(errs, "interval", positive_duration).optional();
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
    Some(TraceSpec {
        cwnd: cwnd?,
        seq: seq?,
        interval: interval?,
        flows: flows?,
    })
}
