//! Burst signals from the OBS network to a Burst TCP sender (yu2004 §IV.B-C):
//! a burst ACK (BACK) from the ingress or egress edge, or a burst NAK (BNAK)
//! from the node that dropped a burst. Each lists the sender's segments in
//! one burst. They travel as packets with their own size and delay.

/// Which node sent a signal, and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalKind {
    /// BACK from the ingress edge: the burst left the ingress with these
    /// segments (yu2004 §IV.B step 1).
    IngressAck,
    /// BACK from the egress edge: the burst reached the egress (yu2004
    /// §IV.B: "any losses must have occurred within the receiver-side access
    /// network").
    EgressAck,
    /// BNAK from the node that dropped the burst (yu2004 §IV.C).
    Nak,
}

impl SignalKind {
    /// This kind's bit in a [`SignalSet`].
    const fn bit(self) -> u8 {
        match self {
            SignalKind::IngressAck => 1,
            SignalKind::EgressAck => 2,
            SignalKind::Nak => 4,
        }
    }
}

/// The kinds of burst signal a sender wants: its timeout plug-in declares
/// them ([`crate::tcp::timeout::TimeoutResponse::signals`]), and the OBS
/// nodes send a flow only those (a BACK or BNAK nobody reads is not sent).
/// One byte, `Copy`, so the engine keeps it per flow and ORs it over flows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SignalSet(u8);

impl SignalSet {
    /// No signal (Reno, `NewReno`, SACK and BLE read none).
    pub const NONE: SignalSet = SignalSet(0);

    /// The set holding only `kind`.
    pub const fn of(kind: SignalKind) -> Self {
        SignalSet(kind.bit())
    }

    /// This set with `kind` added.
    #[must_use]
    pub const fn with(self, kind: SignalKind) -> Self {
        SignalSet(self.0 | kind.bit())
    }

    /// Every kind in either set.
    #[must_use]
    pub const fn union(self, other: SignalSet) -> Self {
        SignalSet(self.0 | other.0)
    }

    /// Whether `kind` is wanted.
    #[inline]
    pub const fn contains(self, kind: SignalKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether no kind is wanted.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for SignalSet {
    type Output = SignalSet;
    fn bitor(self, rhs: SignalSet) -> SignalSet {
        self.union(rhs)
    }
}

/// One burst signal about one flow's segments in one burst. The segments
/// are summarised as the smallest and largest segment number and how many
/// there were (`count == hi - lo + 1` when they are contiguous), which keeps
/// the packet `Copy` and small; a sender checks coverage conservatively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BurstSignal {
    /// Sender of the signal and meaning.
    pub kind: SignalKind,
    /// The burst: its ingress node id in the top 24 bits, its sequence
    /// number at the ingress below (matches an ingress BACK with an egress
    /// BACK of the same burst).
    pub burst: u64,
    /// Smallest segment number of the flow in the burst.
    pub lo: u64,
    /// Largest segment number of the flow in the burst.
    pub hi: u64,
    /// Segments of the flow in the burst.
    pub count: u32,
}

impl BurstSignal {
    /// The key of burst `id` built at ingress node `ingress`.
    #[inline]
    pub fn burst_key(ingress: u32, id: u64) -> u64 {
        (u64::from(ingress) << 40) | (id & ((1 << 40) - 1))
    }

    /// True when the burst held every segment in `[una, nxt)`: they lie in
    /// `[lo, hi]` and the burst's segments were contiguous. False when in
    /// doubt (a non-contiguous burst), so a detector errs towards a true
    /// timeout.
    #[inline]
    pub fn covers(&self, una: u64, nxt: u64) -> bool {
        nxt > una
            && self.lo <= una
            && self.hi + 1 >= nxt
            && u64::from(self.count) == self.hi - self.lo + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_is_conservative() {
        let s = |lo, hi, count| BurstSignal {
            kind: SignalKind::Nak,
            burst: 0,
            lo,
            hi,
            count,
        };
        assert!(s(10, 19, 10).covers(10, 20));
        assert!(s(10, 19, 10).covers(12, 18));
        assert!(!s(10, 19, 10).covers(10, 21), "segment 20 was not in it");
        assert!(!s(10, 19, 10).covers(9, 15));
        assert!(!s(10, 19, 9).covers(10, 20), "a gap: not sure");
        assert!(!s(10, 19, 10).covers(10, 10), "nothing outstanding");
        assert_eq!(BurstSignal::burst_key(3, 7), (3 << 40) | 7);
    }

    #[test]
    fn signal_sets_hold_each_kind_apart() {
        use SignalKind::{EgressAck, IngressAck, Nak};
        assert!(SignalSet::NONE.is_empty());
        let both = SignalSet::of(IngressAck).with(EgressAck);
        assert!(both.contains(IngressAck) && both.contains(EgressAck) && !both.contains(Nak));
        let all = both | SignalSet::of(Nak);
        assert!([IngressAck, EgressAck, Nak]
            .iter()
            .all(|&k| all.contains(k)));
        assert_eq!(SignalSet::NONE | SignalSet::NONE, SignalSet::default());
        assert!(!SignalSet::of(Nak).contains(IngressAck));
    }
}
