//! End-to-end tests of the engine on hand-built scenarios.

use crate::config::scenario::{
    AppSpec, Buffer, FlowSpec, LinkSpec, LossSpec, NodeKind, NodeSpec, Routing, Scenario, StartSpec, TraceSpec,
};
use crate::engine::{run, RunOptions};
use crate::ids::{FlowId, NodeId};
use crate::tcp::profile::profile;
use crate::tcp::TcpConfig;
use crate::time::{SimDuration, SimTime};

/// Host `s` -- router -- host `d`: access `a_bps`/`a_delay`, bottleneck
/// `b_bps`/`b_delay` with loss `loss` on the forward direction.
pub(crate) fn path3(tcp: &TcpConfig, a_bps: u64, b_bps: u64, delay_ms: u64, loss: LossSpec, secs: u64) -> Scenario {
    let node = |name: &str, kind| NodeSpec { name: name.into(), kind };
    let link = |from: u32, to: u32, rate_bps, loss| LinkSpec {
        from: NodeId(from),
        to: NodeId(to),
        rate_bps,
        delay: SimDuration::from_millis(delay_ms),
        buffer: Buffer::Packets(1000),
        duplex: true,
        loss,
        reverse_loss: LossSpec::None,
    };
    Scenario {
        name: "path3".into(),
        seed: 1,
        duration: SimDuration::from_secs(secs),
        warmup: SimDuration::ZERO,
        stop_when_flows_done: false,
        routing: Routing::Hops,
        nodes: vec![node("s", NodeKind::Host), node("r", NodeKind::Router), node("d", NodeKind::Host)],
        links: vec![link(0, 1, a_bps, LossSpec::None), link(1, 2, b_bps, loss)],
        flows: vec![FlowSpec {
            id: FlowId(0),
            group: "f".into(),
            src: NodeId(0),
            dst: NodeId(2),
            start: StartSpec::At(SimTime::ZERO),
            app: AppSpec::Bulk(None),
            tcp: tcp.clone(),
        }],
        trace: TraceSpec::default(),
    }
}

#[test]
fn window_limited_flow_gets_w_over_rtt() {
    let mut tcp = profile("rfc").unwrap();
    tcp.max_window = 10;
    tcp.mss = 1000;
    tcp.header = 40;
    // 100 Mbit/s everywhere, 10 ms per link: RTT ~ 40 ms + tiny serialisation.
    let sc = path3(&tcp, 100_000_000, 100_000_000, 10, LossSpec::None, 20);
    let r = run(&sc, &RunOptions::default()).unwrap();
    let f = &r.flows[0];
    let rtt = 0.040 + 2.0 * (1040.0 * 8.0 / 1e8) + 2.0 * (40.0 * 8.0 / 1e8);
    let expect = 10.0 * 1000.0 * 8.0 / rtt;
    assert!((f.goodput_bps / expect - 1.0).abs() < 0.03, "goodput {} vs {expect}", f.goodput_bps);
}

#[test]
fn same_seed_same_results_and_conservation() {
    let mut tcp = profile("rfc").unwrap();
    tcp.max_window = 64;
    let sc = path3(&tcp, 100_000_000, 10_000_000, 5, LossSpec::Bernoulli { p: 0.01, data_only: false }, 20);
    let a = run(&sc, &RunOptions::default()).unwrap();
    let b = run(&sc, &RunOptions::default()).unwrap();
    let c = run(&sc, &RunOptions { seed: Some(2) }).unwrap();
    let key = |r: &crate::results::RunResults| {
        (r.meta.events, r.flows[0].segments_sent, r.flows[0].bytes_delivered, r.flows[0].packets_dropped)
    };
    assert_eq!(key(&a), key(&b));
    assert_ne!(key(&a), key(&c));
    for r in [&a, &c] {
        let f = &r.flows[0];
        assert!(f.packets_dropped > 0);
        assert_eq!(f.segments_sent, f.segments_received + f.packets_dropped + f.segments_in_flight);
    }
}

#[test]
fn event_stays_small() {
    // The event is moved through the queue by value: keep it compact.
    let size = std::mem::size_of::<crate::engine::event::Event>();
    assert!(size <= 128, "Event is {size} bytes");
    eprintln!("Event: {size} bytes, Packet: {} bytes", std::mem::size_of::<crate::net::Packet>());
}
