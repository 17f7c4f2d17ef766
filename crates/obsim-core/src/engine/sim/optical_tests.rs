//! Tests of the optical core in the engine: JET timing hop by hop,
//! contention at bufferless ports, wavelength conversion, void filling, and
//! the Erlang B loss of a single link fed by Poisson bursts.

use std::fmt::Write as _;

use super::super::Simulation;
use crate::analysis::erlang::erlang_b;
use crate::config::parse_toml;
use crate::engine::event::Event;
use crate::engine::{run, RunOptions};
use crate::ids::NodeId;
use crate::obs::Burst;
use crate::test_support::{links, nodes, optical_links};
use crate::time::{SimDuration, SimTime};

fn us(n: u64) -> SimDuration {
    SimDuration::from_micros(n)
}

/// A burst of `bytes` from `ingress` to `egress` with no packets.
fn burst(ingress: u32, egress: u32, bytes: u64) -> Burst {
    Burst {
        ingress: NodeId(ingress),
        egress: NodeId(egress),
        payload_bytes: bytes,
        ..Burst::default()
    }
}

/// Launches a burst of `bytes` with no packets from ingress `a` to egress
/// `e`, with `extra` extra offset.
fn launch(sim: &mut Simulation<'_>, a: u32, e: u32, bytes: u64, extra: SimDuration) {
    sim.launch_burst(
        NodeId(a),
        burst(a, e, bytes),
        0,
        SimDuration::ZERO,
        extra,
        true,
    );
}

/// Runs every pending event (the scenario has no flows, generators or
/// timers, so the queue empties).
fn drain(sim: &mut Simulation<'_>) -> Vec<(SimTime, &'static str)> {
    let mut seen = Vec::new();
    while let Some((t, ev)) = sim.queue.pop() {
        sim.now = t;
        seen.push((
            t,
            match ev {
                Event::Bcp(_) => "bcp",
                Event::BurstArrive { .. } => "arrive",
                Event::BurstLost(_) => "lost",
                _ => "other",
            },
        ));
        if matches!(ev, Event::Stop) {
            break;
        }
        sim.dispatch(ev);
    }
    seen
}

/// Nodes `A`, `C1`, `C2`, `B`: A -> C1 -> C2 -> B, 1 Gbit/s, 1 ms each.
fn path() -> String {
    [
        "[simulation]\nduration = \"1 s\"\n[optical]\nprocessing = \"50 us\"\n",
        &nodes("A:edge C1:core C2:core"),
        "[nodes.switch]\nprocessing = \"100 us\"\n",
        &nodes("B:edge"),
        "[nodes.switch]\nprocessing = \"20 us\"\n",
        &optical_links("A-C1 C1-C2 C2-B", None, "1 Gbit/s", "1 ms"),
    ]
    .concat()
}

#[test]
fn jet_offset_shrinks_hop_by_hop_and_the_burst_cuts_through() {
    let sc = parse_toml(&path()).unwrap();
    let mut sim = Simulation::new(&sc, &RunOptions::default()).unwrap();
    // 12 500 B = 100 µs at 1 Gbit/s.
    launch(&mut sim, 0, 3, 12_500, SimDuration::ZERO);
    // Offset T = Δ(C1) + Δ(C2) + Δ(B) = 50 + 100 + 20 = 170 µs: the burst
    // leaves A at 170 µs; its BCP left at 0.
    let ms = SimDuration::from_millis(1);
    let t0 = SimTime::ZERO;
    let seen = drain(&mut sim);
    assert_eq!(
        seen,
        vec![
            // BCP processed at C1: 1 ms + Δ(C1). Residual offset there:
            // burst head at 1.170 ms, 120 µs later.
            (t0 + ms + us(50), "bcp"),
            // At C2: 1.050 + 1 ms + Δ(C2); head at 2.170 ms (residual 20 µs).
            (t0 + ms + us(50) + ms + us(100), "bcp"),
            // Tail at B: head at 3.170 ms + 100 µs.
            (
                t0 + SimDuration::from_millis(3) + us(170) + us(100),
                "arrive"
            ),
        ]
    );
    assert_eq!(sim.obs.switches[1].counters.bcps, 1);
    assert_eq!(sim.obs.switches[2].counters.bcps, 1);
    let p = sim.obs.paths.jet(0);
    assert_eq!((p.hops, p.offset), (3, us(170)));
}

/// Ingress edges `A1`, `A2` (and `A3`) -> core `C` -> egress `E`, every
/// fibre with `w_in` / `w_out` wavelengths, 1 Gbit/s, 1 ms.
fn star(w_in: u16, w_out: u16, switch: &str, ingresses: usize) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"1 s\"\n[[nodes]]\nname = \"C\"\nkind = \"core\"\n[nodes.switch]\n{switch}\n[[nodes]]\nname = \"E\"\nkind = \"edge\"\n[[links]]\nfrom = \"C\"\nto = \"E\"\nkind = \"optical\"\nwavelengths = {w_out}\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n"
    );
    for i in 1..=ingresses {
        let _ = write!(
            s,
            "[[nodes]]\nname = \"A{i}\"\nkind = \"edge\"\n[[links]]\nfrom = \"A{i}\"\nto = \"C\"\nkind = \"optical\"\nwavelengths = {w_in}\nrate = \"1 Gbit/s\"\ndelay = \"1 ms\"\n"
        );
    }
    s
}

/// Launches one 100 µs burst from each ingress at time 0 (each with
/// `extra[i]` extra offset) and runs them; returns (dropped at C,
/// conversions at C, bursts that arrived).
fn contend(text: &str, extra: &[u64]) -> (u64, u64, usize) {
    let sc = parse_toml(text).unwrap();
    let mut sim = Simulation::new(&sc, &RunOptions::default()).unwrap();
    for (i, &x) in extra.iter().enumerate() {
        let a = 2 + i as u32;
        launch(&mut sim, a, 1, 12_500, us(x));
    }
    let arrived = drain(&mut sim)
        .iter()
        .filter(|(_, e)| *e == "arrive")
        .count();
    let c = &sim.obs.switches[0].counters;
    (c.dropped, c.conversions, arrived)
}

#[test]
fn a_bufferless_port_drops_overlapping_bursts_it_has_no_wavelength_for() {
    // Two bursts want C -> E over the same 100 µs.
    assert_eq!(contend(&star(1, 1, "", 2), &[0, 0]), (1, 0, 1));
    assert_eq!(contend(&star(1, 2, "", 2), &[0, 0]), (0, 0, 2));
    // 100 µs apart they fit one after the other on one wavelength.
    assert_eq!(contend(&star(1, 1, "", 2), &[0, 100]), (0, 0, 2));
}

#[test]
fn wavelength_conversion_full_partial_none() {
    // Both ingresses pick wavelength 0 (lowest free); at C the second burst
    // needs another wavelength.
    let none = star(2, 2, "conversion = \"none\"", 2);
    assert_eq!(contend(&none, &[0, 0]), (1, 0, 1), "continuity blocks");
    let full = star(2, 2, "conversion = \"full\"", 2);
    assert_eq!(contend(&full, &[0, 0]), (0, 0, 2));
    let partial = star(2, 2, "conversion = \"partial\"\nconverters = 1", 2);
    assert_eq!(contend(&partial, &[0, 0]), (0, 1, 2), "one conversion");
    // Three bursts on wavelength 0, three free output wavelengths, but one
    // converter: the third is blocked (shared per node or per port alike).
    for sharing in ["node", "port"] {
        let p = star(
            3,
            3,
            &format!("conversion = \"partial\"\nconverters = 1\nconverter_sharing = \"{sharing}\""),
            3,
        );
        assert_eq!(contend(&p, &[0, 0, 0]), (1, 1, 2), "{sharing}");
        let p2 = star(
            3,
            3,
            &format!("conversion = \"partial\"\nconverters = 2\nconverter_sharing = \"{sharing}\""),
            3,
        );
        assert_eq!(contend(&p2, &[0, 0, 0]), (0, 2, 3), "{sharing}");
    }
}

#[test]
fn void_filling_accepts_a_burst_horizon_refuses() {
    // A1's burst has 1 ms extra offset: it reserves C -> E from ~2 ms on.
    // A2's burst, sent at the same time without extra offset, passes C
    // ~1 ms earlier, in the void before that reservation.
    for (sched, dropped) in [("horizon", 1), ("lauc", 1), ("lauc-vf", 0), ("ffuc-vf", 0)] {
        let t = star(1, 1, &format!("scheduler = \"{sched}\""), 2);
        assert_eq!(contend(&t, &[1000, 0]).0, dropped, "{sched}");
    }
}

/// Launches `n` 100 µs bursts at once from `A1` of a one-ingress star with
/// one wavelength out of `A1` and `edge_queue` (default: unlimited) at
/// `A1`; returns the arrival times at `E` and the bursts dropped at `A1`.
fn edge_bursts(edge_queue: Option<&str>, n: usize) -> (Vec<SimTime>, u64) {
    let mut text = star(1, 4, "", 1);
    if let Some(q) = edge_queue {
        text = text.replace(
            "name = \"A1\"\nkind = \"edge\"",
            &format!("name = \"A1\"\nkind = \"edge\"\n[nodes.switch]\nedge_queue = \"{q}\""),
        );
    }
    let sc = parse_toml(&text).unwrap();
    let mut sim = Simulation::new(&sc, &RunOptions::default()).unwrap();
    for _ in 0..n {
        launch(&mut sim, 2, 1, 12_500, SimDuration::ZERO);
    }
    let arrivals = drain(&mut sim)
        .into_iter()
        .filter(|(_, e)| *e == "arrive")
        .map(|(t, _)| t)
        .collect();
    (arrivals, sim.obs.switches[2].counters.dropped)
}

#[test]
fn edge_queue_serialises_bursts_without_loss_and_none_drops_them() {
    // Two bursts at once from the same edge on one wavelength.
    let (arrivals, _) = edge_bursts(None, 2);
    // Queued: the second leaves when the first has left (100 µs later).
    assert_eq!(
        arrivals,
        vec![
            SimTime::ZERO + SimDuration::from_millis(2) + us(100),
            SimTime::ZERO + SimDuration::from_millis(2) + us(200)
        ]
    );
    // Bufferless edge: the second is dropped at the edge.
    let (arrivals, dropped) = edge_bursts(Some("none"), 2);
    assert_eq!(arrivals.len(), 1);
    assert_eq!(dropped, 1);
}

/// Poisson bursts with exponential lengths (mean 1 ms) offered to a
/// bufferless edge whose only fibre has `w` wavelengths: the M/M/w/w loss
/// system.
fn erlang_scenario(w: u16, load: f64, seconds: f64) -> String {
    let ia_ns = (1e6 / load).round() as u64;
    [
        &format!("[simulation]\nduration = \"{seconds} s\"\n"),
        &nodes("G:edge"),
        "[nodes.switch]\nedge_queue = \"none\"\n",
        &nodes("E:edge"),
        &optical_links("G-E", Some(w), "10 Gbit/s", "1 ms"),
        &format!("[[generators]]\nat = \"G\"\ninterarrival = \"{ia_ns} ns\"\nlength = \"1 ms\"\n"),
    ]
    .concat()
}

#[test]
fn single_link_loss_matches_erlang_b() {
    // 8 replications of about 50 000 bursts each; the Erlang B value must
    // lie inside the 99% Student-t CI of the mean loss (t_{7, 0.995}).
    const T99: f64 = 3.499;
    let mut failures = Vec::new();
    for w in [1u16, 2, 4, 8, 16] {
        for rho in [0.5, 1.0] {
            let load = rho * f64::from(w);
            let seconds = 50_000.0 / (load * 1000.0);
            let text = erlang_scenario(w, load, seconds);
            let sc = parse_toml(&text).unwrap();
            let ratios: Vec<f64> = (1..=8)
                .map(|seed| {
                    let r = run(&sc, &RunOptions { seed: Some(seed) }).unwrap();
                    let p = &r.paths[0];
                    assert_eq!(p.class, "background");
                    p.lost as f64 / p.bursts as f64
                })
                .collect();
            let n = ratios.len() as f64;
            let mean = ratios.iter().sum::<f64>() / n;
            let var = ratios.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let hw = T99 * (var / n).sqrt();
            let b = erlang_b(u32::from(w), load);
            eprintln!("W={w:2} A={load:5.1}: measured {mean:.5} ± {hw:.5}, Erlang B {b:.5}");
            if (mean - b).abs() > hw {
                failures.push(format!("W={w} A={load}: {mean:.5} ± {hw:.5} vs {b:.5}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn generators_are_poisson_and_spread_over_their_egresses() {
    let text = [
        "[simulation]\nduration = \"20 s\"\n",
        &nodes("G:edge C:core E1:edge E2:edge"),
        &optical_links("G-C C-E1 C-E2", Some(8), "10 Gbit/s", "1 ms"),
        "[[generators]]\nat = \"G\"\ninterarrival = \"1 ms\"\nlength = \"10 us\"\n",
        "distribution = \"fixed\"\nstart = \"2 s\"\nstop = \"12 s\"\n",
    ]
    .concat();
    let sc = parse_toml(&text).unwrap();
    let r = run(&sc, &RunOptions::default()).unwrap();
    let n: Vec<u64> = r.paths.iter().map(|p| p.bursts).collect();
    let total: u64 = n.iter().sum();
    // 10 s at 1000/s: Poisson mean 10 000, sd 100.
    assert!((total as f64 - 10_000.0).abs() < 400.0, "{total}");
    // Each egress gets half: binomial sd 50.
    assert_eq!(n.len(), 2);
    assert!((n[0] as f64 - total as f64 / 2.0).abs() < 200.0, "{n:?}");
    // Fixed 10 µs at 10 Gbit/s = 12 500 B each, nothing lost.
    assert!(r
        .paths
        .iter()
        .all(|p| p.bytes == p.bursts * 12_500 && p.lost == 0));
    // Determinism.
    let r2 = run(&sc, &RunOptions::default()).unwrap();
    assert_eq!(r.meta.events, r2.meta.events);
}

#[test]
fn data_entering_the_core_at_an_edge_without_assembly_is_refused() {
    let text = [
        "[simulation]\nduration = \"1 s\"\n",
        &nodes("a:host E1:edge E2:edge b:host"),
        &links("a-E1", "1 Gbit/s", "1 ms"),
        &optical_links("E1-E2", None, "1 Gbit/s", "1 ms"),
        &links("E2-b", "1 Gbit/s", "1 ms"),
        "[[flows]]\nfrom = \"a\"\nto = \"b\"\n",
    ]
    .concat();
    let sc = parse_toml(&text).unwrap();
    let err = run(&sc, &RunOptions::default()).unwrap_err().to_string();
    assert!(
        err.contains("flows[0]") && err.contains("no [nodes.assembly]"),
        "{err}"
    );
}

#[test]
fn edge_nodes_inside_a_path_switch_transit_bursts() {
    // A mesh of edge nodes A - B - C: bursts from A to C cross B, which
    // switches them (bufferless, its own scheduler) while queueing its own.
    let generator = |at: &str| {
        format!("[[generators]]\nat = \"{at}\"\nto = [\"C\"]\ninterarrival = \"100 us\"\nlength = \"40 us\"\n")
    };
    let text = [
        "[simulation]\nduration = \"2 s\"\n[optical]\nprocessing = \"10 us\"\n",
        &nodes("A:edge B:edge C:edge"),
        &optical_links("A-B B-C", None, "10 Gbit/s", "1 ms"),
        &generator("A"),
        &generator("B"),
    ]
    .concat();
    let sc = parse_toml(&text).unwrap();
    let r = run(&sc, &RunOptions::default()).unwrap();
    let ac = r.paths.iter().find(|p| p.ingress == "A").unwrap();
    let bc = r.paths.iter().find(|p| p.ingress == "B").unwrap();
    assert_eq!((ac.hops, ac.offset_s), (2, 20e-6));
    // B's own bursts wait in its queue; A's transit bursts are switched at
    // B and lose to B's reservations sometimes.
    assert_eq!(bc.lost, 0);
    assert!(ac.lost > 0 && ac.lost == ac.blocked, "{ac:?}");
    let b = r.nodes.iter().find(|n| n.node == "B").unwrap();
    // Every A -> C burst's BCP is processed at B, except those still
    // between A and B at the end (at most 1 ms of bursts).
    assert!(
        b.bcps <= ac.bursts && ac.bursts - b.bcps < 30,
        "{b:?} {ac:?}"
    );
    assert_eq!(b.bursts_dropped, ac.blocked);
}

#[test]
fn a_finite_edge_queue_drops_bursts_that_would_wait_too_long() {
    // Three 100 µs bursts at once on one wavelength: they would start at 0,
    // 100 and 200 µs. With at most 150 µs of waiting the third is dropped.
    let (arrivals, dropped) = edge_bursts(Some("150 us"), 3);
    assert_eq!(arrivals.len(), 2);
    assert_eq!(dropped, 1);
}

/// `metrics.pair_bins` (gonzalez2009 Table 2): on a single optical link
/// that carries one path's TCP bursts only (gonzalez2009_access: E1 -> E2,
/// the ACK bursts go back on E2 -> E1), the path's bytes-per-bin profile
/// into the first router equals the link's; background rows and runs
/// without the key have none; the run itself does not change.
#[test]
fn pair_bins_equal_the_link_profile_of_a_single_path() {
    let base = include_str!("../../../../../scenarios/gonzalez2009_access.toml")
        .replace("duration = \"600 s\"", "duration = \"30 s\"")
        .replace("warmup = \"50 s\"", "warmup = \"5 s\"")
        .replace("start = [\"0 s\", \"50 s\"]", "start = [\"0 s\", \"5 s\"]");
    let with = base.replace(
        "throughput_bin = \"3 ms\"",
        "throughput_bin = \"3 ms\"\npair_bins = true",
    );
    let run_text = |t: &str| run(&parse_toml(t).unwrap(), &RunOptions::default()).unwrap();
    let (off, on) = (run_text(&base), run_text(&with));
    assert_eq!(format!("{:?}", off.flows), format!("{:?}", on.flows));
    let link = on
        .links
        .iter()
        .find(|l| l.from == "E1" && l.to == "E2")
        .unwrap();
    let path = on
        .paths
        .iter()
        .find(|p| p.ingress == "E1" && p.egress == "E2" && p.class == "tcp")
        .unwrap();
    assert!(link.bin_rate_mean_bps > 1e6, "{link:?}");
    for (a, b) in [
        (link.bin_rate_mean_bps, path.bin_rate_mean_bps),
        (link.bin_rate_std_bps, path.bin_rate_std_bps),
        (link.bin_rate_min_bps, path.bin_rate_min_bps),
        (link.bin_rate_max_bps, path.bin_rate_max_bps),
    ] {
        assert!(
            (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            "{link:?} {path:?}"
        );
    }
    assert!(off.paths.iter().all(|p| p.bin_rate_mean_bps.is_nan()));
}

/// `metrics.pair_series` (gonzalez2009 Figs. 15-16): the `pair_bins` table
/// holds every whole 3 ms bin after the warm-up of the path that the pair's
/// packets take (hosts src -> dst: edges E1 -> E2), and its rates summarise
/// to the path's streamed `bin_rate_*_bps`; without the key it is empty and
/// the run itself does not change.
#[test]
fn pair_series_bins_match_the_streamed_statistics() {
    let base = include_str!("../../../../../scenarios/gonzalez2009_access.toml")
        .replace("duration = \"600 s\"", "duration = \"30 s\"")
        .replace("warmup = \"50 s\"", "warmup = \"5 s\"")
        .replace("start = [\"0 s\", \"50 s\"]", "start = [\"0 s\", \"5 s\"]")
        .replace(
            "throughput_bin = \"3 ms\"",
            "throughput_bin = \"3 ms\"\npair_bins = true\npair = [\"src\", \"dst\"]",
        );
    let with = base.replace("pair_bins = true", "pair_bins = true\npair_series = true");
    let run_text = |t: &str| run(&parse_toml(t).unwrap(), &RunOptions::default()).unwrap();
    let (off, on) = (run_text(&base), run_text(&with));
    assert_eq!(format!("{:?}", off.flows), format!("{:?}", on.flows));
    assert_eq!(format!("{:?}", off.paths), format!("{:?}", on.paths));
    assert!(off.pair_bins.is_empty());
    let path = on
        .paths
        .iter()
        .find(|p| p.ingress == "E1" && p.egress == "E2" && p.class == "tcp")
        .unwrap();
    let s = &on.pair_bins;
    // Whole 3 ms bins from the warm-up (5 s) to the end (30 s).
    assert_eq!(s.len(), 25_000 / 3, "{:?}", s.first());
    assert!(s.iter().all(|r| r.ingress == "E1" && r.egress == "E2"));
    for (k, r) in s.iter().enumerate() {
        let start = 5.001 + 0.003 * k as f64; // 5 s is not a multiple of 3 ms
        assert!((r.start_s - start).abs() < 1e-9, "bin {k}: {r:?}");
        assert_eq!(r.rate_bps, r.bytes as f64 * 8.0 / 0.003);
    }
    let rates: Vec<f64> = s.iter().map(|r| r.rate_bps).collect();
    let n = rates.len() as f64;
    let mean = rates.iter().sum::<f64>() / n;
    let std = (rates.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let max = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(mean > 1e6, "{path:?}");
    assert!(
        (mean - path.bin_rate_mean_bps).abs() <= 1e-9 * mean,
        "{mean} {path:?}"
    );
    assert!(
        (std - path.bin_rate_std_bps).abs() <= 1e-9 * std,
        "{std} {path:?}"
    );
    assert_eq!((min, max), (path.bin_rate_min_bps, path.bin_rate_max_bps));
}

/// Many short generated flows, few at once, through a DMQ (proactive)
/// ingress and a lossy optical link (so retransmissions, some of them late,
/// cross the edges): the edges' per-flow state follows the flows alive at
/// once, not the flows created (issue 12, item 3). At every event, the
/// burst counts hold exactly the live flows, and the ingress's slots are
/// those of live flows plus ended ones whose last assembly cycle is open.
#[test]
fn obs_per_flow_state_is_bounded_by_concurrent_flows() {
    let text = format!(
        "[simulation]\nduration = \"20 s\"\n[tcp]\nvariant = \"newreno\"\nmss = \"1000 B\"\n{}",
        include_str!("../../../tests/fixtures/dmq_chain.toml")
    );
    let sc = parse_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&sc, &RunOptions::default()).unwrap();
    sim.queue.push(SimTime::ZERO + sc.duration, Event::Stop);
    sim.start_flow_generators();
    let (mut max_slots, mut max_retired) = (0, 0);
    // The engine's loop (`run_streamed`), watched at every event.
    while let Some((t, ev)) = sim.next_event() {
        sim.now = t;
        if sim.dispatch(ev) {
            break;
        }
        let live = sim.gen.pool.live();
        assert_eq!(sim.obs.counts().live_flows(), live, "at {t:?}");
        let e1 = &sim.obs.edges[1].as_ref().expect("E1 is an edge").edge;
        let (slots, retired) = e1.assembler.flow_slots();
        assert!(
            slots <= live + retired,
            "{slots} slots, {live} live, {retired} retired"
        );
        max_slots = max_slots.max(slots);
        max_retired = max_retired.max(retired);
    }
    let created = sim.gen.created;
    let peak = sim.gen.pool.slots();
    assert!(created > 3_000, "{created} flows");
    assert!((peak as u64) < created / 30, "{peak} flows at once");
    assert!(sim.obs.counts().live_capacity() <= 2 * peak + 4);
    assert!(max_slots <= 2 * peak, "{max_slots} slots, peak {peak}");
    // Flows end an RTT after their last data segment crossed E1, whose
    // cycles last 1 ms: few (if any) wait for a cycle to close.
    assert!(max_retired < 20, "{max_retired} retired");
    let lost = sim
        .net
        .links
        .iter()
        .map(|l| l.channel.stats.bursts_lost)
        .sum::<u64>();
    assert!(lost > 100, "{lost} bursts lost");
}
