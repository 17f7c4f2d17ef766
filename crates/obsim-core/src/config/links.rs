//! Schema of `[[links]]`: rate, delay, output buffer, duplex, the packet
//! loss models of each direction, and the optical keys (`kind`,
//! `wavelengths`, `burst_loss`). Documented key by key in docs/SCENARIOS.md.

use std::collections::BTreeMap;

use super::fields::{duration, quantity, quoted_list, rate, table_array, u64_list, Quantity};
use super::nodes::node_ref;
use super::scenario::{Buffer, LinkSpec, LossSpec, OpticalSpec};
use super::units::{self, Amount};
use super::walk::{
    boolean, choice, count_in, index, int_in, join, named, probability, Errors, Table, Val,
};
use crate::ids::{FlowId, NodeId};

/// Output buffer when a link gives no `buffer`: ns-2's `Queue set limit_ 50`.
pub const DEFAULT_BUFFER: Buffer = Buffer::Packets(50);

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

/// `kind`: whether the link is optical.
const LINK_KINDS: [(&str, bool); 2] = [("electronic", false), ("optical", true)];
/// The loss models (`model`), each with the keys its table may hold.
pub(crate) const LOSS_MODELS: [(&str, &[&str]); 4] = [
    ("none", &["model"]),
    ("bernoulli", &["model", "p", "data_only"]),
    ("packets", &["model", "indices"]),
    ("segments", &["model", "flow", "seqs", "retransmissions"]),
];

const BUFFER: Quantity = Quantity {
    expected: "a buffer size like \"100 packets\" or \"64 KB\", or \"unlimited\"",
    units: "packets, B, KB, MB, GB, KiB, MiB, GiB",
    unit: "packets",
};

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

/// Parses a loss model; `seg_refs` collects the flow ids `segments` names,
/// checked once flows are expanded.
pub(super) fn loss(
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
    let models: Vec<&str> = LOSS_MODELS.iter().map(|(m, _)| *m).collect();
    let model_v = probe.raw("model");
    let model = match model_v.map(|m| choice(m, &models)) {
        None => {
            errs.push(
                join(path, "model"),
                format!(
                    "required key is missing: expected one of {}",
                    quoted_list(&models)
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
    let keys = LOSS_MODELS
        .iter()
        .find(|(m, _)| *m == model)
        .map_or(&[][..], |(_, k)| k);
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

type SegRefs = Vec<(String, u64)>;

/// Builds `[[links]]`: one entry per link (`None` where it is invalid, already
/// reported) and the flow ids its `segments` loss models name, with their
/// key paths, checked once flows are expanded.
// One block per key; splitting it would scatter the link rules.
#[allow(clippy::too_many_lines)]
pub(super) fn build_links(
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
        let optical = t.get(errs, "kind", |v| named(v, &LINK_KINDS)).or(false);
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
            Some(_) if optical == Some(false) => {
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
