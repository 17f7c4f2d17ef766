//! Scripted Burst TCP tests (yu2004 §IV, issue 6 acceptance): one burst
//! loss carrying a fast flow's whole window is a false timeout for BLE,
//! BACK and BNAK (halve, not slow start); BNAK reacts about one RTT after
//! the loss instead of one RTO; losses in the access networks are true
//! timeouts for BACK (ingress + egress) and BNAK; every judgement is scored
//! against where the segment was lost.

use crate::config::parse_toml;
use crate::engine::{run, RunOptions};
use crate::results::{FlowResult, RunResults};
use crate::test_support::{buffered_links, link_result, nodes, optical_links};

/// yu2004 §III's path with a fast flow (1 MB/s access, T_b = 0.2 s, W = 20):
/// src - E1 = C1 = C2 = E2 - dst. `fto` is the `[tcp]` detection, `core`
/// a burst_loss table for C1 -> C2 (or ""), `src_loss`/`dst_loss` packet
/// loss tables for the access links (or "").
fn scenario(fto: &str, core: &str, src_loss: &str, dst_loss: &str) -> String {
    let opt = |k: &str, v: &str| {
        if v.is_empty() {
            String::new()
        } else {
            format!("{k} = {v}\n")
        }
    };
    let assembly = "[nodes.assembly]\ntimeout = \"200 ms\"\n";
    let access = |pair: &str, loss: String| {
        buffered_links(pair, "8 Mbit/s", "10 ms", "1000 packets") + &loss
    };
    [
        "[simulation]\nduration = \"60 s\"\n",
        "[tcp]\nprofile = \"ns2-2003\"\nvariant = \"reno\"\nmss = \"1000 B\"\nmax_window = 20\n",
        &format!("fto_detection = \"{fto}\"\n"),
        &nodes("src:host E1:edge"),
        assembly,
        &nodes("C1:core C2:core E2:edge"),
        assembly,
        &nodes("dst:host"),
        &access("src-E1", opt("loss", src_loss)),
        &optical_links("E1-C1 C1-C2", None, "10 Gbit/s", "10 ms"),
        &opt("burst_loss", core),
        &optical_links("C2-E2", None, "10 Gbit/s", "10 ms"),
        &access("E2-dst", opt("loss", dst_loss)),
        "[[flows]]\nfrom = \"src\"\nto = \"dst\"\nsize = \"2 MB\"\n[trace]\ncwnd = true\n",
    ]
    .concat()
}

fn go(text: &str) -> RunResults {
    let sc = parse_toml(text).unwrap_or_else(|e| panic!("{e}"));
    run(&sc, &RunOptions::default()).unwrap()
}

/// The 12th burst is lost in the core: by then cwnd = W = 20 and each
/// burst carries the whole window.
const ONE_BURST: &str = "{ pattern = \"single\", index = 12, flow = 0 }";

/// Time of the first cwnd decrease, and the cwnd right after it.
fn first_cut(r: &RunResults) -> (f64, f64) {
    let t = &r.trace;
    (1..t.cwnd.len())
        .find(|&i| t.cwnd[i] < t.cwnd[i - 1])
        .map(|i| (t.time_s[i], t.cwnd[i]))
        .expect("a window cut")
}

fn flow(r: &RunResults) -> &FlowResult {
    &r.flows[0]
}

#[test]
fn one_burst_loss_is_a_false_timeout_for_ble_back_and_bnak() {
    let reno = go(&scenario("none", ONE_BURST, "", ""));
    let f = flow(&reno);
    assert_eq!(f.bursts_lost, 1);
    assert!(f.to_events >= 1 && f.fto_judged_false == 0);
    // Plain TCP: the timeout is true, and wrong (the loss was in the core).
    assert_eq!(
        (f.judged_true_wrong, f.judged_false_right),
        (f.to_events, 0)
    );
    let (t_reno, w_reno) = first_cut(&reno);
    assert!(
        (w_reno - 1.0).abs() < 1e-9,
        "Reno restarts from 1, got {w_reno}"
    );
    let mut cut = Vec::new();
    for fto in ["ble", "back", "bnak"] {
        let r = go(&scenario(fto, ONE_BURST, "", ""));
        let f = flow(&r);
        assert_eq!(f.bursts_lost, 1, "{fto}");
        assert_eq!(f.fto_judged_false, 1, "{fto}: {f:?}");
        assert_eq!(
            (f.judged_false_right, f.judged_false_wrong),
            (1, 0),
            "{fto}"
        );
        let (t, w) = first_cut(&r);
        assert!((w - 10.0).abs() < 1e-9, "{fto}: halves 20 -> 10, got {w}");
        assert!(
            f.end_s < reno.flows[0].end_s,
            "{fto} finishes first: {} vs {}",
            f.end_s,
            reno.flows[0].end_s
        );
        cut.push((fto, t, f.clone()));
    }
    // BLE and BACK react at the timeout, as Reno does; BNAK about one RTT
    // after the loss, before the timer, and never times out.
    let (_, t_ble, _) = &cut[0];
    let (_, t_back, back) = &cut[1];
    let (_, t_bnak, bnak) = &cut[2];
    assert!((t_ble - t_reno).abs() < 1e-6 && (t_back - t_reno).abs() < 1e-6);
    assert!(back.signals_received > 0);
    assert_eq!((bnak.early_fto_events, bnak.to_events), (1, 0));
    let rtt = bnak.rtt_mean_s;
    let rto = back.t0_mean_s;
    assert!(rto > 2.0 * rtt, "RTO {rto} vs RTT {rtt}");
    assert!(
        t_reno - t_bnak > 0.5 * (rto - rtt),
        "BNAK at {t_bnak}, timeout at {t_reno}; RTT {rtt}, RTO {rto}"
    );
}

/// Segments 300..=400 lost on an access link: more than a window, so the
/// window is lost and the sender times out.
const WINDOW: &str = "{ model = \"segments\", flow = 0, seqs = [SEQS] }";

fn window_loss() -> String {
    let seqs: Vec<String> = (300..=400).map(|s| s.to_string()).collect();
    WINDOW.replace("SEQS", &seqs.join(", "))
}

#[test]
fn access_losses_are_true_timeouts_for_back_and_bnak() {
    for (side, src, dst) in [
        ("sender", window_loss(), String::new()),
        ("receiver", String::new(), window_loss()),
    ] {
        for fto in ["back", "bnak", "ble"] {
            let r = go(&scenario(fto, "", &src, &dst));
            let f = flow(&r);
            assert_eq!(f.bursts_lost, 0);
            assert!(f.to_events >= 1, "{fto} {side}: {f:?}");
            if fto == "ble" {
                // BLE cannot tell: it judges the first timeout false, wrongly.
                assert!(f.judged_false_wrong >= 1, "ble {side}: {f:?}");
            } else {
                assert_eq!(f.fto_judged_false, 0, "{fto} {side}: {f:?}");
                assert_eq!(
                    (f.judged_true_right, f.judged_true_wrong),
                    (f.to_events, 0),
                    "{fto} {side}"
                );
            }
        }
    }
    // BACK from the ingress only cannot see receiver-side losses: it judges
    // them false.
    let r = go(&scenario("back", "", "", &window_loss()).replace(
        "fto_detection = \"back\"",
        "fto_detection = \"back\"\nback_source = \"ingress\"",
    ));
    assert!(flow(&r).judged_false_wrong >= 1);
}

#[test]
fn signals_are_packets_counted_at_nodes_and_senders() {
    let r = go(&scenario("back", ONE_BURST, "", ""));
    let sent: u64 = r.nodes.iter().map(|n| n.signals_sent).sum();
    let e1 = r.nodes.iter().find(|n| n.node == "E1").unwrap();
    let e2 = r.nodes.iter().find(|n| n.node == "E2").unwrap();
    // One ingress BACK per burst of the flow, one egress BACK per burst that
    // arrived (one lost).
    let f = flow(&r);
    assert_eq!(e1.signals_sent, f.bursts_sent);
    assert_eq!(e2.signals_sent + 1, e1.signals_sent);
    assert_eq!(f.signals_received, sent, "none lost, all delivered");
    // They load the reverse links: 40 B each.
    let back_link = link_result(&r, "E1", "src");
    assert!(back_link.bytes >= 40 * sent);
    // BNAK: one NAK from C1, before C1 -> C2.
    let r = go(&scenario("bnak", ONE_BURST, "", ""));
    let c1 = r.nodes.iter().find(|n| n.node == "C1").unwrap();
    assert_eq!(c1.signals_sent, 1);
    // Plain TCP gets none.
    let r = go(&scenario("none", ONE_BURST, "", ""));
    assert!(r.nodes.iter().all(|n| n.signals_sent == 0));
}

/// Batches of 4 back-to-back burst losses: the retransmission bursts after
/// a BNAK-started response are lost too, during recovery. Every loss is in
/// the core, so every right judgement is "false". yu2004 §IV.C's reading
/// acts on those BNAKs (each judged false, rightly) and never times out on
/// a BNAK-named burst; the earlier reading ignores BNAKs during recovery
/// and waits for timeouts it judges true, wrongly. The flows table counts
/// each judgement once: early responses plus timeouts.
#[test]
fn bnaks_during_recovery_are_right_judgements_in_yu2004_mode() {
    let batch = "{ pattern = \"batch\", p = 0.2, batch = 4, flow = 0 }";
    let with = |mode: &str| {
        let text = scenario("bnak", batch, "", "").replace(
            "fto_detection = \"bnak\"",
            &format!("fto_detection = \"bnak\"\nbnak_mode = \"{mode}\""),
        );
        flow(&go(&text)).clone()
    };
    let yu = with("yu2004");
    let early = with("early_response");
    for (name, f) in [("yu2004", &yu), ("early_response", &early)] {
        assert!(f.bursts_lost >= 8, "{name}: {f:?}");
        let judged = f.judged_false_right + f.judged_false_wrong;
        let judged = judged + f.judged_true_right + f.judged_true_wrong;
        assert_eq!(judged, f.to_events + f.early_fto_events, "{name}: {f:?}");
        assert_eq!(f.judged_false_wrong, 0, "{name}: every loss is in the core");
        assert_eq!(f.judged_false_right, f.fto_judged_false, "{name}");
    }
    assert!(early.judged_true_wrong > 0, "{early:?}");
    assert!(
        yu.early_fto_events > early.early_fto_events,
        "yu2004 acts on more BNAKs: {yu:?} vs {early:?}"
    );
    let accuracy = |f: &FlowResult| {
        let right = f.judged_false_right + f.judged_true_right;
        right as f64 / (right + f.judged_false_wrong + f.judged_true_wrong) as f64
    };
    assert!(
        accuracy(&yu) > accuracy(&early),
        "{} vs {}",
        accuracy(&yu),
        accuracy(&early)
    );
}
