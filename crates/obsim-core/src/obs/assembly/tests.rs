//! Tests of the burst assembler, grouped by concern.

use super::*;
use crate::ids::FlowId;
use crate::net::packet::test_data;
use crate::net::Payload;
use crate::rng::stream;

const E: NodeId = NodeId(7);
const MS: SimDuration = SimDuration::from_millis(1);

/// A 1040-byte data packet of `flow`; `sent_at` records its arrival time at
/// the assembler so tests can check holding times.
fn pkt(flow: u32, seq: u64, at: SimTime) -> Packet {
    let mut p = test_data(flow, seq);
    if let Payload::Data(seg) = &mut p.payload {
        seg.sent_at = at;
    }
    p
}

fn cfg(trigger: Trigger, selection: Selection) -> AssemblyConfig {
    AssemblyConfig {
        trigger,
        selection,
        ..AssemblyConfig::default()
    }
}

fn assembler(c: &AssemblyConfig, seed: u64) -> Assembler {
    Assembler::new(c, NodeId(0), &[E], stream(seed, "asm"))
}

/// One arrival: time (ns), flow, cwnd.
type Arrival = (u64, u32, f64);

/// Drives `a` like the engine: timers fire exactly at their deadlines, in time
/// order with the arrivals; everything left fires at the end.
fn drive(a: &mut Assembler, arrivals: &[Arrival]) -> Vec<Burst> {
    let mut out = Vec::new();
    for (i, &(t, flow, cwnd)) in arrivals.iter().enumerate() {
        let now = SimTime(t);
        while let Some(d) = a.next_deadline().filter(|&d| d < now) {
            a.on_timer(d, &mut out);
        }
        a.on_packet(now, E, pkt(flow, i as u64, now), cwnd, &mut out);
    }
    while let Some(d) = a.next_deadline() {
        a.on_timer(d, &mut out);
    }
    out
}

fn arrival_of(p: &Packet) -> SimTime {
    match p.payload {
        Payload::Data(s) => s.sent_at,
        Payload::Ack(_) | Payload::Signal(_) | Payload::Datagram(_) => unreachable!(),
    }
}

fn seq_of(p: &Packet) -> u64 {
    match p.payload {
        Payload::Data(s) => s.seq,
        Payload::Ack(_) | Payload::Signal(_) | Payload::Datagram(_) => unreachable!(),
    }
}

#[track_caller]
fn assert_all_delivered_once(bursts: &[Burst], n: usize) {
    let mut seen = vec![false; n];
    for b in bursts {
        for p in &b.packets {
            let s = seq_of(p) as usize;
            assert!(!seen[s], "packet {s} in two bursts");
            seen[s] = true;
        }
    }
    assert!(seen.iter().all(|&x| x), "a packet was never put in a burst");
}

fn all_selections() -> Vec<Selection> {
    vec![
        Selection::MixedFlow,
        Selection::PerFlow,
        Selection::PerEgress {
            m: 3,
            mapping: FlowMapping::Modulo,
        },
        Selection::PerEgress {
            m: 3,
            mapping: FlowMapping::Random,
        },
        Selection::Smq { queues: 2 },
        Selection::Dmq {
            queues: 4,
            allocation: DmqAllocation::Proactive,
        },
        Selection::Dmq {
            queues: 4,
            allocation: DmqAllocation::APosteriori,
        },
    ]
}

// ---- timer trigger ---------------------------------------------------------

proptest::proptest! {
    /// No packet waits longer than T_MAX, a burst lives exactly T_MAX from its
    /// first packet, and every packet leaves in exactly one burst.
    #[test]
    fn timer_burst_never_holds_a_packet_longer_than_tmax(
        gaps in proptest::collection::vec((0u64..400_000, 0u32..6), 1..300),
        tmax_us in 50u64..2_000,
        sel in 0usize..7,
    ) {
        let tmax = SimDuration::from_micros(tmax_us);
        let mut t = 0;
        let arrivals: Vec<Arrival> = gaps.iter().map(|&(g, f)| { t += g; (t, f, 10.0) }).collect();
        let mut a = assembler(&cfg(Trigger::Timer(tmax), all_selections()[sel].clone()), 3);
        let bursts = drive(&mut a, &arrivals);
        for b in &bursts {
            proptest::prop_assert_eq!(b.closed, b.opened + tmax);
            for p in &b.packets {
                let at = arrival_of(p);
                proptest::prop_assert!(at >= b.opened && b.closed.saturating_since(at) <= tmax);
            }
            proptest::prop_assert_eq!(arrival_of(&b.packets[0]), b.opened);
        }
        assert_all_delivered_once(&bursts, arrivals.len());
        proptest::prop_assert_eq!(a.stats().packets, arrivals.len() as u64);
        proptest::prop_assert_eq!(a.pending_packets(), 0);
    }
}

#[test]
fn packet_arriving_at_the_deadline_starts_a_new_burst() {
    let mut a = assembler(&cfg(Trigger::Timer(MS), Selection::MixedFlow), 1);
    let mut out = Vec::new();
    a.on_packet(SimTime(0), E, pkt(0, 0, SimTime(0)), 1.0, &mut out);
    assert_eq!(a.next_deadline(), Some(SimTime(1_000_000)));
    // The engine has not fired the timer yet: the arrival fires it first.
    a.on_packet(
        SimTime(1_000_000),
        E,
        pkt(0, 1, SimTime(1_000_000)),
        1.0,
        &mut out,
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].packets.len(), 1);
    assert_eq!(a.next_deadline(), Some(SimTime(2_000_000)));
}

/// 1040-byte segments at a 100 Mbit/s access rate are 83.2 us apart, so a
/// 1 ms timer holds at most 13 of one flow (gonzalez2009 Table 1 access rate).
#[test]
fn segments_per_flow_per_burst_bounded_by_access_rate() {
    let gap = SimDuration::transmission(1040, 100_000_000).as_nanos();
    assert_eq!(gap, 83_200);
    // Three flows, each paced at its own 100 Mbit/s access link, offset.
    let mut arrivals: Vec<Arrival> = (0..3u32)
        .flat_map(|f| (0..500u64).map(move |k| (k * gap + u64::from(f) * 17_000, f, 10.0)))
        .collect();
    arrivals.sort_by_key(|x| (x.0, x.1));
    for sel in [Selection::MixedFlow, Selection::PerFlow] {
        let mut a = assembler(&cfg(Trigger::Timer(MS), sel), 1);
        let bursts = drive(&mut a, &arrivals);
        let mut max = 0;
        for b in &bursts {
            for f in 0..3 {
                max = max.max(b.segments_of(FlowId(f)).count());
            }
        }
        assert_eq!(max, 13);
    }
}

// ---- size and hybrid triggers ----------------------------------------------

#[test]
fn size_trigger_closes_at_the_packet_reaching_the_limit() {
    let arrivals: Vec<Arrival> = (0..10u64).map(|k| (k * 1000, 0, 1.0)).collect();
    let mut a = assembler(
        &cfg(Trigger::Size(SizeLimit::Packets(3)), Selection::MixedFlow),
        1,
    );
    let bursts = drive(&mut a, &arrivals);
    // 10 packets: three full bursts; the 10th waits (no timer).
    assert_eq!(bursts.len(), 3);
    for (i, b) in bursts.iter().enumerate() {
        assert_eq!(b.packets.len(), 3);
        assert_eq!(b.closed, SimTime((3 * i as u64 + 2) * 1000));
    }
    assert_eq!(a.pending_packets(), 1);
    assert_eq!(a.next_deadline(), None);

    // 2500 B: 2 packets (2080 B) do not reach it, the 3rd (3120 B) does.
    let mut a = assembler(
        &cfg(Trigger::Size(SizeLimit::Bytes(2500)), Selection::MixedFlow),
        1,
    );
    let bursts = drive(&mut a, &arrivals);
    assert_eq!(bursts[0].packets.len(), 3);
    assert_eq!(bursts[0].payload_bytes, 3120);
    assert_eq!(a.stats().closed_by_size, 3);
    // Exactly at the limit closes too.
    let mut a = assembler(
        &cfg(Trigger::Size(SizeLimit::Bytes(2080)), Selection::MixedFlow),
        1,
    );
    assert_eq!(drive(&mut a, &arrivals)[0].packets.len(), 2);
}

#[test]
fn hybrid_trigger_closes_on_whichever_comes_first() {
    let c = cfg(
        Trigger::Hybrid(MS, SizeLimit::Packets(5)),
        Selection::MixedFlow,
    );
    // Fast arrivals (every 10 us): the size limit wins at the 5th packet.
    let fast: Vec<Arrival> = (0..5u64).map(|k| (k * 10_000, 0, 1.0)).collect();
    let mut a = assembler(&c, 1);
    let b = drive(&mut a, &fast);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].closed, SimTime(40_000));
    assert_eq!(a.stats().closed_by_size, 1);
    assert_eq!(a.next_deadline(), None, "the stale timer is dropped");
    // Slow arrivals (every 300 us): the timer wins with 4 packets.
    let slow: Vec<Arrival> = (0..5u64).map(|k| (k * 300_000, 0, 1.0)).collect();
    let mut a = assembler(&c, 1);
    let b = drive(&mut a, &slow);
    assert_eq!(b[0].packets.len(), 4);
    assert_eq!(b[0].closed, SimTime(1_000_000));
    assert_eq!(a.stats().closed_by_timer, 2);
}

// ---- queue selection -------------------------------------------------------

#[test]
fn per_flow_assembly_never_mixes_flows() {
    let arrivals: Vec<Arrival> = (0..2000u64)
        .map(|k| (k * 7_000, (k * 7 % 11) as u32, 1.0))
        .collect();
    let mut a = assembler(&cfg(Trigger::Timer(MS), Selection::PerFlow), 1);
    let bursts = drive(&mut a, &arrivals);
    let mut buf = Vec::new();
    let mut queue_of = [u32::MAX; 11];
    for b in &bursts {
        b.flows(&mut buf);
        assert_eq!(buf.len(), 1, "burst {} mixes flows {buf:?}", b.id);
        let f = buf[0].index();
        assert!(queue_of[f] == u32::MAX || queue_of[f] == b.queue);
        queue_of[f] = b.queue;
    }
    assert_eq!(a.queue_count(), 11);
    assert_all_delivered_once(&bursts, arrivals.len());
}

#[test]
fn mixed_flow_mixes_flows_in_one_queue() {
    let arrivals: Vec<Arrival> = (0..100u64)
        .map(|k| (k * 7_000, (k % 4) as u32, 1.0))
        .collect();
    let mut a = assembler(&cfg(Trigger::Timer(MS), Selection::MixedFlow), 1);
    let bursts = drive(&mut a, &arrivals);
    let mut buf = Vec::new();
    assert!(bursts
        .iter()
        .all(|b| b.queue == 0 && b.flow_count(&mut buf) == 4));
}

#[test]
fn modulo_mapping_spreads_flows_over_m_queues() {
    let arrivals: Vec<Arrival> = (0..1000u64)
        .map(|k| (k * 3_000, (k % 10) as u32, 1.0))
        .collect();
    for sel in [
        Selection::PerEgress {
            m: 5,
            mapping: FlowMapping::Modulo,
        },
        Selection::Smq { queues: 5 },
    ] {
        let mut a = assembler(&cfg(Trigger::Timer(MS), sel), 1);
        let bursts = drive(&mut a, &arrivals);
        assert_eq!(a.queue_count(), 5);
        let mut flows_of = vec![std::collections::BTreeSet::new(); 5];
        for b in &bursts {
            for p in &b.packets {
                assert_eq!(p.flow.0 % 5, b.queue, "flow in the wrong burstifier");
                flows_of[b.queue as usize].insert(p.flow);
            }
        }
        assert!(flows_of.iter().all(|s| s.len() == 2), "{flows_of:?}");
    }
}

#[test]
fn random_mapping_is_static_and_uses_every_queue() {
    let arrivals: Vec<Arrival> = (0..4000u64)
        .map(|k| (k * 3_000, (k % 200) as u32, 1.0))
        .collect();
    let mut a = assembler(
        &cfg(
            Trigger::Timer(MS),
            Selection::PerEgress {
                m: 4,
                mapping: FlowMapping::Random,
            },
        ),
        9,
    );
    let bursts = drive(&mut a, &arrivals);
    let mut queue_of = vec![u32::MAX; 200];
    for b in &bursts {
        for p in &b.packets {
            let q = &mut queue_of[p.flow.index()];
            assert!(*q == u32::MAX || *q == b.queue, "flow changed burstifier");
            *q = b.queue;
        }
    }
    let per_queue: Vec<usize> = (0..4)
        .map(|q| queue_of.iter().filter(|&&x| x == q).count())
        .collect();
    assert!(
        per_queue.iter().all(|&n| (25..=75).contains(&n)),
        "{per_queue:?}"
    );
}

/// Within one assembly cycle a flow stays in one queue: when two consecutive
/// packets of a flow are in different queues, the first one's burst had
/// closed before the second arrived.
#[track_caller]
fn assert_one_queue_per_cycle(bursts: &[Burst], arrivals: &[Arrival]) -> usize {
    let mut where_ = vec![(0u32, SimTime::ZERO); arrivals.len()];
    for b in bursts {
        for p in &b.packets {
            where_[seq_of(p) as usize] = (b.queue, b.closed);
        }
    }
    let mut last: Vec<Option<usize>> = vec![None; 64];
    let mut moves = 0;
    for (i, &(t, f, _)) in arrivals.iter().enumerate() {
        if let Some(j) = last[f as usize] {
            let (qj, closed_j) = where_[j];
            if where_[i].0 != qj {
                assert!(
                    closed_j <= SimTime(t),
                    "flow {f} moved queue within a cycle at packet {i}"
                );
                moves += 1;
            }
        }
        last[f as usize] = Some(i);
    }
    moves
}

#[test]
fn dmq_keeps_a_flow_in_one_queue_within_a_cycle() {
    let mut rng = stream(5, "arrivals");
    let mut t = 0;
    let arrivals: Vec<Arrival> = (0..5000)
        .map(|_| {
            t += u64::from(per_egress::uniform_below(&mut rng, 200_000));
            (t, per_egress::uniform_below(&mut rng, 20), 1.0)
        })
        .collect();
    let c = cfg(
        Trigger::Timer(MS),
        Selection::Dmq {
            queues: 4,
            allocation: DmqAllocation::Proactive,
        },
    );
    let mut a = assembler(&c, 2);
    let bursts = drive(&mut a, &arrivals);
    let moves = assert_one_queue_per_cycle(&bursts, &arrivals);
    // Proactive allocation is dynamic: flows do change queue between cycles.
    assert!(moves > 1000, "only {moves} re-allocations");
    assert_all_delivered_once(&bursts, arrivals.len());

    // A posteriori without losses: allocated once, never moves.
    let c = cfg(
        Trigger::Timer(MS),
        Selection::Dmq {
            queues: 4,
            allocation: DmqAllocation::APosteriori,
        },
    );
    let mut a = assembler(&c, 2);
    let bursts = drive(&mut a, &arrivals);
    assert_eq!(assert_one_queue_per_cycle(&bursts, &arrivals), 0);
}

#[test]
fn dmq_a_posteriori_reallocates_only_flows_of_lost_bursts() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::Dmq {
            queues: 8,
            allocation: DmqAllocation::APosteriori,
        },
    );
    let mut a = assembler(&c, 4);
    let mut out = Vec::new();
    let queue_of = |a: &mut Assembler, t: u64, f: u32, out: &mut Vec<Burst>| {
        a.on_packet(SimTime(t), E, pkt(f, 0, SimTime(t)), 1.0, out);
        a.on_timer(SimTime(t + 1_000_000), out);
        out.pop().unwrap()
    };
    let b0 = queue_of(&mut a, 0, 1, &mut out);
    let q_other = queue_of(&mut a, 2_000_000, 2, &mut out).queue;
    let mut moved = false;
    for k in 1..40u64 {
        // Flow 2 never loses and never moves.
        assert_eq!(queue_of(&mut a, k * 4_000_000, 2, &mut out).queue, q_other);
        let b = queue_of(&mut a, k * 4_000_000 + 2_000_000, 1, &mut out);
        moved |= b.queue != b0.queue;
        a.on_burst_lost(&b);
    }
    assert!(moved, "a flow of lost bursts was never re-allocated");
}

#[test]
fn window_based_picks_the_timer_by_cwnd() {
    let timers = [
        MS,
        SimDuration::from_millis(5),
        SimDuration::from_millis(10),
    ];
    // The trigger's own 3 ms timer is ignored.
    let c = cfg(
        Trigger::Timer(SimDuration::from_millis(3)),
        Selection::WindowBased {
            b: 16.0,
            c: 64.0,
            timers,
            source: WindowSource::Sender,
        },
    );
    for (cwnd, expect) in [
        (1.0, 0),
        (15.9, 0),
        (16.0, 1),
        (40.0, 1),
        (63.0, 1),
        (64.0, 2),
        (128.0, 2),
    ] {
        let mut a = assembler(&c, 1);
        let b = drive(&mut a, &[(0, 0, cwnd)]);
        assert_eq!(b[0].queue, expect, "cwnd {cwnd}");
        assert_eq!(
            b[0].closed,
            SimTime::ZERO + timers[expect as usize],
            "cwnd {cwnd}"
        );
    }
    // B = C: the middle timer is never used.
    assert_eq!(window_class(16.0, 16.0, 16.0), 2);
    assert_eq!(window_class(15.0, 16.0, 16.0), 0);
}

/// Acceptance (issue 13, R5): a flow whose cwnd grows through B and then C
/// moves from the 1 ms to the 5 ms and then the 10 ms queue, and back to the
/// 1 ms queue when a loss cuts its cwnd (a timeout: cwnd 1, ramantas2007
/// §5: "downgraded to medium flows or even to slow flows if they time
/// out"); a flow of constant window shares the queue of its class. Every
/// burst's packets were all selected into that burst's queue: no burst mixes
/// queues (ramantas2008 §5: "three different queues per source-destination
/// pair").
#[test]
fn window_based_flow_climbs_through_the_queues_and_falls_back_after_a_loss() {
    let ms = SimDuration::from_millis;
    let timers = [ms(1), ms(5), ms(10)];
    let (b, c) = (4.0, 16.0);
    let cfg = cfg(
        Trigger::Timer(ms(1)),
        Selection::WindowBased {
            b,
            c,
            timers,
            source: WindowSource::Sender,
        },
    );
    // Flow 0: one flight of cwnd segments per 20 ms round, slow start 1 ..
    // 32, then a timeout (cwnd 1) and slow start again. A segment every 80
    // µs (1000 B at 100 Mbit/s). Flow 1: 6 segments per round at cwnd 6.
    let rounds = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 1.0, 2.0];
    let mut arrivals: Vec<Arrival> = Vec::new();
    for (r, &w) in rounds.iter().enumerate() {
        let t0 = 20_000_000 * r as u64;
        for k in 0..w as u64 {
            arrivals.push((t0 + 80_000 * k, 0, w));
        }
        for k in 0..6u64 {
            arrivals.push((t0 + 40_000 + 80_000 * k, 1, 6.0));
        }
    }
    arrivals.sort_by_key(|a| a.0);
    let class_of: Vec<u32> = arrivals
        .iter()
        .map(|&(_, _, w)| window_class(w, b, c) as u32)
        .collect();
    let mut a = assembler(&cfg, 1);
    let bursts = drive(&mut a, &arrivals);
    assert_all_delivered_once(&bursts, arrivals.len());
    // No burst mixes queues: each packet's class is its burst's queue.
    for bu in &bursts {
        for p in &bu.packets {
            assert_eq!(class_of[seq_of(p) as usize], bu.queue, "burst {}", bu.id);
        }
        // ... and the burst closed on its queue's own timer.
        assert_eq!(bu.closed, bu.opened + timers[bu.queue as usize]);
    }
    // Flow 0's path through the queues, one burst per round.
    let path: Vec<u32> = bursts
        .iter()
        .filter(|bu| bu.packets.iter().any(|p| p.flow == FlowId(0)))
        .map(|bu| bu.queue)
        .collect();
    assert_eq!(path, [0, 0, 1, 1, 2, 2, 0, 0]);
    // Flow 1 (cwnd 6, medium) shares the 5 ms queue's bursts with flow 0
    // in rounds 2 and 3, and has them to itself elsewhere.
    let shared = bursts
        .iter()
        .filter(|bu| {
            bu.packets.iter().any(|p| p.flow == FlowId(0))
                && bu.packets.iter().any(|p| p.flow == FlowId(1))
        })
        .count();
    assert_eq!(shared, 2);
    assert_eq!(a.stats().queue_bursts, [4, 8, 2]);
}

/// B = C (the papers' one-threshold rows): the middle queue is never used.
#[test]
fn window_based_with_b_equal_to_c_skips_the_middle_queue() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::WindowBased {
            b: 32.0,
            c: 32.0,
            timers: [
                MS,
                SimDuration::from_millis(5),
                SimDuration::from_millis(10),
            ],
            source: WindowSource::Sender,
        },
    );
    let mut a = assembler(&c, 1);
    let arrivals: Vec<Arrival> = (0..64u32)
        .map(|w| (u64::from(w) * 20_000_000, 0, f64::from(w + 1)))
        .collect();
    drive(&mut a, &arrivals);
    assert_eq!(a.stats().queue_bursts, [31, 0, 33]);
}

/// `window_source = "estimated"`: the assembler reads its own estimate; an
/// ended flow's record is freed.
#[test]
fn window_based_estimates_the_window_when_told_to() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::WindowBased {
            b: 2.0,
            c: 3.0,
            timers: [
                MS,
                SimDuration::from_millis(5),
                SimDuration::from_millis(10),
            ],
            source: WindowSource::Estimated {
                rtt_fallback: SimDuration::from_millis(10),
            },
        },
    );
    let mut a = assembler(&c, 1);
    assert!(a.estimates_window());
    let est: Vec<f64> = (0..3u64)
        .map(|i| a.estimate_window(SimTime(i * 1000), &pkt(5, i, SimTime(i * 1000))))
        .collect();
    assert_eq!(est, [1.0, 2.0, 3.0]);
    assert_eq!(a.estimator().unwrap().flows(), 1);
    a.end_flow(FlowId(5));
    assert_eq!(a.estimator().unwrap().flows(), 0);
    let plain = assembler(&cfg(Trigger::Timer(MS), Selection::MixedFlow), 1);
    assert!(!plain.estimates_window() && plain.estimator().is_none());
}

#[test]
fn window_based_size_limit_still_applies() {
    let timers = [
        MS,
        SimDuration::from_millis(5),
        SimDuration::from_millis(10),
    ];
    let c = cfg(
        Trigger::Hybrid(MS, SizeLimit::Packets(2)),
        Selection::WindowBased {
            b: 16.0,
            c: 64.0,
            timers,
            source: WindowSource::Sender,
        },
    );
    let mut a = assembler(&c, 1);
    let b = drive(&mut a, &[(0, 0, 100.0), (10, 1, 100.0), (20, 2, 1.0)]);
    assert_eq!(b[0].packets.len(), 2);
    assert_eq!(b[0].closed, SimTime(10));
    assert_eq!(b[1].closed, SimTime(20) + MS);
}

// ---- padding, recycling, determinism ---------------------------------------

#[test]
fn padding_up_to_min_burst_size() {
    let c = AssemblyConfig {
        min_burst_bytes: Some(5000),
        header_bytes: 60,
        ..cfg(Trigger::Timer(MS), Selection::MixedFlow)
    };
    let mut a = assembler(&c, 1);
    let b = drive(
        &mut a,
        &[
            (0, 0, 1.0),
            (10, 0, 1.0),
            (2_000_000, 0, 1.0),
            (2_000_001, 0, 1.0),
            (2_000_002, 0, 1.0),
            (2_000_003, 0, 1.0),
            (2_000_004, 0, 1.0),
        ],
    );
    assert_eq!(b[0].payload_bytes, 2080);
    assert_eq!(b[0].padding_bytes, 2920);
    assert_eq!(b[0].wire_bytes(60), 5060);
    assert_eq!(b[1].payload_bytes, 5200);
    assert_eq!(b[1].padding_bytes, 0);
    assert_eq!(a.stats().padding_bytes, 2920);
    // 5060 B at 10 Gbit/s = 4048 ns, plus a 1 us guard.
    assert_eq!(
        b[0].transmission_time(10_000_000_000, 60, SimDuration::from_micros(1)),
        SimDuration(5048)
    );
}

#[test]
fn recycled_buffers_are_reused() {
    let mut a = assembler(&cfg(Trigger::Timer(MS), Selection::MixedFlow), 1);
    let mut b = drive(&mut a, &[(0, 0, 1.0), (1, 0, 1.0)]);
    let buf = std::mem::take(&mut b[0].packets);
    let ptr = buf.as_ptr();
    a.recycle(buf);
    let b = drive(&mut a, &[(5_000_000, 0, 1.0)]);
    assert_eq!(b[0].packets.as_ptr(), ptr);
}

fn fingerprint(bursts: &[Burst]) -> Vec<(u64, u32, SimTime, SimTime, Vec<u64>)> {
    bursts
        .iter()
        .map(|b| {
            (
                b.id,
                b.queue,
                b.opened,
                b.closed,
                b.packets.iter().map(seq_of).collect(),
            )
        })
        .collect()
}

#[test]
fn same_seed_same_bursts() {
    let mut rng = stream(11, "arrivals");
    let mut t = 0;
    let arrivals: Vec<Arrival> = (0..3000)
        .map(|_| {
            t += u64::from(per_egress::uniform_below(&mut rng, 100_000));
            (t, per_egress::uniform_below(&mut rng, 50), 1.0)
        })
        .collect();
    for sel in all_selections() {
        let conf = cfg(Trigger::Hybrid(MS, SizeLimit::Packets(6)), sel.clone());
        let first = fingerprint(&drive(&mut assembler(&conf, 1), &arrivals));
        let again = fingerprint(&drive(&mut assembler(&conf, 1), &arrivals));
        assert_eq!(first, again, "{sel:?}");
        let ids: Vec<u64> = first.iter().map(|b| b.0).collect();
        assert_eq!(
            ids,
            (0..first.len() as u64).collect::<Vec<_>>(),
            "ids are the per-ingress sequence"
        );
        if matches!(
            sel,
            Selection::Dmq {
                allocation: DmqAllocation::Proactive,
                ..
            } | Selection::PerEgress {
                mapping: FlowMapping::Random,
                ..
            }
        ) {
            let other = fingerprint(&drive(&mut assembler(&conf, 2), &arrivals));
            assert_ne!(first, other, "{sel:?} ignores its rng");
        }
    }
}

#[test]
fn groups_per_egress_and_unknown_egress() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::PerEgress {
            m: 2,
            mapping: FlowMapping::Modulo,
        },
    );
    let mut a = Assembler::new(
        &c,
        NodeId(0),
        &[NodeId(3), NodeId(5), NodeId(3)],
        stream(1, "asm"),
    );
    assert_eq!(a.queue_count(), 4);
    let mut out = Vec::new();
    a.on_packet(SimTime(0), NodeId(5), pkt(1, 0, SimTime(0)), 1.0, &mut out);
    a.on_packet(SimTime(0), NodeId(9), pkt(1, 1, SimTime(0)), 1.0, &mut out);
    assert_eq!(a.queue_count(), 6);
    a.flush(SimTime(5), &mut out);
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].egress, out[0].queue), (NodeId(5), 3));
    assert_eq!((out[1].egress, out[1].queue), (NodeId(9), 5));
    assert_eq!(a.queue_egress(5), Some(NodeId(9)));
    assert_eq!(a.next_deadline(), None);
}

#[test]
fn burst_flow_helpers() {
    let mut a = assembler(&cfg(Trigger::Timer(MS), Selection::MixedFlow), 1);
    let b = drive(
        &mut a,
        &[(0, 4, 1.0), (1, 2, 1.0), (2, 4, 1.0), (3, 9, 1.0)],
    );
    let mut buf = Vec::new();
    b[0].flows(&mut buf);
    assert_eq!(buf, vec![FlowId(2), FlowId(4), FlowId(9)]);
    let segs: Vec<u64> = b[0].segments_of(FlowId(4)).map(|s| s.seq).collect();
    assert_eq!(segs, vec![0, 2]);
    assert!(b[0].carries_data_of(FlowId(9)) && !b[0].carries_data_of(FlowId(3)));
    assert_eq!(b[0].data_segments(), 4);
}

// ---- per-flow state of ended flows (issue 12, item 3) ----------------------

/// Proactive DMQ with generated flows from id 0: short flows, each ending
/// after its packets, some of which come back late (after the flow's end,
/// as a spurious retransmission would). The bursts are exactly those of an
/// assembler that keeps every slot, while the slots kept follow the flows
/// alive at once.
#[test]
fn dmq_frees_ended_flows_slots_without_changing_any_burst() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::Dmq {
            queues: 4,
            allocation: DmqAllocation::Proactive,
        },
    );
    let mut keep = assembler(&c, 3);
    let mut free = assembler(&c, 3);
    free.set_generated_from(0);
    let (mut out_keep, mut out_free) = (Vec::new(), Vec::new());
    let mut max = (0, 0);
    // Flow f sends at 0.3 ms steps from 0.7 f ms for 2 ms, so about three
    // are alive at once; it ends at its last packet, and every fifth flow
    // sends one more packet 1.2 ms after its end (a late duplicate).
    let mut events: Vec<(u64, u32, bool)> = Vec::new();
    for f in 0..5_000u32 {
        let start = u64::from(f) * 700_000;
        for k in 0..7 {
            events.push((start + k * 300_000, f, k == 6));
        }
        if f % 5 == 0 {
            events.push((start + 1_800_000 + 1_200_000, f, false));
        }
    }
    events.sort_by_key(|&(t, f, _)| (t, f));
    let mut ended = std::collections::BTreeSet::new();
    for (i, &(t, f, last)) in events.iter().enumerate() {
        let now = SimTime(t);
        for (a, out) in [(&mut keep, &mut out_keep), (&mut free, &mut out_free)] {
            while let Some(d) = a.next_deadline().filter(|&d| d < now) {
                a.on_timer(d, out);
            }
            a.on_packet(now, E, pkt(f, i as u64, now), 1.0, out);
        }
        if last || ended.contains(&f) {
            // The engine ends the flow, and again after a late packet.
            ended.insert(f);
            keep.end_flow(FlowId(f));
            free.end_flow(FlowId(f));
        }
        let (slots, retired) = free.flow_slots();
        max = (max.0.max(slots), max.1.max(retired));
    }
    for (a, out) in [(&mut keep, &mut out_keep), (&mut free, &mut out_free)] {
        while let Some(d) = a.next_deadline() {
            a.on_timer(d, out);
        }
    }
    let key = |b: &Burst| {
        (
            b.queue,
            b.closed,
            b.packets.iter().map(seq_of).collect::<Vec<_>>(),
        )
    };
    assert_eq!(out_keep.len(), out_free.len());
    assert!(
        out_keep.iter().map(key).eq(out_free.iter().map(key)),
        "same bursts"
    );
    assert_eq!(keep.flow_slots(), (0, 0), "dense table: nothing in the map");
    assert!(max.0 <= 12 && max.1 >= 1, "slots, retired at most: {max:?}");
}

/// Policies whose queue is kept for the run (random mapping) keep their
/// dense table: a late packet must find its flow's queue.
#[test]
fn random_mapping_keeps_ended_flows_queues() {
    let c = cfg(
        Trigger::Timer(MS),
        Selection::PerEgress {
            m: 4,
            mapping: FlowMapping::Random,
        },
    );
    let mut a = assembler(&c, 3);
    a.set_generated_from(0);
    let mut out = Vec::new();
    a.on_packet(SimTime(0), E, pkt(9, 0, SimTime(0)), 1.0, &mut out);
    a.end_flow(FlowId(9));
    assert_eq!(a.flow_slots(), (0, 0));
    assert_eq!(a.table.flows.len(), 10, "the slot stays in the dense table");
}
