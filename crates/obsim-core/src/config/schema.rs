//! The scenario schema: walks a [`Val`] tree (from TOML or JSON), applies
//! defaults, checks every key and every cross-reference, and builds the
//! resolved [`Scenario`]. This module reads the document level (`name`,
//! `[simulation]`) and hands each table to its topic module; `docs/SCENARIOS.md`
//! documents every key; keep the two in step.

use super::error::ConfigErrors;
use super::fields::{duration, flow_id_reason, positive_duration, table_array};
use super::scenario::{AppSpec, LinkSpec, NodeSpec, Routing, Scenario, SwitchSpec};
use super::tcp::{parse_tcp, resolve_tcp};
use super::walk::{int_in, name, named, Errors, Table, Val};
use crate::time::SimDuration;

pub use super::endpoints::MAX_FLOWS;
pub use super::links::DEFAULT_BUFFER;
pub use super::tcp::DEFAULT_PROFILE;

/// Scenario name when `name` is absent.
pub const DEFAULT_NAME: &str = "scenario";

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
    "flow_generators",
];

/// `simulation.stop`: whether the run ends when every finite flow is done.
const STOPS: [(&str, bool); 2] = [("time", false), ("flows_done", true)];

pub(crate) const SIM_KEYS: &[&str] = &["duration", "warmup", "seed", "stop", "routing"];

/// Builds and validates a scenario from a parsed document.
pub fn build(root: &Val) -> Result<Scenario, ConfigErrors> {
    let mut errs = Errors::default();
    // `repeat = N` tables become N tables first (config/repeat.rs); errors
    // then name the tables as written.
    let (root, origins) = super::repeat::expand(&mut errs, root);
    let s = build_inner(&mut errs, &root);
    errs.finish(s).map_err(|e| origins.name_sources(e))
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
        stop = t.get(errs, "stop", |v| named(v, &STOPS)).or(false);
        routing = t
            .get(errs, "routing", |v| named(v, &Routing::ALL))
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
    let (nodes, names) = super::nodes::build_nodes(errs, &top, optical.as_ref());
    // [[links]]
    let (links, seg_refs) = super::links::build_links(errs, &top, &names);
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
    let flows = super::flows::build_flows(
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

    // [[flow_generators]]
    let flow_generators = super::flowgen::build(
        errs,
        &top,
        &names,
        &tcp_top,
        duration_v,
        &nodes,
        &links,
        topology_ok,
    );

    // [trace]
    let ids = match (&flows, &traffic, &flow_generators) {
        (Some(f), Some(t), Some(g)) => Some(super::trace::TraceIds {
            declared: f.len(),
            generated: (!g.is_empty()).then_some(f.len() + t.len()),
        }),
        _ => None,
    };
    let trace = super::trace::build_trace(errs, &top, ids, &empty);
    // [metrics]
    let metrics = super::metrics::build_metrics(errs, &top, &names, &empty);

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
        flow_generators: flow_generators?,
    })
}
