//! Undoing a window reduction that proves unnecessary, as Linux 6.18 does
//! it (net/ipv4/tcp_input.c, "Undo procedures"): the evidence is a
//! timestamp echo older than the episode's first retransmission (RFC 3522
//! Eifel detection, `tcp_packet_delayed`; `tcp.timestamps`) or D-SACKs for
//! every retransmission of the episode (RFC 3708, `undo_retrans`,
//! `tcp_try_undo_dsack`; `tcp.dsack`). The restore itself,
//! [`undo_cwnd_reduction`], is Linux's `tcp_undo_cwnd_reduction`, which
//! F-RTO's undo (`timeout/frto.rs`) also runs.
//!
//! The sender calls [`Undo::on_episode`] when a fast recovery or a
//! timeout starts an episode (Linux `tcp_init_undo` in `tcp_enter_recovery`
//! and `tcp_enter_loss`), [`Undo::on_retransmit`] for each retransmission
//! (`tcp_retransmit_skb`: `retrans_stamp`, `undo_retrans`),
//! [`Undo::on_ack`] with each ACK's D-SACK block (`tcp_check_dsack`), and
//! asks [`Undo::may_undo`] / [`Undo::dsack_undo`] where Linux's
//! `tcp_fastretrans_alert` does.

use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::segment::{ts_before, ts_clock, Ack};
use crate::time::SimTime;

/// Linux `tcp_current_ssthresh` outside a cwnd reduction (the Open state):
/// max(ssthresh, 3/4 cwnd) on the whole segments of cwnd; in a reduction,
/// ssthresh. The `prior_ssthresh` an undo restores.
pub fn current_ssthresh(cwnd: f64, ssthresh: f64, state: CaState) -> f64 {
    if state != CaState::Open {
        return ssthresh;
    }
    let c = cwnd.floor() as u64;
    ssthresh.max(((c >> 1) + (c >> 2)) as f64)
}

/// Linux `tcp_undo_cwnd_reduction`'s window: cwnd = max(cwnd, prior_cwnd)
/// (`tcp_reno_undo_cwnd`, which CUBIC's `undo_cwnd` also is), ssthresh =
/// max(ssthresh, prior_ssthresh). The window-growth plug-in keeps the
/// state the loss left it in.
pub fn undo_cwnd_reduction(cb: &mut ControlBlock, prior_cwnd: f64, prior_ssthresh: f64) {
    cb.cwnd = cb.cwnd.max(prior_cwnd);
    cb.ssthresh = cb.ssthresh.max(prior_ssthresh);
}

/// What an undo restores and the evidence collected for it, over one
/// recovery episode (Linux `tcp_sock`'s undo fields).
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// `tcp.timestamps`: TSecr is evidence (`tcp_packet_delayed`).
    timestamps: bool,
    /// `tcp.dsack`: D-SACKs are counted (`tcp_check_dsack`).
    dsack: bool,
    /// `undo_marker`: SND.UNA when the episode began, `None` when there is
    /// nothing to undo (before any episode, and after an undo).
    marker: Option<u64>,
    /// `undo_retrans`: retransmissions of the episode not yet D-SACKed;
    /// -1 before the first (`tcp_init_undo`: `retrans_out ? : -1`).
    retrans: i64,
    /// `retrans_stamp`: the TSval of the episode's first retransmission.
    retrans_stamp: Option<u32>,
    /// `prior_cwnd`.
    prior_cwnd: f64,
    /// `prior_ssthresh`.
    prior_ssthresh: f64,
    /// `total_retrans` and `dsack_dups`: D-SACKs for more segments than
    /// were ever retransmitted are ignored (`tcp_dsack_seen`).
    total_retrans: u64,
    dsack_dups: u64,
}

impl Undo {
    /// The state of a new sender.
    pub fn new(timestamps: bool, dsack: bool) -> Self {
        Undo {
            timestamps,
            dsack,
            marker: None,
            retrans: -1,
            retrans_stamp: None,
            prior_cwnd: 0.0,
            prior_ssthresh: 0.0,
            total_retrans: 0,
            dsack_dups: 0,
        }
    }

    /// True when either kind of evidence is collected.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.timestamps || self.dsack
    }

    /// An episode starts: a fast recovery (Linux `tcp_enter_recovery`) or
    /// a timeout (`tcp_enter_loss`), with `before` = (cwnd, ssthresh,
    /// state) before its reduction. Linux keeps the undo state of the
    /// episode a timeout interrupts (a recovery, or the Loss state of a
    /// recurring timeout): only an episode begun from the Open state
    /// initialises it (`tcp_init_undo`).
    pub fn on_episode(&mut self, cb: &ControlBlock, before: (f64, f64, CaState)) {
        let (cwnd, ssthresh, state) = before;
        if state != CaState::Open && self.marker.is_some() {
            return;
        }
        self.marker = Some(cb.snd_una);
        self.retrans = -1;
        self.retrans_stamp = None;
        self.prior_cwnd = cwnd;
        self.prior_ssthresh = current_ssthresh(cwnd, ssthresh, state);
    }

    /// A retransmission went out at `now` (`tcp_retransmit_skb`: "Save
    /// stamp of the first (attempted) retransmit", `undo_retrans += 1`).
    #[inline]
    pub fn on_retransmit(&mut self, now: SimTime) {
        self.total_retrans += 1;
        if self.retrans_stamp.is_none() {
            self.retrans_stamp = Some(ts_clock(now));
        }
        self.retrans = self.retrans.max(0) + 1;
    }

    /// An ACK arrived: a D-SACK block
    /// (RFC 2883 §4: the first block below the cumulative ACK, or inside
    /// the second block) counts against `undo_retrans` (`tcp_check_dsack`,
    /// `tcp_dsack_seen`, and `tcp_sacktag_one`'s "Account D-SACK for
    /// retransmitted packet"). Every duplicate the receiver sees was sent
    /// twice (obsim's network does not duplicate), so Linux's "dumb
    /// counting" of a D-SACK below SND.UNA is also exact above it. Returns
    /// true for a D-SACK.
    pub fn on_ack(&mut self, ack: &Ack, max_window: u64) -> bool {
        if !self.dsack || ack.n_sack() == 0 {
            return false;
        }
        let blocks = ack.sack_blocks();
        let d = blocks[0];
        let is_dsack = d.start < ack.ack
            || blocks
                .get(1)
                .is_some_and(|b| d.end <= b.end && d.start >= b.start);
        if !is_dsack || d.end <= d.start {
            return false;
        }
        let dup_segs = d.end - d.start;
        // `tcp_dsack_seen`: a range beyond the window, or more duplicates
        // than retransmissions, is dubious.
        if dup_segs > max_window {
            return false;
        }
        self.dsack_dups += dup_segs;
        if self.dsack_dups > self.total_retrans {
            return false;
        }
        // Linux: `after(end_seq, undo_marker)` below SND.UNA and above it.
        if let Some(marker) = self.marker {
            if self.retrans > 0 && d.end > marker {
                self.retrans = (self.retrans - i64::try_from(dup_segs).unwrap_or(i64::MAX)).max(0);
            }
        }
        true
    }

    /// `tcp_packet_delayed`: the echoed timestamp is older than the
    /// episode's first retransmission ("got echoed TS before first
    /// retransmission"), or nothing was retransmitted.
    fn packet_delayed(&self, tsecr: u32) -> bool {
        match self.retrans_stamp {
            Some(stamp) => self.timestamps && tsecr != 0 && ts_before(tsecr, stamp),
            None => true,
        }
    }

    /// `tcp_may_undo`: an episode to undo, and either every retransmission
    /// D-SACKed (`!undo_retrans`) or the ACK's echo shows the original
    /// transmission arrived (`tcp_packet_delayed`).
    pub fn may_undo(&self, tsecr: u32) -> bool {
        self.marker.is_some() && (self.retrans == 0 || self.packet_delayed(tsecr))
    }

    /// `tcp_try_undo_dsack`'s test: an episode to undo and every
    /// retransmission D-SACKed.
    pub fn dsack_undo(&self) -> bool {
        self.marker.is_some() && self.retrans == 0
    }

    /// `tcp_undo_cwnd_reduction`: the window before the episode, and
    /// nothing more to undo (`undo_marker = 0`).
    pub fn undo(&mut self, cb: &mut ControlBlock) {
        undo_cwnd_reduction(cb, self.prior_cwnd, self.prior_ssthresh);
        self.marker = None;
    }

    /// Another undo ran (F-RTO's, `tcp_try_undo_loss(sk, true)`): nothing
    /// more to undo (`undo_marker = 0`).
    pub fn forget(&mut self) {
        self.marker = None;
    }

    /// `undo_retrans` (for tests).
    #[cfg(test)]
    pub fn undo_retrans(&self) -> i64 {
        self.retrans
    }
}

#[cfg(test)]
#[path = "undo_tests.rs"]
mod tests;
