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
//! With B = C the middle queue is never used (the papers' "no B value" rows).

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
            Selection::WindowBased { b, c, timers } => Some(WindowBased { b, c, timers }),
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
