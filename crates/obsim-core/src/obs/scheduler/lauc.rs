//! LAUC, latest available unscheduled channel (Xiong, Vandenhoute and
//! Cankaya, "Control architecture in optical burst-switched WDM networks",
//! IEEE JSAC 18(10), 2000; gurel2008 ref. [15]).
//!
//! A channel is *unscheduled* at `start` when no reservation on it ends after
//! `start` (its horizon is `<= start`). LAUC picks, among those, the one that
//! became free latest, so the gap it leaves is the smallest. This is the same
//! rule as Turner's Horizon: the two names come from two groups describing
//! one idea (Turner's switch keeps a per-channel "horizon" register; Xiong et
//! al. define LAUC over "unscheduled time"). obsim implements both with the
//! same code and the same tie-break (lowest index), so they make identical
//! decisions; the two names exist so that a scenario can say which paper it
//! follows.

use super::{ChannelScheduler, PortSchedule, Request};

/// LAUC scheduler (Xiong et al. 2000): latest available unscheduled channel;
/// identical decisions to [`super::Horizon`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lauc;

impl ChannelScheduler for Lauc {
    #[inline]
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        port.reserve_by_horizon(request)
    }
}
