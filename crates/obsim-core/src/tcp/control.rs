//! The TCP control block: the congestion state that window growth (`cc`),
//! loss recovery (`recovery`) and the timeout response (`timeout`) share, as
//! in ns-3's `TcpSocketState`. Sequence numbers count segments.

use crate::tcp::config::{RecoverCheck, TcpConfig};
use crate::time::{SimDuration, SimTime};

/// Congestion-control state of the sender (the Linux/ns-3 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    /// Normal operation: slow start or congestion avoidance.
    Open,
    /// Fast recovery after a fast retransmit (RFC 5681 §3.2, RFC 6582,
    /// RFC 6675 §5).
    Recovery,
    /// Go-back-N after a retransmission timeout (RFC 5681 §3.1, RFC 6298
    /// §5.4-5.6), or after a Tahoe fast retransmit, until `recover` is
    /// acknowledged.
    Loss,
}

/// Congestion state shared by the sender's plug-ins.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // independent flags, each a named TCP state or option
pub struct ControlBlock {
    /// Congestion window in segments (RFC 5681 cwnd), without the
    /// fast-recovery inflation, which [`ControlBlock::dupwnd`] holds.
    pub cwnd: f64,
    /// Fast-recovery window inflation in segments: the duplicate ACKs RFC
    /// 5681 §3.2 steps 3-4 add to cwnd (less RFC 6582 §3.2 step 5's partial
    /// deflation). Kept apart from cwnd as ns-2 keeps `dupwnd_` apart from
    /// `cwnd_` (tcp-reno.cc `RenoTcpAgent::window()`): the send window is
    /// their sum, while cwnd reports and a timeout during recovery see the
    /// un-inflated window (ns-2 `RenoTcpAgent::timeout` zeroes `dupwnd_`
    /// before halving). Zero outside fast recovery.
    pub dupwnd: f64,
    /// Slow-start threshold in segments (RFC 5681 ssthresh).
    pub ssthresh: f64,
    /// Oldest unacknowledged segment (RFC 793 SND.UNA).
    pub snd_una: u64,
    /// One past the highest segment ever sent (BSD `snd_max`; the API's
    /// `snd_nxt`).
    pub snd_nxt: u64,
    /// Next segment the window rule transmits: equals `snd_nxt` except after
    /// a go-back-N rewind (timeout or Tahoe), when it restarts at `snd_una`
    /// (ns-2 `t_seqno_`).
    pub tx_next: u64,
    /// Recovery point: `snd_nxt` when recovery (or a timeout) began
    /// (RFC 6582 `recover`, RFC 6675 `RecoveryPoint`, as one past the highest
    /// segment sent). An ACK at or above it ends the episode.
    pub recover: u64,
    /// Consecutive duplicate ACKs (RFC 5681 §2).
    pub dupacks: u32,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3).
    pub dupthresh: u32,
    /// Current state.
    pub state: CaState,
    /// Consecutive retransmission timeouts without a valid new ACK.
    pub consecutive_timeouts: u32,
    /// Sender window `W_M` and receiver window, min of the two, in segments.
    pub wnd_limit: u32,
    /// Segments the application offers (`u64::MAX` = infinite backlog).
    pub end_seq: u64,
    /// Limited transmit (RFC 3042) enabled.
    pub limited_transmit: bool,
    /// Limited transmit also outside the Open state (ns-2 `send_one`).
    pub limited_transmit_any_state: bool,
    /// Segments limited transmit sent beyond cwnd since the cumulative ACK
    /// last advanced (RFC 5681 §3.2 step 2: "additional data sent in
    /// limited transmit MUST NOT be included" in the FlightSize of eq. (4)).
    pub lt_sent: u64,
    /// When a new fast retransmit may follow an earlier episode: true when
    /// SND.UNA must be past the recovery point (`"passed"`), false when
    /// reaching it is enough (`"reached"`); `"linux"` resolved by the
    /// variant ([`RecoverCheck::for_variant`]).
    pub recover_must_pass: bool,
    /// ns-2 `bugfix_ss_` with a SYN (`tcp.bugfix_ss && tcp.syn`): while
    /// only the SYN is acknowledged (`snd_una == 0`, ns-2 `highest_ack_ ==
    /// 0`), the recovery point does not hold back a fast retransmit
    /// (tcp.cc `dupack_action`).
    pub first_segment_fr: bool,
    /// Segments in `[snd_una, snd_nxt)` the receiver has SACKed, set by the
    /// sender from the loss-recovery plug-in just before a timeout
    /// response (0 otherwise and without SACK).
    pub sacked_out: u64,
    /// RFC 6675 `pipe` when the loss-recovery plug-in keeps a scoreboard,
    /// set just before a window cut (`ssthresh_basis = "pipe"`).
    pub pipe_est: Option<u64>,
    /// The time of the event the sender is handling (an ACK, the timer, a
    /// burst signal), set by the sender before any plug-in runs: the clock
    /// of time-based window growth (RFC 9438 §4.1.2 `current_time`, read
    /// by CUBIC's `t`). Zero before the first event.
    pub now: SimTime,
    /// The latest valid RTT sample (RFC 6298 §2 R', Karn's rule: one timed
    /// segment at a time, never a retransmitted one), set by the sender
    /// when the ACK that gives it arrives, before the plug-ins see that
    /// ACK; `None` before the first. What RFC 9406 HyStart++ rounds read.
    pub rtt_latest: Option<SimDuration>,
    /// The RTT sample the ACK being handled gave, if it gave one (Linux
    /// `ack_sample.rtt_us`, which CUBIC's HyStart reads); `None` on an ACK
    /// without a sample. Set by the sender before the plug-ins see the ACK.
    pub ack_rtt: Option<SimDuration>,
    /// The smallest RTT sample of the connection so far (Linux CUBIC's
    /// `delay_min`; not windowed); `None` before the first sample.
    pub rtt_min: Option<SimDuration>,
    /// RFC 6298 SRTT after the latest sample (RFC 9438 §4.1.2 `RTT`, "the
    /// smoothed round-trip time"), `None` before the first sample. The
    /// sender keeps it equal to its RTO estimator's.
    pub srtt: Option<SimDuration>,
    /// `tcp.cwnd_limited_growth`: ACKs open cwnd only while it is used
    /// ([`ControlBlock::may_raise_cwnd`]).
    pub cwnd_limited_growth: bool,
    /// Linux `tp->is_cwnd_limited`: a send attempt in the current window
    /// ended with cwnd full ([`ControlBlock::validate_cwnd`]).
    pub is_cwnd_limited: bool,
    /// Linux `tp->max_packets_out`: the most segments out at the end of a
    /// send attempt in the current window.
    pub max_packets_out: u64,
    /// Linux `tp->cwnd_usage_seq`: `snd_nxt` when the window being
    /// tracked began; once `snd_una` reaches it a new one begins.
    pub cwnd_usage_seq: u64,
}

impl ControlBlock {
    /// Initial state: cwnd = IW, ssthresh = the configured initial value
    /// (RFC 5681 §3.1: "arbitrarily high").
    pub fn new(cfg: &TcpConfig, end_seq: u64) -> Self {
        ControlBlock {
            cwnd: f64::from(cfg.initial_cwnd.max(1)),
            ssthresh: if cfg.initial_ssthresh == 0 {
                f64::from(cfg.max_window)
            } else {
                f64::from(cfg.initial_ssthresh)
            },
            dupwnd: 0.0,
            snd_una: 0,
            snd_nxt: 0,
            tx_next: 0,
            recover: 0,
            dupacks: 0,
            dupthresh: cfg.dupack_threshold.max(1),
            state: CaState::Open,
            consecutive_timeouts: 0,
            wnd_limit: cfg.max_window.min(cfg.rwnd).max(1),
            end_seq,
            limited_transmit: cfg.limited_transmit,
            limited_transmit_any_state: cfg.limited_transmit_any_state,
            lt_sent: 0,
            recover_must_pass: cfg.recover_check.for_variant(cfg.variant) == RecoverCheck::Passed,
            first_segment_fr: cfg.syn && cfg.bugfix_ss,
            sacked_out: 0,
            pipe_est: None,
            now: SimTime::ZERO,
            rtt_latest: None,
            ack_rtt: None,
            rtt_min: None,
            srtt: None,
            cwnd_limited_growth: cfg.cwnd_limited_growth,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
        }
    }

    /// Whether an ACK may open cwnd now (Linux `tcp_is_cwnd_limited`, read
    /// by `tcp_cong_avoid` and `bictcp_cong_avoid` before they grow the
    /// window): always without `cwnd_limited_growth` (RFC 5681 §3.1);
    /// with it, when the sender was cwnd-limited in the current window,
    /// or, in slow start, while cwnd is under twice the most segments out
    /// ("ensure cwnd grows to twice what was ACKed").
    #[inline]
    pub fn may_raise_cwnd(&self) -> bool {
        if !self.cwnd_limited_growth || self.is_cwnd_limited {
            return true;
        }
        if self.cwnd < self.ssthresh {
            return self.cwnd < 2.0 * self.max_packets_out as f64;
        }
        false
    }

    /// The end of a send attempt that sent `sent` segments with
    /// `in_flight` segments out (Linux `tcp_write_xmit` ->
    /// `tcp_cwnd_validate`): cwnd-limited when `in_flight >= cwnd`; the
    /// state is taken over when the tracked window is acknowledged
    /// (`snd_una >= cwnd_usage_seq`), when the sender is cwnd-limited, or
    /// when more is out than seen so far while it was not. Linux's
    /// `tcp_cwnd_application_limited` (RFC 2861 decay after an idle RTO)
    /// is not modelled: it runs only when the application is short of
    /// data, and obsim's applications never are until they end.
    pub fn validate_cwnd(&mut self, sent: u32, in_flight: u64) {
        if !self.cwnd_limited_growth {
            return;
        }
        let limited = in_flight as f64 >= self.cwnd.floor();
        if sent == 0 && !limited {
            return;
        }
        let packets_out = self.flight_size();
        if self.snd_una >= self.cwnd_usage_seq
            || limited
            || (!self.is_cwnd_limited && packets_out > self.max_packets_out)
        {
            self.is_cwnd_limited = limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    /// True when the cumulative ACK is past the previous episode's recovery
    /// point by the configured rule ([`RecoverCheck`]): `snd_una >= recover`
    /// (RFC 6675 §5.1) or `snd_una > recover` (ns-2 `highest_ack_ >
    /// recover_`).
    #[inline]
    pub fn recover_passed(&self) -> bool {
        if self.first_segment_fr && self.snd_una == 0 {
            return true;
        }
        if self.recover_must_pass {
            self.snd_una > self.recover
        } else {
            self.snd_una >= self.recover
        }
    }

    /// RFC 5681 `FlightSize`: segments sent but not cumulatively acknowledged.
    #[inline]
    pub fn flight_size(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }

    /// min(cwnd + dupwnd, `W_M`, rwnd) in segments: the send window (ns-2
    /// `RenoTcpAgent::windowd()`; RFC 5681 §3.2's inflated cwnd).
    #[inline]
    pub fn window(&self) -> f64 {
        (self.cwnd + self.dupwnd).min(f64::from(self.wnd_limit))
    }

    /// Leaves fast recovery's window inflation behind: dupwnd = 0 (ns-2
    /// `RenoTcpAgent::timeout` and every exit from recovery).
    #[inline]
    pub fn clear_inflation(&mut self) {
        self.dupwnd = 0.0;
    }

    /// True while data remains that was never sent.
    #[inline]
    pub fn has_unsent(&self) -> bool {
        self.snd_nxt < self.end_seq
    }

    /// The standard window rule (RFC 5681 §3; ns-2 `send_much`): the next
    /// segment at `tx_next` may go when it lies inside
    /// `snd_una + floor(min(cwnd, W_M, rwnd))`, plus one segment per early
    /// duplicate ACK under limited transmit (RFC 3042 §2; ns-2 `send_one`).
    pub fn window_allows_tx_next(&self) -> bool {
        if self.tx_next >= self.end_seq {
            return false;
        }
        let win = self.window().floor() as u64;
        let win = win + self.limited_transmit_allowance();
        self.tx_next < self.snd_una + win.max(1).min(self.window_cap())
    }

    /// Segments limited transmit allows beyond the window now: `dupacks`
    /// on the first and second duplicate ACK (RFC 3042 §2, RFC 5681 §3.2
    /// step 1: "cwnd plus 2*SMSS"; ns-2 `send_one`: `t_seqno_ <=
    /// highest_ack_ + cwnd_ + dupacks_`), in the Open state, or in any
    /// state with `limited_transmit_any_state` (ns-2 calls `send_one` from
    /// `recv` whatever the state), else 0.
    #[inline]
    pub fn limited_transmit_allowance(&self) -> u64 {
        let state_ok = self.state == CaState::Open || self.limited_transmit_any_state;
        if self.limited_transmit && state_ok && self.dupacks < self.dupthresh {
            u64::from(self.dupacks)
        } else {
            0
        }
    }

    /// The largest window the sequence space allows (`W_M` and rwnd).
    #[inline]
    pub fn window_cap(&self) -> u64 {
        u64::from(self.wnd_limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;

    /// A linux-profile control block in congestion avoidance at cwnd 20
    /// with `out` segments outstanding from `una`.
    fn ca(una: u64, out: u64) -> ControlBlock {
        let cfg = profile("linux").unwrap();
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.cwnd = 20.0;
        cb.ssthresh = 10.0;
        cb.snd_una = una;
        cb.snd_nxt = una + out;
        cb
    }

    #[test]
    fn growth_waits_for_a_full_window_in_congestion_avoidance() {
        // Linux tcp_is_cwnd_limited: a send attempt that leaves 15 of 20
        // out is not cwnd-limited, so the ACKs of that window do not grow
        // cwnd; one that fills the window is, for the rest of it.
        let mut cb = ca(0, 15);
        assert!(!cb.may_raise_cwnd(), "nothing sent yet in this window");
        cb.validate_cwnd(15, 15);
        assert!(!cb.may_raise_cwnd());
        assert_eq!(cb.max_packets_out, 15);
        cb.snd_nxt = 20;
        cb.validate_cwnd(5, 20);
        assert!(cb.may_raise_cwnd());
        // Still the same window: a later attempt that is not limited does
        // not clear the state until snd_una reaches cwnd_usage_seq (20).
        cb.snd_una = 10;
        cb.validate_cwnd(1, 11);
        assert!(cb.may_raise_cwnd());
        cb.snd_una = 20;
        cb.snd_nxt = 30;
        cb.validate_cwnd(10, 10);
        assert!(!cb.may_raise_cwnd(), "a new window, not filled");
    }

    #[test]
    fn slow_start_grows_to_twice_what_was_out() {
        let mut cb = ca(0, 6);
        cb.ssthresh = 100.0;
        cb.validate_cwnd(6, 6);
        assert!(!cb.is_cwnd_limited);
        // cwnd 20 >= 2 x 6: no growth; at cwnd 11 < 12 it grows.
        assert!(!cb.may_raise_cwnd());
        cb.cwnd = 11.0;
        assert!(cb.may_raise_cwnd());
    }

    #[test]
    fn without_the_switch_every_ack_grows() {
        let mut cfg = profile("linux").unwrap();
        cfg.cwnd_limited_growth = false;
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.snd_nxt = 3;
        cb.validate_cwnd(3, 3);
        assert!(cb.may_raise_cwnd());
        assert_eq!(cb.max_packets_out, 0, "no state kept");
    }
}
