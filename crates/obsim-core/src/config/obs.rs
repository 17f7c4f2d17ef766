//! Schema of the OBS parts of a scenario: the burst assembly of edge nodes
//! (`[nodes.assembly]`) and the per-burst loss of optical links
//! (`links[i].burst_loss`). Documented key by key in docs/SCENARIOS.md.

use super::fields::{duration, positive_duration, quantity, quoted_list, Quantity};
use super::scenario::{AckHandling, EdgeSpec};
use super::units::{self, Amount, SIZE_UNITS};
use super::walk::{choice, int_in, named, probability, u32_in, Errors, Got, Table, Val};
use crate::ids::FlowId;
use crate::obs::assembly::{
    AssemblyConfig, DmqAllocation, FlowMapping, Selection, SizeLimit, Trigger, WindowSource,
    SELECTION_NAMES,
};
use crate::obs::loss::{BurstLossPattern, BurstLossSpec};
use crate::time::SimDuration;

/// Keys of `[nodes.assembly]`.
pub(crate) const ASSEMBLY_KEYS: &[&str] = &[
    "trigger",
    "timeout",
    "max_size",
    "min_size",
    "selection",
    "queues",
    "mapping",
    "allocation",
    "thresholds",
    "timers",
    "window_source",
    "rtt_fallback",
    "header",
    "guard",
    "acks",
    "extra_offset",
];
/// Keys of a `burst_loss` table.
pub(crate) const BURST_LOSS_KEYS: &[&str] = &["p", "pattern", "batch", "index", "flow"];

const TRIGGERS: &[&str] = &["timer", "size", "hybrid"];
const PATTERNS: &[&str] = &["random", "even", "stratified", "batch", "single"];

const BURST_SIZE: Quantity = Quantity {
    expected: "a positive burst size like \"60 packets\" or \"64 KB\"",
    units: "packets, B, KB, MB, GB, KiB, MiB, GiB",
    unit: "packets",
};
const PAD_SIZE: Quantity = Quantity {
    expected: "a positive size like \"10 KB\"",
    units: SIZE_UNITS,
    unit: "B",
};
const HEADER: Quantity = Quantity {
    expected: "a size like \"0 B\"",
    units: SIZE_UNITS,
    unit: "B",
};

fn burst_size(v: &Val) -> Result<SizeLimit, String> {
    let a = quantity(
        v,
        &BURST_SIZE,
        |s| units::parse_amount(s, true),
        |a| match a {
            Amount::Packets(0) | Amount::Bytes(0) => Some("it must be greater than zero".into()),
            Amount::Packets(p) if p > u64::from(u32::MAX) => {
                Some(format!("at most {} packets", u32::MAX))
            }
            _ => None,
        },
    )?;
    Ok(match a {
        Amount::Packets(p) => SizeLimit::Packets(p as u32),
        Amount::Bytes(b) => SizeLimit::Bytes(b),
    })
}

fn positive_f64(v: &Val) -> Result<f64, String> {
    match v {
        Val::Int(i) if *i > 0 => Ok(*i as f64),
        Val::Float(x) if x.is_finite() && *x > 0.0 => Ok(*x),
        _ => Err(format!(
            "expected a positive number of segments, found {}",
            v.describe()
        )),
    }
}

/// Reads `key` as an array of exactly `n` items parsed by `f`.
fn fixed_array<T: Copy + Default, const N: usize>(
    errs: &mut Errors,
    t: &Table<'_>,
    key: &str,
    f: impl Fn(&Val) -> Result<T, String>,
) -> Got<[T; N]> {
    let Some(v) = t.raw(key) else {
        return Got::Missing;
    };
    let path = t.key_path(key);
    let Val::Array(items) = v else {
        errs.push(
            path,
            format!("expected an array of {N} values, found {}", v.describe()),
        );
        return Got::Invalid;
    };
    if items.len() != N {
        errs.push(
            path,
            format!(
                "expected an array of exactly {N} values, found {} values",
                items.len()
            ),
        );
        return Got::Invalid;
    }
    let mut out = [T::default(); N];
    let mut ok = true;
    for (i, it) in items.iter().enumerate() {
        match f(it) {
            Ok(x) => out[i] = x,
            Err(e) => {
                errs.push(format!("{path}[{i}]"), e);
                ok = false;
            }
        }
    }
    if ok {
        Got::Value(out)
    } else {
        Got::Invalid
    }
}

/// Parses `[nodes.assembly]` (gurel2008 §2, gonzalez2009 §2-4, ramantas2007
/// §5, ramantas2008 §5).
pub(crate) fn assembly(errs: &mut Errors, path: &str, value: &Val) -> Option<EdgeSpec> {
    let t = Table::open(errs, path, value, ASSEMBLY_KEYS)?;
    let trigger_name = t
        .get(errs, "trigger", |v| choice(v, TRIGGERS))
        .or("timer")?;
    let selection_name = t
        .get(errs, "selection", |v| choice(v, SELECTION_NAMES))
        .or("mixed_flow")?;
    let needs_timer = trigger_name != "size" && selection_name != "window";
    let timeout = if needs_timer {
        t.req(
            errs,
            "timeout",
            "the assembly timeout T_MAX, a duration like \"1 ms\"",
            positive_duration,
        )
    } else {
        t.get(errs, "timeout", positive_duration).value()
    };
    let max_size = if trigger_name == "timer" {
        if t.has("max_size") {
            errs.push(
                t.key_path("max_size"),
                "only read by trigger = \"size\" or \"hybrid\"; remove it or change trigger",
            );
        }
        None
    } else {
        t.req(
            errs,
            "max_size",
            "the burst size threshold B_MAX, like \"60 packets\" or \"64 KB\"",
            burst_size,
        )
    };
    let min_size = t
        .get(errs, "min_size", |v| {
            quantity(v, &PAD_SIZE, units::parse_bytes, |n| {
                (n == 0).then(|| "it must be greater than zero".into())
            })
        })
        .value();
    let header = t
        .get(errs, "header", |v| {
            quantity(v, &HEADER, units::parse_bytes, |_| None)
        })
        .or(0);
    let guard = t.get(errs, "guard", duration).or(SimDuration::ZERO);
    let acks = t
        .get(errs, "acks", |v| named(v, &AckHandling::ALL))
        .or(AckHandling::Bypass);
    let extra_offset = t.get(errs, "extra_offset", duration).or(SimDuration::ZERO);
    let uses = |key: &str, users: &[&str]| -> Option<String> {
        (t.has(key) && !users.contains(&selection_name)).then(|| {
            format!(
                "only read by selection = {}; remove it or change selection",
                quoted_list(users)
            )
        })
    };
    for (key, users) in [
        ("queues", &["per_egress", "smq", "dmq"][..]),
        ("mapping", &["per_egress"][..]),
        ("allocation", &["dmq"][..]),
        ("thresholds", &["window"][..]),
        ("timers", &["window"][..]),
        ("window_source", &["window"][..]),
        ("rtt_fallback", &["window"][..]),
    ] {
        if let Some(r) = uses(key, users) {
            errs.push(t.key_path(key), r);
        }
    }
    let selection = selection(errs, &t, selection_name);
    let trigger = match (trigger_name, timeout, max_size) {
        ("timer", Some(t), _) => Some(Trigger::Timer(t)),
        ("size", _, Some(s)) => Some(Trigger::Size(s)),
        ("hybrid", Some(t), Some(s)) => Some(Trigger::Hybrid(t, s)),
        // Window-based assembly chooses its own timers.
        ("timer", None, _) if selection_name == "window" => {
            Some(Trigger::Timer(SimDuration::from_millis(1)))
        }
        _ => None,
    };
    Some(EdgeSpec {
        assembly: AssemblyConfig {
            trigger: trigger?,
            selection: selection?,
            min_burst_bytes: min_size,
            header_bytes: header? as u32,
            guard: guard?,
        },
        acks: acks?,
        extra_offset: extra_offset?,
    })
}

/// The queue-selection policy `name` with its keys from `t`.
fn selection(errs: &mut Errors, t: &Table<'_>, name: &str) -> Option<Selection> {
    let queues = |errs: &mut Errors| {
        t.req(
            errs,
            "queues",
            "the number of queues per egress, an integer >= 1",
            |v| u32_in(v, 1, 1 << 20),
        )
    };
    match name {
        "mixed_flow" => Some(Selection::MixedFlow),
        "per_flow" => Some(Selection::PerFlow),
        "per_egress" => {
            let m = queues(errs);
            let mapping = t
                .get(errs, "mapping", |v| {
                    choice(v, &["modulo", "random"]).map(|c| {
                        if c == "modulo" {
                            FlowMapping::Modulo
                        } else {
                            FlowMapping::Random
                        }
                    })
                })
                .or(FlowMapping::Modulo);
            Some(Selection::PerEgress {
                m: m?,
                mapping: mapping?,
            })
        }
        "smq" => queues(errs).map(|queues| Selection::Smq { queues }),
        "dmq" => {
            let n = queues(errs);
            let allocation = t
                .get(errs, "allocation", |v| {
                    choice(v, &["proactive", "a_posteriori"]).map(|c| {
                        if c == "proactive" {
                            DmqAllocation::Proactive
                        } else {
                            DmqAllocation::APosteriori
                        }
                    })
                })
                .or(DmqAllocation::Proactive);
            Some(Selection::Dmq {
                queues: n?,
                allocation: allocation?,
            })
        }
        _ => {
            let th = t.req(
                errs,
                "thresholds",
                "[B, C], the cwnd thresholds in segments (ramantas2007 §5)",
                |v| {
                    let Val::Array(a) = v else {
                        return Err(format!(
                            "expected an array [B, C] of two positive numbers, found {}",
                            v.describe()
                        ));
                    };
                    match a.as_slice() {
                        [b, c] => {
                            let (b, c) = (positive_f64(b)?, positive_f64(c)?);
                            if b <= c {
                                Ok([b, c])
                            } else {
                                Err(format!(
                                    "expected B <= C (B = C: no middle queue, the papers' one-threshold rows), found B = {b}, C = {c}"
                                ))
                            }
                        }
                        _ => Err(format!(
                            "expected an array [B, C] of two positive numbers, found {} values",
                            a.len()
                        )),
                    }
                },
            );
            let default_timers = [
                SimDuration::from_millis(1),
                SimDuration::from_millis(5),
                SimDuration::from_millis(10),
            ];
            let timers = fixed_array::<SimDuration, 3>(errs, t, "timers", positive_duration)
                .or(default_timers);
            let source = window_source(errs, t);
            match (th, timers, source) {
                (Some([b, c]), Some(timers), Some(source)) => Some(Selection::WindowBased {
                    b,
                    c,
                    timers,
                    source,
                }),
                _ => None,
            }
        }
    }
}

/// `window_source` and `rtt_fallback` of window-based assembly: how the edge
/// learns a flow's cwnd (`"sender"`, the papers' assumption, ramantas2007
/// §5; or `"estimated"`, obs/assembly/estimate.rs).
fn window_source(errs: &mut Errors, t: &Table<'_>) -> Option<WindowSource> {
    let name = t
        .get(errs, "window_source", |v| {
            choice(v, &["sender", "estimated"])
        })
        .or("sender");
    let fallback = t
        .get(errs, "rtt_fallback", positive_duration)
        .or(WindowSource::DEFAULT_RTT_FALLBACK);
    if t.has("rtt_fallback") && name == Some("sender") {
        errs.push(
            t.key_path("rtt_fallback"),
            "only read by window_source = \"estimated\"; remove it or set window_source = \"estimated\"",
        );
    }
    match name? {
        "sender" => Some(WindowSource::Sender),
        _ => Some(WindowSource::Estimated {
            rtt_fallback: fallback?,
        }),
    }
}

/// Parses a `burst_loss` table; `flow_refs` collects the flow id it names,
/// checked once flows are expanded.
pub(crate) fn burst_loss(
    errs: &mut Errors,
    path: &str,
    v: &Val,
    flow_refs: &mut Vec<(String, u64)>,
) -> Option<BurstLossSpec> {
    let t = Table::open(errs, path, v, BURST_LOSS_KEYS)?;
    let pattern = t.get(errs, "pattern", |v| choice(v, PATTERNS)).or("random");
    let p = if pattern == Some("single") {
        t.get(errs, "p", probability).or(0.0)
    } else {
        t.req(
            errs,
            "p",
            "the burst loss probability, in [0, 1]",
            probability,
        )
    };
    let index = t
        .get(errs, "index", |v| {
            int_in(v, 0, i128::from(u64::MAX)).map(|i| i as u64)
        })
        .value();
    if t.has("index") && pattern != Some("single") {
        errs.push(
            t.key_path("index"),
            "only read by pattern = \"single\"; remove it or set pattern = \"single\"",
        );
    }
    let batch = t.get(errs, "batch", |v| u32_in(v, 1, 1 << 20)).value();
    if t.has("batch") && pattern != Some("batch") {
        errs.push(
            t.key_path("batch"),
            "only read by pattern = \"batch\"; remove it or set pattern = \"batch\"",
        );
    }
    let flow = t
        .get(errs, "flow", |v| {
            int_in(v, 0, i128::from(u32::MAX))
                .map(|i| i as u64)
                .map_err(|e| format!("{e} (a flow id)"))
        })
        .value();
    if let Some(f) = flow {
        flow_refs.push((t.key_path("flow"), f));
    }
    let pattern = match pattern? {
        "random" => BurstLossPattern::Random,
        "even" => BurstLossPattern::Even,
        "stratified" => BurstLossPattern::Stratified,
        "single" => {
            let Some(n) = index else {
                if !t.has("index") {
                    errs.push(
                        t.key_path("index"),
                        "required key is missing: expected the 0-based index of the burst to lose, an integer >= 0",
                    );
                }
                return None;
            };
            BurstLossPattern::Single(n)
        }
        _ => {
            let Some(k) = batch else {
                if !t.has("batch") {
                    errs.push(
                        t.key_path("batch"),
                        "required key is missing: expected the number k of back-to-back losses per batch, an integer >= 1",
                    );
                }
                return None;
            };
            BurstLossPattern::Batch(k)
        }
    };
    Some(BurstLossSpec {
        p: p?,
        pattern,
        only_flow: flow.map(|f| FlowId(f as u32)),
    })
}
