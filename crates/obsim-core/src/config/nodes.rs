//! Schema of `[[nodes]]` (name, kind, `[nodes.assembly]`,
//! `[nodes.switch]`) and of the references to nodes by name elsewhere.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::fields::table_array;
use super::scenario::{NodeKind, NodeSpec, SwitchSpec};
use super::units::quote;
use super::walk::{edit_distance, index, name, named, Errors, Table, Val};
use crate::ids::NodeId;

pub(crate) const NODE_KEYS: &[&str] = &["name", "kind", "assembly", "switch"];

/// Builds `[[nodes]]`: one entry per node (`None` where it is invalid,
/// already reported) and the id of each name; every switching node starts
/// from the resolved `[optical]` defaults.
pub(super) fn build_nodes(
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
            .get(errs, "kind", |v| named(v, &NodeKind::ALL))
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

/// The node a name refers to, with the closest name as a hint.
pub(super) fn node_ref(v: &Val, names: &BTreeMap<String, NodeId>) -> Result<NodeId, String> {
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

/// The required node list `key` of `t` (see [`node_list`]).
pub(super) fn required_nodes(
    errs: &mut Errors,
    t: &Table<'_>,
    key: &str,
    names: &BTreeMap<String, NodeId>,
) -> Option<Vec<NodeId>> {
    match t.raw(key) {
        None => {
            errs.push(
                t.key_path(key),
                "required key is missing: expected a node name or a list of node names",
            );
            None
        }
        Some(v) => node_list(errs, &t.key_path(key), v, names),
    }
}
