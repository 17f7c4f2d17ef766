//! Burst TCP with burst NAKs (BNAK, yu2004 §IV.C): the node that drops a
//! burst sends each sender with segments in it a BNAK; a BNAK that holds
//! every outstanding segment starts the FTO response at once ("the sender
//! can start retransmission of lost packets as soon as the BNAK is received,
//! which should be less than a RTT and thus much earlier than TOs"). Any
//! timeout is then true ("either no BNAK is received or the BNAK received
//! does not contain information on all packets").
//!
//! A BNAK is acted on only when no loss recovery is in progress (after a
//! fast retransmit or a timeout the lost segments are already being resent;
//! obsim's reading), and consecutive BNAK-started responses are capped by
//! [`super::FtoRun`] as for BLE.

use super::{fto_response, FtoRun, SignalReaction, Standard, TimeoutReaction, TimeoutResponse};
use crate::tcp::cc::WindowGrowth;
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::signal::{BurstSignal, SignalKind, SignalSet};

/// BTCP's BNAK response.
#[derive(Clone, Debug)]
pub struct Bnak {
    run: FtoRun,
    /// The response to every timeout (all are true).
    true_timeout: Standard,
}

impl Bnak {
    /// A sender acting on BNAKs; `true_timeout` answers every timeout.
    pub fn new(max_consecutive_fto: u32, true_timeout: Standard) -> Self {
        Bnak {
            true_timeout,
            run: FtoRun::new(max_consecutive_fto),
        }
    }
}

impl TimeoutResponse for Bnak {
    fn name(&self) -> &'static str {
        "btcp-bnak"
    }

    fn on_timeout(&mut self, cb: &mut ControlBlock, cc: &mut dyn WindowGrowth) -> TimeoutReaction {
        self.run.reset();
        self.true_timeout.on_timeout(cb, cc)
    }

    /// BNAKs from the dropping node (yu2004 §IV.C).
    fn signals(&self) -> SignalSet {
        SignalSet::of(SignalKind::Nak)
    }

    fn on_burst_signal(
        &mut self,
        cb: &mut ControlBlock,
        cc: &mut dyn WindowGrowth,
        sig: &BurstSignal,
    ) -> SignalReaction {
        if sig.kind != SignalKind::Nak
            || cb.state != CaState::Open
            || !sig.covers(cb.snd_una, cb.snd_nxt)
            || !self.run.allows(cb.snd_una)
        {
            return SignalReaction::Noted;
        }
        self.run.record(cb.snd_una);
        fto_response(cb, cc);
        SignalReaction::FalseTimeout
    }
}
