//! Schema of the UDP cross-traffic sources (`[[traffic]]`): constant-rate
//! (ns-2 `Application/Traffic/CBR`) and exponential on/off (ns-2
//! `Application/Traffic/Exponential`) sources on the access networks, which
//! congest drop-tail buffers and so cause the true timeouts of yu2004 §V.B.2
//! (Table V). Documented key by key in docs/SCENARIOS.md ("`[[traffic]]`");
//! competing TCP flows are ordinary `[[flows]]`.

use std::collections::BTreeMap;

use super::endpoints::{adjacency, count, expand, group_name, pair_nodes, reachable, start};
use super::fields::{positive_duration, quantity, quoted_list, rate, table_array, Quantity};
use super::nodes::required_nodes;
use super::scenario::{LinkSpec, NodeSpec, StartSpec};
pub use super::scenario::{OnOffDistribution, TrafficModel, TrafficSpec};
use super::units::{self, quote, SIZE_UNITS};
use super::walk::{choice, index, named, Errors, Got, Table, Val};
use crate::ids::NodeId;
use crate::time::{SimDuration, SimTime};

/// Keys of a `[[traffic]]` table.
pub(crate) const TRAFFIC_KEYS: &[&str] = &[
    "name",
    "kind",
    "from",
    "to",
    "count",
    "rate",
    "packet",
    "start",
    "stop",
    "on",
    "off",
    "distribution",
];

const KINDS: &[&str] = &["cbr", "onoff"];

/// Datagram size on the wire when `packet` is absent: ns-2's `Agent/UDP`
/// `packetSize_ 1000` (the largest datagram it sends unsplit).
pub const DEFAULT_PACKET_BYTES: u32 = 1000;

const PACKET: Quantity = Quantity {
    expected: "a packet size from 1 B to 65535 B like \"1000 B\"",
    units: SIZE_UNITS,
    unit: "B",
};

fn packet(v: &Val) -> Result<u32, String> {
    quantity(v, &PACKET, units::parse_bytes, |n| {
        (!(1..=65535).contains(&n)).then(|| "it must be from 1 B to 65535 B".into())
    })
    .map(|n| n as u32)
}

/// The model of `t` given its `kind`; reports keys the kind does not read.
fn model(errs: &mut Errors, t: &Table<'_>, kind: Option<&str>) -> Option<TrafficModel> {
    let on = t.get(errs, "on", positive_duration);
    let off = t.get(errs, "off", positive_duration);
    let distribution = t.get(errs, "distribution", |v| named(v, &OnOffDistribution::ALL));
    if kind? == "cbr" {
        for key in ["on", "off", "distribution"] {
            if t.has(key) {
                errs.push(
                    t.key_path(key),
                    "only read by kind = \"onoff\"; remove it or set kind = \"onoff\"",
                );
            }
        }
        return Some(TrafficModel::Cbr);
    }
    let mut need = |key: &str, what: &str, got: Got<SimDuration>| {
        if got == Got::Missing {
            errs.push(
                t.key_path(key),
                format!(
                    "required key is missing: expected the mean {what} time of kind = \"onoff\", a positive duration like \"500 ms\""
                ),
            );
        }
        got.value()
    };
    let on = need("on", "on (burst)", on);
    let off = need("off", "off (idle)", off);
    Some(TrafficModel::OnOff {
        on: on?,
        off: off?,
        distribution: distribution.or(OnOffDistribution::Exponential)?,
    })
}

/// Builds the `[[traffic]]` sources: validates every key, expands `count`
/// and node lists (as `[[flows]]` does) and checks that each source can
/// reach its destination. `None` if anything is invalid (already reported).
// One block per key, as `build_flows`; splitting it would scatter the rules.
#[allow(clippy::too_many_lines)]
pub(super) fn build(
    errs: &mut Errors,
    top: &Table<'_>,
    names: &BTreeMap<String, NodeId>,
    duration: Option<SimDuration>,
    nodes: &[Option<NodeSpec>],
    links: &[Option<LinkSpec>],
    topology_ok: bool,
) -> Option<Vec<TrafficSpec>> {
    let groups = table_array(errs, top, "traffic");
    let adj = adjacency(nodes.len(), links);
    let mut routes = Reach {
        nodes,
        adj,
        topology_ok,
        cache: BTreeMap::new(),
    };
    let mut group_names: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let mut all_ok = true;
    for (i, v) in groups.iter().enumerate() {
        let path = index("traffic", i);
        let Some(t) = Table::open(errs, &path, v, TRAFFIC_KEYS) else {
            all_ok = false;
            continue;
        };
        let group = group_name(errs, &t, i, "traffic", "traffic", &mut group_names);
        let kind = t.req(
            errs,
            "kind",
            &format!("one of {}", quoted_list(KINDS)),
            |v| choice(v, KINDS),
        );
        let src = required_nodes(errs, &t, "from", names);
        let dst = required_nodes(errs, &t, "to", names);
        let count = count(errs, &t);
        let rate_bps = t.req(
            errs,
            "rate",
            "a positive bit rate like \"2 Mbit/s\" (the rate while sending)",
            rate,
        );
        let packet_bytes = t.get(errs, "packet", packet).or(DEFAULT_PACKET_BYTES);
        let st = start(errs, &t, duration);
        let last_start = st.map(StartSpec::latest);
        let stop = t
            .get(errs, "stop", positive_duration)
            .optional()
            .map(|s| s.map(|d| SimTime(d.0)));
        if let (Some(Some(stop)), Some(last)) = (stop, last_start) {
            if stop <= last {
                errs.push(
                    t.key_path("stop"),
                    format!(
                        "expected a stop time later than the (latest) start {}, found {}",
                        SimDuration(last.0),
                        SimDuration(stop.0)
                    ),
                );
            }
        }
        let model = model(errs, &t, kind);

        let pairs = pair_up(errs, &t, src.as_ref(), dst.as_ref(), &mut routes);
        match (group, pairs, count, rate_bps, packet_bytes, st, stop, model) {
            (
                Some(group),
                Some(pairs),
                Some(count),
                Some(rate_bps),
                Some(packet_bytes),
                Some(start),
                Some(stop),
                Some(model),
            ) => {
                let made = expand(
                    errs,
                    &t,
                    &mut out,
                    pairs,
                    count,
                    "traffic sources",
                    |id, src, dst| TrafficSpec {
                        id: id as u32,
                        group: group.clone(),
                        src,
                        dst,
                        model,
                        rate_bps,
                        packet_bytes,
                        start,
                        stop,
                    },
                );
                if !made {
                    return None;
                }
            }
            _ => all_ok = false,
        }
    }
    all_ok.then_some(out)
}

/// What [`pair_up`] needs to check routes: the topology and a cache of the
/// nodes reachable from each source.
struct Reach<'n> {
    nodes: &'n [Option<NodeSpec>],
    adj: Vec<Vec<NodeId>>,
    topology_ok: bool,
    cache: BTreeMap<NodeId, Vec<bool>>,
}

/// Pairs sources with destinations exactly as `[[flows]]` does (equal-length
/// lists are zipped, a single name pairs with every entry of the other
/// list) and checks that each source reaches its destination. Datagrams are
/// not acknowledged, so only the forward direction needs a route.
fn pair_up(
    errs: &mut Errors,
    t: &Table<'_>,
    src: Option<&Vec<NodeId>>,
    dst: Option<&Vec<NodeId>>,
    r: &mut Reach<'_>,
) -> Option<Vec<(NodeId, NodeId)>> {
    let pairs = pair_nodes(errs, t, src?, dst?)?;
    let mut ok = true;
    for &(a, b) in &pairs {
        let name_of = |n: NodeId| {
            r.nodes[n.index()]
                .as_ref()
                .map_or(String::new(), |s| quote(&s.name))
        };
        if a == b {
            errs.push(
                t.key_path("to"),
                format!(
                    "a traffic source cannot send from node {} to itself",
                    name_of(a)
                ),
            );
            ok = false;
            continue;
        }
        if !r.topology_ok {
            continue;
        }
        let (nodes, adj) = (r.nodes, &r.adj);
        let reach = r.cache.entry(a).or_insert_with(|| reachable(a, nodes, adj));
        if !reach[b.index()] {
            errs.push(
                t.key_path("to"),
                format!(
                    "no route from node {} to node {} over the links (hosts do not forward; check duplex)",
                    name_of(a),
                    name_of(b)
                ),
            );
            ok = false;
        }
    }
    ok.then_some(pairs)
}
