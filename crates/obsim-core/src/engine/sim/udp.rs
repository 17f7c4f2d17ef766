//! UDP cross traffic in the engine (`[[traffic]]`): open-loop sources whose
//! datagrams share the drop-tail buffers of the access links with the TCP
//! flows, and so cause the congestion losses and true timeouts of yu2004
//! §V.B.2 (Table V). The schedule of each source is the I/O-free
//! [`UdpSource`]; this file sends what it schedules, counts what arrives and
//! what is lost, and reports one row per source.
//!
//! Datagrams travel like TCP data: they are forwarded hop by hop, dropped at
//! full buffers and by link loss models, and assembled into bursts at OBS
//! ingress edges (never bypassed like ACKs). Their `Packet::flow` is
//! `n_tcp_flows + source`, so the assembler can place them like a flow, but
//! they never touch TCP flow state: every per-flow counter in the engine is
//! guarded by `Packet::is_data`, and this file keeps the per-source ones.

use super::Simulation;
use crate::config::scenario::Scenario;
use crate::config::traffic::TrafficModel;
use crate::engine::event::Event;
use crate::engine::SimError;
use crate::ids::{FlowId, NodeId};
use crate::net::{Datagram, Packet, Payload, RoutingTable};
use crate::results::TrafficResult;
use crate::rng::stream;
use crate::time::SimDuration;
use crate::traffic::bulk;
use crate::traffic::udp::UdpSource;

/// One source with its counters.
struct Source {
    model: UdpSource,
    src: NodeId,
    dst: NodeId,
    bytes: u32,
    /// Pseudo flow id for burst assembly (`n_tcp_flows + source`).
    flow: FlowId,
    sent: u64,
    delivered: u64,
    dropped: u64,
    in_flight: u64,
    bytes_delivered: u64,
    bytes_at_warmup: u64,
}

/// Every traffic source of a run.
#[derive(Default)]
pub(super) struct Traffic {
    sources: Vec<Source>,
}

impl Traffic {
    /// The sources of `sc` in a run with `seed`; `n_flows` TCP flows come
    /// first in the flow-id space. Each source draws its start from
    /// `traffic/<id>/start` and its on/off periods from `traffic/<id>/onoff`.
    pub(super) fn new(
        sc: &Scenario,
        seed: u64,
        routes: &RoutingTable,
        n_flows: usize,
    ) -> Result<Self, SimError> {
        let mut sources = Vec::with_capacity(sc.traffic.len());
        for t in &sc.traffic {
            if routes.next_hop(t.src, t.dst).is_none() {
                return Err(SimError::Unroutable {
                    path: t.group.clone(),
                    reason: format!(
                        "traffic source {}: no route from node \"{}\" to node \"{}\" (hosts do not forward transit traffic)",
                        t.id,
                        sc.nodes[t.src.index()].name,
                        sc.nodes[t.dst.index()].name
                    ),
                });
            }
            let start = bulk::draw_start(t.start, seed, &format!("traffic/{}/start", t.id));
            let rng = stream(seed, &format!("traffic/{}/onoff", t.id));
            sources.push(Source {
                model: UdpSource::new(t, start, rng),
                src: t.src,
                dst: t.dst,
                bytes: t.packet_bytes,
                flow: FlowId((n_flows + t.id as usize) as u32),
                sent: 0,
                delivered: 0,
                dropped: 0,
                in_flight: 0,
                bytes_delivered: 0,
                bytes_at_warmup: 0,
            });
        }
        Ok(Self { sources })
    }

    /// Statistics start now (`simulation.warmup`).
    pub(super) fn on_warmup_end(&mut self) {
        for s in &mut self.sources {
            s.bytes_at_warmup = s.bytes_delivered;
        }
    }

    /// Counts a datagram of `source` dropped in the network.
    #[inline]
    pub(super) fn count_drop(&mut self, source: u32) {
        self.sources[source as usize].dropped += 1;
    }

    /// Counts `pkt`, still in the network at the end of the run, if it is a
    /// datagram.
    #[inline]
    pub(super) fn count_in_flight(&mut self, pkt: &Packet) {
        if let Some(s) = pkt.datagram_source() {
            self.sources[s as usize].in_flight += 1;
        }
    }

    /// The `traffic` result table.
    pub(super) fn results(
        &self,
        sc: &Scenario,
        warmup_done: bool,
        measured: SimDuration,
    ) -> Vec<TrafficResult> {
        let name = |n: NodeId| sc.nodes[n.index()].name.clone();
        self.sources
            .iter()
            .zip(&sc.traffic)
            .map(|(s, spec)| {
                let bytes = if warmup_done {
                    s.bytes_delivered - s.bytes_at_warmup
                } else {
                    0
                };
                TrafficResult {
                    source: spec.id,
                    group: spec.group.clone(),
                    kind: match spec.model {
                        TrafficModel::Cbr => "cbr",
                        TrafficModel::OnOff { .. } => "onoff",
                    }
                    .to_string(),
                    src: name(s.src),
                    dst: name(s.dst),
                    packets_sent: s.sent,
                    packets_delivered: s.delivered,
                    packets_dropped: s.dropped,
                    packets_in_flight: s.in_flight,
                    bytes_delivered: bytes,
                    throughput_bps: if measured > SimDuration::ZERO {
                        bytes as f64 * 8.0 / measured.as_secs_f64()
                    } else {
                        0.0
                    },
                }
            })
            .collect()
    }
}

impl Simulation<'_> {
    /// Schedules the first datagram of every source (at the start of a run).
    pub(super) fn schedule_traffic(&mut self) {
        for (i, s) in self.traffic.sources.iter().enumerate() {
            if let Some(t) = s.model.next_send() {
                self.queue.push(t, Event::TrafficSend(i as u32));
            }
        }
    }

    /// Source `i` sends its next datagram and schedules the one after.
    pub(super) fn on_traffic_send(&mut self, i: u32) {
        let s = &mut self.traffic.sources[i as usize];
        debug_assert_eq!(s.model.next_send(), Some(self.now), "one event per source");
        let pkt = Packet {
            flow: s.flow,
            src: s.src,
            dst: s.dst,
            bytes: s.bytes,
            payload: Payload::Datagram(Datagram {
                source: i,
                seq: s.sent,
            }),
        };
        s.sent += 1;
        s.model.advance();
        if let Some(t) = s.model.next_send() {
            self.queue.push(t, Event::TrafficSend(i));
        }
        // As a packet arriving at its source node: assembled if the source
        // is an ingress edge, else forwarded (a full buffer drops it).
        self.route_from(pkt.src, pkt);
    }

    /// A datagram of source `source` reached its destination.
    #[inline]
    pub(super) fn on_datagram(&mut self, source: u32, bytes: u32) {
        let s = &mut self.traffic.sources[source as usize];
        s.delivered += 1;
        s.bytes_delivered += u64::from(bytes);
    }
}

#[cfg(test)]
mod tests {
    use crate::config::parse_toml;
    use crate::engine::{run, RunOptions};
    use crate::results::{RunResults, TrafficResult};
    use crate::test_support::{buffered_links, link_result, nodes, optical_links};

    #[track_caller]
    fn run_toml(text: &str, seed: Option<u64>) -> RunResults {
        let sc = parse_toml(text).unwrap_or_else(|e| panic!("{e}"));
        run(&sc, &RunOptions { seed }).expect("run")
    }

    #[track_caller]
    fn conserved(t: &TrafficResult) {
        assert_eq!(
            t.packets_sent,
            t.packets_delivered + t.packets_dropped + t.packets_in_flight,
            "{t:?}"
        );
    }

    /// A TCP flow and a UDP source share a 10 Mbit/s drop-tail bottleneck
    /// with a 20-packet buffer; `traffic` is appended as `[[traffic]]`.
    fn bottleneck(traffic: &str) -> String {
        [
            "[simulation]\nduration = \"60 s\"\nwarmup = \"10 s\"\n",
            "[tcp]\nprofile = \"ns2-2003\"\nvariant = \"reno\"\nmss = \"1000 B\"\nmax_window = 64\n",
            &nodes("s:host u:host r d:host"),
            &buffered_links("s-r u-r", "100 Mbit/s", "1 ms", "1000 packets"),
            &buffered_links("r-d", "10 Mbit/s", "20 ms", "20 packets"),
            "[[flows]]\nfrom = \"s\"\nto = \"d\"\n",
            traffic,
        ]
        .concat()
    }

    const CBR_9M: &str = r#"
[[traffic]]
kind = "cbr"
from = "u"
to = "d"
rate = "9 Mbit/s"
"#;

    #[test]
    fn cbr_cross_traffic_causes_droptail_losses_and_timeouts() {
        let alone = run_toml(&bottleneck(""), None);
        let shared = run_toml(&bottleneck(CBR_9M), None);
        assert!(alone.traffic.is_empty());
        let (fa, fs) = (&alone.flows[0], &shared.flows[0]);
        let bottleneck_drops = |r: &RunResults| link_result(r, "r", "d").drops_buffer;
        // The CBR source takes 9 of the 10 Mbit/s: the flow's segments are
        // dropped at the full drop-tail buffer, and its windows are so small
        // that losses end in retransmission timeouts.
        assert!(fs.packets_dropped > 100, "{fs:?}");
        assert!(fs.to_events > 20, "{fs:?}");
        assert!(fs.to_events > 5 * fa.to_events.max(1), "alone {fa:?}");
        assert!(fs.goodput_bps < 0.25 * fa.goodput_bps);
        assert!(bottleneck_drops(&shared) > bottleneck_drops(&alone));
        let t = &shared.traffic[0];
        assert_eq!(
            (t.kind.as_str(), t.src.as_str(), t.dst.as_str()),
            ("cbr", "u", "d")
        );
        assert_eq!(t.group, "traffic[0]");
        conserved(t);
        assert!(t.packets_dropped > 0, "{t:?}");
        // 9 Mbit/s of 1000 B packets for 60 s: 67 500 sent, the first at 0.
        assert_eq!(t.packets_sent, 67_500);
        // Measured over 50 s: it gets most of the rate it offers.
        assert!(
            (8.0e6..9.0e6).contains(&t.throughput_bps),
            "{}",
            t.throughput_bps
        );
        // Drops at the bottleneck are the flow's plus the source's.
        assert_eq!(
            bottleneck_drops(&shared),
            fs.packets_dropped + t.packets_dropped
        );
    }

    #[test]
    fn onoff_sources_are_deterministic_per_seed() {
        let text = bottleneck(
            r#"
[[traffic]]
name = "bursty"
kind = "onoff"
from = "u"
to = "d"
count = 3
rate = "6 Mbit/s"
packet = "500 B"
on = "200 ms"
off = "800 ms"
start = ["0 s", "1 s"]
stop = "50 s"
"#,
        );
        let a = run_toml(&text, Some(3));
        let b = run_toml(&text, Some(3));
        let c = run_toml(&text, Some(4));
        let key = |r: &RunResults| {
            r.traffic
                .iter()
                .map(|t| (t.packets_sent, t.packets_delivered, t.packets_dropped))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&a), key(&b));
        assert_eq!(a.flows[0].segments_sent, b.flows[0].segments_sent);
        assert_ne!(key(&a), key(&c));
        assert_eq!(a.traffic.len(), 3);
        for t in &a.traffic {
            conserved(t);
            assert_eq!(t.kind, "onoff");
            assert_eq!(t.group, "bursty");
            // Mean rate 6 Mbit/s · 0.2 / 1.0 = 1.2 Mbit/s for about 49.5 s:
            // some 15 000 packets of 500 B; three sources differ.
            assert!((9_000..21_000).contains(&t.packets_sent), "{t:?}");
        }
        assert_ne!(a.traffic[0].packets_sent, a.traffic[1].packets_sent);
    }

    /// `host a -> edge E1 ==optical, burst loss== edge E2 -> host b`, a TCP
    /// flow a -> b and a CBR source a -> b; `assembly` is E1's assembly table.
    fn obs_path(assembly: &str, p: f64) -> String {
        let access = |pair| buffered_links(pair, "100 Mbit/s", "1 ms", "1000 packets");
        [
            "[simulation]\nduration = \"20 s\"\n[tcp]\nvariant = \"reno\"\nmss = \"1000 B\"\n",
            &nodes("a:host E1:edge"),
            &format!("assembly = {assembly}\n"),
            &nodes("E2:edge"),
            "assembly = { trigger = \"timer\", timeout = \"1 ms\" }\n",
            &nodes("b:host"),
            &access("a-E1"),
            &optical_links("E1-E2", None, "1 Gbit/s", "5 ms"),
            &format!("burst_loss = {{ p = {p}, pattern = \"random\" }}\n"),
            &access("E2-b"),
            "[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
            "[[traffic]]\nkind = \"cbr\"\nfrom = \"a\"\nto = \"b\"\nrate = \"5 Mbit/s\"\n",
        ]
        .concat()
    }

    #[test]
    fn datagrams_are_assembled_into_bursts_and_lost_with_them() {
        for assembly in [
            r#"{ trigger = "timer", timeout = "2 ms" }"#,
            r#"{ trigger = "timer", timeout = "2 ms", selection = "per_flow" }"#,
            r#"{ trigger = "timer", timeout = "2 ms", selection = "per_egress", queues = 2 }"#,
            r#"{ selection = "window", thresholds = [4, 16] }"#,
        ] {
            let r = run_toml(&obs_path(assembly, 0.0), None);
            let t = &r.traffic[0];
            conserved(t);
            assert_eq!(t.packets_dropped, 0, "{assembly}: lossless core");
            assert!(t.packets_delivered > 12_000, "{assembly}: {t:?}");
            let fwd = link_result(&r, "E1", "E2");
            // ACKs bypass assembly by default; datagrams and data never do:
            // nothing crosses E1 -> E2 as a packet.
            assert_eq!(fwd.packets, 0, "{assembly}: {fwd:?}");
            assert!(fwd.bursts > 1000, "{assembly}");

            let lossy = run_toml(&obs_path(assembly, 0.2), None);
            let t = &lossy.traffic[0];
            conserved(t);
            let f = &lossy.flows[0];
            assert_eq!(
                f.segments_sent,
                f.segments_received + f.packets_dropped + f.segments_in_flight
            );
            // About a fifth of the datagrams go down with their bursts.
            let frac = t.packets_dropped as f64 / t.packets_sent as f64;
            assert!((0.15..0.25).contains(&frac), "{assembly}: {frac}");
            // TCP's burst counters still only count bursts with its data.
            assert!(f.bursts_sent <= lossy.links.iter().map(|l| l.bursts).sum());
        }
    }
}
