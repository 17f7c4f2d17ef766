//! Schema of `[[flows]]`: TCP flow groups, expanded over `count` and node
//! lists into one [`FlowSpec`] per flow, each with its resolved TCP
//! parameters. Documented key by key in docs/SCENARIOS.md.

use std::collections::BTreeMap;

use super::endpoints::{adjacency, count, expand, group_name, pair_nodes, reachable, start};
use super::fields::{quantity, table_array, Quantity};
use super::nodes::required_nodes;
use super::scenario::{AppSpec, FlowSpec, LinkSpec, NodeSpec};
use super::tcp::{parse_tcp, resolve_tcp, TcpOverrides};
use super::units::{self, quote, SIZE_UNITS};
use super::walk::{index, Errors, Table, Val};
use crate::ids::{FlowId, NodeId};
use crate::time::SimDuration;

pub(crate) const FLOW_KEYS: &[&str] = &["name", "from", "to", "count", "start", "size", "tcp"];

const FLOW_SIZE: Quantity = Quantity {
    expected: "a positive size like \"10 MB\", or \"infinite\"",
    units: SIZE_UNITS,
    unit: "B",
};

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

/// Builds `[[flows]]`: validates every key, expands `count` and node lists
/// into one flow per pair and copy (in order), resolves each group's TCP
/// parameters and checks that both directions have a route. `None` if
/// anything is invalid (already reported).
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub(super) fn build_flows(
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
        let group = group_name(errs, &t, i, "flows", "flow", &mut group_names);
        let src = required_nodes(errs, &t, "from", names);
        let dst = required_nodes(errs, &t, "to", names);
        let count = count(errs, &t);
        let st = start(errs, &t, duration_v);
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
                let made = expand(
                    errs,
                    &t,
                    &mut flows,
                    pairs,
                    count,
                    "flows",
                    |id, src, dst| FlowSpec {
                        id: FlowId(id as u32),
                        group: group.clone(),
                        src,
                        dst,
                        start,
                        app: AppSpec::Bulk(size),
                        tcp: tcp.clone(),
                    },
                );
                if !made {
                    return None;
                }
            }
            _ => all_ok = false,
        }
    }
    all_ok.then_some(flows)
}
