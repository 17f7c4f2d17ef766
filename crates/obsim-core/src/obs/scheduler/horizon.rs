//! Horizon scheduling (Turner, "Terabit burst switching", J. High Speed
//! Netw. 8, 1999; gurel2008 ref. [5]).
//!
//! Each channel is summarised by its *horizon*, the latest time it is
//! reserved to. A burst starting at `start` may use any channel whose horizon
//! is `<= start`; Horizon takes the one with the latest horizon, which
//! leaves the smallest idle gap. It never looks before a horizon, so it
//! never fills a void: its losses do not depend on burst length (gurel2008
//! §1, §3).

use super::{ChannelScheduler, PortSchedule, Request};

/// Horizon scheduler (Turner 1999): latest horizon `<= start`, ties to the
/// lowest channel index; no void filling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Horizon;

impl ChannelScheduler for Horizon {
    #[inline]
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        port.reserve_by_horizon(request)
    }
}
