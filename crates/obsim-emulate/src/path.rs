//! The emulated path: the chain of stages a real packet crosses between the
//! two namespaces, read off an ordinary obsim scenario so that a simulation
//! and an emulation of the same file model the same network.
//!
//! The flow's route (fewest hops, as `simulation.routing = "hops"`) from its
//! source host to its destination host is cut into stages:
//! - each electronic link is a [`LinkStage`]: drop-tail output buffer,
//!   transmission at the link's rate, propagation delay (as obsim's
//!   `net::Channel`);
//! - each stretch of optical links is one [`OpticalStage`]: burst assembly
//!   at its ingress edge (the node's `[nodes.assembly]`), the JET offset
//!   `Σ Δ` of the nodes after the ingress plus the edge's `extra_offset`
//!   (`obs::signalling::JetPath`), the burst's transmission at one
//!   wavelength's rate, each optical link's propagation delay and per-burst
//!   loss (`burst_loss`), and disassembly at the egress edge.
//!
//! The reverse direction (the receiver's ACKs) crosses the same links
//! backwards; its optical stretch assembles only when the edge's `acks =
//! "assemble"` (the default `"bypass"` sends ACKs across as packets:
//! gurel2008 §3, "ACK packets do not experience any drops or assembly
//! delays").

use std::collections::VecDeque;

use obsim_core::config::scenario::{AckHandling, Buffer, LossSpec, NodeKind};
use obsim_core::config::Scenario;
use obsim_core::ids::NodeId;
use obsim_core::obs::assembly::{AssemblyConfig, Selection};
use obsim_core::obs::loss::BurstLossSpec;
use obsim_core::time::SimDuration;

/// Why a scenario cannot be emulated; the message names the key.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// No flow of that name, or no flow at all.
    #[error("flows: {0}")]
    Flow(String),
    /// The flow's endpoints or route are not what the emulator can run.
    #[error("{0}")]
    Unsupported(String),
}

/// A direction along the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// From the flow's source host to its destination (data).
    Forward,
    /// Back from the destination to the source (ACKs).
    Reverse,
}

impl Dir {
    /// Index 0 (forward) or 1 (reverse), for per-direction arrays.
    pub fn index(self) -> usize {
        match self {
            Dir::Forward => 0,
            Dir::Reverse => 1,
        }
    }

    /// The direction with index `i` (0 forward, else reverse).
    pub fn from_index(i: usize) -> Self {
        if i == 0 {
            Dir::Forward
        } else {
            Dir::Reverse
        }
    }
}

/// One direction of an electronic link.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkStage {
    /// `from->to` as the packets cross it.
    pub name: String,
    /// Bit rate (`links[i].rate`).
    pub rate_bps: u64,
    /// Propagation delay (`links[i].delay`).
    pub delay: SimDuration,
    /// Output buffer at the sending end (`links[i].buffer`).
    pub buffer: Buffer,
}

/// One optical link of an optical stretch, in the direction crossed.
#[derive(Clone, Debug, PartialEq)]
pub struct OpticalHop {
    /// `from->to` as the bursts cross it.
    pub name: String,
    /// Rate of one wavelength (`links[i].rate`).
    pub rate_bps: u64,
    /// Propagation delay (`links[i].delay`).
    pub delay: SimDuration,
    /// Per-burst loss in this direction (`burst_loss` or
    /// `reverse_burst_loss`).
    pub loss: Option<BurstLossSpec>,
}

/// A stretch of optical links between two edge nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct OpticalStage {
    /// Ingress edge (name).
    pub ingress: String,
    /// Egress edge (name).
    pub egress: String,
    /// Ingress and egress as scenario node ids (bursts carry them).
    pub ends: (NodeId, NodeId),
    /// Burst assembly at the ingress, or `None` when packets cross one by
    /// one (ACKs with `acks = "bypass"`).
    pub assembly: Option<AssemblyConfig>,
    /// JET offset: `Σ Δ` over the nodes after the ingress, plus the
    /// ingress edge's `extra_offset`.
    pub offset: SimDuration,
    /// The optical links in order.
    pub hops: Vec<OpticalHop>,
}

impl OpticalStage {
    /// Total propagation delay over the stretch.
    pub fn propagation(&self) -> SimDuration {
        self.hops
            .iter()
            .fold(SimDuration::ZERO, |acc, h| acc + h.delay)
    }

    /// Rate of the first link (a burst's transmission time is set there; it
    /// cuts through the later ones).
    pub fn rate_bps(&self) -> u64 {
        self.hops.first().map_or(1, |h| h.rate_bps)
    }
}

/// One stage of the path.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// An electronic link.
    Link(LinkStage),
    /// An optical stretch.
    Optical(OpticalStage),
}

/// The path of one flow, both directions.
#[derive(Clone, Debug, PartialEq)]
pub struct EmuPath {
    /// The flow's name (`flows[i].name`).
    pub flow: String,
    /// Source host (its namespace runs the sender).
    pub src: String,
    /// Destination host (its namespace runs the receiver).
    pub dst: String,
    /// Stages from source to destination.
    pub forward: Vec<Stage>,
    /// Stages from destination to source.
    pub reverse: Vec<Stage>,
}

impl EmuPath {
    /// The stages of direction `d`.
    pub fn stages(&self, d: Dir) -> &[Stage] {
        match d {
            Dir::Forward => &self.forward,
            Dir::Reverse => &self.reverse,
        }
    }

    /// The path with each direction's first link left to the kernel: the
    /// front end shapes the sending namespace's device to that link's rate
    /// and buffer (a `tbf` qdisc), so the kernel's TCP sees its access link
    /// as its own interface (TCP small queues then hold back what it
    /// queues, as on a real host), and the emulator keeps only the link's
    /// propagation delay. Nothing changes if a direction starts with an
    /// optical stretch.
    #[must_use]
    pub fn with_kernel_access(mut self) -> Self {
        for stages in [&mut self.forward, &mut self.reverse] {
            if let Some(Stage::Link(l)) = stages.first_mut() {
                l.name
                    .push_str(" (delay only; rate and buffer in the kernel)");
                l.rate_bps = u64::MAX;
                l.buffer = Buffer::Unlimited;
            }
        }
        self
    }

    /// The first link of direction `d` as the scenario declares it (rate
    /// and buffer), if the direction starts with one.
    pub fn first_link(&self, d: Dir) -> Option<&LinkStage> {
        match self.stages(d).first() {
            Some(Stage::Link(l)) => Some(l),
            _ => None,
        }
    }

    /// Reads the path of flow `flow` (the first flow when `None`) off
    /// `sc`.
    pub fn from_scenario(sc: &Scenario, flow: Option<&str>) -> Result<Self, PathError> {
        let f = match flow {
            Some(name) => sc.flows.iter().find(|f| f.group == name).ok_or_else(|| {
                let names: Vec<&str> = sc.flows.iter().map(|f| f.group.as_str()).collect();
                PathError::Flow(format!("no flow named {name:?}; the scenario has {names:?}"))
            })?,
            None => sc.flows.first().ok_or_else(|| {
                PathError::Flow("the scenario declares no flow: emulate needs one [[flows]] entry to read its path".into())
            })?,
        };
        let node = |n: NodeId| &sc.nodes[n.index()];
        for (end, key) in [(f.src, "from"), (f.dst, "to")] {
            if node(end).kind != NodeKind::Host {
                return Err(PathError::Unsupported(format!(
                    "flows.{}.{key}: {:?} is not a host; emulate runs the sender and the receiver in namespaces that stand for the two hosts",
                    f.group,
                    node(end).name
                )));
            }
        }
        let route = route(sc, f.src, f.dst).ok_or_else(|| {
            PathError::Unsupported(format!(
                "flows.{}: no route from {:?} to {:?}",
                f.group,
                node(f.src).name,
                node(f.dst).name
            ))
        })?;
        let forward = stages(sc, &route, Dir::Forward)?;
        let back: Vec<NodeId> = route.iter().rev().copied().collect();
        let reverse = stages(sc, &back, Dir::Reverse)?;
        Ok(EmuPath {
            flow: f.group.clone(),
            src: node(f.src).name.clone(),
            dst: node(f.dst).name.clone(),
            forward,
            reverse,
        })
    }
}

/// The link between `a` and `b` (either way) and whether it is declared
/// `a -> b`.
fn link_between(sc: &Scenario, a: NodeId, b: NodeId) -> Option<(usize, bool)> {
    sc.links.iter().enumerate().find_map(|(i, l)| {
        if l.from == a && l.to == b {
            Some((i, true))
        } else if l.from == b && l.to == a && l.duplex {
            Some((i, false))
        } else {
            None
        }
    })
}

/// Fewest-hop route from `src` to `dst` over links usable both ways
/// (breadth-first, neighbours in link declaration order: the route obsim's
/// hop routing picks when it is unique). Hosts do not forward.
fn route(sc: &Scenario, src: NodeId, dst: NodeId) -> Option<Vec<NodeId>> {
    let n = sc.nodes.len();
    let mut prev: Vec<Option<NodeId>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([src]);
    seen[src.index()] = true;
    while let Some(u) = queue.pop_front() {
        if u == dst {
            let mut path = vec![dst];
            let mut c = dst;
            while let Some(p) = prev[c.index()] {
                path.push(p);
                c = p;
            }
            path.reverse();
            return Some(path);
        }
        if u != src && sc.nodes[u.index()].kind == NodeKind::Host {
            continue;
        }
        for l in &sc.links {
            if !l.duplex {
                continue;
            }
            let v = if l.from == u {
                l.to
            } else if l.to == u {
                l.from
            } else {
                continue;
            };
            if !seen[v.index()] {
                seen[v.index()] = true;
                prev[v.index()] = Some(u);
                queue.push_back(v);
            }
        }
    }
    None
}

/// Cuts the node sequence `nodes` (crossed in direction `dir`) into stages.
#[allow(clippy::many_single_char_names)] // a, b, x, y: nodes; i, j: positions
fn stages(sc: &Scenario, nodes: &[NodeId], dir: Dir) -> Result<Vec<Stage>, PathError> {
    let name = |n: NodeId| sc.nodes[n.index()].name.as_str();
    let mut out: Vec<Stage> = Vec::new();
    let mut i = 0;
    while i + 1 < nodes.len() {
        let (a, b) = (nodes[i], nodes[i + 1]);
        let (li, declared) = link_between(sc, a, b).expect("the route follows links");
        let link = &sc.links[li];
        if link.optical.is_none() {
            let loss = if declared {
                &link.loss
            } else {
                &link.reverse_loss
            };
            if *loss != LossSpec::None {
                let key = if declared { "loss" } else { "reverse_loss" };
                return Err(PathError::Unsupported(format!(
                    "links[{li}].{key}: emulate models burst loss in the optical core only; remove the packet loss model of {}->{}",
                    name(a),
                    name(b)
                )));
            }
            out.push(Stage::Link(LinkStage {
                name: format!("{}->{}", name(a), name(b)),
                rate_bps: link.rate_bps,
                delay: link.delay,
                buffer: link.buffer,
            }));
            i += 1;
            continue;
        }
        // An optical stretch starting at `a`: follow optical links.
        let ingress = a;
        let mut hops = Vec::new();
        let mut offset = SimDuration::ZERO;
        let mut j = i;
        while j + 1 < nodes.len() {
            let (x, y) = (nodes[j], nodes[j + 1]);
            let (lj, fwd) = link_between(sc, x, y).expect("the route follows links");
            let l = &sc.links[lj];
            let Some(opt) = &l.optical else { break };
            hops.push(OpticalHop {
                name: format!("{}->{}", name(x), name(y)),
                rate_bps: l.rate_bps,
                delay: l.delay,
                loss: if fwd {
                    opt.burst_loss
                } else {
                    opt.reverse_burst_loss
                },
            });
            // JET: Δ of every node after the ingress (signalling.rs).
            offset += sc.nodes[y.index()].switch.processing;
            j += 1;
        }
        let egress = nodes[j];
        let edge = sc.nodes[ingress.index()].edge.as_ref();
        let assemble = match dir {
            Dir::Forward => true,
            Dir::Reverse => edge.is_some_and(|e| e.acks == AckHandling::Assemble),
        };
        let assembly = if assemble {
            let e = edge.ok_or_else(|| {
                PathError::Unsupported(format!(
                    "nodes.{}.assembly: the ingress edge of the flow's optical stretch has no burst assembly",
                    name(ingress)
                ))
            })?;
            if matches!(e.assembly.selection, Selection::WindowBased { .. }) {
                return Err(PathError::Unsupported(format!(
                    "nodes.{}.assembly.selection: window-based assembly reads the sender's cwnd, which a real kernel does not expose to the emulator; use \"mixed\", \"per_flow\", \"smq\" or \"dmq\"",
                    name(ingress)
                )));
            }
            Some(e.assembly.clone())
        } else {
            None
        };
        offset += edge.map_or(SimDuration::ZERO, |e| e.extra_offset);
        out.push(Stage::Optical(OpticalStage {
            ingress: name(ingress).to_string(),
            egress: name(egress).to_string(),
            ends: (ingress, egress),
            assembly,
            offset,
            hops,
        }));
        i = j;
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const CHAIN: &str = r#"
name = "emu-chain"
[simulation]
duration = "10 s"
[tcp]
profile = "rfc"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "E1"
kind = "edge"
[nodes.assembly]
trigger = "timer"
timeout = "5 ms"
[nodes.switch]
processing = "20 us"
[[nodes]]
name = "C"
kind = "core"
[nodes.switch]
processing = "30 us"
[[nodes]]
name = "E2"
kind = "edge"
[nodes.assembly]
trigger = "timer"
timeout = "5 ms"
[nodes.switch]
processing = "40 us"
[[nodes]]
name = "b"
kind = "host"
[[links]]
from = "a"
to = "E1"
rate = "20 Mbit/s"
delay = "1 ms"
buffer = "100 packets"
[[links]]
from = "E1"
to = "C"
kind = "optical"
rate = "10 Gbit/s"
delay = "2 ms"
burst_loss = { p = 0.01, pattern = "random" }
[[links]]
from = "C"
to = "E2"
kind = "optical"
rate = "10 Gbit/s"
delay = "3 ms"
[[links]]
from = "E2"
to = "b"
rate = "20 Mbit/s"
delay = "1 ms"
[[flows]]
name = "bulk"
from = "a"
to = "b"
"#;

    #[test]
    fn chain_is_cut_into_link_optical_link() {
        let sc = obsim_core::config::parse_toml(CHAIN).unwrap();
        let p = EmuPath::from_scenario(&sc, None).unwrap();
        assert_eq!((p.src.as_str(), p.dst.as_str()), ("a", "b"));
        assert_eq!(p.forward.len(), 3);
        let Stage::Optical(o) = &p.forward[1] else {
            panic!("optical stage expected")
        };
        assert_eq!((o.ingress.as_str(), o.egress.as_str()), ("E1", "E2"));
        assert_eq!(o.hops.len(), 2);
        // JET: Δ of C and E2, not of the ingress E1.
        assert_eq!(o.offset, SimDuration::from_micros(70));
        assert_eq!(o.propagation(), SimDuration::from_millis(5));
        assert!(o.assembly.is_some());
        assert!(o.hops[0].loss.is_some() && o.hops[1].loss.is_none());
        // ACKs bypass assembly (the default), and no reverse burst loss.
        let Stage::Optical(r) = &p.reverse[1] else {
            panic!("optical stage expected")
        };
        assert_eq!((r.ingress.as_str(), r.egress.as_str()), ("E2", "E1"));
        assert!(r.assembly.is_none());
        assert!(r.hops.iter().all(|h| h.loss.is_none()));
        // C's and E1's Δ on the way back.
        assert_eq!(r.offset, SimDuration::from_micros(50));
    }

    #[test]
    fn kernel_access_keeps_only_the_first_links_delay() {
        let sc = obsim_core::config::parse_toml(CHAIN).unwrap();
        let p = EmuPath::from_scenario(&sc, None).unwrap();
        let k = p.clone().with_kernel_access();
        for d in [Dir::Forward, Dir::Reverse] {
            let (a, b) = (p.first_link(d).unwrap(), k.first_link(d).unwrap());
            assert_eq!(a.delay, b.delay);
            assert_eq!((b.rate_bps, b.buffer), (u64::MAX, Buffer::Unlimited));
            assert_eq!(p.stages(d)[1..], k.stages(d)[1..]);
        }
    }

    #[test]
    fn unknown_flow_and_non_host_ends_are_named() {
        let sc = obsim_core::config::parse_toml(CHAIN).unwrap();
        let e = EmuPath::from_scenario(&sc, Some("nope"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no flow named \"nope\"") && e.contains("bulk"),
            "{e}"
        );
        let lossy = CHAIN.replace(
            "delay = \"1 ms\"\nbuffer = \"100 packets\"",
            "delay = \"1 ms\"\nbuffer = \"100 packets\"\nloss = { model = \"bernoulli\", p = 0.1 }",
        );
        let sc = obsim_core::config::parse_toml(&lossy).unwrap();
        let e = EmuPath::from_scenario(&sc, None).unwrap_err().to_string();
        assert!(e.starts_with("links[0].loss:"), "{e}");
    }
}
