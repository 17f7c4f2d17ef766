//! FFUC-VF, first fit unscheduled channel with void filling: the
//! lowest-index channel where `[start, end)` fits, voids included. It is
//! obsim's own simple baseline for LAUC-VF (Xiong, Vandenhoute and Cankaya,
//! IEEE JSAC 18(10), 2000), not a scheduler of the five studies. On a given
//! state it accepts exactly the bursts LAUC-VF accepts, but it picks
//! different channels, so the states and later decisions differ.

use super::{ChannelScheduler, ChannelSet, PortSchedule};
use crate::time::SimTime;

/// FFUC-VF scheduler: first channel (lowest index) where the burst fits,
/// voids included. Needs a void-tracking port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FfucVf;

impl ChannelScheduler for FfucVf {
    fn reserve(
        &mut self,
        port: &mut PortSchedule,
        now: SimTime,
        start: SimTime,
        end: SimTime,
        allowed: ChannelSet,
    ) -> Option<u16> {
        super::check_request(now, start, end);
        assert!(
            port.tracks_voids(),
            "FFUC-VF needs a port built with voids = true"
        );
        for c in port.range(allowed) {
            if let Some(f) = port.fit(c, now, start, end) {
                return Some(port.commit(c, now, f.index, start, end));
            }
        }
        port.refuse()
    }
}
