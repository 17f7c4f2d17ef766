//! Burst TCP with burst ACKs (BACK, yu2004 §IV.B): the ingress and/or egress
//! edge sends the sender a BACK listing its segments in each burst; at a
//! timeout the sender consults them.
//!
//! Decision (yu2004 §IV.B step 2, and the ingress+egress combination):
//! - ingress: false when the most recent ingress BACK holds every
//!   outstanding segment, else ("or if the packet sequence numbers cannot be
//!   found in any BACK packets") true;
//! - egress: true when an egress BACK holds every outstanding segment (the
//!   burst arrived, so the loss was in the receiver-side access network);
//!   otherwise obsim judges it false (the paper: the sender "cannot tell"
//!   sender-side access losses from OBS losses; obsim's reading);
//! - both: false exactly when a covering ingress BACK came and no egress
//!   BACK of the same burst did ("BTCP sender knows a TO is a FTO when only
//!   a BACK containing all packets from ingress is received but without BACK
//!   from egress node, and knows it is a true TO otherwise").
//!
//! A false timeout gets [`super::fto_response`]; consecutive FTOs are capped
//! by [`super::FtoRun`] as for BLE.

use super::{FtoRun, SignalReaction, Standard, TimeoutReaction, TimeoutResponse};
use crate::tcp::cc::WindowGrowth;
use crate::tcp::config::{BackSource, FtoDetection, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::tcp::signal::{BurstSignal, SignalKind, SignalSet};

/// BACKs remembered per kind (most recent first wins).
const KEEP: usize = 8;

/// BTCP's BACK timeout response.
#[derive(Clone, Debug)]
pub struct Back {
    source: BackSource,
    run: FtoRun,
    /// The latest ingress and egress BACKs, oldest overwritten first.
    ingress: [Option<BurstSignal>; KEEP],
    egress: [Option<BurstSignal>; KEEP],
    next_in: usize,
    next_eg: usize,
    /// The response to a timeout judged true.
    true_timeout: Standard,
}

impl Back {
    /// A sender that reads BACKs from `source`; `true_timeout` answers
    /// the timeouts it judges true.
    pub fn new(source: BackSource, max_consecutive_fto: u32, true_timeout: Standard) -> Self {
        Back {
            true_timeout,
            source,
            run: FtoRun::new(max_consecutive_fto),
            ingress: [None; KEEP],
            egress: [None; KEEP],
            next_in: 0,
            next_eg: 0,
        }
    }

    /// The most recent BACK of `list` (a ring whose next slot is `next`)
    /// that covers `[una, nxt)`.
    fn covering(
        list: &[Option<BurstSignal>; KEEP],
        next: usize,
        una: u64,
        nxt: u64,
    ) -> Option<BurstSignal> {
        (1..=KEEP)
            .map(|k| list[(next + KEEP - k) % KEEP])
            .find(|s| s.is_some_and(|s| s.covers(una, nxt)))
            .flatten()
    }

    /// The §IV.B decision for outstanding `[una, nxt)`.
    pub fn judges_false(&self, una: u64, nxt: u64) -> bool {
        let ing = Self::covering(&self.ingress, self.next_in, una, nxt);
        let egr = Self::covering(&self.egress, self.next_eg, una, nxt);
        match self.source {
            BackSource::Ingress => ing.is_some(),
            BackSource::Egress => egr.is_none(),
            BackSource::Both => {
                ing.is_some_and(|i| !self.egress.iter().flatten().any(|e| e.burst == i.burst))
            }
        }
    }
}

impl TimeoutResponse for Back {
    fn name(&self) -> &'static str {
        "btcp-back"
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction {
        let backing_off = cb.consecutive_timeouts > 0;
        let judged_false = !backing_off && self.judges_false(cb.snd_una, cb.snd_nxt);
        self.run
            .respond(judged_false, cb, cc, &mut self.true_timeout)
    }

    /// The BACKs of the configured edges (yu2004 §IV.B).
    fn signals(&self) -> SignalSet {
        match self.source {
            BackSource::Ingress => SignalSet::of(SignalKind::IngressAck),
            BackSource::Egress => SignalSet::of(SignalKind::EgressAck),
            BackSource::Both => SignalSet::of(SignalKind::IngressAck).with(SignalKind::EgressAck),
        }
    }

    fn on_burst_signal(
        &mut self,
        _cb: &mut ControlBlock,
        _cc: &mut dyn WindowGrowth,
        sig: &BurstSignal,
    ) -> SignalReaction {
        match sig.kind {
            SignalKind::IngressAck => {
                self.ingress[self.next_in] = Some(*sig);
                self.next_in = (self.next_in + 1) % KEEP;
            }
            SignalKind::EgressAck => {
                self.egress[self.next_eg] = Some(*sig);
                self.next_eg = (self.next_eg + 1) % KEEP;
            }
            SignalKind::Nak => {}
        }
        SignalReaction::Noted
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        let FtoDetection::Back {
            source,
            max_consecutive_fto,
        } = cfg.fto
        else {
            return false;
        };
        *self = Back::new(source, max_consecutive_fto, Standard::new(cfg));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(kind: SignalKind, burst: u64, lo: u64, hi: u64) -> BurstSignal {
        BurstSignal {
            kind,
            burst,
            lo,
            hi,
            count: (hi - lo + 1) as u32,
        }
    }

    fn with(source: BackSource, sigs: &[BurstSignal]) -> Back {
        let cfg = crate::tcp::profile::profile("rfc").unwrap();
        let mut b = Back::new(source, 4, Standard::new(&cfg));
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        let mut cc = crate::tcp::cc::for_config(&cfg);
        for s in sigs {
            b.on_burst_signal(&mut cb, cc.as_mut(), s);
        }
        b
    }

    #[test]
    fn ingress_and_egress_backs_separate_obs_from_access_losses() {
        use BackSource::{Both, Egress, Ingress};
        let ing = sig(SignalKind::IngressAck, 7, 100, 119);
        let egr = sig(SignalKind::EgressAck, 7, 100, 119);
        // Burst left the ingress and never reached the egress: OBS loss.
        assert!(with(Both, &[ing]).judges_false(100, 120));
        // It reached the egress: the loss was in the receiver's access.
        assert!(!with(Both, &[ing, egr]).judges_false(100, 120));
        // No ingress BACK: lost before the ingress (sender's access).
        assert!(!with(Both, &[]).judges_false(100, 120));
        // Outstanding data not all in that burst: true.
        assert!(!with(Both, &[ing]).judges_false(100, 121));
        assert!(with(Ingress, &[ing, egr]).judges_false(100, 120));
        assert!(!with(Egress, &[ing, egr]).judges_false(100, 120));
        assert!(with(Egress, &[ing]).judges_false(100, 120));
        // The most recent covering BACK counts: a retransmission's burst.
        let ing2 = sig(SignalKind::IngressAck, 9, 100, 119);
        assert!(with(Both, &[ing, egr, ing2]).judges_false(100, 120));
    }
}
