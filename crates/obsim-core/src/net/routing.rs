//! Static shortest-path routing, computed once before the run.
//!
//! For every (node, destination) pair the table holds the outgoing channel.
//! Paths minimise (metric, hops) where the metric is the hop count or the
//! total propagation delay; remaining ties go to the lower first-hop node id,
//! so the routes depend only on the scenario. Hosts do not forward transit
//! traffic: a path may start or end at a host but never cross one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::config::scenario::Routing;
use crate::ids::{LinkId, NodeId};
use crate::net::channel::Channel;

/// Next-hop table: `next[node * n + dst]` is the channel to take.
#[derive(Clone, Debug)]
pub struct RoutingTable {
    n: usize,
    next: Vec<Option<LinkId>>,
    /// Far end of each channel, by link id.
    ends: Vec<NodeId>,
}

/// One hop of a route: the channel taken and the node it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// Channel crossed.
    pub ch: LinkId,
    /// Node reached.
    pub to: NodeId,
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
        // Adjacency lists in channel order, for deterministic expansion.
        let mut out: Vec<Vec<(usize, LinkId)>> = vec![Vec::new(); n];
        for (i, c) in channels.iter().enumerate() {
            out[c.from.index()].push((c.to.index(), LinkId(i as u32)));
        }
        let mut next = vec![None; n * n];
        for src in 0..n {
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
            for (dst, b) in best.iter().enumerate() {
                next[src * n + dst] = b.map(|b| b.3);
            }
        }
        let ends = channels.iter().map(|c| c.to).collect();
        Self { n, next, ends }
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
        self.next[node.index() * self.n + dst.index()]
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
