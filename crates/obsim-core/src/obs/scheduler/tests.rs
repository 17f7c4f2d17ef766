//! Tests of the channel schedulers: hand-made cases, invariants under random
//! request streams (proptest), and a Monte-Carlo check against Erlang B.

use proptest::prelude::*;

use super::*;
use crate::analysis::erlang::erlang_b;
use crate::rng::{stream, uniform01};

fn t(ns: u64) -> SimTime {
    SimTime(ns)
}

/// Reserves `[s, e)` at `now = 0` on exactly `channel`, or panics.
#[track_caller]
fn book(port: &mut PortSchedule, channel: u16, s: u64, e: u64) {
    let got = LaucVf.reserve(
        port,
        Request::new(t(0), t(s), t(e), ChannelSet::Only(channel)),
    );
    assert_eq!(got, Some(channel), "could not book [{s}, {e}) on {channel}");
}

/// Three channels with voids ending at 500:
/// ch 0: [0,100) [500,600)  void [100,500)
/// ch 1: [0,250) [500,700)  void [250,500)
/// ch 2: [0,50)             horizon 50
fn three_channels() -> PortSchedule {
    let mut p = PortSchedule::new(3, true);
    book(&mut p, 0, 0, 100);
    book(&mut p, 0, 500, 600);
    book(&mut p, 1, 0, 250);
    book(&mut p, 1, 500, 700);
    book(&mut p, 2, 0, 50);
    p
}

// ---- hand-made cases ---------------------------------------------------------

#[test]
fn lauc_vf_picks_the_smallest_void() {
    let mut p = three_channels();
    // [300, 400) fits in both voids and after ch 2's horizon; the gaps before
    // it are 200 (ch 0), 50 (ch 1) and 250 (ch 2): LAUC-VF takes ch 1.
    assert_eq!(
        LaucVf.reserve(&mut p, Request::new(t(0), t(300), t(400), ChannelSet::All)),
        Some(1)
    );
    assert_eq!(p.stats(1).voids_filled, 1);
    // Now ch 1 has [300,400): a burst [420, 480) sees gaps 320, 20, 370.
    assert_eq!(
        LaucVf.reserve(&mut p, Request::new(t(0), t(420), t(480), ChannelSet::All)),
        Some(1)
    );
    // Too long for any void: only ch 2 (after its horizon) takes it.
    assert_eq!(
        LaucVf.reserve(&mut p, Request::new(t(0), t(260), t(550), ChannelSet::All)),
        Some(2)
    );
}

#[test]
fn lauc_vf_prefers_a_void_to_a_horizon_only_when_the_gap_is_smaller() {
    let mut p = three_channels();
    // [120, 200): gaps 20 (ch 0 void) and 70 (ch 2 horizon); ch 1 is busy.
    assert_eq!(
        LaucVf.reserve(&mut p, Request::new(t(0), t(120), t(200), ChannelSet::All)),
        Some(0)
    );
    // [60, 90): ch 0 and ch 1 are busy, ch 2's gap is 10.
    assert_eq!(
        LaucVf.reserve(&mut p, Request::new(t(0), t(60), t(90), ChannelSet::All)),
        Some(2)
    );
}

#[test]
fn ties_go_to_the_lowest_channel() {
    let mut p = PortSchedule::new(4, true);
    for k in SchedulerKind::ALL {
        let mut q = p.clone();
        let mut s = k;
        assert_eq!(
            s.reserve(&mut q, Request::new(t(0), t(10), t(20), ChannelSet::All)),
            Some(0),
            "{k:?}"
        );
    }
    book(&mut p, 2, 0, 5);
    book(&mut p, 3, 0, 5);
    // Channels 2 and 3 have horizon 5, channels 0 and 1 have 0: the latest
    // available is 2 (tie with 3 goes to the lower index).
    for k in SchedulerKind::ALL {
        let mut q = p.clone();
        let mut s = k;
        let want = if k == SchedulerKind::FfucVf { 0 } else { 2 };
        assert_eq!(
            s.reserve(&mut q, Request::new(t(0), t(10), t(20), ChannelSet::All)),
            Some(want),
            "{k:?}"
        );
    }
}

#[test]
fn horizon_and_ffuc_vf_on_the_same_state() {
    let mut p = three_channels();
    let mut q = p.clone();
    // Horizon sees horizons 600, 700, 50: only ch 2 is available at 300.
    assert_eq!(
        Horizon.reserve(&mut p, Request::new(t(0), t(300), t(400), ChannelSet::All)),
        Some(2)
    );
    assert_eq!(
        Horizon.reserve(&mut p, Request::new(t(0), t(300), t(400), ChannelSet::All)),
        None
    );
    assert_eq!(p.dropped(), 1);
    // FFUC-VF takes the first channel where it fits.
    assert_eq!(
        FfucVf.reserve(&mut q, Request::new(t(0), t(300), t(400), ChannelSet::All)),
        Some(0)
    );
}

#[test]
fn no_conversion_restricts_to_one_channel() {
    let mut p = three_channels();
    assert_eq!(
        LaucVf.reserve(
            &mut p,
            Request::new(t(0), t(550), t(560), ChannelSet::Only(0))
        ),
        None
    );
    assert_eq!(
        LaucVf.reserve(
            &mut p,
            Request::new(t(0), t(550), t(560), ChannelSet::Only(2))
        ),
        Some(2)
    );
    assert_eq!(
        LaucVf.reserve(
            &mut p,
            Request::new(t(0), t(550), t(560), ChannelSet::Only(9))
        ),
        None
    );
    assert_eq!(
        Horizon.reserve(
            &mut p,
            Request::new(t(0), t(5000), t(5001), ChannelSet::Only(9))
        ),
        None
    );
}

#[test]
fn pruning_keeps_decisions_and_counters() {
    let mut p = three_channels();
    // At now = 450 the first reservations of ch 0 and ch 1 are pruned; the
    // voids still start at 100 and 250.
    assert_eq!(
        LaucVf.reserve(
            &mut p,
            Request::new(t(450), t(460), t(480), ChannelSet::All)
        ),
        Some(1)
    );
    assert_eq!(p.reservations(0).count(), 1);
    assert_eq!(p.reservations(1).collect::<Vec<_>>().len(), 2);
    assert_eq!(p.stats(1).reservations, 3);
    assert_eq!(p.stats(1).busy, SimDuration(250 + 200 + 20));
    assert_eq!(p.horizon(1), t(700));
    assert_eq!(p.accepted(), 6);
}

#[test]
#[should_panic(expected = "voids = true")]
fn void_filling_needs_a_void_tracking_port() {
    let mut p = SchedulerKind::Horizon.port(2);
    let _ = LaucVf.reserve(&mut p, Request::new(t(0), t(0), t(1), ChannelSet::All));
}

// ---- invariants under random request streams (proptest) -----------------------

/// One request: time since the previous request, residual offset, length,
/// and the incoming wavelength if it may not be converted.
type Req = (u64, u64, u64, Option<u16>);

fn requests() -> impl Strategy<Value = (u16, Vec<Req>)> {
    (1u16..=6).prop_flat_map(|w| {
        let req = (
            0u64..60,
            0u64..400,
            1u64..150,
            proptest::option::weighted(0.3, 0..w),
        );
        (Just(w), proptest::collection::vec(req, 1..300))
    })
}

/// `(now, start, end, allowed)` for each request.
fn timeline(reqs: &[Req]) -> Vec<(SimTime, SimTime, SimTime, ChannelSet)> {
    let mut now = 0;
    reqs.iter()
        .map(|&(gap, off, len, only)| {
            now += gap;
            let allowed = only.map_or(ChannelSet::All, ChannelSet::Only);
            (t(now), t(now + off), t(now + off + len), allowed)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_two_reservations_on_a_channel_overlap((w, reqs) in requests()) {
        for kind in SchedulerKind::ALL {
            let mut port = kind.port(w);
            let mut sched = kind;
            let mut booked: Vec<Vec<(SimTime, SimTime)>> = vec![Vec::new(); usize::from(w)];
            for (now, s, e, allowed) in timeline(&reqs) {
                if let Some(c) = sched.reserve(&mut port, Request::new(now, s, e, allowed)) {
                    if let ChannelSet::Only(only) = allowed {
                        prop_assert_eq!(c, only);
                    }
                    booked[usize::from(c)].push((s, e));
                }
            }
            for (c, list) in booked.iter_mut().enumerate() {
                list.sort_unstable();
                for pair in list.windows(2) {
                    prop_assert!(pair[0].1 <= pair[1].0, "{:?}: overlap on {}: {:?}", kind, c, pair);
                }
                let c = c as u16;
                prop_assert_eq!(port.stats(c).reservations, list.len() as u64);
                prop_assert_eq!(port.horizon(c), list.iter().map(|r| r.1).max().unwrap_or(SimTime::ZERO));
                let listed: Vec<_> = port.reservations(c).map(|r| (r.start, r.end)).collect();
                prop_assert!(listed.windows(2).all(|p| p[0].1 <= p[1].0));
            }
            prop_assert_eq!(port.accepted() + port.dropped(), reqs.len() as u64);
        }
    }

    #[test]
    fn void_filling_accepts_whatever_horizon_would((w, reqs) in requests()) {
        for kind in [SchedulerKind::LaucVf, SchedulerKind::FfucVf] {
            let mut port = kind.port(w);
            let mut sched = kind;
            for (now, s, e, allowed) in timeline(&reqs) {
                // Horizon's rule on a copy of the void-filling state.
                let by_horizon = Horizon.reserve(&mut port.clone(), Request::new(now, s, e, allowed));
                // The other void-filling rule on another copy.
                let other = if kind == SchedulerKind::LaucVf { FfucVf.reserve(&mut port.clone(), Request::new(now, s, e, allowed)) }
                            else { LaucVf.reserve(&mut port.clone(), Request::new(now, s, e, allowed)) };
                let got = sched.reserve(&mut port, Request::new(now, s, e, allowed));
                prop_assert!(by_horizon.is_none() || got.is_some(), "{:?} refused what Horizon accepts", kind);
                prop_assert_eq!(got.is_some(), other.is_some());
            }
        }
    }

    #[test]
    fn horizon_and_lauc_decide_identically((w, reqs) in requests()) {
        let (mut a, mut b) = (SchedulerKind::Horizon.port(w), SchedulerKind::Lauc.port(w));
        for (now, s, e, allowed) in timeline(&reqs) {
            prop_assert_eq!(Horizon.reserve(&mut a, Request::new(now, s, e, allowed)), Lauc.reserve(&mut b, Request::new(now, s, e, allowed)));
        }
    }

    #[test]
    fn one_wavelength_without_offsets_all_schedulers_agree((_, reqs) in requests()) {
        // One wavelength, start = now for every request, requests in time
        // order: the four schedulers make identical decisions.
        let reqs: Vec<Req> = reqs.into_iter().map(|(g, _, l, _)| (g, 0, l, None)).collect();
        let mut ports: Vec<_> = SchedulerKind::ALL.iter().map(|k| k.port(1)).collect();
        for (now, s, e, allowed) in timeline(&reqs) {
            let got: Vec<_> = SchedulerKind::ALL.iter().zip(&mut ports)
                .map(|(k, p)| { let mut k = *k; k.reserve(p, Request::new(now, s, e, allowed)) })
                .collect();
            prop_assert!(got.iter().all(|g| *g == got[0]), "{:?}", got);
        }
    }
}

/// With several wavelengths and no offsets, accept/drop agrees over a whole
/// stream only under full conversion (with `Only`, the channel choices of
/// earlier bursts matter), so test that case on its own.
#[test]
fn without_offsets_full_conversion_all_accept_alike() {
    let mut rng = stream(1, "test/scheduler/no-offsets");
    for w in [2u16, 3, 5, 8] {
        let mut ports: Vec<_> = SchedulerKind::ALL.iter().map(|k| k.port(w)).collect();
        let mut now = 0u64;
        for _ in 0..20_000 {
            now += (uniform01(&mut rng) * 30.0) as u64;
            let e = now + 1 + (uniform01(&mut rng) * 150.0) as u64;
            let got: Vec<bool> = SchedulerKind::ALL
                .iter()
                .zip(&mut ports)
                .map(|(k, p)| {
                    let mut k = *k;
                    k.reserve(p, Request::new(t(now), t(now), t(e), ChannelSet::All))
                        .is_some()
                })
                .collect();
            assert!(
                got.iter().all(|&g| g == got[0]),
                "w = {w}, now = {now}: {got:?}"
            );
        }
        assert!(ports[0].dropped() > 0 && ports[0].accepted() > 0);
    }
}

// ---- Monte-Carlo check against Erlang B --------------------------------------

/// Offers `n` Poisson arrivals (after `warm` uncounted ones) with exponential
/// lengths of mean `hold_ns` and load `load` erlangs to a `w`-channel port
/// with full conversion and no offsets. Returns the loss indicator of each
/// counted arrival.
fn offer(kind: SchedulerKind, w: u16, load: f64, n: usize, warm: usize, seed: u64) -> Vec<bool> {
    let hold_ns = 100_000.0;
    let gap_ns = hold_ns / load;
    let mut rng = stream(seed, &format!("test/erlang/w{w}/a{load}"));
    let mut port = kind.port(w);
    let mut sched = kind;
    let mut clock = 0.0f64;
    let mut lost = Vec::with_capacity(n);
    for i in 0..n + warm {
        clock += -gap_ns * (1.0 - uniform01(&mut rng)).ln();
        let len = (-hold_ns * (1.0 - uniform01(&mut rng)).ln())
            .round()
            .max(1.0) as u64;
        let now = t(clock.round() as u64);
        let got = sched.reserve(
            &mut port,
            Request::new(now, now, now + SimDuration(len), ChannelSet::All),
        );
        if i >= warm {
            lost.push(got.is_none());
        }
    }
    lost
}

#[test]
fn erlang_b_monte_carlo() {
    // Two loads per W, chosen for losses between ~0.5 % and ~20 %.
    let cases: [(u16, f64); 10] = [
        (1, 0.01),
        (1, 0.25),
        (2, 0.3),
        (2, 1.0),
        (4, 1.0),
        (4, 2.5),
        (8, 3.0),
        (8, 6.0),
        (16, 9.0),
        (16, 14.0),
    ];
    let (n, warm, batches) = (200_000usize, 2_000usize, 20usize);
    // Per-case 99 % interval (z = 2.576) is reported; the assertion uses a
    // 99 % interval for the whole table (Bonferroni over 10 cases, z = 3.29),
    // so that the test as a whole has a 1 % false-failure rate. The standard
    // error is the larger of the binomial one and the batch-means one (20
    // batches): losses of a loss system are positively correlated in time,
    // which the binomial approximation ignores.
    let (z_case, z_table) = (2.576, 3.291);
    println!("   W   load  model     measured  se_binom  se_batch  in99%");
    for (w, load) in cases {
        let model = erlang_b(u32::from(w), load);
        let base = offer(SchedulerKind::Horizon, w, load, n, warm, 2026);
        for kind in SchedulerKind::ALL {
            // No offsets: every scheduler accepts exactly the same bursts.
            assert_eq!(
                offer(kind, w, load, n, warm, 2026),
                base,
                "{kind:?}, W = {w}, A = {load}"
            );
        }
        let lost = base.iter().filter(|&&l| l).count();
        let p = lost as f64 / n as f64;
        let se_binom = (model * (1.0 - model) / n as f64).sqrt();
        let bm: Vec<f64> = base
            .chunks(n / batches)
            .map(|c| c.iter().filter(|&&l| l).count() as f64 / c.len() as f64)
            .collect();
        let var = bm.iter().map(|x| (x - p).powi(2)).sum::<f64>() / (batches - 1) as f64;
        let se_batch = (var / batches as f64).sqrt();
        let se = se_binom.max(se_batch);
        let in_case = (p - model).abs() <= z_case * se;
        println!(
            "{w:4} {load:6.2}  {model:.5}   {p:.5}   {se_binom:.5}   {se_batch:.5}   {in_case}"
        );
        assert!(
            (p - model).abs() <= z_table * se,
            "W = {w}, A = {load}: measured {p}, Erlang B {model}"
        );
    }
}

// ---- burst-length dependent loss (gurel2008 §1, §4) ---------------------------

/// Loss ratio of the bursts with offset class 0 (the shortest residual
/// offset), split into bursts shorter and longer than the mean length,
/// with residual offsets k·50 µs (k uniform in 0..=4), mean length 200 µs,
/// W = 4, full conversion, 2.8 erlangs.
fn loss_by_length(kind: SchedulerKind) -> (f64, f64, f64) {
    let (w, load, hold) = (4u16, 2.8, 200_000.0);
    let mut rng = stream(7, "test/scheduler/length-dependence");
    let mut port = kind.port(w);
    let mut sched = kind;
    let mut clock = 0.0f64;
    // [short, long] x [offered, lost]
    let mut n = [[0u64; 2]; 2];
    for _ in 0..200_000 {
        clock += -(hold / load) * (1.0 - uniform01(&mut rng)).ln();
        let k = (uniform01(&mut rng) * 5.0) as u64;
        let len = 1.0 + -hold * (1.0 - uniform01(&mut rng)).ln();
        let now = t(clock as u64);
        let start = now + SimDuration::from_micros(50 * k);
        let got = sched.reserve(
            &mut port,
            Request::new(now, start, start + SimDuration(len as u64), ChannelSet::All),
        );
        if k == 0 {
            let class = usize::from(len > hold);
            n[class][0] += 1;
            n[class][1] += u64::from(got.is_none());
        }
    }
    let ratio = |c: [u64; 2]| c[1] as f64 / c[0] as f64;
    let (ps, pl) = (ratio(n[0]), ratio(n[1]));
    // Binomial standard error of the difference.
    let se = (ps * (1.0 - ps) / n[0][0] as f64 + pl * (1.0 - pl) / n[1][0] as f64).sqrt();
    (ps, pl, se)
}

#[test]
fn void_filling_makes_loss_depend_on_burst_length() {
    // gurel2008 §1: with LAUC-VF and different residual offsets, the bursts
    // with the shortest residual offset fit in voids more easily when they
    // are short; with Horizon a burst's own length does not enter the
    // decision, so both halves see the same loss ratio.
    let (hs, hl, hse) = loss_by_length(SchedulerKind::Horizon);
    let (vs, vl, vse) = loss_by_length(SchedulerKind::LaucVf);
    println!("horizon: short {hs:.4} long {hl:.4} (se {hse:.4}); lauc-vf: short {vs:.4} long {vl:.4} (se {vse:.4})");
    // 4 standard errors: a loose bound, since losses are correlated in time.
    assert!((hl - hs).abs() < 4.0 * hse, "horizon: {hs} vs {hl}");
    assert!(vl - vs > 4.0 * vse, "lauc-vf: {vs} vs {vl}");
}
