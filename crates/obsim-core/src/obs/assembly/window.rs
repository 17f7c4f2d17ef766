//! Window-based assembly (ramantas2007 §5, ramantas2008 §5): three queues per
//! egress, each with its own assembly timer; every arriving packet joins the
//! queue chosen by its flow's *current* congestion window:
//!
//! ```text
//! T = timers[0] (1 ms)   if          cwnd <  B   ("slow" flow)
//!     timers[1] (5 ms)   if B  <=    cwnd <  C   ("medium")
//!     timers[2] (10 ms)  if C  <=    cwnd        ("fast")
//! ```
//!
//! The inequalities are those of ramantas2007 §5 ("1 msec if 1 <= congestion
//! window < B", "10 msec if C <= congestion window"); ramantas2008 Eq. (1)
//! writes strict inequalities on both sides but its text says flows are
//! upgraded "when their congestion windows reach the limit", which is `>=`.
//! With B = C the middle queue is never used (the papers' "no B value" rows,
//! ramantas2007 Table 1: "The cases with no B value means that the
//! intermediate transition to 5msec assembly is omitted").
//!
//! Queues are per egress, i.e. per source-destination pair of edges: "three
//! different queues per destination" (ramantas2007 §5), "three different
//! queues per source-destination pair" (ramantas2008 §5). The assembler
//! builds one group of [`WindowBased::initial_queues`] = 3 queues for every
//! egress it sends to.
//!
//! Where the window comes from is [`WindowSource`]: the sender's own cwnd
//! (the papers' assumption) or the edge's estimate (`estimate.rs`).

use super::select::{QueueSelection, QueueTable};
use super::Selection;
use crate::ids::FlowId;
use crate::time::SimDuration;

/// The window class (0 slow, 1 medium, 2 fast) of a flow with window `cwnd`
/// segments under thresholds `b` and `c`.
#[inline]
pub fn class(cwnd: f64, b: f64, c: f64) -> usize {
    if cwnd >= c {
        2
    } else {
        usize::from(cwnd >= b)
    }
}

/// How the edge learns a flow's congestion window for window-based
/// assembly (`window_source` in `[nodes.assembly]`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum WindowSource {
    /// The sender's current cwnd, read at the packet's arrival at the edge:
    /// the papers' assumption, "the communication of the window size to the
    /// burstifier" (ramantas2007 §5; ramantas2008 §5: "which is not standard
    /// in the current TCP implementations"). The default.
    Sender,
    /// The edge's own estimate from the packets it sees: the flow's data
    /// segments counted per round-trip time, the round-trip time measured
    /// at the edge from the flow's SYN to its first data segment, or
    /// `rtt_fallback` when the edge saw no SYN (docs/MODEL.md, "Window-based
    /// assembly: estimated window"; `estimate.rs`).
    Estimated {
        /// Round length used for a flow whose SYN the edge did not see
        /// (`rtt_fallback`, default [`WindowSource::DEFAULT_RTT_FALLBACK`]).
        rtt_fallback: SimDuration,
    },
}

impl WindowSource {
    /// Default `rtt_fallback`: 100 ms, no paper gives one; it is of the
    /// order of the longest round trip between NSFNET edges (N1-N3-N6-N14,
    /// 10,200 km each way at 5 µs/km: about 100 ms).
    pub const DEFAULT_RTT_FALLBACK: SimDuration = SimDuration::from_millis(100);

    /// The name in scenario files (`"sender"` or `"estimated"`).
    pub fn name(&self) -> &'static str {
        match self {
            WindowSource::Sender => "sender",
            WindowSource::Estimated { .. } => "estimated",
        }
    }
}

/// Window-based selection with thresholds B, C and one timer per class.
#[derive(Clone, Copy, Debug)]
pub(super) struct WindowBased {
    b: f64,
    c: f64,
    timers: [SimDuration; 3],
}

impl QueueSelection for WindowBased {
    const NAME: &'static str = "window";

    fn from_selection(sel: &Selection) -> Option<Self> {
        match *sel {
            Selection::WindowBased { b, c, timers, .. } => Some(WindowBased { b, c, timers }),
            _ => None,
        }
    }

    /// One queue per window class.
    fn initial_queues(&self) -> u32 {
        3
    }

    /// The class's own timer; the trigger's is ignored (its size limit, if
    /// any, still applies).
    fn queue_timer(&self, k: u32, _trigger: Option<SimDuration>) -> Option<SimDuration> {
        Some(self.timers[k as usize])
    }

    #[inline]
    fn select(&self, t: &mut QueueTable, g: u32, _flow: FlowId, cwnd: f64) -> u32 {
        t.first(g) + class(cwnd, self.b, self.c) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::super::select::table_for;
    use super::*;

    #[test]
    fn the_window_picks_the_queue_and_each_queue_has_its_timer() {
        let ms = SimDuration::from_millis;
        let p = WindowBased {
            b: 4.0,
            c: 16.0,
            timers: [ms(1), ms(5), ms(10)],
        };
        let mut t = table_for(&p, 1);
        let timers: Vec<_> = t.queues.iter().map(|q| q.timer).collect();
        assert_eq!(timers, vec![Some(ms(1)), Some(ms(5)), Some(ms(10))]);
        let q = |t: &mut QueueTable, w| p.select(t, 0, FlowId(0), w);
        assert_eq!([q(&mut t, 1.0), q(&mut t, 3.99), q(&mut t, 4.0)], [0, 0, 1]);
        assert_eq!(
            [q(&mut t, 15.9), q(&mut t, 16.0), q(&mut t, 99.0)],
            [1, 2, 2]
        );
    }
}
