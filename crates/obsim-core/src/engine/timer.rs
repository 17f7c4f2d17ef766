//! The lazy timer: at most one pending event per timer (as in Linux and
//! ns-3's TCP timers). Moving a deadline *later* costs nothing: the pending
//! event fires at the old time, finds the timer's owner with a later
//! deadline, and re-arms itself there. Moving it *earlier* schedules a new
//! event; the old one is then recognised as stale when it fires. No queue
//! work per ACK or per packet, and no cancellation.

use crate::engine::event::Event;
use crate::engine::queue::EventQueue;
use crate::time::SimTime;

/// One lazy timer: the time of its pending event, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyTimer {
    at: Option<SimTime>,
}

impl LazyTimer {
    /// Makes sure an event `ev` is pending no later than `deadline`: pushes
    /// it unless one is already pending at or before `deadline`.
    #[inline]
    pub fn arm(&mut self, queue: &mut EventQueue<Event>, deadline: SimTime, ev: Event) {
        if self.at.is_none_or(|t| deadline < t) {
            queue.push(deadline, ev);
            self.at = Some(deadline);
        }
    }

    /// Called when the timer's event runs at `now`: true when it is the
    /// pending one (the timer is then disarmed and the owner must check its
    /// deadline), false for a stale event superseded by an earlier one.
    #[inline]
    pub fn fire(&mut self, now: SimTime) -> bool {
        if self.at != Some(now) {
            return false;
        }
        self.at = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::FlowId;
    use crate::time::SimDuration;

    fn t(ms: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(ms)
    }

    #[test]
    fn a_later_deadline_pushes_nothing_an_earlier_one_supersedes() {
        let mut q = EventQueue::with_capacity(4);
        let mut timer = LazyTimer::default();
        let ev = Event::SenderTimer(FlowId(0));
        timer.arm(&mut q, t(10), ev);
        timer.arm(&mut q, t(20), ev); // later: nothing pushed
        assert_eq!(q.len(), 1);
        timer.arm(&mut q, t(5), ev); // earlier: a new event
        assert_eq!(q.len(), 2);
        // The 5 ms event is the live one, the 10 ms one is stale.
        assert!(!timer.fire(t(10)));
        assert!(timer.fire(t(5)));
        // Disarmed: the stale 10 ms event does nothing, a new arm pushes.
        assert!(!timer.fire(t(10)));
        timer.arm(&mut q, t(20), ev);
        assert_eq!(q.len(), 3);
    }
}
