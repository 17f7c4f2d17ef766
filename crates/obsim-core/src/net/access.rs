//! A flow's own access pipe (issue 12 item 2): "access rate 100 Mbps, equal
//! for all sources" (ramantas2007 §4, ramantas2008 §4) read as one
//! dedicated link per flow between its host and the network, without a node
//! per host. Each direction of a pipe is a FIFO serialiser at `rate` followed
//! by `delay`; it never drops (the flow's window bounds what waits in it, as
//! on an uncongested access link of a single host).

use crate::ids::PipeId;
use crate::time::{SimDuration, SimTime};

/// One direction of an access pipe: when it finishes serialising what it
/// holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipeLane {
    busy_until: SimTime,
}

impl PipeLane {
    /// A packet of `bytes` enters at `now`: returns when it reaches the far
    /// end (FIFO behind what the lane holds, then `bytes`·8/`rate_bps`, then
    /// `delay`).
    #[inline]
    pub fn pass(&mut self, now: SimTime, bytes: u32, rate_bps: u64, delay: SimDuration) -> SimTime {
        let start = self.busy_until.max(now);
        self.busy_until = start + SimDuration::transmission(u64::from(bytes), rate_bps);
        self.busy_until + delay
    }
}

/// The two access pipes of a flow (at its source and at its destination),
/// each with a lane per direction. The lanes, with their timing and the
/// packets in them, live in the engine's lane pool (`engine/pipes.rs`);
/// the flow holds their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessPipes {
    /// Rate of every lane, bit/s.
    pub rate_bps: u64,
    /// One-way delay of every lane.
    pub delay: SimDuration,
    /// Sender host -> source node (data).
    pub src_up: PipeId,
    /// Source node -> sender host (ACKs, burst signals).
    pub src_down: PipeId,
    /// Receiver host -> destination node (ACKs).
    pub dst_up: PipeId,
    /// Destination node -> receiver host (data).
    pub dst_down: PipeId,
}

impl AccessPipes {
    /// The four lanes, in the order `src_up`, `src_down`, `dst_up`,
    /// `dst_down`.
    pub fn lanes(&self) -> [PipeId; 4] {
        [self.src_up, self.src_down, self.dst_up, self.dst_down]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_serialises_fifo_then_delays() {
        let ms = |m| SimTime::ZERO + SimDuration::from_millis(m);
        let mut l = PipeLane::default();
        // 8 Mbit/s: 1000 B take 1 ms; delay 5 ms.
        let d = SimDuration::from_millis(5);
        assert_eq!(l.pass(ms(0), 1000, 8_000_000, d), ms(6));
        // Behind the first: leaves at 2 ms, arrives at 7 ms.
        assert_eq!(l.pass(ms(0), 1000, 8_000_000, d), ms(7));
        // Idle again by 10 ms.
        assert_eq!(l.pass(ms(10), 1000, 8_000_000, d), ms(16));
    }
}
