//! LAUC-VF, latest available unused channel with void filling (Xiong,
//! Vandenhoute and Cankaya, IEEE JSAC 18(10), 2000; used at the core
//! nodes of gurel2008 §4 and gonzalez2009 §4).
//!
//! A channel is *available* for `[start, end)` when the burst fits either
//! after its last reservation or in a void between two reservations. For
//! each available channel, let `t` be the end of the reservation just before
//! `start` (the void's start, or the horizon). LAUC-VF picks the channel with
//! the latest `t`, so the gap `start - t` left unused is the smallest. Ties go
//! to the lowest channel index (obsim's choice). A channel that
//! has never been used has `t = 0`.
//!
//! Because short bursts fit in more voids, a burst whose BCP has a short
//! residual offset (it is scheduled after bursts with longer offsets) is lost
//! more often when it is long: burst-length dependent loss (gurel2008 §4).

use super::{ChannelScheduler, PortSchedule, Request};
use crate::time::SimTime;

/// LAUC-VF scheduler (Xiong et al. 2000): smallest gap before `start`, voids
/// included; ties to the lowest channel index. Needs a void-tracking port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaucVf;

impl ChannelScheduler for LaucVf {
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        super::check_void_filling(port, &request, "LAUC-VF");
        let (now, start, end) = (request.now, request.start, request.end);
        let mut best: Option<(u16, SimTime, Option<usize>)> = None;
        for c in port.range(request.allowed) {
            if let Some(f) = port.fit(c, now, start, end) {
                if best.is_none_or(|(_, t, _)| f.void_start > t) {
                    best = Some((c, f.void_start, f.index));
                }
            }
        }
        match best {
            Some((c, _, index)) => Some(port.commit(c, now, index, start, end)),
            None => port.refuse(),
        }
    }
}
