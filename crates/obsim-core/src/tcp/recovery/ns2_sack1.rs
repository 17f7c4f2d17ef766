//! ns-2.35's `Agent/TCP/Sack1` loss recovery (tcp/tcp-sack1.cc with the
//! `ScoreBoardRQ` scoreboard of tcp/scoreboard-rq.cc over the reassembly
//! queue of tcp/rq.cc), as ns-2.35 builds it: not RFC 6675.
//!
//! What sets it apart from [`super::Sack`] (RFC 6675):
//! - a duplicate ACK counts towards the fast-retransmit threshold only when
//!   its SACK blocks report data not reported before (`scb_->CheckUpdate()`
//!   in `Sack1TcpAgent::recv`), and not at all between a timeout and the next
//!   new ACK (`timeout_`);
//! - during fast recovery (`fastrecov_`) every hole below the highest SACKed
//!   segment is retransmitted once, in order, with no `IsLost` test
//!   (`ScoreBoardRQ::GetNextRetran` from `h_seqno_`, `MarkRetran`); a lost
//!   retransmission is never sent again before the timeout;
//! - `pipe_` is a counter, not a scoreboard sum: set to `maxseq_ -
//!   highest_ack_ - numdupacks_` at the fast retransmit (`dupack_action`),
//!   decremented on every ACK in recovery and once more on a partial ACK,
//!   incremented on every segment `send_much` sends (not the fast
//!   retransmission itself); sending stops when `pipe_ >= int(cwnd_)`;
//! - cwnd does not grow during recovery, nor on the ACK that ends it
//!   (`newack`, not `recv_newack_helper`);
//! - no rescue retransmission; after a timeout the scoreboard is emptied and
//!   stays empty until the next new ACK, so go-back-N resends SACKed data
//!   too (`Sack1TcpAgent::timeout`, `ClearScoreBoard`).
//!
//! The variable names in the comments are ns-2's; the line references are to
//! ns-2.35's tcp/tcp-sack1.cc. ns-2 numbers ACKs by the last in-order segment
//! (`highest_ack_`), obsim by the next expected one (`snd_una =
//! highest_ack_ + 1`); `maxseq_ + 1 = snd_nxt`; `t_seqno_ = tx_next`.
//! Defaults assumed (ns-default.tcl, ns-2.35): `partial_ack_ 0`,
//! `oldCode_ 0`, `LimTransmitFix_ 0`, `bugFix_ 1`, `bugfix_ss_ 1`, `ecn_ 0`,
//! `maxburst_ 0`, `aggressive_maxburst_ 1`, `sfrto_enabled_ 0`,
//! `overhead_ 0`, `QOption_ 0`; `singledup_` is `tcp.limited_transmit`.

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::TcpConfig;
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::{
    algorithm, new_ack_outside_recovery, Actions, Algorithm, LossRecovery, Scoreboard,
};
use crate::tcp::segment::Ack;

/// What ns-2 lets the sender transmit in answer to the current event: each
/// path of `Sack1TcpAgent::recv` and `timeout` ends in `send_much`,
/// `send_one` or nothing, and obsim drains [`LossRecovery::next_segment`]
/// until it returns `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SendMode {
    /// `send_much(FALSE, 0, maxburst_)` (with `maxburst_ 0`: no limit).
    Much,
    /// `send_one()`: at most one new segment (limited transmit, `singledup_`).
    One,
    /// Nothing more on this event.
    Nothing,
}

/// ns-2.35 `Sack1TcpAgent` loss recovery.
#[derive(Clone, Debug)]
pub struct Ns2Sack1 {
    /// The SACKed segments above the cumulative ACK (`scb_`, ns-2's
    /// reassembly-queue scoreboard); only its `SACKed` marks are used.
    sb: Scoreboard,
    /// `h_seqno_` of `ScoreBoardRQ`: one past the highest segment
    /// retransmitted from the scoreboard in this episode (`None` = -1, after
    /// `ClearScoreBoard`).
    h_seqno: Option<u64>,
    /// `fastrecov_`: in SACK fast recovery.
    fastrecov: bool,
    /// `timeout_`: a timeout happened and no new ACK came since; duplicate
    /// ACKs are then neither counted nor read for SACK information.
    timeout: bool,
    /// `pipe_`: ns-2's estimate of the segments in the network during fast
    /// recovery (an int that may go negative).
    pipe: i64,
    /// The fast retransmission of `dupack_action` (`output(last_ack_ + 1,
    /// TCP_REASON_DUPACK)`): sent outside `send_much`, so not counted in
    /// `pipe_`.
    fast_rtx: Option<u64>,
    /// What the current event may still send.
    mode: SendMode,
    /// `singledup_`: new data on the first `numdupacks_ - 1` duplicate ACKs.
    singledup: bool,
    /// `snd_una` at which ns-2's `bugfix_ss_ && highest_ack_ == 0` lets
    /// `dupack_action` act whatever `recover_`: with a SYN (`tcp.syn`), 0
    /// (only the SYN acknowledged) when `tcp.bugfix_ss`, else never; without
    /// one, 1 (data segment 0 acknowledged), as every `ns2*` profile has
    /// applied it since issue 14 #4.
    first_ack: Option<u64>,
    /// Copy of the ACK being processed (`on_ack_info` runs before the
    /// duplicate/new-ACK hooks; ns-2 reads the SACK blocks inside them).
    ack: Ack,
}

impl Ns2Sack1 {
    /// Sack1 recovery sized to the configured maximum window.
    pub fn new(cfg: &TcpConfig) -> Self {
        Ns2Sack1::around(cfg, Scoreboard::empty())
    }

    /// The state [`Ns2Sack1::new`] builds, around the bitsets of `sb`
    /// (renewed).
    fn around(cfg: &TcpConfig, mut sb: Scoreboard) -> Self {
        sb.renew_for_config(cfg);
        Ns2Sack1 {
            sb,
            h_seqno: None,
            fastrecov: false,
            timeout: false,
            pipe: -1, // Sack1TcpAgent(): pipe_(-1)
            fast_rtx: None,
            mode: SendMode::Much,
            singledup: cfg.limited_transmit,
            first_ack: if cfg.syn {
                cfg.bugfix_ss.then_some(0)
            } else {
                Some(1)
            },
            ack: Ack::default(),
        }
    }

    /// `pipe_` (for tests and traces).
    pub fn pipe(&self) -> i64 {
        self.pipe
    }

    /// True during SACK fast recovery (`fastrecov_`).
    pub fn in_fast_recovery(&self) -> bool {
        self.fastrecov
    }

    /// `ScoreBoardRQ::ClearScoreBoard`: `rq_.clear(); h_seqno_ = -1`.
    fn clear_scoreboard(&mut self, cb: &ControlBlock) {
        self.sb.advance(cb.snd_una);
        self.sb.clear();
        self.h_seqno = None;
    }

    /// `ScoreBoardRQ::UpdateScoreBoard(highest_ack_, tcph)`: forget what the
    /// cumulative ACK covers (`cleartonxt`), add the ACK's SACK blocks.
    /// Returns `CheckUpdate()`: whether the SACKed total changed. (ns-2 also
    /// reports a change when trimming a non-empty queue to a new
    /// `sack_min`; that happens only on ACKs that advance `highest_ack_`,
    /// where `recv` does not read `CheckUpdate`.)
    fn update_scoreboard(&mut self, cb: &ControlBlock) -> bool {
        self.sb.advance(cb.snd_una);
        self.sb.update(&self.ack.sack_blocks(), cb.snd_nxt) > 0
    }

    /// `ScoreBoardRQ::GetNextRetran`: from `h_seqno_` (raised to `sack_min =
    /// highest_ack_ + 1 = snd_una`), the first segment not SACKed
    /// (`rq_.nexthole`), provided a SACKed block lies above it (`fcnt > 0`)
    /// and it is not segment 0 (`seq > 0`). Raises `h_seqno_` to it.
    fn get_next_retran(&mut self, cb: &ControlBlock) -> Option<u64> {
        let h = self.h_seqno.map_or(cb.snd_una, |h| h.max(cb.snd_una));
        self.h_seqno = Some(h);
        let top = self.sb.high_sacked_end();
        let seq = (h..top).find(|&s| !self.sb.is_sacked(s))?;
        if seq == 0 {
            return None;
        }
        self.h_seqno = Some(h.max(seq));
        Some(seq)
    }

    /// `ScoreBoardRQ::MarkRetran(seq)`: `h_seqno_ = seq + 1` if `seq >=
    /// h_seqno_`.
    fn mark_retran(&mut self, seq: u64) {
        if self.h_seqno.is_none_or(|h| seq >= h) {
            self.h_seqno = Some(seq + 1);
        }
    }

    /// `send_much` in fast recovery (tcp-sack1.cc `Sack1TcpAgent::send_much`,
    /// the `fastrecov_` branch): while `pipe_ < int(cwnd_)`, the next hole
    /// from the scoreboard if it lies within `highest_ack_ + wnd_`, else new
    /// data within `highest_ack_ + wnd_`; `pipe_++` per segment.
    fn send_much_in_recovery(&mut self, cb: &mut ControlBlock) -> Option<u64> {
        #[allow(clippy::cast_possible_truncation)] // cwnd is at most the window cap
        if self.pipe >= cb.cwnd.floor() as i64 {
            return None;
        }
        // `wnd_` is the advertised/sender window (`window_`), not cwnd.
        let wnd_end = cb.snd_una + cb.window_cap();
        let seq = match self.get_next_retran(cb) {
            // `recover_ > 0 && xmit_seqno <= highest_ack_ + int(wnd_)`.
            Some(s) if s < wnd_end => {
                self.mark_retran(s);
                s
            }
            // `xmit_seqno == -1`: new data if `t_seqno_ <= highest_ack_ +
            // int(wnd_)` and `t_seqno_ < curseq_`.
            None if cb.tx_next < wnd_end && cb.tx_next < cb.end_seq => cb.tx_next,
            // A hole beyond the window, or no new data allowed: `found = 0`,
            // the loop ends.
            Some(_) | None => return None,
        };
        // `if (t_seqno_ <= xmit_seqno) t_seqno_ = xmit_seqno + 1` is the
        // sender's own bookkeeping (`emit`); `pipe_++` is here.
        self.pipe += 1;
        Some(seq)
    }

    /// `dupack_action()` → `sack_action` (tcp-sack1.cc): the fast
    /// retransmit.
    fn sack_action(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        // `recover_ = maxseq_`.
        cb.recover = cb.snd_nxt;
        // `oldCode_ 0`, `LimTransmitFix_ 0`: "numdupacks(cwnd_) packets have
        // left the pipe": pipe_ = maxseq_ - highest_ack_ - numdupacks_.
        self.pipe = i64::try_from(cb.flight_size()).unwrap_or(i64::MAX) - i64::from(cb.dupthresh);
        // `fastrecov_ = TRUE; scb_->MarkRetran(highest_ack_ + 1)`.
        self.fastrecov = true;
        self.mark_retran(cb.snd_una);
        // `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF)`. The halving rule
        // itself (window basis, `precision_reduce_`) is the shared one.
        // cwnd_ keeps ns-2's fractional half (`halfwin`, precisionReduce_).
        let ssthresh = cc.ssthresh(cb, LossSignal::DupAcks);
        cb.cwnd = cc.halved_cwnd(cb, ssthresh);
        cb.ssthresh = ssthresh;
        cc.reset();
        cb.state = CaState::Recovery;
        // `output(last_ack_ + 1, TCP_REASON_DUPACK)`, outside send_much.
        self.fast_rtx = Some(cb.snd_una);
        // `reset_rtx_timer(1, 0)`: restart the timer (no backoff) and stop
        // the RTT measurement (the sender does on `entered_recovery`).
        out.entered_recovery = true;
        out.restart_timer = true;
        // recv: `if (dupacks_ == 0) send_much(...)`: dupacks_ is numdupacks_,
        // so nothing else goes on this ACK.
        self.mode = SendMode::Nothing;
    }
}

impl LossRecovery for Ns2Sack1 {
    fn name(&self) -> &'static str {
        "ns2-sack1"
    }

    /// For `ssthresh_basis = "flight_size"` (ns-2 itself halves cwnd).
    fn sacked_out(&self, cb: &ControlBlock) -> u64 {
        self.sb.sacked_in(cb.snd_una, cb.snd_nxt)
    }

    fn on_ack_info(&mut self, _cb: &ControlBlock, ack: &Ack) {
        self.ack = *ack;
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        // The sender counted this ACK in cb.dupacks; ns-2 counts it itself
        // below (`++dupacks_` only on new SACK information), so undo.
        cb.dupacks -= 1;
        if self.fastrecov {
            // recv, fast-recovery branch: `--pipe_` on every ACK; a
            // duplicate (`timeout_ == FALSE`) updates the scoreboard and
            // `dupacks_++` when it reports new data; then send_much.
            self.pipe -= 1;
            if !self.timeout && self.update_scoreboard(cb) && cb.dupacks > 0 {
                cb.dupacks += 1;
            }
            self.mode = SendMode::Much;
            return;
        }
        // recv, normal branch, `seqno == last_ack_`.
        if self.timeout {
            // `timeout_ == TRUE`: ignored, dupacks_ stays 0, so
            // `if (dupacks_ == 0) send_much(...)` (go-back-N continues).
            self.mode = if cb.dupacks == 0 {
                SendMode::Much
            } else {
                SendMode::Nothing
            };
            return;
        }
        // `scb_->UpdateScoreBoard(highest_ack_, tcph); if
        // (scb_->CheckUpdate()) { if (++dupacks_ == numdupacks(cwnd_))
        // dupack_action(); else if (dupacks_ < numdupacks && singledup_)
        // send_one(); }`
        self.mode = if cb.dupacks == 0 {
            SendMode::Much
        } else {
            SendMode::Nothing
        };
        if !self.update_scoreboard(cb) {
            return;
        }
        cb.dupacks += 1;
        self.mode = match cb.dupacks.cmp(&cb.dupthresh) {
            // `dupack_action`: `recovered = (highest_ack_ > recover_)`, or
            // `bugfix_ss_ && highest_ack_ == 0` ("allow Fast Retransmit when
            // the first data packet is dropped"); otherwise (`bug_fix_`)
            // return without acting.
            std::cmp::Ordering::Equal
                if cb.snd_una > cb.recover || self.first_ack == Some(cb.snd_una) =>
            {
                self.sack_action(cb, cc, out);
                return;
            }
            // `else if (dupacks_ < numdupacks(cwnd_) && singledup_) send_one()`.
            std::cmp::Ordering::Less if self.singledup => SendMode::One,
            _ => SendMode::Nothing,
        };
    }

    fn on_new_ack(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        acked: u64,
        out: &mut Actions,
    ) {
        self.mode = SendMode::Much;
        if !self.fastrecov {
            // recv, normal branch, `seqno > last_ack_`: `firstpartial_ = 0;
            // recv_newack_helper(pkt)` (newack + opencwnd); `timeout_ =
            // FALSE; scb_->ClearScoreBoard()`.
            new_ack_outside_recovery(cb, cc, acked, out);
            self.timeout = false;
            self.clear_scoreboard(cb);
            return;
        }
        // Fast-recovery branch: `--pipe_` on every ACK.
        self.pipe -= 1;
        if cb.snd_una >= cb.recover {
            // `seqno >= recover_`: "ACK indicates fast recovery is over":
            // `recover_ = 0; fastrecov_ = FALSE; newack(pkt)` (timer, RTT,
            // dupacks_ = 0; no opencwnd); `timeout_ = FALSE;
            // ClearScoreBoard()`.
            cb.recover = 0;
            cb.state = CaState::Open;
            cb.dupacks = 0;
            self.fastrecov = false;
            self.timeout = false;
            self.fast_rtx = None;
            self.clear_scoreboard(cb);
            out.restart_timer = true;
            return;
        }
        // `seqno > highest_ack_`, a partial ACK: `highest_ack_` advances (not
        // `last_ack_`); `UpdateScoreBoard`. With `partial_ack_ 0`: `--pipe_`
        // again ("so that we never do worse than slow-start"),
        // `newtimer(pkt)` (restart), `t_backoff_ = 1`.
        self.update_scoreboard(cb);
        self.pipe -= 1;
        out.restart_timer = true;
        out.reset_backoff = true;
    }

    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        // Called by a timeout plug-in that answers a timeout as a
        // triple-duplicate loss (Burst TCP): ns-2 Sack1 has no such path;
        // this runs `sack_action` as if the threshold had been reached, and
        // lets the retransmission go out.
        self.sack_action(cb, cc, out);
        self.mode = SendMode::Much;
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock) {
        // `Sack1TcpAgent::timeout`: `dupacks_ = 0; fastrecov_ = FALSE;
        // timeout_ = TRUE; recover_ = maxseq_` (the timeout plug-in already
        // set recover = snd_nxt and rewound tx_next = snd_una, as
        // `TcpAgent::timeout` → `reset_rtx_timer(0, 1)` does);
        // `ClearScoreBoard()`; then TcpAgent::timeout ends in send_much.
        cb.dupacks = 0;
        self.fastrecov = false;
        self.timeout = true;
        self.fast_rtx = None;
        self.clear_scoreboard(cb);
        self.mode = SendMode::Much;
    }

    fn next_segment(&mut self, cb: &mut ControlBlock) -> Option<u64> {
        if let Some(s) = self.fast_rtx.take() {
            if s >= cb.snd_una && s < cb.snd_nxt {
                return Some(s);
            }
        }
        match self.mode {
            SendMode::Nothing => None,
            SendMode::One => {
                // `send_one()`: `t_seqno_ <= highest_ack_ + wnd_ &&
                // t_seqno_ < curseq_ && t_seqno_ <= highest_ack_ + cwnd_ +
                // dupacks_`; one segment.
                self.mode = SendMode::Nothing;
                let room = cb.cwnd + f64::from(cb.dupacks);
                let ok = cb.tx_next < cb.end_seq
                    && cb.tx_next < cb.snd_una + cb.window_cap()
                    && ((cb.tx_next - cb.snd_una + 1) as f64) <= room;
                ok.then_some(cb.tx_next)
            }
            SendMode::Much if self.fastrecov => self.send_much_in_recovery(cb),
            // `send_much` outside recovery: `t_seqno_ <= last_ack_ + win`
            // with `win = window()` = min(cwnd_, wnd_); the scoreboard is
            // empty here (cleared on every new ACK and at the timeout, and
            // not filled while `timeout_`), so `GetNextRetran` gives -1 and
            // new data (or go-back-N data) goes.
            SendMode::Much => {
                let win = (cb.window().floor() as u64).min(cb.window_cap());
                (cb.tx_next < cb.end_seq && cb.tx_next < cb.snd_una + win).then_some(cb.tx_next)
            }
        }
    }

    fn on_transmit(&mut self, _cb: &ControlBlock, _seq: u64, _retransmit: bool) {}

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::Ns2Sack1 {
            return false;
        }
        let sb = std::mem::replace(&mut self.sb, Scoreboard::empty());
        *self = Ns2Sack1::around(cfg, sb);
        true
    }
}

#[cfg(test)]
#[path = "ns2_sack1_tests.rs"]
mod tests;
