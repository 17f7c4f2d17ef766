//! FFUC-VF, first fit unscheduled channel with void filling: the
//! lowest-index channel where `[start, end)` fits, voids included. It is
//! obsim's own simple baseline for LAUC-VF (Xiong, Vandenhoute and Cankaya,
//! IEEE JSAC 18(10), 2000), not a scheduler of the five studies. On a given
//! state it accepts exactly the bursts LAUC-VF accepts, but it picks
//! different channels, so the states and later decisions differ.

use super::{ChannelScheduler, PortSchedule, Request};

/// FFUC-VF scheduler: first channel (lowest index) where the burst fits,
/// voids included. Needs a void-tracking port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FfucVf;

impl ChannelScheduler for FfucVf {
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        super::check_void_filling(port, &request, "FFUC-VF");
        let (now, start, end) = (request.now, request.start, request.end);
        for c in port.range(request.allowed) {
            if let Some(f) = port.fit(c, now, start, end) {
                return Some(port.commit(c, now, f.index, start, end));
            }
        }
        port.refuse()
    }
}
