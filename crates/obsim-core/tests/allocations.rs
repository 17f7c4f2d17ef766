//! Heap allocations of generated flows (issue 12: "allocation per flow
//! arrival is acceptable only if it is amortised (recycled slots)"),
//! counted by a global allocator. The tests share the process-wide count,
//! so they run one at a time.

use std::alloc::System;
use std::sync::Mutex;

use obsim_core::config::parse_toml;
use obsim_core::engine::{run, RunOptions};
use obsim_core::tcp::config::CongestionControl;
use obsim_core::tcp::profile::profile;
use obsim_core::tcp::{Segment, TcpConfig, TcpReceiver, TcpSender, Variant};
use obsim_core::time::SimTime;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// One test at a time: the count is the whole process's.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Allocations and reallocations while `f` runs.
fn allocations<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let region = Region::new(GLOBAL);
    let r = f();
    let st = region.change();
    ((st.allocations + st.reallocations) as u64, r)
}

/// A lossy dumbbell path with one Poisson generator of 200 KB flows
/// (55 flows/s on 100 Mbit/s: about 90% load, losses at the 20-packet
/// buffer), TCP `variant` with window growth `cc` under the ns2 profile.
fn scenario(variant: &str, cc: &str, secs: u32) -> String {
    format!(
        r#"
[simulation]
duration = "{secs} s"
[tcp]
profile = "ns2"
variant = "{variant}"
congestion_control = "{cc}"
mss = "1000 B"
[[nodes]]
name = "a"
[[nodes]]
name = "r"
kind = "router"
[[nodes]]
name = "b"
[[links]]
from = "a"
to = "r"
rate = "100 Mbit/s"
delay = "2 ms"
buffer = "100 packets"
[[links]]
from = "r"
to = "b"
rate = "100 Mbit/s"
delay = "8 ms"
buffer = "20 packets"
[[flow_generators]]
name = "web"
from = "a"
to = "b"
rate = 55
size = "200 KB"
"#
    )
}

/// The allocations a generated flow adds to a run: the difference between
/// a run and one twice as long, over the difference in flows created. The
/// flow's arrival (its TCP sender, receiver, plug-ins and SACK scoreboard,
/// renewed in the slot of a finished flow), its packets and its record
/// (names shared, `Arc<str>`) allocate nothing; what is left is the growth
/// of the records' vector and of tables indexed by flow id, amortised.
/// Before the slots' state was renewed, a SACK flow added 9 (6 at its
/// arrival); before the names were shared, 3.
/// Runs `text(secs)` for 20 and 40 simulated seconds and asserts that the
/// flows added by the longer run recovered losses and cost fewer than 0.1
/// allocations each (`what` names the case in messages).
fn assert_flows_allocate_nothing(what: &str, text: impl Fn(u32) -> String) {
    let measure = |secs: u32| {
        let sc = parse_toml(&text(secs)).unwrap();
        let (n, r) = allocations(|| run(&sc, &RunOptions::default()).unwrap());
        (
            n,
            r.flowgen.created,
            r.flow_records.iter().map(|x| x.retransmits).sum::<u64>(),
        )
    };
    let (n1, f1, rtx1) = measure(20);
    let (n2, f2, rtx2) = measure(40);
    assert!(f2 > f1 + 800, "{what}: {f1} then {f2} flows");
    assert!(rtx2 > rtx1 + 100, "{what}: the flows must recover losses");
    // The count is the process's: the test harness may allocate during
    // either run (another test finishing), hence `saturating_sub`.
    let per_flow = n2.saturating_sub(n1) as f64 / (f2 - f1) as f64;
    assert!(
        per_flow < 0.1,
        "{what}: {n1} then {n2}: {per_flow} allocations per flow"
    );
}

#[test]
fn a_generated_flow_allocates_nothing() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for (variant, cc) in [
        ("sack", "reno"),
        ("newreno", "reno"),
        ("reno", "reno"),
        ("sack", "cubic"),
    ] {
        assert_flows_allocate_nothing(&format!("{variant}/{cc}"), |secs| {
            scenario(variant, cc, secs)
        });
    }
}

/// The same with Proportional Rate Reduction (RFC 6937, `tcp.prr =
/// "ssrb"`) in the RFC 6675 SACK and `NewReno` recoveries of the rfc
/// profile: PRR's per-ACK work (DeliveredData, sndcnt) allocates nothing.
#[test]
fn a_generated_prr_flow_allocates_nothing() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for variant in ["sack", "newreno"] {
        let text = |secs| {
            scenario(variant, "reno", secs)
                .replace("profile = \"ns2\"", "profile = \"rfc\"\nprr = \"ssrb\"")
        };
        let sc = parse_toml(&text(20)).unwrap();
        assert!(sc.flow_generators[0].tcp.prr != obsim_core::tcp::config::Prr::Off);
        assert_flows_allocate_nothing(&format!("{variant}+prr"), text);
    }
}

/// The same with RACK-TLP (RFC 8985, `tcp.rack = true`, `tcp.tlp = true`)
/// in the RFC 6675 SACK recovery of the rfc profile, PRR on: RACK's
/// per-segment transmit times and loss marks live in the scoreboard's ring,
/// its per-ACK detection and the probe timer allocate nothing.
#[test]
fn a_generated_rack_tlp_flow_allocates_nothing() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let text = |secs| {
        scenario("sack", "reno", secs).replace(
            "profile = \"ns2\"",
            "profile = \"rfc\"\nprr = \"ssrb\"\nrack = true\ntlp = true",
        )
    };
    let sc = parse_toml(&text(20)).unwrap();
    let tcp = &sc.flow_generators[0].tcp;
    assert!(tcp.rack_tlp.rack && tcp.rack_tlp.tlp);
    assert_flows_allocate_nothing("sack+rack+tlp", text);
}

/// Short generated flows through an OBS ingress with proactive DMQ and a
/// lossy optical link: the per-flow state of the edges (burst counts, DMQ
/// slots), kept only while a flow lives (issue 12, item 3), reuses the
/// capacity of the flows before it: no allocation per flow either.
#[test]
fn a_generated_flow_through_obs_edges_allocates_nothing() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let scenario = |secs: u32| {
        format!(
            "[simulation]\nduration = \"{secs} s\"\n[tcp]\nprofile = \"ns2\"\nvariant = \"sack\"\nmss = \"1000 B\"\n{}",
            include_str!("fixtures/dmq_chain.toml")
        )
    };
    let measure = |secs| {
        let sc = parse_toml(&scenario(secs)).unwrap();
        let (n, r) = allocations(|| run(&sc, &RunOptions::default()).unwrap());
        (n, r.flowgen.created)
    };
    let (n1, f1) = measure(20);
    let (n2, f2) = measure(40);
    assert!(f2 > f1 + 3_000, "{f1} then {f2} flows");
    // The count is the process's: the test harness may allocate during
    // either run (another test finishing), hence `saturating_sub`.
    let per_flow = n2.saturating_sub(n1) as f64 / (f2 - f1) as f64;
    assert!(
        per_flow < 0.1,
        "{n1} then {n2}: {per_flow} allocations per flow"
    );
}

/// Configurations of every loss recovery (`Sack1` of the ns2 profile and
/// RFC 6675 of the rfc one), then two with CUBIC window growth.
fn configs() -> Vec<TcpConfig> {
    let mut out = Vec::new();
    for name in ["ns2", "rfc"] {
        for variant in [
            Variant::Tahoe,
            Variant::Reno,
            Variant::NewReno,
            Variant::Sack,
        ] {
            let mut c = profile(name).unwrap();
            c.variant = variant;
            out.push(c);
        }
    }
    // The two recoveries that read `tcp.prr` (RFC 6937), with it on.
    for variant in [Variant::NewReno, Variant::Sack] {
        let mut c = profile("rfc").unwrap();
        c.variant = variant;
        c.prr = obsim_core::tcp::config::Prr::Ssrb;
        out.push(c);
    }
    for (name, variant) in [("ns2", Variant::Sack), ("rfc", Variant::NewReno)] {
        let mut c = profile(name).unwrap();
        c.variant = variant;
        c.congestion_control = CongestionControl::Cubic;
        out.push(c);
    }
    // RACK-TLP (RFC 8985), which keeps per-segment state in the scoreboard.
    let mut c = profile("rfc").unwrap();
    c.variant = Variant::Sack;
    c.rack_tlp.rack = true;
    c.rack_tlp.tlp = true;
    out.push(c);
    out
}

/// A sender and a receiver of `cfg` that have sent and received (segment
/// 0 lost: the receiver buffers the rest out of order).
fn used(cfg: &TcpConfig) -> (TcpSender, TcpReceiver) {
    let mut s = TcpSender::new(cfg, Some(100_000));
    let mut r = TcpReceiver::new(cfg);
    s.start(SimTime::ZERO);
    let mut segs: Vec<Segment> = Vec::new();
    while let Some(seg) = s.poll_transmit(SimTime::ZERO) {
        segs.push(seg);
    }
    for seg in segs.iter().filter(|g| g.seq > 0 && !g.syn) {
        if let Some(ack) = r.on_segment(SimTime::ZERO, seg) {
            s.on_ack(SimTime::ZERO, &ack);
        }
    }
    (s, r)
}

/// Renewing a sender and a receiver for the configuration they were built
/// for allocates nothing; for another loss recovery, the plug-in (and its
/// scoreboard) is built anew.
#[test]
fn renewal_for_the_same_configuration_allocates_nothing() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let cfgs = configs();
    for (i, cfg) in cfgs.iter().enumerate() {
        let (mut s, mut r) = used(cfg);
        let (n, ()) = allocations(|| {
            s.renew(cfg, Some(50_000));
            r.renew(cfg);
        });
        assert_eq!(n, 0, "{:?}/{:?}", cfg.variant, cfg.sack_recovery);
        let other = &cfgs[(i + 1) % cfgs.len()];
        let (n, ()) = allocations(|| s.renew(other, Some(50_000)));
        assert!(n >= 1, "{:?} after {:?}", other.variant, cfg.variant);
    }
}
