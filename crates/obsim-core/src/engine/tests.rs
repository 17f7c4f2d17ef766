//! End-to-end tests of the engine on hand-built scenarios.

use crate::config::scenario::{
    AppSpec, Buffer, FlowSpec, LinkSpec, LossSpec, NodeKind, NodeSpec, Routing, Scenario,
    StartSpec, TraceSpec,
};
use crate::engine::{run, RunOptions};
use crate::ids::{FlowId, NodeId};
use crate::tcp::profile::profile;
use crate::tcp::TcpConfig;
use crate::test_support::{edit, link_result};
use crate::time::{SimDuration, SimTime};

/// Host `s` -- router -- host `d`: access `a_bps`/`a_delay`, bottleneck
/// `b_bps`/`b_delay` with loss `loss` on the forward direction.
pub(crate) fn path3(
    tcp: &TcpConfig,
    a_bps: u64,
    b_bps: u64,
    delay_ms: u64,
    loss: LossSpec,
    secs: u64,
) -> Scenario {
    let node = |name: &str, kind| NodeSpec {
        name: name.into(),
        kind,
        edge: None,
        switch: crate::config::scenario::SwitchSpec::default(),
    };
    let link = |from: u32, to: u32, rate_bps, loss| LinkSpec {
        from: NodeId(from),
        to: NodeId(to),
        rate_bps,
        delay: SimDuration::from_millis(delay_ms),
        buffer: Buffer::Packets(1000),
        duplex: true,
        loss,
        reverse_loss: LossSpec::None,
        optical: None,
    };
    Scenario {
        name: "path3".into(),
        seed: 1,
        duration: SimDuration::from_secs(secs),
        warmup: SimDuration::ZERO,
        stop_when_flows_done: false,
        routing: Routing::Hops,
        nodes: vec![
            node("s", NodeKind::Host),
            node("r", NodeKind::Router),
            node("d", NodeKind::Host),
        ],
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
        metrics: crate::config::scenario::MetricsSpec::default(),
        optical: crate::config::scenario::SwitchSpec::default(),
        generators: Vec::new(),
        traffic: Vec::new(),
        flow_generators: Vec::new(),
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
    assert!(
        (f.goodput_bps / expect - 1.0).abs() < 0.03,
        "goodput {} vs {expect}",
        f.goodput_bps
    );
}

#[test]
fn same_seed_same_results_and_conservation() {
    let mut tcp = profile("rfc").unwrap();
    tcp.max_window = 64;
    let sc = path3(
        &tcp,
        100_000_000,
        10_000_000,
        5,
        LossSpec::Bernoulli {
            p: 0.01,
            data_only: false,
        },
        20,
    );
    let a = run(&sc, &RunOptions::default()).unwrap();
    let b = run(&sc, &RunOptions::default()).unwrap();
    let c = run(&sc, &RunOptions { seed: Some(2) }).unwrap();
    let key = |r: &crate::results::RunResults| {
        (
            r.meta.events,
            r.flows[0].segments_sent,
            r.flows[0].bytes_delivered,
            r.flows[0].packets_dropped,
        )
    };
    assert_eq!(key(&a), key(&b));
    assert_ne!(key(&a), key(&c));
    for r in [&a, &c] {
        let f = &r.flows[0];
        assert!(f.packets_dropped > 0);
        assert_eq!(
            f.segments_sent,
            f.segments_received + f.packets_dropped + f.segments_in_flight
        );
    }
}

#[test]
fn event_stays_small() {
    // The event is moved through the queue by value: keep it compact.
    let size = std::mem::size_of::<crate::engine::event::Event>();
    // i12-perf: 12 bytes (no packet inside; channels and access-pipe lanes
    // keep their packets in FIFOs, `in_flight.rs`, `pipes.rs`).
    assert!(size <= 12, "Event is {size} bytes");
    eprintln!(
        "Event: {size} bytes, Packet: {} bytes",
        std::mem::size_of::<crate::net::Packet>()
    );
}

fn toml_run(text: &str) -> crate::results::RunResults {
    let sc = crate::config::parse_toml(text).unwrap_or_else(|e| panic!("{e}"));
    run(&sc, &RunOptions::default()).unwrap()
}

const TWO_HOSTS: &str = r#"
[tcp]
profile = "ns2"
mss = "1000 B"
[[nodes]]
name = "a"
kind = "host"
[[nodes]]
name = "b"
kind = "host"
[[links]]
from = "a"
to = "b"
rate = "10 Mbit/s"
delay = "10 ms"
"#;

#[test]
fn stop_when_flows_done_ends_at_last_completion() {
    let text = format!(
        "[simulation]\nduration = \"100 s\"\nstop = \"flows_done\"\n{TWO_HOSTS}\n[[flows]]\nfrom = \"a\"\nto = \"b\"\ncount = 2\nsize = \"100 KB\"\nstart = [\"0 s\", \"1 s\"]\n"
    );
    let r = toml_run(&text);
    assert_eq!(r.meta.stop_reason, "flows_done");
    let last = r.flows.iter().map(|f| f.end_s).fold(0.0, f64::max);
    assert!(
        (r.meta.end_time_s - last).abs() < 1e-9,
        "ended {} last {last}",
        r.meta.end_time_s
    );
    for f in &r.flows {
        assert_eq!(f.segments_delivered, 100);
        assert!(f.end_s > f.start_s);
    }
}

#[test]
fn warmup_is_excluded_from_goodput_and_trace_interval_is_kept() {
    let base = format!(
        "{TWO_HOSTS}\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n[trace]\ncwnd = true\ninterval = \"100 ms\"\n"
    );
    let cold = toml_run(&format!("[simulation]\nduration = \"10 s\"\n{base}"));
    let warm = toml_run(&format!(
        "[simulation]\nduration = \"10 s\"\nwarmup = \"5 s\"\n{base}"
    ));
    assert!((warm.meta.measured_s - 5.0).abs() < 1e-9);
    // Same run, same seed: bytes after warm-up are a part of all bytes.
    assert!(warm.flows[0].bytes_delivered < cold.flows[0].bytes_delivered);
    assert!(warm.flows[0].bytes_delivered > cold.flows[0].bytes_delivered * 4 / 10);
    // Samples at 0, 0.1, ..., 9.9 s.
    assert_eq!(cold.trace.time_s.len(), 100);
    assert!(cold
        .trace
        .time_s
        .windows(2)
        .all(|w| (w[1] - w[0] - 0.1).abs() < 1e-9));
}

#[test]
fn progress_observer_sees_time_advance_and_can_abort() {
    let mut tcp = profile("rfc").unwrap();
    tcp.max_window = 64;
    let sc = path3(&tcp, 100_000_000, 100_000_000, 1, LossSpec::None, 30);
    let mut seen = Vec::new();
    let r = crate::engine::run_observed(&sc, &RunOptions::default(), &mut |p| {
        seen.push(p.fraction());
        crate::engine::Control::Continue
    })
    .unwrap();
    assert!(seen.len() >= 2, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]));
    assert!((seen.last().unwrap() - 1.0).abs() < 1e-6);
    // Observing does not change the results.
    let plain = run(&sc, &RunOptions::default()).unwrap();
    assert_eq!(plain.meta.events, r.meta.events);
    let err = crate::engine::run_observed(&sc, &RunOptions::default(), &mut |_| {
        crate::engine::Control::Abort
    });
    assert!(matches!(
        err,
        Err(crate::engine::SimError::Interrupted { .. })
    ));
}

#[test]
fn aborting_observer_yields_partial_results() {
    let mut tcp = profile("rfc").unwrap();
    tcp.max_window = 64;
    let sc = path3(&tcp, 100_000_000, 100_000_000, 1, LossSpec::None, 30);
    let full = run(&sc, &RunOptions::default()).unwrap();
    let mut calls = 0;
    let err = crate::engine::run_observed(&sc, &RunOptions::default(), &mut |_| {
        calls += 1;
        if calls == 2 {
            crate::engine::Control::Abort
        } else {
            crate::engine::Control::Continue
        }
    });
    let Err(crate::engine::SimError::Interrupted { at, partial }) = err else {
        panic!("expected an interruption, got {err:?}");
    };
    let m = &partial.meta;
    assert_eq!(m.stop_reason, "interrupted");
    assert_eq!(m.events, 2 * crate::engine::PROGRESS_EVERY);
    assert!((m.end_time_s - at.as_secs_f64()).abs() < 1e-12);
    assert!(m.end_time_s > 0.0 && m.end_time_s < full.meta.end_time_s);
    assert!(m.segments_delivered > 0);
    assert!(m.segments_delivered < full.meta.segments_delivered);
    assert_eq!(partial.flows.len(), full.flows.len());
    assert_eq!(partial.links.len(), full.links.len());
}

/// The gurel2008 access scenario with `m` burstifiers per egress, shortened.
fn gurel(m: u32, secs: u64, extra_assembly: &str) -> crate::results::RunResults {
    let text = include_str!("../../../../scenarios/gurel2008_access.toml");
    let text = edit(
        text,
        "queues = 1 ",
        &format!("queues = {m} {extra_assembly}\n"),
    );
    let text = edit(
        &text,
        "duration = \"100 s\"",
        &format!("duration = \"{secs} s\""),
    );
    toml_run(&edit(&text, "warmup = \"10 s\"", "warmup = \"2 s\""))
}

#[test]
fn obs_conservation_counts_packets_inside_bursts_and_assemblers() {
    let r = gurel(1, 8, "");
    for f in &r.flows {
        assert!(f.bursts_sent > 0 && f.bursts_lost <= f.bursts_sent);
        assert_eq!(
            f.segments_sent,
            f.segments_received + f.packets_dropped + f.segments_in_flight,
            "flow {}",
            f.flow
        );
    }
    let optical = link_result(&r, "O1", "O2");
    assert!(
        optical.bursts > 0 && optical.packets == 0,
        "data crosses O1->O2 only in bursts"
    );
    let back = link_result(&r, "O2", "O1");
    assert!(
        back.bursts == 0 && back.packets > 0,
        "ACKs bypass assembly by default"
    );
}

#[test]
fn acks_can_be_assembled_and_lost_with_their_bursts() {
    // The ACKs of the flows enter the optical domain at O2: its assembler
    // takes them (`acks = "assemble"`), and O2 -> O1 loses bursts.
    let text = include_str!("../../../../scenarios/gurel2008_access.toml");
    let text = edit(text, "duration = \"100 s\"", "duration = \"5 s\"");
    let text = edit(&text, "warmup = \"10 s\"", "warmup = \"1 s\"");
    let o2 = "name = \"O2\"\nkind = \"edge\"\n[nodes.assembly]\n";
    let text = edit(&text, o2, &format!("{o2}acks = \"assemble\"\n"));
    let loss = "burst_loss = { p = 0.001, pattern = \"random\" }";
    let text = edit(
        &text,
        loss,
        &format!("{loss}\nreverse_burst_loss = {{ p = 0.01, pattern = \"random\" }}"),
    );
    let r = toml_run(&text);
    let back = link_result(&r, "O2", "O1");
    assert!(
        back.bursts > 0 && back.packets == 0 && back.bursts_lost > 0,
        "{back:?}"
    );
}

#[test]
fn more_burstifiers_per_egress_desynchronise_flows() {
    // gurel2008 §3: goodput rises with M, and flows lose together less often.
    let one = gurel(1, 30, "");
    let ten = gurel(10, 30, "");
    let total = |r: &crate::results::RunResults| r.flows.iter().map(|f| f.goodput_bps).sum::<f64>();
    assert!(
        total(&ten) > 1.05 * total(&one),
        "M=10 {} vs M=1 {}",
        total(&ten),
        total(&one)
    );
    assert!(ten.meta.sync_index < 0.6 * one.meta.sync_index);
    assert!(ten.meta.agg_throughput_cov < one.meta.agg_throughput_cov);
    // Per-flow assembly never mixes flows.
    let fpb: Vec<(u64, u64)> = ten
        .bursts
        .metric
        .iter()
        .zip(&ten.bursts.value)
        .zip(&ten.bursts.count)
        .filter(|((m, _), _)| *m == "flows_per_burst")
        .map(|((_, v), c)| (*v, *c))
        .collect();
    assert!(fpb.iter().all(|&(v, _)| v <= 1), "{fpb:?}");
}

#[test]
fn burst_tcp_ble_turns_false_timeouts_into_halvings() {
    // yu2004 §V: a fast flow (1 MB/s access, T_b = 0.2 s, W_m = 20) whose
    // whole window travels in one burst; every 10th burst is lost.
    let mut base = include_str!("../../../../scenarios/yu2004_path.toml").to_string();
    for (from, to) in [
        ("rate = \"1 Mbit/s\"", "rate = \"8 Mbit/s\""),
        ("timeout = \"40 ms\"", "timeout = \"200 ms\""),
        ("max_window = 40", "max_window = 20"),
        (
            "burst_loss = { p = 0.01, pattern = \"random\" }",
            "burst_loss = { p = 0.1, pattern = \"even\" }",
        ),
        ("duration = \"200 s\"", "duration = \"100 s\""),
    ] {
        base = edit(&base, from, to);
    }
    let reno = toml_run(&base);
    let btcp = toml_run(&base.replace(
        "max_window = 20",
        "max_window = 20\nfto_detection = \"ble\"",
    ));
    let (r, b) = (&reno.flows[0], &btcp.flows[0]);
    assert_eq!(r.fto_judged_false, 0);
    assert!(
        b.fto_judged_false > 0 && b.fto_judged_false <= b.to_events,
        "{b:?}"
    );
    assert!(
        b.goodput_bps > 1.1 * r.goodput_bps,
        "BTCP {} vs Reno {}",
        b.goodput_bps,
        r.goodput_bps
    );
}

/// `[trace] packets = true`: every `send` is matched by a `receive` or a
/// drop (the lossy link's drops carry the loss-model reason), the
/// retransmissions are flagged, the run is the same with the trace on, and
/// the table is empty by default.
#[test]
fn packet_trace_accounts_for_every_packet_on_every_link() {
    let base = format!(
        "[simulation]\nduration = \"3 s\"\n{}\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
        edit(
            TWO_HOSTS,
            "delay = \"10 ms\"",
            "delay = \"10 ms\"\nloss = { model = \"bernoulli\", p = 0.02 }"
        )
    );
    let off = toml_run(&base);
    assert!(off.packets.time_s.is_empty());
    let on = toml_run(&format!("{base}\n[trace]\npackets = true\n"));
    let p = &on.packets;
    let count = |ev: &str, reason: &str| {
        (0..p.event.len())
            .filter(|&i| p.event[i] == ev && p.reason[i] == reason)
            .count() as u64
    };
    let fwd = link_result(&on, "a", "b");
    assert_eq!(count("drop", "loss_model"), fwd.drops_loss);
    assert!(fwd.drops_loss > 0);
    // Every packet handed to a link was received, dropped, or is still on
    // the wire at the end (at most a window of data and of ACKs).
    let sent = count("send", "");
    let ended = count("receive", "") + count("drop", "loss_model") + count("drop", "buffer");
    assert!(
        sent >= ended && sent - ended <= 2 * 20,
        "{sent} sent, {ended} ended"
    );
    // The same run with or without the trace.
    assert_eq!(off.flows[0].segments_sent, on.flows[0].segments_sent);
    let retx = (0..p.event.len())
        .filter(|&i| p.event[i] == "send" && p.kind[i] == "data" && p.retransmit[i])
        .count() as u64;
    assert_eq!(retx, on.flows[0].retransmits);
}

/// `[trace] per_ack = true`: one row per ACK reaching the sender plus one
/// per retransmission timeout.
#[test]
fn per_ack_trace_has_a_row_per_ack_and_timeout() {
    let text = format!(
        "[simulation]\nduration = \"3 s\"\n{}\n[[flows]]\nfrom = \"a\"\nto = \"b\"\n[trace]\nper_ack = true\npackets = true\n",
        edit(
            TWO_HOSTS,
            "delay = \"10 ms\"",
            "delay = \"10 ms\"\nloss = { model = \"bernoulli\", p = 0.05 }"
        )
    );
    let r = toml_run(&text);
    let p = &r.packets;
    let acks = (0..p.event.len())
        .filter(|&i| p.event[i] == "receive" && p.kind[i] == "ack" && p.to[i] == "a")
        .count() as u64;
    assert!(r.flows[0].to_events > 0, "the case should see a timeout");
    assert_eq!(r.trace.time_s.len() as u64, acks + r.flows[0].to_events);
}

/// The packets of a lost burst appear in the packet trace as drops with the
/// reason `burst`, on the burst's ingress -> egress, one per packet the
/// flows lost in the core.
#[test]
fn packet_trace_names_burst_losses() {
    let text = include_str!("../../../../scenarios/gurel2008_access.toml");
    let text = edit(text, "duration = \"100 s\"", "duration = \"3 s\"");
    let text = edit(&text, "warmup = \"10 s\"", "warmup = \"1 s\"");
    let r = toml_run(&format!("{text}\n[trace]\npackets = true\n"));
    let p = &r.packets;
    let burst: Vec<usize> = (0..p.event.len())
        .filter(|&i| p.reason[i] == "burst")
        .collect();
    assert!(!burst.is_empty());
    assert!(burst
        .iter()
        .all(|&i| p.event[i] == "drop" && p.from[i] == "O1" && p.to[i] == "O2"));
    let lost_links: u64 = r.links.iter().map(|l| l.bursts_lost).sum();
    assert!(lost_links > 0);
}

/// `[tcp.pacing] enabled`: a linux sender on a 1 Gbit/s access link in
/// front of a 100 Mbit/s bottleneck, held to a window of 100 segments,
/// hands its access link one segment at a time, spaced at its pacing rate,
/// where the unpaced sender hands it several at once on each ACK; both get
/// the window's rate.
#[test]
fn paced_sender_spaces_its_segments() {
    let mut tcp = profile("linux").unwrap();
    tcp.max_window = 100;
    let go = |tcp: &TcpConfig| {
        let mut sc = path3(tcp, 1_000_000_000, 100_000_000, 10, LossSpec::None, 3);
        sc.trace.packets = true;
        run(&sc, &RunOptions::default()).unwrap()
    };
    let off = go(&tcp);
    tcp.pacing.enabled = true;
    let on = go(&tcp);
    // Gaps between the data segments handed to the access link after the
    // first RTT (before the first RTT sample nothing is paced).
    let gaps = |r: &crate::results::RunResults| {
        let p = &r.packets;
        let t: Vec<f64> = (0..p.event.len())
            .filter(|&i| {
                p.event[i] == "send" && p.kind[i] == "data" && p.from[i] == "s" && p.time_s[i] > 0.2
            })
            .map(|i| p.time_s[i])
            .collect();
        t.windows(2).map(|w| w[1] - w[0]).collect::<Vec<f64>>()
    };
    let (g_off, g_on) = (gaps(&off), gaps(&on));
    assert!(g_off.len() > 1000 && g_on.len() > 1000);
    let same_instant = |g: &[f64]| g.iter().filter(|&&d| d == 0.0).count();
    assert!(
        same_instant(&g_off) > 100,
        "unpaced: segments leave together"
    );
    assert_eq!(same_instant(&g_on), 0, "paced: one segment at a time");
    // cwnd stays under twice the 100 segments out (growth only while
    // cwnd-limited), so the rate is at most 200 % x 200 x 1 448 B / 40 ms:
    // a segment every 100 µs at least, less up to half for credit.
    let min_gap = g_on.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(min_gap > 45e-6, "smallest paced gap {min_gap}");
    let (a, b) = (off.flows[0].goodput_bps, on.flows[0].goodput_bps);
    let window_rate = 100.0 * 1448.0 * 8.0 / 0.040;
    assert!(
        (a / window_rate - 1.0).abs() < 0.1,
        "unpaced {a} vs {window_rate}"
    );
    assert!((b / a - 1.0).abs() < 0.05, "paced {b} vs unpaced {a}");
}

/// Linux's HyStart (`tcp.cubic.hystart`, on in the linux profile, fed a
/// sample on every ACK by `tcp.timestamps`): on a 20 Mbit/s bottleneck
/// with a 1 000-packet buffer the queue's growing delay ends slow start
/// near the path's 70-segment BDP, and the buffer never overflows in 3 s;
/// without it slow start runs until the buffer drops packets. RFC 9406's
/// HyStart++ (`hystart = "rfc9406"`) avoids the overflow as well.
#[test]
fn hystart_ends_slow_start_before_the_buffer_overflows() {
    let mut tcp = profile("linux").unwrap();
    let go = |tcp: &TcpConfig| {
        let sc = path3(tcp, 1_000_000_000, 20_000_000, 10, LossSpec::None, 3);
        run(&sc, &RunOptions::default()).unwrap()
    };
    let on = go(&tcp);
    // HyStart++ runs in RFC 9438's arithmetic (Linux does not run it).
    tcp.cubic.hystart = crate::tcp::config::HystartMode::Rfc9406;
    tcp.cubic.arithmetic = crate::tcp::config::CubicArithmetic::Rfc9438;
    let pp = go(&tcp);
    tcp.cubic.arithmetic = crate::tcp::config::CubicArithmetic::Linux;
    tcp.cubic.hystart = crate::tcp::config::HystartMode::Off;
    let off = go(&tcp);
    assert_eq!(on.flows[0].packets_dropped, 0);
    // RFC 9406 HyStart++ too: the queue's delay moves it into CSS.
    assert_eq!(pp.flows[0].packets_dropped, 0);
    assert!(
        off.flows[0].packets_dropped > 100,
        "{}",
        off.flows[0].packets_dropped
    );
    // Both fill the path once out of slow start.
    assert!(
        on.flows[0].goodput_bps > 15e6,
        "{}",
        on.flows[0].goodput_bps
    );
}

/// The flows table carries the sender's undo counters (issue 17). The
/// linux profile with F-RTO off and a 4-segment window loses the ACKs of
/// one flight (ACKs 200 to 203 on the way back), though its data arrived:
/// the tail loss probe and the retransmission timer resend (the second
/// timeout backs off), and the ACK of the last resend echoes the TSval of
/// an original, older than the first retransmission (a resend below the
/// last ACK is not echoed), so the timeout is undone (Linux
/// `tcp_try_undo_loss`). Without timestamps and D-SACK nothing shows that
/// the data had arrived.
#[test]
fn undo_counters_reach_the_flows_table() {
    let go = |options: bool| {
        let mut tcp = crate::tcp::profile::linux_plain_ack_clock();
        tcp.frto = crate::tcp::config::Frto::Off;
        tcp.max_window = 4;
        if !options {
            tcp.timestamps = crate::tcp::config::Timestamps::Off;
            tcp.dsack = crate::tcp::config::Dsack::Off;
        }
        let mut sc = path3(&tcp, 100_000_000, 10_000_000, 10, LossSpec::None, 10);
        sc.links[1].reverse_loss = LossSpec::Packets {
            indices: (200..204).collect(),
        };
        run(&sc, &RunOptions::default()).unwrap().flows[0].clone()
    };
    let counts = |f: &crate::results::FlowResult| {
        (
            f.to_events,
            f.loss_undos,
            f.recovery_undos,
            f.dsack_undos,
            f.spurious_rtos,
        )
    };
    assert_eq!(counts(&go(true)), (2, 1, 0, 0, 0));
    assert_eq!(counts(&go(false)), (2, 0, 0, 0, 0));
}
