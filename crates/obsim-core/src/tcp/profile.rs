//! Named parameter sets for TCP: the RFC defaults, and ns-2's defaults in the
//! two eras the studies span. A scenario picks one with `tcp.profile` and may
//! override any single key. Sources: RFC 5681, RFC 6298, RFC 3390, RFC 2018,
//! and ns-2's `tcl/lib/ns-default.tcl` (ns-2.35) with its dated comments and
//! the notes in `tcl/test/test-suite-*.tcl` on when each default changed.
//! docs/MODEL.md has the table with citations.

use crate::tcp::config::{
    FtoDetection, Prr, RackTlpConfig, RecoverCheck, RecoveryExit, RtoConfig, RtoEstimator,
    SackOptionSize, SackRecovery, SsthreshBasis, TcpConfig, Variant,
};
use crate::time::SimDuration;

/// The profiles a scenario may name in `tcp.profile`.
pub const PROFILES: &[&str] = &["rfc", "ns2", "ns2-2004", "ns2-2003"];

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
        _ => None,
    }
}

/// Standards-track behaviour: RFC 5681 (+ RFC 3042 limited transmit),
/// RFC 6582 `NewReno`, RFC 6298 timer, RFC 3390 initial window, delayed ACKs.
fn rfc() -> TcpConfig {
    let mss = 1000;
    TcpConfig {
        variant: Variant::NewReno,
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
        rack_tlp: RackTlpConfig::OFF, // RFC 8985 (2021) is later than RFC 6675
    }
}

/// ns-2.35 `Agent/TCP` + `Agent/TCPSink` defaults (tcl/lib/ns-default.tcl).
fn ns2() -> TcpConfig {
    TcpConfig {
        variant: Variant::Reno,
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
        rack_tlp: RackTlpConfig::OFF, // ns-2.35 has no RACK or TLP
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
