//! Schema of the optical core: network-wide switching defaults
//! (`[optical]`), their per-node overrides (`[nodes.switch]`), and the
//! background burst generators (`[[generators]]`). Documented key by key in
//! docs/SCENARIOS.md.

use std::collections::BTreeMap;

use super::fields::{duration, positive_duration, quantity, Quantity};
use super::scenario::{
    BurstLength, Conversion, ConverterSharing, EdgeQueue, GeneratorSpec, LengthDistribution,
    LinkSpec, NodeKind, NodeSpec, SwitchSpec,
};
use super::units::{self, quote, UnitError};
use super::walk::{index, int_in, name, named, Errors, Table, Val};
use crate::ids::NodeId;
use crate::obs::scheduler::SchedulerKind;
use crate::time::{SimDuration, SimTime};

/// Keys of a `[[generators]]` table.
pub(crate) const GENERATOR_KEYS: &[&str] = &[
    "name",
    "at",
    "to",
    "interarrival",
    "length",
    "distribution",
    "start",
    "stop",
    "extra_offset",
];

/// The channel schedulers by name (`scheduler`).
const SCHEDULERS: [(&str, SchedulerKind); 4] = [
    ("horizon", SchedulerKind::Horizon),
    ("lauc", SchedulerKind::Lauc),
    ("lauc-vf", SchedulerKind::LaucVf),
    ("ffuc-vf", SchedulerKind::FfucVf),
];

const SIGNAL: Quantity = Quantity {
    expected: "a packet size like \"40 B\"",
    units: "B, KB, KiB",
    unit: "B",
};

const LENGTH: Quantity = Quantity {
    expected: "a positive mean burst length: a time on the wavelength like \"200 us\", or a size like \"25 KB\"",
    units: "s, ms, us, µs, ns, or B, KB, MB, KiB, MiB",
    unit: "us",
};

key_table! {
    /// What one `[optical]` or `[nodes.switch]` table sets.
    struct SwitchKeys for SwitchSpec, keys SWITCH_KEYS;
    processing: SimDuration = duration => processing;
    scheduler: SchedulerKind = |v| named(v, &SCHEDULERS) => scheduler;
    conversion: Conversion = |v| named(v, &Conversion::ALL) => conversion;
    converters: u16 = |v| int_in(v, 0, i128::from(u16::MAX)).map(|i| i as u16) => converters;
    converter_sharing: ConverterSharing = |v| named(v, &ConverterSharing::ALL) => converter_sharing;
    edge_queue: EdgeQueue = edge_queue => edge_queue;
    signal_size: u32 = signal_size => signal_size;
}

/// `edge_queue`: a longest wait, or `"unlimited"` or `"none"`.
fn edge_queue(v: &Val) -> Result<EdgeQueue, String> {
    match v {
        Val::Str(s) if s.trim() == "none" => Ok(EdgeQueue::None),
        Val::Str(s) if s.trim() == "unlimited" => Ok(EdgeQueue::Unlimited),
        _ => duration(v)
            .map(EdgeQueue::MaxWait)
            .map_err(|e| format!("{e}, or \"unlimited\" or \"none\"")),
    }
}

/// `signal_size`: the wire size of a burst ACK or NAK.
fn signal_size(v: &Val) -> Result<u32, String> {
    quantity(v, &SIGNAL, units::parse_bytes, |n| {
        (!(1..=65535).contains(&n)).then(|| "it must be from 1 B to 65535 B".into())
    })
    .map(|n| n as u32)
}

/// Parses `[optical]` (with `base` = the built-in defaults) or a node's
/// `[nodes.switch]` (with `base` = the resolved `[optical]`): every key it
/// sets overrides `base`.
pub(crate) fn switch(
    errs: &mut Errors,
    path: &str,
    v: &Val,
    base: &SwitchSpec,
) -> Option<SwitchSpec> {
    let t = Table::open(errs, path, v, SWITCH_KEYS)?;
    let k = SwitchKeys::read(errs, &t);
    let conversion = k.conversion.or(base.conversion);
    let converters = k.converters.or(base.converters);
    if conversion == Some(Conversion::Partial) && converters == Some(0) {
        errs.push(
            t.key_path("converters"),
            "conversion = \"partial\" needs a pool of converters: set converters to an integer >= 1",
        );
        return None;
    }
    if t.has("converters") && conversion.is_some_and(|c| c != Conversion::Partial) {
        errs.push(
            t.key_path("converters"),
            "only read by conversion = \"partial\"; remove it or set conversion = \"partial\"",
        );
    }
    k.valid().then(|| {
        let mut spec = *base;
        k.set(&mut spec);
        spec
    })
}

/// A generator's mean burst length: a duration or a size.
fn length(v: &Val) -> Result<BurstLength, String> {
    let parse = |s: &str| -> Result<BurstLength, UnitError> {
        match units::parse_duration_ns(s) {
            Ok(ns) => Ok(BurstLength::Time(SimDuration(ns))),
            Err(_) => units::parse_bytes(s).map(BurstLength::Bytes),
        }
    };
    quantity(v, &LENGTH, parse, |l| {
        matches!(l, BurstLength::Time(SimDuration(0)) | BurstLength::Bytes(0))
            .then(|| "it must be greater than zero".into())
    })
}

/// Checks that optical links join only edge and core nodes, and that core
/// nodes have optical links only.
pub(crate) fn check_topology(errs: &mut Errors, nodes: &[NodeSpec], links: &[LinkSpec]) {
    for (i, l) in links.iter().enumerate() {
        let path = index("links", i);
        for (key, n) in [("from", l.from), ("to", l.to)] {
            let nd = &nodes[n.index()];
            if l.optical.is_some() && !matches!(nd.kind, NodeKind::Edge | NodeKind::Core) {
                errs.push(
                    format!("{path}.{key}"),
                    format!(
                        "an optical link joins edge and core nodes only; node {} is a {}",
                        quote(&nd.name),
                        kind_name(nd.kind)
                    ),
                );
            }
            if l.optical.is_none() && nd.kind == NodeKind::Core {
                errs.push(
                    format!("{path}.kind"),
                    format!(
                        "node {} is a core node, which has optical links only: set kind = \"optical\" or make the node an edge",
                        quote(&nd.name)
                    ),
                );
            }
        }
    }
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Host => "host",
        NodeKind::Router => "router",
        NodeKind::Edge => "edge node",
        NodeKind::Core => "core node",
    }
}

/// An edge node named by `v`.
fn edge_ref(
    v: &Val,
    names: &BTreeMap<String, NodeId>,
    nodes: &[NodeSpec],
) -> Result<NodeId, String> {
    let Val::Str(s) = v else {
        return Err(format!(
            "expected the name of an edge node, found {}",
            v.describe()
        ));
    };
    match names.get(s) {
        Some(&id) if nodes[id.index()].kind == NodeKind::Edge => Ok(id),
        Some(&id) => Err(format!(
            "expected the name of an edge node, found {}, a {}",
            quote(s),
            kind_name(nodes[id.index()].kind)
        )),
        None => Err(format!(
            "expected the name of an edge node declared in [[nodes]], found {}; no such node",
            quote(s)
        )),
    }
}

/// Parses `[[generators]]` (background burst sources, gurel2008 §4).
// One statement per key: long, but flat.
#[allow(clippy::too_many_lines)]
pub(crate) fn generators(
    errs: &mut Errors,
    items: &[Val],
    names: &BTreeMap<String, NodeId>,
    nodes: &[NodeSpec],
) -> Option<Vec<GeneratorSpec>> {
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, v) in items.iter().enumerate() {
        let path = index("generators", i);
        let Some(t) = Table::open(errs, &path, v, GENERATOR_KEYS) else {
            ok = false;
            continue;
        };
        let gname = t.get(errs, "name", name).or(path.clone());
        let at = t.req(errs, "at", "the name of the ingress edge node", |v| {
            edge_ref(v, names, nodes)
        });
        let to = match t.raw("to") {
            None => at.map(|a| {
                (0..nodes.len())
                    .map(|j| NodeId(j as u32))
                    .filter(|&n| n != a && nodes[n.index()].kind == NodeKind::Edge)
                    .collect::<Vec<_>>()
            }),
            Some(Val::Array(a)) if !a.is_empty() => {
                let mut ids = Vec::new();
                for (j, it) in a.iter().enumerate() {
                    match edge_ref(it, names, nodes) {
                        Ok(id) if Some(id) == at => errs.push(
                            index(&t.key_path("to"), j),
                            "a generator cannot send to its own edge node",
                        ),
                        Ok(id) => ids.push(id),
                        Err(e) => errs.push(index(&t.key_path("to"), j), e),
                    }
                }
                (ids.len() == a.len()).then_some(ids)
            }
            Some(other) => {
                errs.push(
                    t.key_path("to"),
                    format!(
                        "expected a non-empty list of egress edge node names, found {}",
                        other.describe()
                    ),
                );
                None
            }
        };
        if to.as_ref().is_some_and(Vec::is_empty) {
            errs.push(
                t.key_path("to"),
                "no egress edge node to send to: the scenario has no other edge node",
            );
        }
        let interarrival = t.req(
            errs,
            "interarrival",
            "the mean time between bursts 1/λ (Poisson arrivals), like \"2 ms\"",
            positive_duration,
        );
        let len = t.req(
            errs,
            "length",
            "the mean burst length 1/μ, like \"200 us\" or \"25 KB\"",
            length,
        );
        let distribution = t
            .get(errs, "distribution", |v| named(v, &LengthDistribution::ALL))
            .or(LengthDistribution::Exponential);
        let start = t.get(errs, "start", duration).or(SimDuration::ZERO);
        let stop = t.get(errs, "stop", duration).optional();
        if let (Some(s), Some(Some(e))) = (start, stop) {
            if e <= s {
                errs.push(
                    t.key_path("stop"),
                    format!("expected a time after start ({s}), found {e}"),
                );
            }
        }
        let extra_offset = t.get(errs, "extra_offset", duration).or(SimDuration::ZERO);
        match (
            gname,
            at,
            to,
            interarrival,
            len,
            distribution,
            start,
            stop,
            extra_offset,
        ) {
            (
                Some(name),
                Some(at),
                Some(to),
                Some(interarrival),
                Some(length),
                Some(distribution),
                Some(start),
                Some(stop),
                Some(extra_offset),
            ) if !to.is_empty() => out.push(GeneratorSpec {
                name,
                at,
                to,
                interarrival,
                length,
                distribution,
                start: SimTime::ZERO + start,
                stop: stop.map(|d| SimTime::ZERO + d),
                extra_offset,
            }),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}
