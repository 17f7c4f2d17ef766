//! Static shortest-path routing, computed once before the run.
//!
//! For every (node, destination) pair the table gives the outgoing channel;
//! it stores them for the core nodes only and answers for stub nodes (a
//! host on its one access link) from their gateway ([`RoutingTable`]).
//! Paths minimise (metric, hops) where the metric is the hop count or the
//! total propagation delay; remaining ties go to the lower first-hop node id,
//! so the routes depend only on the scenario. Hosts do not forward transit
//! traffic: a path may start or end at a host but never cross one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::scenario::Routing;
use crate::ids::{LinkId, NodeId};
use crate::net::channel::Channel;

/// Next-hop table over the *core* nodes, with stub nodes answered from
/// their gateway.
///
/// A stub is a node with exactly one channel out and one channel in, both to
/// the same neighbour, its gateway (a host on its access link, the usual
/// case): every route from it starts with its uplink, every route to it ends
/// with its downlink, and it is never crossed (a simple path cannot pass a
/// node of one neighbour). So only the core nodes' table is stored
/// (`core² ` entries instead of `nodes²`: 4 entries instead of 4 million for a
/// dumbbell of 2 000 hosts, issue 12), and a stub's routes are those of its
/// gateway, which give the same hops as the full table, ties included
/// (tested against it).
#[derive(Clone, Debug)]
pub struct RoutingTable {
    /// Core nodes.
    nc: usize,
    /// Core index of each node, or `NOT_CORE` for a stub.
    core: Vec<u32>,
    /// Each stub's (gateway, uplink, downlink), by node; `None` for a core node.
    stub: Vec<Option<(NodeId, LinkId, LinkId)>>,
    /// Whether each node forwards traffic it did not originate.
    transit: Vec<bool>,
    /// `next[core(node) * nc + core(dst)]` is the channel to take.
    next: Vec<Option<LinkId>>,
    /// Far end of each channel, by link id.
    ends: Vec<NodeId>,
}

const NOT_CORE: u32 = u32::MAX;

/// One hop of a route: the channel taken and the node it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// Channel crossed.
    pub ch: LinkId,
    /// Node reached.
    pub to: NodeId,
}

/// Each node's (gateway, uplink, downlink) if it is a stub: one channel
/// out, one in, to the same other node, whose own links are not just this
/// one pair (two nodes linked only to each other stay core).
fn stubs(n: usize, channels: &[&Channel]) -> Vec<Option<(NodeId, LinkId, LinkId)>> {
    let mut up: Vec<(u32, Option<LinkId>)> = vec![(0, None); n];
    let mut down: Vec<(u32, Option<LinkId>)> = vec![(0, None); n];
    for (i, c) in channels.iter().enumerate() {
        let u = &mut up[c.from.index()];
        u.0 += 1;
        u.1 = Some(LinkId(i as u32));
        let d = &mut down[c.to.index()];
        d.0 += 1;
        d.1 = Some(LinkId(i as u32));
    }
    let one = |v: usize| -> Option<(NodeId, LinkId, LinkId)> {
        let (1, Some(u)) = up[v] else { return None };
        let (1, Some(d)) = down[v] else { return None };
        let g = channels[u.index()].to;
        (channels[d.index()].from == g && g.index() != v).then_some((g, u, d))
    };
    (0..n)
        .map(|v| {
            let s = one(v)?;
            // Two nodes linked only to each other: keep both in the core.
            match one(s.0.index()) {
                Some((g, _, _)) if g.index() == v => None,
                _ => Some(s),
            }
        })
        .collect()
}

impl RoutingTable {
    /// Computes routes over `channels` between `n` nodes; `transit[i]` says
    /// whether node `i` may forward traffic it did not originate.
    pub fn shortest_paths<C: AsRef<Channel>>(
        n: usize,
        channels: &[C],
        transit: &[bool],
        metric: Routing,
    ) -> Self {
        let channels: Vec<&Channel> = channels.iter().map(AsRef::as_ref).collect();
        let stub = stubs(n, &channels);
        let mut core = vec![NOT_CORE; n];
        let mut nc = 0usize;
        for v in 0..n {
            if stub[v].is_none() {
                core[v] = nc as u32;
                nc += 1;
            }
        }
        let mut next = vec![None; nc * nc];
        let is_core = |v: usize| core[v] != NOT_CORE;
        dijkstra_all(n, &channels, transit, metric, is_core, |src, row| {
            for (dst, b) in row.iter().enumerate() {
                if core[dst] != NOT_CORE {
                    next[core[src] as usize * nc + core[dst] as usize] = *b;
                }
            }
        });
        let ends = channels.iter().map(|c| c.to).collect();
        Self {
            nc,
            core,
            stub,
            transit: transit.to_vec(),
            next,
            ends,
        }
    }

    /// The hops of the route from `from` to `dst`, in order, ending at `dst`
    /// (none when `from == dst`; cut short where no route goes on). At most
    /// one hop more than there are channels, so a routing loop cannot hang
    /// a walk. The one route walk: egress lookup, JET offsets and the
    /// optical-domain checks all follow it.
    pub fn walk(&self, from: NodeId, dst: NodeId) -> impl Iterator<Item = Hop> + '_ {
        let mut n = from;
        let mut left = self.ends.len() + 1;
        std::iter::from_fn(move || {
            if n == dst || left == 0 {
                return None;
            }
            let ch = self.next_hop(n, dst)?;
            n = self.ends[ch.index()];
            left -= 1;
            Some(Hop { ch, to: n })
        })
    }

    /// Channel to take from `node` towards `dst`, if any route exists.
    #[inline]
    pub fn next_hop(&self, node: NodeId, dst: NodeId) -> Option<LinkId> {
        if node == dst {
            return None;
        }
        // A stub sends everything up to its gateway, if the route goes on.
        if let Some((g, up, _)) = self.stub[node.index()] {
            return (g == dst || (self.transit[g.index()] && self.next_hop(g, dst).is_some()))
                .then_some(up);
        }
        // Towards a stub: as towards its gateway, then down.
        let mut to = dst;
        if let Some((g, _, down)) = self.stub[dst.index()] {
            if g == node {
                return Some(down);
            }
            if !self.transit[g.index()] {
                return None;
            }
            to = g;
        }
        let (a, b) = (self.core[node.index()], self.core[to.index()]);
        self.next[a as usize * self.nc + b as usize]
    }
}

/// Shortest paths from every node `from(src)` selects: `emit(src, row)` with, per destination,
/// the first channel of the route (None where there is none). Paths
/// minimise (metric, hops), then the lower first-hop node id; a node that is
/// not `transit` is never crossed.
fn dijkstra_all(
    n: usize,
    channels: &[&Channel],
    transit: &[bool],
    metric: Routing,
    from: impl Fn(usize) -> bool,
    mut emit: impl FnMut(usize, &[Option<LinkId>]),
) {
    // Adjacency lists in channel order, for deterministic expansion.
    let mut out: Vec<Vec<(usize, LinkId)>> = vec![Vec::new(); n];
    for (i, c) in channels.iter().enumerate() {
        out[c.from.index()].push((c.to.index(), LinkId(i as u32)));
    }
    let mut row = vec![None; n];
    for src in (0..n).filter(|&v| from(v)) {
        // best[v] = (metric, hops, first-hop node, first channel)
        let mut best: Vec<Option<(u64, u32, u32, LinkId)>> = vec![None; n];
        let mut heap = BinaryHeap::new();
        for &(v, l) in &out[src] {
            let w = cost(metric, channels[l.index()]);
            let cand = (w, 1, v as u32, l);
            if best[v].is_none_or(|b| (cand.0, cand.1, cand.2) < (b.0, b.1, b.2)) {
                best[v] = Some(cand);
                heap.push(Reverse((w, 1u32, v as u32, v)));
            }
        }
        while let Some(Reverse((c, h, fh, u))) = heap.pop() {
            let Some(bu) = best[u] else { continue };
            if (bu.0, bu.1, bu.2) != (c, h, fh) || !transit[u] {
                continue;
            }
            for &(v, l) in &out[u] {
                if v == src {
                    continue;
                }
                let cand = (c + cost(metric, channels[l.index()]), h + 1, fh, bu.3);
                if best[v].is_none_or(|b| (cand.0, cand.1, cand.2) < (b.0, b.1, b.2)) {
                    best[v] = Some(cand);
                    heap.push(Reverse((cand.0, cand.1, cand.2, v)));
                }
            }
        }
        for (r, b) in row.iter_mut().zip(&best) {
            *r = b.map(|b| b.3);
        }
        emit(src, &row);
    }
}

fn cost(metric: Routing, c: &Channel) -> u64 {
    match metric {
        Routing::Hops => 1,
        Routing::Delay => c.delay.as_nanos(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::scenario::Buffer;
    use crate::time::SimDuration;

    fn link(a: u32, b: u32, ms: u64) -> [Channel; 2] {
        let d = SimDuration::from_millis(ms);
        [
            Channel::new(NodeId(a), NodeId(b), 1_000_000, d, Buffer::Unlimited),
            Channel::new(NodeId(b), NodeId(a), 1_000_000, d, Buffer::Unlimited),
        ]
    }

    /// 0-1-2 with 10 ms hops, and 0-2 direct with 50 ms.
    fn triangle() -> Vec<Channel> {
        let mut ch = Vec::new();
        ch.extend(link(0, 1, 10));
        ch.extend(link(1, 2, 10));
        ch.extend(link(0, 2, 50));
        ch
    }

    #[test]
    fn hops_versus_delay() {
        let ch = triangle();
        let transit = vec![true; 3];
        let hops = RoutingTable::shortest_paths(3, &ch, &transit, Routing::Hops);
        assert_eq!(hops.next_hop(NodeId(0), NodeId(2)), Some(LinkId(4)));
        let delay = RoutingTable::shortest_paths(3, &ch, &transit, Routing::Delay);
        assert_eq!(delay.next_hop(NodeId(0), NodeId(2)), Some(LinkId(0)));
        assert_eq!(delay.next_hop(NodeId(2), NodeId(0)), Some(LinkId(3)));
        assert_eq!(delay.next_hop(NodeId(1), NodeId(1)), None);
    }

    #[test]
    fn hosts_do_not_forward() {
        let mut ch = Vec::new();
        ch.extend(link(0, 1, 1));
        ch.extend(link(1, 2, 1));
        let rt = RoutingTable::shortest_paths(3, &ch, &[true, false, true], Routing::Hops);
        assert_eq!(rt.next_hop(NodeId(0), NodeId(2)), None);
        assert_eq!(rt.next_hop(NodeId(0), NodeId(1)), Some(LinkId(0)));
    }

    #[test]
    fn equal_cost_ties_go_to_lower_first_hop() {
        // Square 0-1-3 and 0-2-3.
        let mut ch = Vec::new();
        ch.extend(link(0, 2, 1));
        ch.extend(link(0, 1, 1));
        ch.extend(link(2, 3, 1));
        ch.extend(link(1, 3, 1));
        let rt = RoutingTable::shortest_paths(4, &ch, &[true; 4], Routing::Hops);
        assert_eq!(rt.next_hop(NodeId(0), NodeId(3)), Some(LinkId(2)));
    }

    /// The full table (one Dijkstra per node, every pair stored), as the
    /// routing was before stubs were folded into their gateways.
    fn full(n: usize, ch: &[Channel], transit: &[bool], metric: Routing) -> Vec<Option<LinkId>> {
        let refs: Vec<&Channel> = ch.iter().collect();
        let mut next = vec![None; n * n];
        dijkstra_all(
            n,
            &refs,
            transit,
            metric,
            |_| true,
            |src, row| {
                next[src * n..(src + 1) * n].copy_from_slice(row);
            },
        );
        next
    }

    /// Random networks with hosts on access links (stubs), hosts with two
    /// links, parallel links, a pair of nodes linked only to each other and
    /// non-transit gateways: every next hop equals the full table's.
    #[test]
    fn stubs_route_as_the_full_table() {
        use crate::rng::{stream, uniform01, uniform_below};
        let mut rng = stream(12, "routing-test");
        let below = |lo: u32, hi: u32, r: &mut crate::rng::SimRng| lo + uniform_below(r, hi - lo);
        let mut stubs_seen = 0;
        for case in 0..300 {
            let core_n: u32 = below(1, 7, &mut rng);
            let hosts: u32 = below(0, 8, &mut rng);
            let n = (core_n + hosts + 2) as usize;
            let mut ch = Vec::new();
            for a in 0..core_n {
                for b in (a + 1)..core_n {
                    if uniform01(&mut rng) < 0.5 {
                        ch.extend(link(a, b, u64::from(below(1, 5, &mut rng))));
                    }
                }
            }
            for h in core_n..core_n + hosts {
                let g = below(0, core_n, &mut rng);
                ch.extend(link(g, h, u64::from(below(1, 3, &mut rng))));
                if uniform01(&mut rng) < 0.2 {
                    // a second link: not a stub (sometimes parallel)
                    let g2 = if uniform01(&mut rng) < 0.5 {
                        g
                    } else {
                        below(0, core_n, &mut rng)
                    };
                    ch.extend(link(g2, h, 1));
                }
            }
            // Two nodes linked only to each other.
            ch.extend(link(core_n + hosts, core_n + hosts + 1, 1));
            let transit: Vec<bool> = (0..n as u32)
                .map(|v| {
                    if v < core_n {
                        uniform01(&mut rng) < 0.85
                    } else {
                        uniform01(&mut rng) < 0.1
                    }
                })
                .collect();
            for metric in [Routing::Hops, Routing::Delay] {
                let rt = RoutingTable::shortest_paths(n, &ch, &transit, metric);
                stubs_seen += rt.stub.iter().filter(|s| s.is_some()).count();
                let want = full(n, &ch, &transit, metric);
                for a in 0..n {
                    for b in 0..n {
                        assert_eq!(
                            rt.next_hop(NodeId(a as u32), NodeId(b as u32)),
                            want[a * n + b],
                            "case {case} {metric:?}: {a} -> {b}"
                        );
                    }
                }
            }
        }
        assert!(stubs_seen > 1000, "{stubs_seen}");
    }

    #[test]
    fn a_dumbbell_of_hosts_stores_only_its_routers() {
        // Routers 0 and 1; hosts 2..12 on 0, 12..22 on 1.
        let mut ch = Vec::new();
        ch.extend(link(0, 1, 10));
        for h in 2..22 {
            ch.extend(link(u32::from(h >= 12), h, 1));
        }
        let transit: Vec<bool> = (0..22).map(|v| v < 2).collect();
        let rt = RoutingTable::shortest_paths(22, &ch, &transit, Routing::Hops);
        assert_eq!(rt.next.len(), 4);
        assert_eq!(rt.next_hop(NodeId(2), NodeId(12)), Some(LinkId(3)));
        assert_eq!(rt.walk(NodeId(2), NodeId(12)).count(), 3);
        assert_eq!(rt.next_hop(NodeId(2), NodeId(3)), Some(LinkId(3)));
        assert_eq!(rt.next_hop(NodeId(0), NodeId(3)), Some(LinkId(4)));
    }

    #[test]
    fn walk_lists_the_hops_to_the_destination() {
        // By delay the route 0 -> 2 crosses node 1.
        let ch = triangle();
        let rt = RoutingTable::shortest_paths(3, &ch, &[true; 3], Routing::Delay);
        let hops: Vec<Hop> = rt.walk(NodeId(0), NodeId(2)).collect();
        assert_eq!(
            hops,
            vec![
                Hop {
                    ch: LinkId(0),
                    to: NodeId(1)
                },
                Hop {
                    ch: LinkId(2),
                    to: NodeId(2)
                }
            ]
        );
        assert_eq!(rt.walk(NodeId(2), NodeId(2)).count(), 0);
        let rt = RoutingTable::shortest_paths(3, &ch, &[true, false, true], Routing::Hops);
        assert_eq!(rt.walk(NodeId(0), NodeId(1)).count(), 1);
    }
}
