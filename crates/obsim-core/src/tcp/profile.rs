//! Named parameter sets for TCP: the RFC defaults, and ns-2's defaults in the
//! two eras the studies span. A scenario picks one with `tcp.profile` and may
//! override any single key. Sources: RFC 5681, RFC 6298, RFC 3390, RFC 2018,
//! and ns-2's `tcl/lib/ns-default.tcl` (ns-2.35) with its dated comments and
//! the notes in `tcl/test/test-suite-*.tcl` on when each default changed.
//! docs/MODEL.md has the table with citations.

use crate::tcp::config::{
    AtoConfig, FtoDetection, GsoConfig, PacingConfig, Prr, RackTlpConfig, RcvBufConfig,
    RecoverCheck, RecoveryExit, RtoConfig, RtoEstimator, SackCompressionConfig, SackOptionSize,
    SackRecovery, SmallQueuesConfig, SsthreshBasis, TcpConfig, Variant,
};
use crate::tcp::config::{
    CongestionControl, CubicArithmetic, CubicConfig, CubicRtt, Dsack, Frto, HystartMode,
    Timestamps, DEFAULT_HZ,
};
use crate::time::SimDuration;

/// The profiles a scenario may name in `tcp.profile`.
pub const PROFILES: &[&str] = &["rfc", "ns2", "ns2-2004", "ns2-2003", "linux"];

/// RFC 3390 §1 / RFC 5681 eq. (1) initial window in segments for an MSS:
/// min(4·MSS, max(2·MSS, 4380 bytes)).
pub fn rfc3390_initial_window(mss: u32) -> u32 {
    let mss = mss.max(1);
    (4 * mss).min((2 * mss).max(4380)) / mss
}

/// The defaults of profile `name`, or `None` if there is no such profile.
pub fn profile(name: &str) -> Option<TcpConfig> {
    match name {
        "rfc" => Some(rfc()),
        "ns2" => Some(ns2()),
        "ns2-2004" => Some(ns2_2004()),
        "ns2-2003" => Some(ns2_2003()),
        "linux" => Some(linux()),
        _ => None,
    }
}

/// Standards-track behaviour: RFC 5681 (+ RFC 3042 limited transmit),
/// RFC 6582 `NewReno`, RFC 6298 timer, RFC 3390 initial window, delayed ACKs.
fn rfc() -> TcpConfig {
    let mss = 1000;
    TcpConfig {
        variant: Variant::NewReno,
        // RFC 5681 §3.1 growth (CUBIC's parameters read with "cubic" only).
        congestion_control: CongestionControl::Reno,
        cubic: CubicConfig::RFC9438,
        mss,
        header: 40,
        // 65535-byte window: the largest without RFC 7323 window scaling.
        max_window: 65_535 / mss,
        rwnd: 65_535 / mss,
        initial_cwnd: rfc3390_initial_window(mss),
        initial_ssthresh: u32::MAX,
        dupack_threshold: 3,
        ssthresh_basis: SsthreshBasis::FlightSize,
        delayed_ack: true,
        // RFC 5681 §4.2: "MUST be less than 0.5 seconds"; 200 ms is the BSD
        // value (and RFC 1122 §4.2.3.2's example bound).
        delack_timeout: SimDuration::from_millis(200),
        // RFC 793 p. 69 / RFC 9293 §3.10.7.4: a duplicate gets an ACK at once.
        delack_last_duplicate: false,
        // RFC 9293: a segment carries the data the sender has.
        pad_last_segment: false,
        // RFC 2018 §3: 4 blocks fit when no timestamp option is used.
        sack_blocks: 4,
        sack_recovery: SackRecovery::Rfc6675,
        // RFC 2018 §3: 8n + 2 bytes, padded to 8n + 4 with two NOPs.
        sack_option_size: SackOptionSize::Rfc2018,
        rto: RtoConfig {
            estimator: RtoEstimator::Rfc6298,
            initial: SimDuration::from_secs(1), // RFC 6298 §2.1
            min: SimDuration::from_secs(1),     // RFC 6298 §2.4
            max: SimDuration::from_secs(60),    // RFC 6298 §2.5
            granularity: SimDuration::from_millis(1),
            max_backoff: 64,
            ns2_rfc2988: true,
        },
        abc: false,
        limited_transmit: true,
        reno_recover_check: false,
        newreno_slow_but_steady: false,
        partial_window_deflation: true,       // RFC 6582 §3.2 step 5
        precision_reduce: false,              // (cwnd basis only; ns-2 `precisionReduce_`)
        recovery_exit: RecoveryExit::Deflate, // RFC 5681 §3.2 step 6, RFC 6582 §3.2 step 6 (2)
        prr: Prr::Off, // RFC 6937 is Experimental; RFC 5681/6582/6675 windows
        limited_transmit_any_state: false, // RFC 5681 §3.2 step 1: previously unsent data
        recovery_max_burst: 0, // RFC 6582 sets no per-ACK limit
        recover_check: RecoverCheck::Reached, // RFC 6675 §5.1: HighACK >= RecoveryPoint
        // Bulk transfer after connection set-up (RFC 9293 §3.5): the
        // handshake is over before the modelled transfer starts.
        syn: false,
        bugfix_ss: false,             // (read only with syn)
        fto: FtoDetection::None,      // plain TCP: every timeout is true
        frto: Frto::Off,              // RFC 5681 §3.1: every timeout is a loss
        timestamps: Timestamps::Off,  // RFC 6298 §3: Karn, one timed segment
        dsack: Dsack::Off,            // RFC 2018 SACK without RFC 2883
        rack_tlp: RackTlpConfig::OFF, // RFC 8985 (2021) is later than RFC 6675
        cwnd_limited_growth: false,   // RFC 5681 §3.1 grows on every ACK
        small_queues: SmallQueuesConfig::OFF,
        rcvbuf: RcvBufConfig::OFF,
        gso: GsoConfig::OFF,
        ack_on_push: false,
        ato: AtoConfig::OFF,
        sack_compression: SackCompressionConfig::OFF,
        pacing: PacingConfig::OFF,
        hz: DEFAULT_HZ,
    }
}

/// Linux 6.18's TCP with its default sysctls (`net.ipv4.tcp_*` of a fresh
/// namespace; the kernel this machine runs and `obsim emulate` measures),
/// as far as obsim models it. Every departure from the kernel, and from the
/// RFCs, is listed in docs/MODEL.md ("The linux profile"); the main ones:
/// no RFC 7323 timestamps (one RTT sample per round trip, Karn; F-RTO's
/// undo without them, DSACK undo not modelled),
/// no HyStart, no receive-window autotuning (the
/// windows are the buffers' maxima), slow start limited by RFC 3465's L = 2.
fn linux() -> TcpConfig {
    // MTU 1500 less the IPv4 and TCP headers and the 12-byte timestamp
    // option Linux sends on every segment (tcp_timestamps 1): the MSS is
    // 1448 and each segment carries 52 bytes of headers.
    let mss = 1448;
    TcpConfig {
        variant: Variant::Sack, // tcp_sack 1
        // tcp_congestion_control "cubic" (tcp_cubic.c): beta 717/1024,
        // bic_scale 41 (C = 41*10/1024), fast_convergence 1,
        // tcp_friendliness 1, the minimum RTT in the target (`delay_min`).
        congestion_control: CongestionControl::Cubic,
        cubic: CubicConfig {
            beta: 717.0 / 1024.0,
            c: 410.0 / 1024.0,
            fast_convergence: true,
            reno_friendly: true,
            // `tcp_friendliness` with `beta_scale` throughout: 6.18's
            // struct bictcp has no `cwnd_prior` (its BTF), so no α = 1.
            reno_friendly_alpha_one: false,
            target_rtt: CubicRtt::MinRtt,
            // `cnt = 20` while `last_max_cwnd == 0`: 5% per RTT.
            initial_min_growth: 0.05,
            // hystart 1, hystart_detect 3, hystart_low_window 16,
            // hystart_ack_delta_us 2000.
            hystart: HystartMode::Linux,
            // tcp_cubic.c's whole-segment integer arithmetic, on jiffies.
            arithmetic: CubicArithmetic::Linux,
            ..CubicConfig::RFC9438
        },
        mss,
        header: 52,
        // tcp_wmem max 4 MiB and tcp_rmem max 6 MiB, half of it advertised
        // (the receive window autotuning reaches; not modelled as it grows).
        max_window: 4_194_304 / mss,
        rwnd: 3_145_728 / mss,
        initial_cwnd: 10,           // TCP_INIT_CWND (RFC 6928)
        initial_ssthresh: u32::MAX, // TCP_INFINITE_SSTHRESH
        dupack_threshold: 3,        // tcp_reordering 3
        // tcp_reno_ssthresh halves cwnd (max(cwnd >> 1, 2)), bictcp_recalc_ssthresh
        // multiplies cwnd by beta: cwnd, not FlightSize (RFC 5681 eq. (4),
        // RFC 9438 §4.6). Under small queues cwnd may exceed what is out.
        ssthresh_basis: SsthreshBasis::Cwnd,
        delayed_ack: true,
        // TCP_DELACK_MIN 40 ms; not read with `ato` (below), which runs the
        // timer from icsk_ack.ato (its minimum is this value).
        delack_timeout: SimDuration::from_millis(40),
        delack_last_duplicate: false,
        pad_last_segment: false,
        // 40 bytes of option space less the 12 of the timestamp: 3 blocks.
        sack_blocks: 3,
        sack_recovery: SackRecovery::Rfc6675,
        sack_option_size: SackOptionSize::Rfc2018,
        rto: RtoConfig {
            estimator: RtoEstimator::Linux,     // __tcp_set_rto
            initial: SimDuration::from_secs(1), // TCP_TIMEOUT_INIT
            min: SimDuration::from_millis(200), // TCP_RTO_MIN
            max: SimDuration::from_secs(120),   // TCP_RTO_MAX
            // Linux times in microseconds (the "linux" estimator reads no G).
            granularity: SimDuration::from_micros(1),
            // Backoff is bounded by TCP_RTO_MAX only.
            max_backoff: 1 << 16,
            ns2_rfc2988: true,
        },
        // tcp_slow_start / tcp_cong_avoid_ai count acknowledged segments.
        abc: true,
        limited_transmit: true,
        reno_recover_check: false,
        // Without SACK every ACK of new data, partial ones included,
        // restarts the RTO: tcp_clean_rtx_queue sets FLAG_SET_XMIT_TIMER on
        // FLAG_ACKED and tcp_ack then calls tcp_set_xmit_timer (RFC 6582
        // §4's Slow-but-Steady).
        newreno_slow_but_steady: true,
        partial_window_deflation: true,
        precision_reduce: false,
        recovery_exit: RecoveryExit::Deflate,
        // tcp_cwnd_reduction: PRR with the slow-start reduction bound.
        prr: Prr::Ssrb,
        // tcp_recovery 1 (RACK loss detection) and tcp_early_retrans 3
        // (TLP); tcp_schedule_loss_probe adds tcp_rto_min (200 ms) to the
        // PTO with one packet out, RFC 8985 §7.2's WCDelAckT.
        rack_tlp: RackTlpConfig {
            rack: true,
            tlp: true,
            tlp_max_ack_delay: SimDuration::from_millis(200),
        },
        limited_transmit_any_state: false,
        recovery_max_burst: 0,
        // tcp_is_non_sack_preventing_reopen: Reached with SACK, Passed without.
        recover_check: RecoverCheck::Linux,
        // The transfer starts after the handshake (as obsim emulate's
        // built-in sender measures it).
        syn: false,
        bugfix_ss: false,
        fto: FtoDetection::None,
        // tcp_frto 2: tcp_enter_loss / tcp_process_loss, with
        // tcp_try_undo_loss's undo of a spurious timeout.
        frto: Frto::Linux,
        // tcp_timestamps 1: TSval/TSecr, tcp_ack_update_rtt, RACK's
        // tcp_skb_spurious_retrans, tcp_packet_delayed.
        timestamps: Timestamps::Linux,
        // tcp_dsack 1: tcp_dsack_set at the receiver; tcp_check_dsack,
        // undo_retrans and tcp_try_undo_dsack at the sender.
        dsack: Dsack::Linux,
        // tcp_cong_avoid and bictcp_cong_avoid return unless
        // tcp_is_cwnd_limited (tcp_cwnd_validate keeps the state).
        cwnd_limited_growth: true,
        // tcp_small_queue_check with the default sysctls.
        small_queues: SmallQueuesConfig::LINUX,
        // tcp_moderate_rcvbuf 1, tcp_rmem "4096 131072 6291456": autotuning,
        // tcp_grow_window and the quick-ACK mode.
        rcvbuf: RcvBufConfig::LINUX,
        // tcp_tso_autosize skbs, tcp_grow_skb, tso_fragment's PSH,
        // tcp_tso_should_defer (tcp_tso_win_divisor 3).
        gso: GsoConfig::LINUX,
        // tcp_measure_rcv_mss sets ICSK_ACK_PUSHED (6.6+), tcp_cleanup_rbuf.
        ack_on_push: true,
        // icsk_ack.ato on the jiffies clock (delack_timeout not read).
        ato: AtoConfig { enabled: true },
        // tcp_comp_sack_delay_ns 1 ms, tcp_comp_sack_nr 44.
        sack_compression: SackCompressionConfig {
            enabled: true,
            ..SackCompressionConfig::OFF
        },
        pacing: PacingConfig::OFF,
        // CONFIG_HZ of the kernel `obsim emulate` ran (6.18.44, Debian).
        hz: DEFAULT_HZ,
    }
}

/// The `linux` profile without the receive side, GSO packets and the
/// receiver's ACK timing (`rcvbuf`, `gso`, `ack_on_push`, `ato`,
/// `sack_compression`, on since session 22): the ACK clock the scripted
/// tests of undo, F-RTO and RACK were written against (every second
/// segment or the 40 ms timer, one segment per packet).
#[cfg(test)]
pub(crate) fn linux_plain_ack_clock() -> TcpConfig {
    TcpConfig {
        rcvbuf: RcvBufConfig::OFF,
        gso: GsoConfig::OFF,
        ack_on_push: false,
        ato: AtoConfig::OFF,
        sack_compression: SackCompressionConfig::OFF,
        ..linux()
    }
}

/// ns-2.35 `Agent/TCP` + `Agent/TCPSink` defaults (tcl/lib/ns-default.tcl).
fn ns2() -> TcpConfig {
    TcpConfig {
        variant: Variant::Reno,
        // opencwnd(): RFC 5681 growth (CUBIC's parameters read with "cubic" only).
        congestion_control: CongestionControl::Reno,
        cubic: CubicConfig::RFC9438,
        mss: 1000,                                     // packetSize_ 1000
        header: 40,                                    // tcpip_base_hdr_size_ 40, useHeaders_ true
        max_window: 20,                                // window_ 20
        rwnd: u32::MAX,                                // TCPSink advertises no window
        initial_cwnd: 2,     // windowInit_ 2 (2001-05-26), windowInitOption_ 1
        initial_ssthresh: 0, // reset(): ssthresh_ = int(window_)
        dupack_threshold: 3, // numdupacks_ 3
        ssthresh_basis: SsthreshBasis::Cwnd, // slowdown(): min(cwnd, window_)/2
        delayed_ack: false,  // TCPSink ACKs every packet
        delack_timeout: SimDuration::from_millis(100), // DelAck interval_ 100ms
        delack_last_duplicate: true, // DelAckSink::recv: seqno == acker_->Seqno() is delayed
        pad_last_segment: true, // tcp.cc output(): size() = size_ + headersize() for every packet
        sack_blocks: 3,      // maxSackBlocks_ 3
        // Agent/TCP/Sack1: tcp-sack1.cc with ScoreBoardRQ, not RFC 6675.
        sack_recovery: SackRecovery::Ns2Sack1,
        // tcp-sink.cc Sacker::append_ack: `ch->size() += sack_index * 8`.
        sack_option_size: SackOptionSize::Ns2,
        rto: RtoConfig {
            estimator: RtoEstimator::Ns2,
            initial: SimDuration::from_secs(3), // rtxcur_init_ 3.0 (2006-01-21)
            min: SimDuration::from_millis(200), // minrto_ 0.2 (2004-10-14)
            max: SimDuration::from_secs(60),    // maxrto_ 60 (2007-03-28)
            granularity: SimDuration::from_millis(10), // tcpTick_ 0.01 (2002-03-07)
            max_backoff: 64,                    // rtt_backoff()
            ns2_rfc2988: true,                  // rfc2988_ true (2002-03-07)
        },
        abc: false,                          // opencwnd(): per-ACK increase
        limited_transmit: true,              // singledup_ 1 (2001-11-28)
        reno_recover_check: true,            // bugFix_ true
        newreno_slow_but_steady: false,      // newreno_changes1_ 1 since 2003-05-05
        partial_window_deflation: true,      // partial_window_deflation_ 1 since 2003-05-05
        precision_reduce: true,              // precisionReduce_ true (2006-01-24)
        recovery_exit: RecoveryExit::Open,   // recv(): dupwnd_ = 0, recv_newack_helper -> opencwnd
        prr: Prr::Off,                       // ns-2.35 has no PRR
        limited_transmit_any_state: true,    // recv(): send_one() on dupacks 1-2 in any state
        recovery_max_burst: 2, // NewReno recv(): send_much(0, 0, 2), newreno_changes_ 0
        recover_check: RecoverCheck::Passed, // dupack_action(): highest_ack_ > recover_
        syn: true,             // syn_ true (2001-05-17), delay_growth_ true
        bugfix_ss: true,       // bugfix_ss_ 1 (2006-06-13)
        fto: FtoDetection::None, // plain TCP: every timeout is true
        frto: Frto::Off,       // Agent/TCP has no F-RTO (sfrto_enabled_ 0)
        timestamps: Timestamps::Off, // timestamps_ false: rtt_active_ timing
        dsack: Dsack::Off,     // Sack1 sink sends no D-SACK
        rack_tlp: RackTlpConfig::OFF, // ns-2.35 has no RACK or TLP
        cwnd_limited_growth: false, // ns-2 opencwnd on every new ACK
        small_queues: SmallQueuesConfig::OFF,
        rcvbuf: RcvBufConfig::OFF,
        gso: GsoConfig::OFF,
        ack_on_push: false,
        ato: AtoConfig::OFF,
        sack_compression: SackCompressionConfig::OFF,
        pacing: PacingConfig::OFF,
        hz: DEFAULT_HZ,
    }
}

/// ns-2 defaults in force during 2004 (ns-2.27), before the changes of
/// 2004-10-14 (`minrto_`), 2006-01-21 (`rtxcur_init_`) and 2007-03-28 (`maxrto_`).
fn ns2_2004() -> TcpConfig {
    let mut c = ns2();
    c.rto.min = SimDuration::from_secs(1); // minrto_ 1 (2001-05-14 .. 2004-10-14)
    c.rto.initial = SimDuration::from_secs(6); // rtxcur_init_ 6.0 (until 2006-01-21)
    c.rto.max = SimDuration::from_secs(100_000); // maxrto_ 100000 (until 2007-03-28)
    c.precision_reduce = false; // precisionReduce_ false (until 2006-01-24)
    c.bugfix_ss = false; // bugfix_ss_ added 2006-06-13
    c
}

/// ns-2 defaults before 2003-05-05 (ns-2.26), the release a study submitted
/// in mid-2003 (yu2004) ran on: `ns2-2004` with the two `NewReno` defaults
/// changed that day "to reflect RFC 2582" (ns-2 test suites, e.g.
/// `tcl/test/test-suite-newreno.tcl`): the Slow-but-Steady timer
/// (`newreno_changes1_ 0`) and no partial window deflation
/// (`partial_window_deflation_ 0`). ns-2.27 (2004-01) already had both at 1.
fn ns2_2003() -> TcpConfig {
    let mut c = ns2_2004();
    c.newreno_slow_but_steady = true;
    c.partial_window_deflation = false;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_profile_exists() {
        for p in PROFILES {
            assert!(profile(p).is_some(), "{p}");
        }
        assert!(profile("nope").is_none());
    }

    #[test]
    fn no_profile_detects_false_timeouts() {
        // Burst TCP (yu2004 §IV) is opt-in: plain TCP in every profile.
        for p in PROFILES {
            assert_eq!(profile(p).unwrap().fto, FtoDetection::None, "{p}");
        }
    }

    #[test]
    fn timestamps_and_dsack_are_the_linux_profile_s_alone() {
        // tcp_timestamps 1, tcp_dsack 1; every other profile runs without.
        for p in PROFILES {
            let c = profile(p).unwrap();
            let linux = *p == "linux";
            assert_eq!(c.timestamps == Timestamps::Linux, linux, "{p}");
            assert_eq!(c.dsack == Dsack::Linux, linux, "{p}");
        }
    }

    #[test]
    fn frto_is_the_linux_profile_s_alone() {
        // RFC 5682 as Linux runs it (tcp_frto 2); every other profile takes
        // every timeout as a loss.
        for p in PROFILES {
            let want = if *p == "linux" {
                Frto::Linux
            } else {
                Frto::Off
            };
            assert_eq!(profile(p).unwrap().frto, want, "{p}");
        }
    }

    #[test]
    fn sack_follows_ns2_sack1_in_every_ns2_profile() {
        for p in PROFILES {
            let c = profile(p).unwrap();
            let (rec, ack) = if p.starts_with("ns2") {
                (SackRecovery::Ns2Sack1, SackOptionSize::Ns2)
            } else {
                (SackRecovery::Rfc6675, SackOptionSize::Rfc2018)
            };
            assert_eq!((c.sack_recovery, c.sack_option_size), (rec, ack), "{p}");
        }
    }

    #[test]
    fn linux_follows_the_kernels_defaults() {
        let l = profile("linux").unwrap();
        assert_eq!(
            (l.variant, l.congestion_control),
            (Variant::Sack, CongestionControl::Cubic)
        );
        assert_eq!((l.mss, l.header, l.initial_cwnd), (1448, 52, 10));
        assert_eq!(l.rto.estimator, RtoEstimator::Linux);
        assert_eq!(l.rto.min, SimDuration::from_millis(200));
        assert_eq!(l.rto.initial, SimDuration::from_secs(1));
        assert_eq!(l.delack_timeout, SimDuration::from_millis(40));
        assert_eq!((l.prr, l.sack_blocks), (Prr::Ssrb, 3));
        assert!(l.rack_tlp.rack && l.rack_tlp.tlp);
        assert!(l.small_queues.enabled && l.cwnd_limited_growth && l.newreno_slow_but_steady);
        // The receive side and GSO packets (session 22).
        assert!(l.rcvbuf.enabled && l.gso.enabled && l.ack_on_push);
        assert!(l.ato.enabled && l.hz == 250 && l.sack_compression.enabled);
        assert_eq!(l.ssthresh_basis, SsthreshBasis::Cwnd);
        assert!((l.cubic.beta - 0.7002).abs() < 1e-4 && (l.cubic.c - 0.4004).abs() < 1e-4);
    }

    #[test]
    fn rfc3390_window_follows_mss() {
        assert_eq!(rfc3390_initial_window(1000), 4);
        assert_eq!(rfc3390_initial_window(1460), 3);
        assert_eq!(rfc3390_initial_window(2500), 2);
    }

    #[test]
    fn eras_differ_where_ns2_changed_defaults() {
        let a = profile("ns2").unwrap();
        let b = profile("ns2-2004").unwrap();
        assert_eq!(a.rto.min, SimDuration::from_millis(200));
        assert_eq!(b.rto.min, SimDuration::from_secs(1));
        assert_eq!(a.rto.initial, SimDuration::from_secs(3));
        assert_eq!(b.rto.initial, SimDuration::from_secs(6));
        assert_eq!(a.rto.granularity, b.rto.granularity);
        let c = profile("ns2-2003").unwrap();
        assert!(c.newreno_slow_but_steady && !b.newreno_slow_but_steady);
        assert!(!c.partial_window_deflation && b.partial_window_deflation);
        assert!(a.partial_window_deflation && profile("rfc").unwrap().partial_window_deflation);
        // precisionReduce_ became the default on 2006-01-24.
        assert!(a.precision_reduce && !b.precision_reduce && !c.precision_reduce);
        // syn_ true since 2001-05-17; bugfix_ss_ since 2006-06-13.
        assert!(a.syn && b.syn && c.syn && !profile("rfc").unwrap().syn);
        assert!(a.bugfix_ss && !b.bugfix_ss && !c.bugfix_ss);
    }
}
