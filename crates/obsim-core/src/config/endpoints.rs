//! Who sends to whom and when, shared by `[[flows]]` and `[[traffic]]`:
//! group names, `count` and the expansion of a group, pairing `from` with
//! `to` lists, reachability over the links (hosts do not
//! forward) and the `start` time or range.

use std::collections::{BTreeMap, VecDeque};

use super::fields::duration;
use super::scenario::{LinkSpec, NodeKind, NodeSpec, StartSpec};
use super::units::quote;
use super::walk::{index, int_in, name, Errors, Table, Val};
use crate::ids::NodeId;
use crate::time::{SimDuration, SimTime};

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

/// Most flows a scenario may expand to (guards against `count = 1e18`); also
/// the most traffic sources.
pub const MAX_FLOWS: usize = 1_000_000;

/// The `count` of a group: copies of each source-destination pair.
pub(super) fn count(errs: &mut Errors, t: &Table<'_>) -> Option<usize> {
    t.get(errs, "count", |v| {
        int_in(v, 1, MAX_FLOWS as i128).map(|c| c as usize)
    })
    .or(1)
}

/// Expands a group into `out`: each pair `count` times, in order, each
/// made by `make(id, src, dst)` with `id` its index in `out`. False if
/// `out` would pass [`MAX_FLOWS`] (reported at `count`: at most so many
/// `what` in total).
pub(super) fn expand<T>(
    errs: &mut Errors,
    t: &Table<'_>,
    out: &mut Vec<T>,
    pairs: Vec<(NodeId, NodeId)>,
    count: usize,
    what: &str,
    make: impl Fn(usize, NodeId, NodeId) -> T,
) -> bool {
    if out.len() + pairs.len().saturating_mul(count) > MAX_FLOWS {
        errs.push(
            t.key_path("count"),
            format!("a scenario may have at most {MAX_FLOWS} {what} in total"),
        );
        return false;
    }
    for (s, d) in pairs {
        for _ in 0..count {
            out.push(make(out.len(), s, d));
        }
    }
    true
}

/// The `name` of group `i` of `table` (`"flows"`, `"traffic"`; default:
/// its path), unique among the groups of that table: `seen` maps each name
/// to its group's index; `noun` says what the groups are in messages.
pub(super) fn group_name(
    errs: &mut Errors,
    t: &Table<'_>,
    i: usize,
    table: &str,
    noun: &str,
    seen: &mut BTreeMap<String, usize>,
) -> Option<String> {
    let group = t.get(errs, "name", name).or(t.path().to_string());
    if let Some(g) = &group {
        if let Some(j) = seen.get(g) {
            errs.push(
                t.key_path("name"),
                format!(
                    "duplicate {noun} group name {} (also {table}[{j}])",
                    quote(g)
                ),
            );
        } else {
            seen.insert(g.clone(), i);
        }
    }
    group
}

/// `start`: one time, or a `[lo, hi]` range (uniform); absent = time zero.
/// Its latest time must be before the end of the run (`duration`).
pub(super) fn start(
    errs: &mut Errors,
    t: &Table<'_>,
    duration: Option<SimDuration>,
) -> Option<StartSpec> {
    let st = start_spec(errs, t);
    if let (Some(s), Some(d)) = (st, duration) {
        let last = s.latest();
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
    st
}

/// The `start` key as written.
fn start_spec(errs: &mut Errors, t: &Table<'_>) -> Option<StartSpec> {
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
