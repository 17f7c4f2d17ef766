//! Tail Loss Probe, RFC 8985 §7 (`tcp.tlp`): when the ACKs stop in the
//! Open state, a probe segment goes out after a probe timeout (PTO) of
//! about two RTTs, well before the RTO, so that its ACK (and its SACK
//! blocks, which RACK reads) reveals a tail loss that no later segment
//! would otherwise report. The sender owns the PTO next to its RTO; this
//! file holds TLP's state and rules.

use crate::tcp::config::TcpConfig;
use crate::tcp::control::{CaState, ControlBlock};
use crate::time::{SimDuration, SimTime};

/// RFC 8985 §7.2: "If no SRTT estimate is available, PTO = 1 second"
/// (RFC 6298 §2.1's initial RTO).
pub const PTO_WITHOUT_SRTT: SimDuration = SimDuration::from_secs(1);

/// TLP's state (RFC 8985 §7.1 and §7.4: `TLP.end_seq`, `TLP.is_retrans`),
/// with the probe timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tlp {
    /// `tcp.tlp`.
    on: bool,
    /// `WCDelAckT` (§7.2), `tcp.tlp_max_ack_delay`.
    max_ack_delay: SimDuration,
    /// When the PTO fires, if armed.
    deadline: Option<SimTime>,
    /// `TLP.end_seq`: `SND.NXT` when the probe outstanding was sent.
    end_seq: Option<u64>,
    /// `TLP.is_retrans`: the probe outstanding was a retransmission.
    is_retrans: bool,
    /// The probe the timer chose, to go out before anything else.
    pending: Option<u64>,
}

impl Tlp {
    /// TLP as `cfg` sets it (off: never armed).
    pub fn new(cfg: &TcpConfig) -> Self {
        Tlp {
            on: cfg.rack_tlp.tlp,
            max_ack_delay: cfg.rack_tlp.tlp_max_ack_delay,
            deadline: None,
            end_seq: None,
            is_retrans: false,
            pending: None,
        }
    }

    /// `tcp.tlp`.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// When the PTO fires, if armed.
    #[inline]
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// `TLP.end_seq`, while a probe is outstanding.
    pub fn end_seq(&self) -> Option<u64> {
        self.end_seq
    }

    /// True when the PTO is armed and due at `now`.
    #[inline]
    pub fn due(&self, now: SimTime) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// RFC 8985 §7.2: a PTO may be (re)started only with data in flight, in
    /// the Open state ("unless it is already in fast recovery, RTO
    /// recovery"), with nothing SACKed (`RACK.segs_sacked` = 0; the
    /// reordering timer covers that case) and no probe outstanding (one
    /// TLP per episode, §7.4).
    pub fn allowed(&self, cb: &ControlBlock, sacked: u64) -> bool {
        self.on
            && cb.state == CaState::Open
            && cb.snd_nxt > cb.snd_una
            && sacked == 0
            && self.end_seq.is_none()
    }

    /// RFC 8985 §7.2 `TLP_calc_PTO()`: PTO = 2·SRTT, plus `WCDelAckT` when
    /// one segment is in flight (the receiver may delay its ACK), or 1 s
    /// without an SRTT; the probe fires no later than the RTO would
    /// ("PTO = min(TCP_RTO_expiration() - Now(), PTO)").
    pub fn arm(&mut self, now: SimTime, srtt: Option<SimDuration>, flight: u64, rto_at: SimTime) {
        let pto = match srtt {
            Some(s) => {
                let two = s.saturating_mul(2);
                if flight == 1 {
                    two + self.max_ack_delay
                } else {
                    two
                }
            }
            None => PTO_WITHOUT_SRTT,
        };
        self.deadline = Some((now + pto).min(rto_at));
    }

    /// The PTO is stopped (conditions of §7.2 no longer hold).
    #[inline]
    pub fn disarm(&mut self) {
        self.deadline = None;
    }

    /// RFC 8985 §7.3 `TLP_send_probe()`: the PTO fired; chooses the probe:
    /// "a new, previously unsent segment" if there is one and the receive
    /// window allows it, else "the highest-sequence segment sent so far".
    /// Nothing when the §7.2 conditions no longer hold. Says whether a
    /// probe was chosen.
    pub fn on_expiry(&mut self, cb: &ControlBlock) -> bool {
        self.deadline = None;
        if cb.state != CaState::Open || cb.snd_nxt <= cb.snd_una || self.end_seq.is_some() {
            return false;
        }
        let new_ok = cb.has_unsent()
            && cb.tx_next == cb.snd_nxt
            && cb.snd_nxt < cb.snd_una + cb.window_cap();
        self.pending = Some(if new_ok { cb.snd_nxt } else { cb.snd_nxt - 1 });
        true
    }

    /// The probe to send now, if the timer chose one.
    #[inline]
    pub fn take_pending(&mut self) -> Option<u64> {
        self.pending.take()
    }

    /// The probe went out (`retransmit` when it resent a segment) and
    /// `SND.NXT` is now `snd_nxt` (§7.3: `TLP.end_seq = SND.NXT`,
    /// `TLP.is_retrans`).
    pub fn sent(&mut self, snd_nxt: u64, retransmit: bool) {
        self.end_seq = Some(snd_nxt);
        self.is_retrans = retransmit;
    }

    /// RFC 8985 §7.4 `TLP_process_ack()` for an ACK with cumulative ACK
    /// `ack`: true when the episode ends with the probe having repaired a
    /// loss (a retransmitted probe, acknowledged, and no DSACK to say the
    /// original arrived: obsim's receiver sends no DSACK), so the sender
    /// must reduce cwnd. A probe of new data acknowledged ends the episode
    /// with no reduction.
    pub fn on_ack(&mut self, ack: u64) -> bool {
        match self.end_seq {
            Some(e) if ack >= e => {
                self.end_seq = None;
                self.is_retrans
            }
            _ => false,
        }
    }

    /// A recovery or a retransmission timeout takes over: the PTO stops and
    /// any probe episode ends (§7.4: the episode is judged by its ACK only
    /// in the Open state; obsim's reading for recovery, the RFC's for the
    /// RTO).
    pub fn reset_episode(&mut self) {
        self.deadline = None;
        self.end_seq = None;
        self.pending = None;
    }
}
