//! Validation of the TCP model against first principles and the PFTK model.
//! These runs are long: run them in release mode (`cargo test --release`),
//! as `scripts/test.sh` does. `OBSIM_VALIDATION_REPORT=path` appends the
//! measured tables (used to write docs/VALIDATION.md).

use obsim_core::analysis::pftk::{send_rate, PftkParams};
use obsim_core::config::parse_toml;
use obsim_core::engine::{run, RunOptions};
use obsim_core::results::RunResults;

/// One host -> router -> host path; the loss model sits on the second link.
fn path(
    variant: &str,
    extra_tcp: &str,
    access: &str,
    bottleneck: &str,
    delay: &str,
    loss: &str,
    secs: u64,
) -> String {
    format!(
        r#"
name = "validation"
[simulation]
duration = "{secs} s"
seed = 1
[tcp]
profile = "rfc"
variant = "{variant}"
mss = "1000 B"
header = "40 B"
delayed_ack = false
{extra_tcp}
[[nodes]]
name = "s"
kind = "host"
[[nodes]]
name = "r"
kind = "router"
[[nodes]]
name = "d"
kind = "host"
[[links]]
from = "s"
to = "r"
rate = "{access}"
delay = "{delay}"
buffer = "unlimited"
[[links]]
from = "r"
to = "d"
rate = "{bottleneck}"
delay = "{delay}"
buffer = "unlimited"
loss = {loss}
[[flows]]
from = "s"
to = "d"
"#
    )
}

fn run_toml(text: &str) -> RunResults {
    let sc = parse_toml(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&sc, &RunOptions::default()).expect("run")
}

fn report(line: &str) {
    if let Ok(p) = std::env::var("OBSIM_VALIDATION_REPORT") {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .unwrap();
        writeln!(f, "{line}").unwrap();
    }
}

#[test]
fn large_window_flow_fills_the_bottleneck() {
    // 10 Mbit/s bottleneck behind 100 Mbit/s access, unlimited buffers,
    // window far above the BDP: the flow must keep the bottleneck busy.
    let text = path(
        "reno",
        "max_window = 1000\nrwnd = 1000",
        "100 Mbit/s",
        "10 Mbit/s",
        "5 ms",
        r#"{ model = "none" }"#,
        30,
    );
    let r = run_toml(&text);
    let f = &r.flows[0];
    let capacity = 10e6 * 1000.0 / 1040.0; // payload bit/s
                                           // Startup (slow start over a 20 ms RTT) costs well under 1% of 30 s.
    let ratio = f.goodput_bps / capacity;
    assert!(
        ratio > 0.98 && ratio <= 1.0 + 1e-9,
        "goodput/capacity = {ratio}"
    );
    assert_eq!(f.retransmits, 0);
}

#[test]
fn window_limited_flow_gets_w_over_rtt() {
    let text = path(
        "reno",
        "max_window = 8",
        "100 Mbit/s",
        "100 Mbit/s",
        "10 ms",
        r#"{ model = "none" }"#,
        20,
    );
    let r = run_toml(&text);
    let f = &r.flows[0];
    let rtt = 0.040 + 2.0 * 1040.0 * 8.0 / 1e8 + 2.0 * 40.0 * 8.0 / 1e8;
    let expect = 8.0 * 1000.0 * 8.0 / rtt;
    // The first RTTs of slow start are the only shortfall: < 1% over 20 s.
    assert!(
        (f.goodput_bps / expect - 1.0).abs() < 0.01,
        "goodput {} vs {expect}",
        f.goodput_bps
    );
}

#[test]
fn slow_start_doubles_cwnd_each_rtt() {
    let text = path(
        "reno",
        "max_window = 100000\nrwnd = 100000\ninitial_cwnd = 1\n[trace]\ncwnd = true",
        "10 Gbit/s",
        "10 Gbit/s",
        "25 ms",
        r#"{ model = "none" }"#,
        1,
    );
    let r = run_toml(&text);
    let t = &r.trace;
    // cwnd at the first sample after k RTTs (100 ms each) is 2^k.
    for k in 1..=8u32 {
        let at = f64::from(k) * 0.1 + 0.05;
        let i = t.time_s.iter().rposition(|&s| s <= at).unwrap();
        // Exact: cwnd counts whole segments in slow start.
        #[allow(clippy::float_cmp)]
        let exact = t.cwnd[i] == f64::from(1u32 << k);
        assert!(exact, "after {k} RTTs: cwnd {}", t.cwnd[i]);
    }
}

/// Reno under Bernoulli loss against the PFTK full model, with the measured
/// RTT and the measured `T0` (mean RTO in force at first timeouts): within
/// 15% at p in {0.001, 0.01, 0.05}. The sender is configured as PFTK models
/// Reno: RFC 5681 fast retransmit / fast recovery without limited transmit
/// (RFC 3042 postdates the model). Loss hits data only, as in the model.
#[test]
fn reno_matches_pftk() {
    report("| profile | p | TD | TO | measured send rate (pkt/s) | PFTK (pkt/s) | measured/PFTK | RTT (s) | T0 (s) |");
    report("|---|---|---|---|---|---|---|---|---|");
    let cases = [
        ("rfc", 0.001, 6000),
        ("rfc", 0.01, 1500),
        ("rfc", 0.05, 1500),
    ];
    for (profile, p, secs) in cases {
        let (pkts, model, ratio) = pftk_case(profile, "limited_transmit = false", p, secs);
        assert!(
            (ratio - 1.0).abs() < 0.15,
            "{profile} p={p}: measured {pkts:.1} vs PFTK {model:.1}"
        );
    }
}

/// The same comparison with ns-2's defaults (RTO floor 200 ms = 2 RTT, ns-2
/// `bugFix_` recover check, limited transmit on): reported, not asserted;
/// docs/VALIDATION.md explains the gap at high loss.
#[test]
fn reno_vs_pftk_with_ns2_defaults_is_reported() {
    for (p, secs) in [(0.001, 6000), (0.01, 1500), (0.05, 1500)] {
        let (_, _, ratio) = pftk_case("ns2", "", p, secs);
        assert!(ratio > 0.5 && ratio < 1.5, "ns2 p={p}: ratio {ratio}");
    }
}

fn pftk_case(profile: &str, extra: &str, p: f64, secs: u64) -> (f64, f64, f64) {
    let loss = format!(r#"{{ model = "bernoulli", p = {p}, data_only = true }}"#);
    let tcp = format!("max_window = 100000\nrwnd = 100000\n{extra}");
    let text = path("reno", &tcp, "1 Gbit/s", "1 Gbit/s", "25 ms", &loss, secs)
        .replace("profile = \"rfc\"", &format!("profile = \"{profile}\""));
    let r = run_toml(&text);
    let f = &r.flows[0];
    let events = f.td_events + f.to_events;
    assert!(events > 1000, "{profile} p={p}: only {events} loss events");
    // Without any timeout T0 is unobserved: use the RTO the next one would have.
    let t0 = if f.to_events > 0 {
        f.t0_mean_s
    } else {
        f.rto_s
    };
    let measured = f.segments_sent as f64 / r.meta.end_time_s;
    let m = PftkParams {
        p,
        rtt: f.rtt_mean_s,
        t0,
        wmax: 100_000.0,
        b: 1.0,
    };
    let model = send_rate(&m);
    let ratio = measured / model;
    report(&format!(
        "| {profile} | {p} | {} | {} | {measured:.1} | {model:.1} | {ratio:.3} | {:.4} | {:.3} |",
        f.td_events, f.to_events, f.rtt_mean_s, t0
    ));
    (measured, model, ratio)
}

#[test]
fn conservation_and_in_order_delivery_under_loss() {
    for variant in ["tahoe", "reno", "newreno", "sack"] {
        for p in [0.001, 0.01, 0.05] {
            let loss = format!(r#"{{ model = "bernoulli", p = {p} }}"#);
            let text = path(
                variant,
                "max_window = 200",
                "100 Mbit/s",
                "20 Mbit/s",
                "5 ms",
                &loss,
                20,
            );
            let r = run_toml(&text);
            let f = &r.flows[0];
            assert_eq!(
                f.segments_sent,
                f.segments_received + f.packets_dropped + f.segments_in_flight,
                "{variant} p={p}"
            );
            assert!(f.segments_delivered <= f.segments_received);
            assert!(f.cwnd_final >= 1.0);
            assert!(f.segments_delivered > 0);
        }
    }
}

#[test]
fn determinism_same_seed_same_bytes() {
    let loss = r#"{ model = "bernoulli", p = 0.01 }"#;
    let text = path(
        "sack",
        "max_window = 64\n[trace]\ncwnd = true\nseq = true",
        "100 Mbit/s",
        "10 Mbit/s",
        "5 ms",
        loss,
        20,
    );
    let sc = parse_toml(&text).unwrap();
    let strip = |mut r: RunResults| {
        r.meta.wall_s = 0.0;
        serde_json::to_string(&r).unwrap()
    };
    let a = strip(run(&sc, &RunOptions::default()).unwrap());
    let b = strip(run(&sc, &RunOptions::default()).unwrap());
    let c = strip(run(&sc, &RunOptions { seed: Some(99) }).unwrap());
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Drops listed first transmissions of flow 0 on the bottleneck and returns
/// the flow's results (a 300-segment transfer, RTT 40 ms, W_M = 64).
fn scripted(variant: &str, seqs: &str, extra: &str) -> obsim_core::results::FlowResult {
    scripted_run(variant, seqs, extra).flows.remove(0)
}

fn scripted_run(variant: &str, seqs: &str, extra: &str) -> RunResults {
    // A 1 s RTO floor unless the caller sets its own.
    let rto = if extra.contains("rto =") {
        ""
    } else {
        "rto = { min = \"1 s\" }\n"
    };
    let loss = format!(r#"{{ model = "segments", flow = 0, seqs = {seqs} }}"#);
    let tcp = format!("max_window = 64\nrwnd = 64\nlimited_transmit = false\n{rto}{extra}");
    let text = path(
        variant,
        &tcp,
        "100 Mbit/s",
        "100 Mbit/s",
        "10 ms",
        &loss,
        30,
    )
    .replace(
        "[[flows]]\nfrom = \"s\"\nto = \"d\"\n",
        "[[flows]]\nfrom = \"s\"\nto = \"d\"\nsize = \"300000 B\"\n",
    );
    run_toml(&format!("{text}\n[trace]\nseq = true\n"))
}

/// Time from the first ACK that leaves `first` as the oldest unacknowledged
/// segment until the cumulative ACK passes `last`: how long the repair of
/// the holes `first..=last` took.
fn repair_time(r: &RunResults, first: u64, last: u64) -> f64 {
    let t = &r.trace;
    let start = t.time_s[t.snd_una.iter().position(|&u| u >= first).unwrap()];
    let end = t.time_s[t.snd_una.iter().position(|&u| u > last).unwrap()];
    end - start
}

#[test]
fn scripted_losses_through_the_engine() {
    // One loss: every variant does exactly one fast retransmit and no timeout.
    // The flow is window-limited (W_M = 64) when the loss is found, so SACK
    // may add RFC 6675 NextSeg rule 4's single rescue retransmission.
    for v in ["tahoe", "reno", "newreno", "sack"] {
        let f = scripted(v, "[100]", "");
        let rescue = u64::from(v == "sack");
        assert_eq!((f.td_events, f.to_events), (1, 0), "{v}");
        assert!(
            (1..=1 + rescue).contains(&f.retransmits),
            "{v}: {} retransmits",
            f.retransmits
        );
        assert_eq!(f.segments_delivered, 300, "{v}");
    }
    // Four losses in one window.
    let newreno = scripted("newreno", "[100, 103, 106, 109]", "");
    assert_eq!(
        (newreno.td_events, newreno.to_events, newreno.retransmits),
        (1, 0, 4)
    );
    let sack = scripted("sack", "[100, 103, 106, 109]", "");
    assert_eq!((sack.td_events, sack.to_events), (1, 0));
    assert!(
        (4..=5).contains(&sack.retransmits),
        "SACK: {} retransmits",
        sack.retransmits
    );
    // NewReno repairs one hole per RTT (RTT ~ 40 ms: four holes, four RTTs
    // after the loss is found). SACK sends every repair within about one RTT
    // of entering recovery (once pipe, RFC 6675, has fallen below the halved
    // cwnd: half a window of ACKs), so the last is acknowledged within 2 RTTs.
    let holes = "[100, 103, 106, 109]";
    let t_newreno = repair_time(&scripted_run("newreno", holes, ""), 100, 109);
    let t_sack = repair_time(&scripted_run("sack", holes, ""), 100, 109);
    assert!(
        (0.15..0.19).contains(&t_newreno),
        "NewReno repair took {t_newreno:.3} s"
    );
    assert!(
        (0.035..0.09).contains(&t_sack),
        "SACK repair took {t_sack:.3} s"
    );
    // Reno with ns-2's recover check cannot fast-retransmit the later holes:
    // it waits for the timeout. Without the check it halves once per hole.
    let reno = scripted("reno", "[100, 103, 106, 109]", "reno_recover_check = true");
    assert!(
        reno.to_events >= 1,
        "Reno with recover check: {} timeouts",
        reno.to_events
    );
    let plain = scripted("reno", "[100, 103, 106, 109]", "reno_recover_check = false");
    assert!(
        plain.td_events >= 2 && plain.to_events == 0 || plain.to_events >= 1,
        "plain Reno: {plain:?}"
    );
    assert!(reno.end_s > newreno.end_s);
}

#[test]
fn newreno_timer_variants() {
    // Eight holes in one window, RTT ~40 ms, RTO floor 200 ms: recovering one
    // hole per RTT takes ~320 ms. Impatient NewReno (RFC 6582 §3.2) resets
    // the timer only on the first partial ACK and times out; Slow-but-Steady
    // (ns-2 before 2003) resets it on every partial ACK and does not.
    let holes = "[100, 102, 104, 106, 108, 110, 112, 114]";
    let impatient = scripted(
        "newreno",
        holes,
        "rto = { min = \"200 ms\" }\nnewreno_timer = \"impatient\"",
    );
    let steady = scripted(
        "newreno",
        holes,
        "rto = { min = \"200 ms\" }\nnewreno_timer = \"slow_but_steady\"",
    );
    assert!(impatient.to_events >= 1, "impatient: {impatient:?}");
    assert_eq!(steady.to_events, 0, "slow-but-steady: {steady:?}");
    assert_eq!(steady.retransmits, 8);
}
