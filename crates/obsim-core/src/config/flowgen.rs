//! Schema of `[[flow_generators]]` (issue 12): Poisson arrivals of
//! short-lived TCP flows at one source node, towards a set of destination
//! nodes (uniform, or a traffic-matrix row in `weights`), with a size law
//! and an access model. Documented key by key in docs/SCENARIOS.md.

use std::collections::BTreeMap;

use super::endpoints::{adjacency, group_name, reachable};
use super::fields::{duration, positive_duration, rate, table_array};
use super::nodes::{node_ref, required_nodes};
use super::scenario::{Access, FlowGenSpec, LinkSpec, NodeSpec};
use super::tcp::{parse_tcp, resolve_tcp, TcpOverrides};
use super::units::quote;
use super::walk::{array, choice, index, Errors, Table, Val};
use crate::ids::NodeId;
use crate::tcp::config::FtoDetection;
use crate::time::{SimDuration, SimTime};

/// Keys of a `[[flow_generators]]` table.
pub(crate) const FLOWGEN_KEYS: &[&str] = &[
    "name",
    "from",
    "to",
    "weights",
    "rate",
    "size",
    "start",
    "stop",
    "tcp",
    "access",
    "access_rate",
    "access_delay",
];

/// Values of `access`.
const ACCESS: &[&str] = &["shared", "pipe"];

/// λ: a positive, finite number of flows per second.
fn arrival_rate(v: &Val) -> Result<f64, String> {
    match v {
        Val::Int(i) if *i > 0 => Ok(*i as f64),
        Val::Float(x) if x.is_finite() && *x > 0.0 => Ok(*x),
        _ => Err(format!(
            "expected a positive number of flow arrivals per second (λ) like 50, found {}",
            v.describe()
        )),
    }
}

/// The `weights` row: one positive number per entry of `to`.
fn weights(errs: &mut Errors, t: &Table<'_>, n_to: Option<usize>) -> Option<Vec<f64>> {
    let Some(v) = t.raw("weights") else {
        return n_to.map(|n| vec![1.0; n]);
    };
    let path = t.key_path("weights");
    let items = match array(v) {
        Ok(a) => a,
        Err(e) => {
            errs.push(path, e);
            return None;
        }
    };
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, x) in items.iter().enumerate() {
        match x {
            Val::Int(n) if *n > 0 => out.push(*n as f64),
            Val::Float(f) if f.is_finite() && *f > 0.0 => out.push(*f),
            _ => {
                errs.push(
                    index(&path, i),
                    format!(
                        "expected a positive relative rate (a traffic-matrix entry), found {}",
                        x.describe()
                    ),
                );
                ok = false;
            }
        }
    }
    let n_to = n_to?;
    if out.len() != n_to && ok {
        errs.push(
            path,
            format!(
                "expected one weight per destination in `to` ({n_to}), found {}",
                out.len()
            ),
        );
        return None;
    }
    ok.then_some(out)
}

/// The access model: `access` and the pipe's `access_rate`/`access_delay`.
fn access(errs: &mut Errors, t: &Table<'_>) -> Option<Access> {
    let kind = t.get(errs, "access", |v| choice(v, ACCESS)).or("shared")?;
    if kind == "shared" {
        for key in ["access_rate", "access_delay"] {
            if t.has(key) {
                errs.push(
                    t.key_path(key),
                    "only read by access = \"pipe\"; remove it or set access = \"pipe\"",
                );
            }
        }
        return Some(Access::Shared);
    }
    let rate_bps = t.req(
        errs,
        "access_rate",
        "a positive bit rate like \"100 Mbit/s\" (each flow's access pipe)",
        rate,
    );
    let delay = t.get(errs, "access_delay", duration).or(SimDuration::ZERO);
    Some(Access::Pipe {
        rate_bps: rate_bps?,
        delay: delay?,
    })
}

/// Builds `[[flow_generators]]`: validates every key, resolves each
/// generator's TCP parameters and checks that its source and each
/// destination reach each other. `None` if anything is invalid (reported).
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub(super) fn build(
    errs: &mut Errors,
    top: &Table<'_>,
    names: &BTreeMap<String, NodeId>,
    tcp_top: &TcpOverrides,
    duration_v: Option<SimDuration>,
    nodes: &[Option<NodeSpec>],
    links: &[Option<LinkSpec>],
    topology_ok: bool,
) -> Option<Vec<FlowGenSpec>> {
    let items = table_array(errs, top, "flow_generators");
    let adj = adjacency(nodes.len(), links);
    let mut reach: BTreeMap<NodeId, Vec<bool>> = BTreeMap::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let mut all_ok = true;
    for (i, v) in items.iter().enumerate() {
        let path = index("flow_generators", i);
        let Some(t) = Table::open(errs, &path, v, FLOWGEN_KEYS) else {
            all_ok = false;
            continue;
        };
        let name = group_name(errs, &t, i, "flow_generators", "flow generator", &mut seen);
        let src = t.req(
            errs,
            "from",
            "the name of a node declared in [[nodes]]",
            |v| node_ref(v, names),
        );
        let to = required_nodes(errs, &t, "to", names);
        let w = weights(errs, &t, to.as_ref().map(Vec::len));
        let lambda = t.req(
            errs,
            "rate",
            "a positive number of flow arrivals per second (λ) like 50",
            arrival_rate,
        );
        let size = if let Some(sv) = t.raw("size") {
            super::size::size_law(errs, &t.key_path("size"), sv)
        } else {
            errs.push(
                t.key_path("size"),
                "required key is missing: expected a flow size like \"700 KB\"",
            );
            None
        };
        let start = t.get(errs, "start", duration).or(SimDuration::ZERO);
        let stop = t.get(errs, "stop", positive_duration).optional();
        if let (Some(s), Some(d)) = (start, duration_v) {
            if s >= d {
                errs.push(
                    t.key_path("start"),
                    format!("expected a start before simulation.duration ({d}), found {s}"),
                );
            }
        }
        if let (Some(s), Some(Some(e))) = (start, stop) {
            if e <= s {
                errs.push(
                    t.key_path("stop"),
                    format!("expected a stop time later than start ({s}), found {e}"),
                );
            }
        }
        let group_tcp = t
            .raw("tcp")
            .map(|tv| parse_tcp(errs, &t.key_path("tcp"), tv));
        let tcp = resolve_tcp(errs, tcp_top, group_tcp.as_ref());
        if let Some(cfg) = &tcp {
            // The OBS edges send burst signals (yu2004 §IV.B-C: BACK, BNAK)
            // to declared flows only (`obs/signalling.rs` keeps one scratch
            // entry per declared flow); a generated flow that waited for
            // them would get none, so such a scenario is refused.
            if matches!(
                cfg.fto,
                FtoDetection::Back { .. } | FtoDetection::Bnak { .. }
            ) {
                errs.push(
                    t.key_path("tcp.fto_detection"),
                    "expected \"none\" or \"ble\" for generated flows (burst signals, BACK and BNAK, \
                     reach declared [[flows]] only), found a detection that reads burst signals"
                        .to_string(),
                );
            }
        }
        let acc = access(errs, &t);

        let mut routed = true;
        if let (Some(a), Some(to)) = (src, &to) {
            let name_of = |n: NodeId| {
                nodes[n.index()]
                    .as_ref()
                    .map_or(String::new(), |s| quote(&s.name))
            };
            for (j, &b) in to.iter().enumerate() {
                let at = if matches!(t.raw("to"), Some(Val::Array(_))) {
                    index(&t.key_path("to"), j)
                } else {
                    t.key_path("to")
                };
                if a == b {
                    errs.push(
                        at,
                        format!("a flow cannot go from node {} to itself", name_of(a)),
                    );
                    routed = false;
                    continue;
                }
                if !topology_ok {
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    let r = reach.entry(x).or_insert_with(|| reachable(x, nodes, &adj));
                    if !r[y.index()] {
                        errs.push(
                            at.clone(),
                            format!(
                                "no route from node {} to node {} over the links (hosts do not forward; check duplex)",
                                name_of(x),
                                name_of(y)
                            ),
                        );
                        routed = false;
                        break;
                    }
                }
            }
        }
        match (name, src, to, w, lambda, size, start, stop, tcp, acc) {
            (
                Some(name),
                Some(src),
                Some(to),
                Some(weights),
                Some(rate),
                Some(size),
                Some(start),
                Some(stop),
                Some(tcp),
                Some(access),
            ) if routed => out.push(FlowGenSpec {
                name,
                src,
                to,
                weights,
                rate,
                size,
                start: SimTime(start.0),
                stop: stop.map(|d| SimTime(d.0)),
                tcp,
                access,
            }),
            _ => all_ok = false,
        }
    }
    all_ok.then_some(out)
}

#[cfg(test)]
mod tests {
    use crate::config::parse_toml;

    const NET: &str = r#"
        [simulation]
        duration = "10 s"
        [[nodes]]
        name = "a"
        [[nodes]]
        name = "r"
        kind = "router"
        [[nodes]]
        name = "b"
        [[nodes]]
        name = "c"
        [[links]]
        from = "a"
        to = "r"
        rate = "100 Mbit/s"
        delay = "1 ms"
        [[links]]
        from = "r"
        to = "b"
        rate = "100 Mbit/s"
        delay = "1 ms"
    "#;

    fn errors(gen: &str) -> String {
        match parse_toml(&format!("{NET}\n[[flow_generators]]\n{gen}")) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_valid_generator_parses_with_its_defaults() {
        let s = parse_toml(&format!(
            "{NET}\n[[flow_generators]]\nfrom = \"a\"\nto = \"b\"\nrate = 50\nsize = \"700 KB\""
        ))
        .unwrap();
        let g = &s.flow_generators[0];
        assert_eq!(g.name, "flow_generators[0]");
        assert_eq!(g.weights, vec![1.0]);
        assert!((g.rate - 50.0).abs() < f64::EPSILON);
        assert_eq!(g.access, super::Access::Shared);
        assert_eq!(g.stop, None);
    }

    #[test]
    fn bad_input_names_its_key_path() {
        let base = "from = \"a\"\nto = \"b\"\nsize = \"1 KB\"\n";
        for (extra, path, words) in [
            (
                "rate = 0",
                "flow_generators[0].rate",
                "positive number of flow arrivals",
            ),
            ("rate = -3.5", "flow_generators[0].rate", "positive"),
            (
                "rate = 1\naccess = \"pipe\"\naccess_rate = \"0 Mbit/s\"",
                "flow_generators[0].access_rate",
                "greater than zero",
            ),
            (
                "rate = 1\nweights = [1, 2]",
                "flow_generators[0].weights",
                "one weight per destination",
            ),
            (
                "rate = 1\nweights = [0]",
                "flow_generators[0].weights[0]",
                "positive relative rate",
            ),
            (
                "rate = 1\naccess_rate = \"1 Mbit/s\"",
                "flow_generators[0].access_rate",
                "only read by access = \"pipe\"",
            ),
            (
                "rate = 1\n[flow_generators.tcp]\nfto_detection = \"back\"",
                "flow_generators[0].tcp.fto_detection",
                "reach declared [[flows]] only",
            ),
            (
                "rate = 1\n[flow_generators.tcp]\nfto_detection = \"bnak\"",
                "flow_generators[0].tcp.fto_detection",
                "reach declared [[flows]] only",
            ),
        ] {
            let e = errors(&format!("{base}{extra}"));
            assert!(e.contains(path) && e.contains(words), "{extra}: {e}");
        }
        // BLE reads no burst signal: generated flows may use it.
        assert_eq!(
            errors(&format!(
                "{base}rate = 1\n[flow_generators.tcp]\nfto_detection = \"ble\""
            )),
            ""
        );
        let e = errors("from = \"a\"\nto = [\"b\", \"c\"]\nrate = 1\nsize = \"1 KB\"");
        assert!(
            e.contains("flow_generators[0].to[1]") && e.contains("no route"),
            "{e}"
        );
        let e = errors("from = \"a\"\nto = \"x\"\nrate = 1\nsize = \"1 KB\"");
        assert!(
            e.contains("flow_generators[0].to") && e.contains("no such node"),
            "{e}"
        );
    }
}
