//! Per-flow (PF) assembly: one burstifier queue per TCP flow (gonzalez2009
//! §3, the ideal desynchronised case; gurel2008 §3 with M = N). Queues are
//! created the first time a flow sends to an egress and kept for the rest of
//! the run, so a flow's queue index never changes.

/// Queue slots an egress group starts with: none, they grow with the flows.
pub(super) const INITIAL_QUEUES: u32 = 0;
