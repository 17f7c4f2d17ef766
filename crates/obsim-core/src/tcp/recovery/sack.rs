//! SACK-based loss recovery: RFC 6675 (conservative loss recovery with the
//! RFC 2018 SACK option). Loss is inferred from the scoreboard (`IsLost`), the
//! data in flight is estimated by `pipe`, and `NextSeg` (§4) chooses what to
//! send whenever cwnd - pipe >= 1 segment. With `tcp.prr` on, cwnd in
//! recovery follows Proportional Rate Reduction (RFC 6937, `prr.rs`) over
//! this pipe instead of staying at ssthresh. With `tcp.rack` on, RACK
//! (RFC 8985 §6, `rack.rs`) decides which segments are lost instead of the
//! `DupThresh` rule, and its first detected loss starts the recovery.

use crate::tcp::cc::{LossSignal, WindowGrowth};
use crate::tcp::config::{TcpConfig, Timestamps};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::recovery::{
    algorithm, dupack_triggers, new_ack_outside_recovery, Actions, Algorithm, LossRecovery,
    PrrState, Rack, Scoreboard,
};
use crate::tcp::segment::{ts_before, ts_clock, Ack, SackBlock};
use crate::time::{SimDuration, SimTime};

/// RFC 6675 loss recovery.
#[derive(Clone, Debug)]
pub struct Sack {
    sb: Scoreboard,
    /// RFC 6675 `pipe`, recomputed on each ACK in recovery and incremented
    /// on each transmission (§5 step (C.4)).
    pipe: u64,
    /// One past `HighRxt`, the highest segment retransmitted in this
    /// episode.
    rxt_next: u64,
    /// `RescueRxt` (§4 `NextSeg` rule 4), the recovery point at the time of
    /// the rescue retransmission.
    rescue: Option<u64>,
    /// Proportional Rate Reduction (RFC 6937), when `tcp.prr` is on.
    prr: PrrState,
    /// RFC 6937 `DeliveredData` of the ACK being processed: measured by
    /// [`LossRecovery::on_ack_info`] (with PRR on), used and cleared by the
    /// `on_dup_ack` / `on_new_ack` that follows.
    delivered: u64,
    /// RACK's connection state (RFC 8985 §5.2), read when the scoreboard
    /// keeps RACK's per-segment state (`tcp.rack`).
    rack: Rack,
    /// `tcp.timestamps`: RACK skips a cumulatively acknowledged
    /// retransmission whose ACK echoes an earlier transmission, and
    /// [`LossRecovery::rtt_sent_at`] is measured.
    timestamps: bool,
    /// [`LossRecovery::rtt_sent_at`] of the last ACK.
    rtt_sent: Option<SimTime>,
}

impl Sack {
    /// A scoreboard sized to the configured maximum window.
    pub fn new(cfg: &TcpConfig) -> Self {
        Sack::around(cfg, Scoreboard::empty())
    }

    /// The state [`Sack::new`] builds, around the bitsets of `sb` (renewed).
    fn around(cfg: &TcpConfig, mut sb: Scoreboard) -> Self {
        sb.renew_for_config(cfg);
        Sack {
            sb,
            pipe: 0,
            rxt_next: 0,
            rescue: None,
            prr: PrrState::new(cfg.prr),
            delivered: 0,
            rack: Rack::new(),
            timestamps: cfg.timestamps != Timestamps::Off,
            rtt_sent: None,
        }
    }

    /// The scoreboard (for tests and traces).
    pub fn scoreboard(&self) -> &Scoreboard {
        &self.sb
    }

    /// RFC 6675 §4 `NextSeg()`.
    fn next_seg(&mut self, cb: &ControlBlock) -> Option<u64> {
        let from = self.rxt_next.max(cb.snd_una);
        if self.sb.rack() {
            // Rule 1 with RACK (RFC 8985 §6.2 step 5 marks; a lost
            // retransmission is marked again, so the scan starts at
            // HighACK + 1): the first segment marked lost, un-SACKed and not
            // retransmitted since.
            let lost = self.sb.first_rack_pending(cb.snd_una, cb.snd_nxt);
            if lost.is_some() {
                return lost;
            }
        } else if let Some(s) = self.first_lost_dupthresh(cb, from) {
            return Some(s);
        }
        self.next_seg_after_rule_1(cb, from)
    }

    /// `NextSeg()` rule 1 with `IsLost` as RFC 6675 defines it.
    fn first_lost_dupthresh(&self, cb: &ControlBlock, from: u64) -> Option<u64> {
        let lost_end = self.sb.lost_below().min(cb.snd_nxt);
        self.sb.first_unsacked(from, lost_end)
    }

    /// `NextSeg()` rules 2-4.
    fn next_seg_after_rule_1(&mut self, cb: &ControlBlock, from: u64) -> Option<u64> {
        // Rule 2: new data, if any and if the receive window allows.
        if cb.has_unsent() && cb.tx_next == cb.snd_nxt && cb.snd_nxt < cb.snd_una + cb.window_cap()
        {
            return Some(cb.snd_nxt);
        }
        // Rule 3: no new data: the first un-SACKed segment above HighRxt and
        // below the highest SACKed one, lost or not.
        let sacked_end = self.sb.high_sacked_end().min(cb.snd_nxt);
        if let Some(s) = self.sb.first_unsacked(from, sacked_end) {
            return Some(s);
        }
        // Rule 4 (rescue retransmission): once per episode, the highest
        // outstanding un-SACKed segment.
        if self.rescue.is_none_or(|r| cb.snd_una > r) && cb.snd_nxt > cb.snd_una {
            let s = cb.snd_nxt - 1;
            if !self.sb.is_sacked(s) && !self.sb.is_retransmitted(s) {
                self.rescue = Some(cb.recover);
                return Some(s);
            }
        }
        None
    }
}

impl LossRecovery for Sack {
    fn name(&self) -> &'static str {
        "sack"
    }

    fn on_ack_info(&mut self, cb: &ControlBlock, ack: &Ack) {
        if self.sb.rack() {
            return self.on_ack_info_rack(cb, ack);
        }
        if !self.prr.is_on() {
            // RFC 6675 §5 (A): update the scoreboard from the SACK blocks.
            self.sb.advance(cb.snd_una);
            self.sb.update(&ack.sack_blocks(), cb.snd_nxt);
            return;
        }
        // RFC 6937 §2: "DeliveredData = change_in(snd.una) +
        // change_in(SACKd)", SACKd counted over the scoreboard (segments
        // SACKed before and now cumulatively acknowledged cancel out).
        let una_before = self.sb.una();
        let sacked_before = self.sb.sacked_count();
        self.sb.advance(cb.snd_una);
        self.sb.update(&ack.sack_blocks(), cb.snd_nxt);
        let advanced = cb.snd_una.saturating_sub(una_before) + self.sb.sacked_count();
        self.delivered = advanced.saturating_sub(sacked_before);
    }

    fn on_dup_ack(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth, out: &mut Actions) {
        match cb.state {
            // RFC 6675 §5 (C): in recovery, recompute pipe; NextSeg runs in
            // `next_segment`.
            CaState::Recovery => {
                self.pipe = self.sb.pipe(cb.snd_nxt);
                if self.prr.is_on() {
                    self.prr.on_ack(cb, self.delivered, self.pipe);
                }
            }
            // §5 (A)-(B): DupThresh duplicates, or IsLost(HighACK + 1), with
            // no new recovery before RecoveryPoint is acknowledged (§5.1).
            CaState::Open => {
                if self.sb.rack() {
                    // RFC 8985 §6.2 step 5 instead of DupThresh: recovery
                    // starts on RACK's first detected loss (Linux
                    // `tcp_fastretrans_alert` with `tcp_rack_mark_lost`).
                    if cb.recover_passed() && self.rack.lost_pending() > 0 {
                        self.enter_recovery(cb, cc, out);
                    }
                } else {
                    let lost = cb.recover_passed() && self.sb.is_lost(cb.snd_una);
                    if dupack_triggers(cb, true) || lost {
                        self.enter_recovery(cb, cc, out);
                    }
                }
            }
            CaState::Loss => {}
        }
        self.delivered = 0;
    }

    fn on_new_ack(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        acked: u64,
        out: &mut Actions,
    ) {
        let delivered = std::mem::take(&mut self.delivered);
        if cb.state != CaState::Recovery {
            new_ack_outside_recovery(cb, cc, acked, out);
            self.rack_may_enter(cb, cc, delivered, out);
            return;
        }
        out.restart_timer = true;
        if cb.snd_una >= cb.recover {
            // §5 step (B) ends: HighACK >= RecoveryPoint terminates recovery;
            // cwnd stays at ssthresh (PRR: is set to it).
            cb.state = CaState::Open;
            cb.dupacks = 0;
            if self.prr.is_on() {
                self.prr.exit(cb);
            }
            // RACK may already know of a loss sent after the episode began.
            self.rack_may_enter(cb, cc, delivered, out);
        } else {
            self.pipe = self.sb.pipe(cb.snd_nxt);
            if self.prr.is_on() {
                self.prr.on_ack(cb, delivered, self.pipe);
            }
        }
    }

    fn enter_recovery(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        // RFC 6675 §5 (4.1) RecoveryPoint = HighData; (4.2) ssthresh =
        // cwnd = FlightSize/2 (RFC 5681 eq. 4); (4.3) retransmit the first
        // segment presumed dropped, HighACK + 1; (4.4) SetPipe.
        cb.recover = cb.snd_nxt;
        // `ssthresh_basis = "pipe"` reads SetPipe() before the retransmission.
        cb.pipe_est = Some(self.sb.pipe(cb.snd_nxt));
        cb.ssthresh = cc.ssthresh(cb, LossSignal::DupAcks);
        cb.pipe_est = None;
        cb.cwnd = cb.ssthresh;
        cc.reset();
        cb.state = CaState::Recovery;
        self.rxt_next = cb.snd_una;
        self.rescue = None;
        self.pipe = self.sb.pipe(cb.snd_nxt);
        if self.prr.is_on() {
            // RFC 6937 §3: PRR starts with the episode (after ssthresh =
            // CongCtrlAlg()); the ACK that started it is its first ACK
            // (none when a timeout plug-in starts it: DeliveredData 0).
            self.prr.enter(cb);
            let delivered = std::mem::take(&mut self.delivered);
            self.prr.on_ack(cb, delivered, self.pipe);
        }
        // (4.3) with RACK: the first segment RACK marked lost (HighACK + 1
        // unless a later one was sent first).
        let first = if self.sb.rack() {
            (cb.snd_una..cb.snd_nxt).find(|&s| self.sb.is_lost(s))
        } else {
            None
        };
        out.retransmit = Some(first.unwrap_or(cb.snd_una));
        out.entered_recovery = true;
        out.restart_timer = true;
    }

    fn sacked_out(&self, cb: &ControlBlock) -> u64 {
        self.sb.sacked_in(cb.snd_una, cb.snd_nxt)
    }

    fn prr(&self) -> Option<&PrrState> {
        self.prr.is_on().then_some(&self.prr)
    }

    fn pipe_estimate(&self, cb: &ControlBlock) -> Option<u64> {
        Some(self.sb.pipe(cb.snd_nxt))
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock) {
        // RFC 2018 §8: forget SACK information after a timeout; RFC 6675
        // §5.1: RecoveryPoint (set by the timeout response) must be reached
        // before a new recovery starts.
        self.sb.advance(cb.snd_una);
        self.sb.clear();
        self.rescue = None;
        self.rxt_next = cb.snd_una;
        self.rack.disarm();
    }

    fn next_segment(&mut self, cb: &mut ControlBlock) -> Option<u64> {
        match cb.state {
            // §5 (C): send while cwnd - pipe >= 1 segment.
            CaState::Recovery => {
                if cb.cwnd - self.pipe as f64 >= 1.0 {
                    self.next_seg(cb)
                } else {
                    None
                }
            }
            CaState::Loss => {
                // Go-back-N after a timeout, skipping what the receiver has
                // SACKed since (RFC 6675 §5.1 allows using new SACK data).
                while cb.tx_next < cb.snd_nxt && self.sb.is_sacked(cb.tx_next) {
                    cb.tx_next += 1;
                }
                cb.window_allows_tx_next().then_some(cb.tx_next)
            }
            CaState::Open => cb.window_allows_tx_next().then_some(cb.tx_next),
        }
    }

    fn on_transmit(&mut self, cb: &ControlBlock, seq: u64, retransmit: bool) {
        // RFC 8985 §6.1: each transmission's time.
        self.sb.note_xmit(seq, self.rack.now());
        if retransmit {
            self.sb.mark_retransmitted(seq);
            // (C.2) HighRxt.
            if cb.state == CaState::Recovery {
                self.rxt_next = self.rxt_next.max(seq + 1);
            }
        }
        if cb.state == CaState::Recovery {
            // (C.4) pipe += segment sent.
            self.pipe += 1;
            if self.prr.is_on() {
                self.prr.on_transmit();
            }
        }
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if algorithm(cfg) != Algorithm::Sack {
            return false;
        }
        let sb = std::mem::replace(&mut self.sb, Scoreboard::empty());
        *self = Sack::around(cfg, sb);
        true
    }

    fn set_clock(&mut self, now: SimTime, srtt: Option<SimDuration>) {
        self.rack.set_clock(now, srtt);
    }

    fn reorder_deadline(&self) -> Option<SimTime> {
        self.rack.deadline()
    }

    fn on_reorder_timer(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        out: &mut Actions,
    ) {
        if !self.sb.rack() || cb.state == CaState::Loss {
            self.rack.disarm();
            return;
        }
        // RFC 8985 §6.2 step 5: the timer calls
        // RACK_detect_loss_and_arm_timer() again.
        let in_recovery = cb.state == CaState::Recovery;
        self.rack
            .detect_loss(&mut self.sb, cb.snd_nxt, in_recovery, cb.dupthresh);
        if in_recovery {
            // Segments newly lost leave the pipe: NextSeg may send them.
            self.pipe = self.sb.pipe(cb.snd_nxt);
        } else {
            self.rack_may_enter(cb, cc, 0, out);
        }
    }

    fn rack(&self) -> Option<&Rack> {
        self.sb.rack().then_some(&self.rack)
    }

    fn rtt_sent_at(&self) -> Option<SimTime> {
        self.rtt_sent
    }
}

impl Sack {
    /// RFC 6675 §5 (A) with RACK (RFC 8985 §6.2): each segment this ACK
    /// delivers (cumulatively or by a SACK block) updates RACK before the
    /// scoreboard records it; then RACK detects losses over what remains
    /// outstanding (not in the Loss state: go-back-N resends everything).
    fn on_ack_info_rack(&mut self, cb: &ControlBlock, ack: &Ack) {
        let blocks = ack.sack_blocks();
        let una_before = self.sb.una();
        let sacked_before = self.sb.sacked_count();
        self.rack.begin_ack();
        // Linux `tcp_clean_rtx_queue`: `first_ackt` and
        // `FLAG_RETRANS_DATA_ACKED` (timestamps only).
        let mut first_ackt = None;
        let mut rexmit_acked = false;
        for s in una_before..cb.snd_una {
            let rexmit = self.timestamps && self.sb.is_retransmitted(s);
            rexmit_acked |= rexmit;
            if !self.sb.is_sacked(s) {
                if self.timestamps && !rexmit && first_ackt.is_none() {
                    first_ackt = Some(self.sb.xmit_ts(s));
                }
                // Linux `tcp_skb_spurious_retrans`: a retransmitted segment
                // whose ACK echoes a TSval older than its last transmission
                // was delivered by an earlier one; RACK does not advance
                // on it (`tcp_clean_rtx_queue`).
                let spurious =
                    rexmit && ack.tsecr != 0 && ts_before(ack.tsecr, ts_clock(self.sb.xmit_ts(s)));
                if !spurious {
                    self.rack.on_delivered(&self.sb, s);
                }
            }
        }
        // `tcp_sacktag_one`'s `first_sackt`: the lowest segment newly
        // SACKed and never retransmitted.
        let mut first_sackt: Option<(u64, SimTime)> = None;
        for &SackBlock { start, end } in blocks.iter() {
            // The block's segments not SACKed before, a word of the
            // scoreboard at a time (a block may span the window).
            let (mut s, end) = (start.max(cb.snd_una), end.min(cb.snd_nxt));
            while let Some(u) = self.sb.first_unsacked(s, end) {
                if self.timestamps
                    && !self.sb.is_retransmitted(u)
                    && first_sackt.is_none_or(|(q, _)| u < q)
                {
                    first_sackt = Some((u, self.sb.xmit_ts(u)));
                }
                self.rack.on_delivered(&self.sb, u);
                s = u + 1;
            }
        }
        self.rtt_sent =
            if rexmit_acked { None } else { first_ackt }.or(first_sackt.map(|(_, t)| t));
        self.sb.advance(cb.snd_una);
        self.sb.update(&blocks, cb.snd_nxt);
        if self.prr.is_on() {
            // RFC 6937 §2 DeliveredData, as in `on_ack_info`.
            let advanced = cb.snd_una.saturating_sub(una_before) + self.sb.sacked_count();
            self.delivered = advanced.saturating_sub(sacked_before);
        }
        if cb.state == CaState::Loss {
            self.rack.disarm();
        } else {
            let in_recovery = cb.state == CaState::Recovery;
            self.rack
                .detect_loss(&mut self.sb, cb.snd_nxt, in_recovery, cb.dupthresh);
        }
    }

    /// In the Open state, RACK's first detected loss starts recovery (RFC
    /// 8985 §6.2 step 5 marks; RFC 6675 §5.1: not before RecoveryPoint is
    /// reached). `delivered` is the ACK's RFC 6937 `DeliveredData` (0 on the
    /// reordering timer).
    fn rack_may_enter(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        delivered: u64,
        out: &mut Actions,
    ) {
        if self.sb.rack()
            && cb.state == CaState::Open
            && cb.recover_passed()
            && self.rack.lost_pending() > 0
        {
            self.delivered = delivered;
            self.enter_recovery(cb, cc, out);
        }
    }
}
