//! Mixed-flow (MF) assembly: one burstifier queue per egress that every flow
//! shares (gonzalez2009 §3, "normal case in OBS networks"; gurel2008 §2-3
//! with M = 1, "per-destination burstification").

/// Queue of the egress group a packet of any flow joins: the only one.
#[inline]
pub(super) const fn local_queue() -> u32 {
    0
}
