//! RACK, the time-based loss detection of RFC 8985 §6 (`tcp.rack`), for
//! the RFC 6675 SACK recovery (`sack.rs`). A segment is lost when a segment
//! sent at least `RACK.rtt + RACK.reo_wnd` after it has been delivered
//! (cumulatively or selectively acknowledged): loss is inferred from time,
//! not from a count of duplicate ACKs, so a tail loss with only one or two
//! segments SACKed above it, or a lost retransmission, is detected.
//!
//! The per-segment state (`Segment.xmit_ts`, `Segment.lost`) lives in the
//! [`Scoreboard`] ring, sized once per flow; this file holds the
//! connection-wide variables of RFC 8985 §5.2 and the steps of §6.2.
//! DSACK-based adaptation of the reordering window (§6.2 step 4, the
//! `RACK.dsack_round` / `RACK.reo_wnd_mult` part) is not modelled: with
//! `tcp.dsack` the receiver sends D-SACKs, but only the undo reads them
//! (`tcp/undo.rs`), so `RACK.reo_wnd_mult` stays 1. With `tcp.timestamps`
//! the scoreboard's owner (`sack.rs`) skips a segment delivered by an
//! earlier transmission than its last (Linux `tcp_skb_spurious_retrans`).

use crate::tcp::recovery::Scoreboard;
use crate::time::{SimDuration, SimTime};

/// RACK's connection state (RFC 8985 §5.2), with the clock the sender
/// last gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rack {
    /// `RACK.xmit_ts`: the latest transmit time among the segments
    /// delivered so far (`None` before the first delivery).
    xmit_ts: Option<SimTime>,
    /// `RACK.end_seq`: one past that segment (segments count as one unit).
    end_seq: u64,
    /// `RACK.rtt`: the RTT of that most recently sent delivered segment.
    rtt: SimDuration,
    /// `RACK.min_RTT`: the least RTT measured (§6.2 step 1; a global
    /// minimum, not the windowed filter the RFC suggests: obsim's paths do
    /// not migrate).
    min_rtt: Option<SimDuration>,
    /// `RACK.fack`: one past the highest segment delivered.
    fack: u64,
    /// `RACK.reordering_seen` (§6.2 step 3).
    reordering_seen: bool,
    /// `RACK.reo_wnd` as last computed (§6.2 step 4).
    reo_wnd: SimDuration,
    /// When the reordering timer (§6.2 step 5) fires, if armed.
    deadline: Option<SimTime>,
    /// Segments RACK marks lost that were not retransmitted since and are
    /// not SACKed, at the last detection.
    lost_pending: u64,
    /// The sender's clock, set before each hook (`LossRecovery::set_clock`).
    now: SimTime,
    /// The sender's SRTT, the cap on `reo_wnd` (§6.2 step 4).
    srtt: Option<SimDuration>,
    /// `fack` before the ACK being processed (for step 3).
    fack_before: u64,
}

impl Default for Rack {
    fn default() -> Self {
        Rack::new()
    }
}

/// RFC 8985 §6.2 `RACK_sent_after(t1, seq1, t2, seq2)`: true when the
/// transmission at `t1` of the segment ending at `seq1` came after the one
/// at `t2` ending at `seq2` (sequence numbers break ties in time).
#[inline]
fn sent_after(t1: SimTime, seq1: u64, t2: SimTime, seq2: u64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}

impl Rack {
    /// The state of a new connection (RFC 8985 §6.1: everything unset,
    /// `RACK.reordering_seen` FALSE).
    pub const fn new() -> Self {
        Rack {
            xmit_ts: None,
            end_seq: 0,
            rtt: SimDuration::ZERO,
            min_rtt: None,
            fack: 0,
            reordering_seen: false,
            reo_wnd: SimDuration::ZERO,
            deadline: None,
            lost_pending: 0,
            now: SimTime::ZERO,
            srtt: None,
            fack_before: 0,
        }
    }

    /// The time now and the sender's SRTT.
    #[inline]
    pub fn set_clock(&mut self, now: SimTime, srtt: Option<SimDuration>) {
        self.now = now;
        self.srtt = srtt;
    }

    /// The time the sender last gave.
    #[inline]
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// `RACK.min_RTT`, `None` before the first sample.
    pub fn min_rtt(&self) -> Option<SimDuration> {
        self.min_rtt
    }

    /// `RACK.rtt`.
    pub fn rtt(&self) -> SimDuration {
        self.rtt
    }

    /// `RACK.reo_wnd` as last computed.
    pub fn reo_wnd(&self) -> SimDuration {
        self.reo_wnd
    }

    /// `RACK.reordering_seen`.
    pub fn reordering_seen(&self) -> bool {
        self.reordering_seen
    }

    /// When the reordering timer fires, if armed.
    #[inline]
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Segments marked lost, not SACKed and not yet retransmitted.
    #[inline]
    pub fn lost_pending(&self) -> u64 {
        self.lost_pending
    }

    /// Starts processing an ACK (before its deliveries are reported).
    #[inline]
    pub fn begin_ack(&mut self) {
        self.fack_before = self.fack;
    }

    /// Segment `seq`, in `sb` and not yet delivered, was delivered by the
    /// ACK being processed (cumulatively or selectively): RFC 8985 §6.2
    /// steps 1-3. Called before the scoreboard forgets or SACKs it.
    pub fn on_delivered(&mut self, sb: &Scoreboard, seq: u64) {
        let xmit = sb.xmit_ts(seq);
        let retransmitted = sb.is_retransmitted(seq);
        let end = seq + 1;
        // Step 3: a segment delivered below the highest one delivered by an
        // earlier ACK, and never retransmitted, was reordered.
        if end < self.fack_before && !retransmitted {
            self.reordering_seen = true;
        }
        self.fack = self.fack.max(end);
        let rtt = self.now.saturating_since(xmit);
        // Step 2, without timestamps: the ACK of a retransmitted segment
        // may be for its original transmission; "If RACK.rtt < RACK.min_RTT
        // ... the ACK is for an earlier transmission": skip it.
        if retransmitted && self.min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        // Step 1: the minimum RTT.
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        // Step 2: RACK.xmit_ts / end_seq / rtt follow the most recently
        // sent delivered segment.
        let later = self
            .xmit_ts
            .is_none_or(|t| sent_after(xmit, end, t, self.end_seq));
        if later {
            self.xmit_ts = Some(xmit);
            self.end_seq = end;
            self.rtt = rtt;
        }
    }

    /// RFC 8985 §6.2 step 4 `RACK_update_reo_wnd()` without DSACK
    /// (`RACK.reo_wnd_mult` = 1): 0 while no reordering was seen and the
    /// sender is in recovery or `DupThresh` segments are SACKed (RACK then
    /// acts as the `DupThresh` rule does), else min(`RACK.min_RTT` / 4,
    /// SRTT).
    fn update_reo_wnd(&mut self, in_recovery: bool, sacked: u64, dupthresh: u32) {
        self.reo_wnd = if !self.reordering_seen && (in_recovery || sacked >= u64::from(dupthresh)) {
            SimDuration::ZERO
        } else {
            let quarter = SimDuration::from_nanos(self.min_rtt.map_or(0, |m| m.as_nanos() / 4));
            self.srtt.map_or(quarter, |s| quarter.min(s))
        };
    }

    /// RFC 8985 §6.2 step 5 `RACK_detect_loss_and_arm_timer()` over the
    /// outstanding segments `[una, nxt)` of `sb`: marks lost every segment
    /// sent `RACK.rtt + RACK.reo_wnd` or more before `RACK.xmit_ts`, and arms
    /// the reordering timer for the others sent before it. Returns how many
    /// segments it newly marked.
    ///
    /// The segments are visited in the order they were sent (the
    /// scoreboard's time-ordered list, as §6.2 step 5 suggests and Linux
    /// `tcp_rack_detect_loss` does over `tsorted_sent_queue`), so the cost
    /// is the segments newly marked, not the window: every segment the RFC's
    /// loop would mark is sent before the first it would not, and the
    /// timer's `max(remaining)` is that of the latest one sent before
    /// `RACK.xmit_ts`. `SACKed` segments and those already lost and unsent
    /// since (`Segment.xmit_ts = INFINITE_TS`) are not in the list, as the
    /// loop skips them.
    pub fn detect_loss(
        &mut self,
        sb: &mut Scoreboard,
        nxt: u64,
        in_recovery: bool,
        dupthresh: u32,
    ) -> u64 {
        self.update_reo_wnd(in_recovery, sb.sacked_count(), dupthresh);
        self.deadline = None;
        self.lost_pending = 0;
        let Some(rack_ts) = self.xmit_ts else {
            return 0;
        };
        let rack_end = self.end_seq;
        // "RACK_sent_after(RACK.xmit_ts, RACK.end_seq, Segment.xmit_ts,
        // Segment.end_seq)": sent before RACK's segment.
        let before = |xmit: SimTime, seq: u64| sent_after(rack_ts, rack_end, xmit, seq + 1);
        sb.refresh_time_order(nxt);
        let mut marked = 0;
        while let Some(seq) = sb.earliest_sent() {
            let xmit = sb.xmit_ts(seq);
            // "the sender can stop scanning at the first segment that was
            // sent after RACK.xmit_ts".
            if !before(xmit, seq) {
                break;
            }
            // "remaining = Segment.xmit_ts + RACK.rtt + RACK.reo_wnd - Now()"
            // <= 0: lost. Segments sent later are due later: none of them is.
            let due = xmit + self.rtt + self.reo_wnd;
            if due > self.now {
                break;
            }
            sb.mark_lost(seq);
            marked += 1;
        }
        // "timeout = max(remaining, timeout)" over the unmarked segments
        // sent before RACK.xmit_ts: that of the latest sent.
        self.deadline = sb
            .latest_sent_before(before)
            .map(|seq| sb.xmit_ts(seq) + self.rtt + self.reo_wnd);
        // Marked now, or before and not retransmitted since.
        self.lost_pending = sb.rack_lost_pending();
        marked
    }

    /// The reordering timer is disarmed (a retransmission timeout: RFC
    /// 2018 §8's go-back-N takes over).
    pub fn disarm(&mut self) {
        self.deadline = None;
        self.lost_pending = 0;
    }
}

#[cfg(test)]
#[path = "rack_tests.rs"]
mod tests;
