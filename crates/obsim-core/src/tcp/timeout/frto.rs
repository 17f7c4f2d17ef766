//! Forward RTO-Recovery (F-RTO, RFC 5682) as Linux runs it (`tcp.frto =
//! "linux"`; `net.ipv4.tcp_frto = 2`, the kernel's default): after a
//! retransmission timeout the sender first tests whether the timeout was
//! spurious (the segments were delayed, not lost: on an OBS path a burst's
//! assembly and offset delay can hold a whole window back) and, if it was,
//! undoes the window reduction.
//!
//! The standard response ([`super::Standard`]) still runs at the timeout:
//! ssthresh cut, cwnd = 1, the first unacknowledged segment resent (RFC
//! 5682 §3.1 step 1, Linux `tcp_enter_loss`). This unit then reads the
//! ACKs that follow (Linux `tcp_process_loss`):
//!
//! - an ACK or SACK of data sent before the timeout and never
//!   retransmitted (Linux `FLAG_ORIG_SACK_ACKED`) declares the timeout
//!   spurious: RFC 5682 §3.1 step 3b, which Linux also applies in step 2
//!   (commit e33099f96d99, "a spurious timeout may be detected without
//!   sending data in step 2"). The response is Linux's
//!   `tcp_try_undo_loss(sk, true)` -> `tcp_undo_cwnd_reduction`: cwnd =
//!   max(cwnd, prior_cwnd) (`tcp_reno_undo_cwnd`, which CUBIC also uses),
//!   ssthresh = max(ssthresh, prior_ssthresh), the Open state, and no more
//!   retransmissions of the segments the timeout marked lost;
//! - else the first ACK that advances SND.UNA without covering the
//!   recovery point (Linux `high_seq`) makes the sender send new data
//!   instead of go-back-N retransmissions (step 2b, Linux `REXMIT_NEW`),
//!   or, with no new data or no receive window for it, go on with the
//!   conventional recovery;
//! - after that new data, a duplicate ACK proves the loss real (step 3a):
//!   go-back-N resumes with the window slow start gave (Linux keeps it; the
//!   RFC allows up to 3 segments);
//! - an ACK that covers the recovery point without proving the timeout
//!   spurious ends the test (step 2a; Linux's `tcp_try_undo_recovery`
//!   needs timestamps or DSACK: `tcp/undo.rs`, with `tcp.timestamps` or
//!   `tcp.dsack`).
//!
//! Linux arms F-RTO at a timeout that starts a new recovery (state below
//! Recovery) and keeps it on recurring timeouts of the same `SND.UNA`
//! (RFC 5682 §3.2; `tcp_enter_loss`: `new_recovery ||
//! icsk_retransmits`). obsim arms it at a first timeout in the Open state
//! and keeps it on that sequence's recurring timeouts; a sequence that
//! began in fast recovery runs without it (Linux turns F-RTO on at the
//! second timeout of such a sequence, undoing to the window before the fast
//! retransmit: not modelled).

use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::undo;
use crate::time::SimTime;

/// Where the test stands (RFC 5682 §3.1's steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Step 2: waiting for the first ACK that advances SND.UNA.
    First,
    /// Step 3: new data went out after the first advancing ACK; the next
    /// ACK decides.
    Second,
}

/// One timeout's test.
#[derive(Clone, Copy, Debug)]
struct Episode {
    /// cwnd before the timeout (Linux `prior_cwnd`).
    prior_cwnd: f64,
    /// Linux `prior_ssthresh` = `tcp_current_ssthresh()` before the
    /// timeout: max(ssthresh, 3/4 cwnd) in the Open state.
    prior_ssthresh: f64,
    /// RFC 5682 `RecoveryPoint`, Linux `high_seq`: one past the highest
    /// segment sent when the timeout fired.
    high: u64,
    /// One past the highest segment retransmitted since the timeout
    /// (segments below it count as retransmitted: Linux's `TCPCB_RETRANS`).
    rtx_end: u64,
    /// The most never-retransmitted segments below `high` known delivered
    /// (cumulatively acknowledged at or above `rtx_end`, or SACKed) so far:
    /// more on an ACK is Linux's `FLAG_ORIG_SACK_ACKED`.
    delivered: u64,
    step: Step,
    /// The RTT measurement the timeout cancelled (Karn), kept in case its
    /// segment, never retransmitted, is acknowledged by the ACK that proves
    /// the timeout spurious (Linux takes that RTT sample,
    /// `tcp_clean_rtx_queue` on a never-retransmitted segment).
    timing: Option<(u64, SimTime)>,
}

/// What an ACK decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrtoVerdict {
    /// Nothing (not armed, or the ACK decides nothing).
    Nothing,
    /// The timeout was spurious: undo ([`ForwardRto::undo`]).
    Spurious,
    /// Step 2b: send new data instead of retransmissions.
    SendNew,
    /// Step 3a: the loss is real; go-back-N resumes.
    Real,
    /// The test ended without a verdict (step 2a, or step 2b with no new
    /// data to send): the conventional recovery goes on.
    Ended,
}

/// The F-RTO state of one sender.
#[derive(Clone, Copy, Debug)]
pub struct ForwardRto {
    on: bool,
    ep: Option<Episode>,
    /// New segments step 2b still allows, whatever the window rule says.
    new_data: u32,
    /// After step 3a: one past the last segment the timeout marked lost
    /// (the recovery point of step 2b), where go-back-N stops
    /// ([`Self::skip_unmarked`]).
    lost_end: Option<u64>,
}

impl ForwardRto {
    /// The state of a new sender: off unless `on` (`tcp.frto = "linux"`).
    pub fn new(on: bool) -> Self {
        ForwardRto {
            on,
            ep: None,
            new_data: 0,
            lost_end: None,
        }
    }

    /// True while a timeout's test runs.
    #[inline]
    pub fn armed(&self) -> bool {
        self.ep.is_some()
    }

    /// Stops any test (a burst signal's FTO response, or a timeout F-RTO
    /// does not cover).
    pub fn disarm(&mut self) {
        self.ep = None;
        self.new_data = 0;
        self.lost_end = None;
    }

    /// The retransmission timer fired and the standard response ran
    /// (RFC 5682 §3.1 step 1; Linux `tcp_enter_loss`). `before` is cwnd,
    /// ssthresh and the state before it; `recurring` is true when no new
    /// data was acknowledged since the previous expiry (Linux
    /// `icsk_retransmits > 0`); `sacked` is what the scoreboard held SACKed
    /// in `[snd_una, snd_nxt)` before the response cleared it; `timing`
    /// the RTT measurement the timeout cancels.
    pub fn on_rto(
        &mut self,
        cb: &ControlBlock,
        before: (f64, f64, CaState),
        recurring: bool,
        sacked: u64,
        timing: Option<(u64, SimTime)>,
    ) {
        self.new_data = 0;
        // Linux `tcp_enter_loss` marks every segment sent so far lost.
        self.lost_end = None;
        if !self.on {
            return;
        }
        let (cwnd, ssthresh, state) = before;
        match (&mut self.ep, recurring) {
            // RFC 5682 §3.2 (Linux `icsk_retransmits`): a recurring timeout
            // of the same SND.UNA tests again, from step 2, with the
            // prior window of the first.
            (Some(ep), true) => {
                ep.step = Step::First;
                ep.high = cb.snd_nxt;
                ep.rtx_end = ep.rtx_end.max(cb.snd_una + 1);
                ep.delivered = ep.delivered.max(sacked);
            }
            // A first timeout: Linux `new_recovery` (state below Recovery).
            (_, false) if state == CaState::Open => {
                self.ep = Some(Episode {
                    prior_cwnd: cwnd,
                    prior_ssthresh: undo::current_ssthresh(cwnd, ssthresh, state),
                    high: cb.snd_nxt,
                    rtx_end: cb.snd_una + 1,
                    delivered: sacked,
                    step: Step::First,
                    timing,
                });
            }
            _ => self.ep = None,
        }
    }

    /// The recovery point (`high_seq`) of the test under way.
    pub fn high(&self) -> Option<u64> {
        self.ep.map(|e| e.high)
    }

    /// Segment `seq` was retransmitted.
    #[inline]
    pub fn on_retransmit(&mut self, seq: u64) {
        if let Some(ep) = self.ep.as_mut() {
            ep.rtx_end = ep.rtx_end.max(seq + 1);
        }
    }

    /// An ACK arrived while armed (Linux `tcp_process_loss` with
    /// `tp->frto`). `cb.snd_una` is already advanced; `advanced` says
    /// whether it moved; `sacked_below_high` is what the scoreboard now
    /// holds SACKed in `[snd_una, high)` (0 without SACK).
    pub fn on_ack(
        &mut self,
        cb: &ControlBlock,
        advanced: bool,
        sacked_below_high: u64,
    ) -> FrtoVerdict {
        let Some(ep) = self.ep.as_mut() else {
            return FrtoVerdict::Nothing;
        };
        if cb.state != CaState::Loss {
            self.ep = None;
            return FrtoVerdict::Nothing;
        }
        // Step 3b (and Linux's step-2 check): never-retransmitted data sent
        // before the timeout newly (S)ACKed (FLAG_ORIG_SACK_ACKED).
        let delivered = cb.snd_una.min(ep.high).saturating_sub(ep.rtx_end) + sacked_below_high;
        if delivered > ep.delivered {
            return FrtoVerdict::Spurious;
        }
        match ep.step {
            Step::First if advanced => {
                if cb.snd_una >= ep.high {
                    // Step 2a: everything up to the recovery point
                    // acknowledged, nothing proved.
                    self.disarm();
                    return FrtoVerdict::Ended;
                }
                // Step 2b: new data if there is some and the receiver's
                // window takes it (Linux `tcp_write_queue_empty`,
                // `tcp_wnd_end`), else the conventional recovery.
                ep.high = cb.snd_nxt;
                if cb.has_unsent() && cb.snd_nxt < cb.snd_una + cb.window_cap() {
                    ep.step = Step::Second;
                    FrtoVerdict::SendNew
                } else {
                    self.disarm();
                    FrtoVerdict::Ended
                }
            }
            // Step 3a: a duplicate ACK after the new data (Linux: "loss was
            // real" on `FLAG_DATA_SACKED || num_dupack`).
            Step::Second if !advanced => {
                let end = ep.high;
                self.disarm();
                self.lost_end = Some(end);
                FrtoVerdict::Real
            }
            // Step 2: duplicate ACKs only update the scoreboard (§3.1). Step
            // 3: an ACK that advances over retransmitted data only decides
            // nothing (Linux waits for `FLAG_DATA_SACKED` or a duplicate).
            Step::First | Step::Second => FrtoVerdict::Nothing,
        }
    }

    /// Go-back-N after step 3a retransmits only what the timeout marked
    /// lost: Linux's `tcp_enter_loss` marks the segments sent before it
    /// (`tcp_mark_skb_lost` over the retransmit queue), step 2b's new
    /// segments went out after it unmarked, and `tcp_xmit_retransmit_queue`
    /// resends lost-marked segments only before new data. So once
    /// `tx_next` reaches step 2b's recovery point it moves on to SND.NXT.
    /// (RFC 5682 §3.1 step 3a's "retransmitting unacknowledged segments"
    /// would resend them too; a later timeout marks them, and this bound
    /// ends there, or when the Loss state ends.)
    #[inline]
    pub fn skip_unmarked(&mut self, cb: &mut ControlBlock) {
        if let Some(end) = self.lost_end {
            if cb.state != CaState::Loss {
                self.lost_end = None;
            } else if cb.tx_next >= end && cb.tx_next < cb.snd_nxt {
                cb.tx_next = cb.snd_nxt;
            }
        }
    }

    /// After [`FrtoVerdict::SendNew`] and the ACK's window growth: the new
    /// segments step 2b sends, whatever go-back-N's window says (Linux
    /// sends `cwnd - in_flight` new segments, in_flight being 0 once the
    /// retransmission is acknowledged: RFC 5682's "up to two" after slow
    /// start opened cwnd to 2).
    pub fn allow_new_data(&mut self, cb: &ControlBlock) {
        self.new_data = (cb.cwnd.floor() as u32).max(1);
    }

    /// Takes one new segment step 2b allows, if any and if `cb` has one
    /// inside the receiver's window.
    #[inline]
    pub fn take_new_data(&mut self, cb: &ControlBlock) -> Option<u64> {
        if self.new_data == 0 {
            return None;
        }
        if !cb.has_unsent() || cb.snd_nxt >= cb.snd_una + cb.window_cap() {
            self.new_data = 0;
            return None;
        }
        self.new_data -= 1;
        Some(cb.snd_nxt)
    }

    /// The timeout was spurious: Linux `tcp_try_undo_loss(sk, true)` ->
    /// `tcp_undo_cwnd_reduction(sk, true)`: cwnd = max(cwnd, prior_cwnd),
    /// ssthresh = max(ssthresh, prior_ssthresh), the segments the timeout
    /// marked lost unmarked (no more go-back-N: `tx_next = snd_nxt`), the
    /// Open state (`tcp_set_ca_state(sk, TCP_CA_Open)`), the recovery point
    /// withdrawn so that a later loss is fast-retransmitted at once (Linux
    /// in Open starts recovery on its own rules; `recover = SND.UNA`). The
    /// window-growth plug-in keeps the state the loss left it in (CUBIC's
    /// `undo_cwnd` is `tcp_reno_undo_cwnd` too). Returns the RTT
    /// measurement the timeout cancelled when its segment was never
    /// retransmitted.
    pub fn undo(&mut self, cb: &mut ControlBlock) -> Option<(u64, SimTime)> {
        let ep = self.ep.take()?;
        self.new_data = 0;
        undo::undo_cwnd_reduction(cb, ep.prior_cwnd, ep.prior_ssthresh);
        cb.state = CaState::Open;
        cb.tx_next = cb.snd_nxt;
        cb.recover = cb.snd_una;
        cb.dupacks = 0;
        // Linux `icsk_retransmits = 0`.
        cb.consecutive_timeouts = 0;
        ep.timing.filter(|&(seq, _)| seq >= ep.rtx_end)
    }
}

#[cfg(test)]
#[path = "frto_tests.rs"]
mod tests;
