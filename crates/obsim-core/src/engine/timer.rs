//! The lazy timer: at most one pending event per timer (as in Linux and
//! ns-3's TCP timers). Moving a deadline *later* costs nothing: the pending
//! event fires at the old time, finds the timer's owner with a later
//! deadline, and re-arms itself there. Moving it *earlier* schedules a new
//! event; the old one is then recognised as stale when it fires. No queue
//! work per ACK or per packet, and no cancellation.
//!
//! # Rescheduling in ns-2's order
//!
//! ns-2's `TimerHandler::resched` cancels the pending event and inserts a
//! new one, so among events due at the same instant a timer rescheduled
//! later pops after every event inserted before the resched (ns-2
//! `Scheduler::insert` orders ties by uid, i.e. insertion order). A lazy
//! re-arm when the old event fires would instead place it after every event
//! inserted up to that firing. [`LazyTimer::arm_rescheduled`] keeps ns-2's
//! place without touching the queue: a later deadline reserves its place in
//! the `(time, insertion order)` order with a [`Stamp`] when it is set, and
//! [`LazyTimer::fire_rescheduled`] pushes the event at that place when the
//! old one fires. The TCP timers use this pair: the retransmission timer
//! (ns-2 `TcpAgent::set_rtx_timer` calls `rtx_timer_.resched`) and the
//! delayed-ACK timer (`DelAckSink::recv` calls `delay_timer_.resched` when
//! the timer is idle; obsim's lazy event may still be pending then, from a
//! deadline cleared by an ACK sent early). The assembly timers have no ns-2
//! counterpart and use [`LazyTimer::arm`]/[`LazyTimer::fire`].

use crate::engine::event::Event;
use crate::engine::queue::{EventQueue, Stamp};
use crate::time::SimTime;

/// One lazy timer: the time of its pending event, if any, and (for
/// [`LazyTimer::arm_rescheduled`]) the place reserved for a later deadline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyTimer {
    at: Option<SimTime>,
    later: Option<Stamp>,
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

    /// Like [`Self::arm`], for a timer rescheduled in ns-2's order (module
    /// docs): a deadline earlier than the pending event pushes a new event;
    /// a later one (or the pending time itself, when the deadline comes back
    /// to it) reserves its place in the queue's order now, without pushing.
    /// Asking again for the deadline already asked for changes nothing (ns-2
    /// does not reschedule then either: `set_rtx_timer` runs only where the
    /// deadline is set anew).
    #[inline]
    pub fn arm_rescheduled(&mut self, queue: &mut EventQueue<Event>, deadline: SimTime, ev: Event) {
        let wanted = self.later.map(Stamp::time).or(self.at);
        if wanted == Some(deadline) {
            return;
        }
        match self.at {
            Some(t) if deadline >= t => self.later = Some(queue.stamp(deadline)),
            _ => {
                queue.push(deadline, ev);
                self.at = Some(deadline);
                self.later = None;
            }
        }
    }

    /// Like [`Self::fire`], for a timer armed by [`Self::arm_rescheduled`]:
    /// when the pending event runs and a later place was reserved, the event
    /// is pushed there and `false` returned (the owner's deadline is that
    /// later time); `true` only when the timer is due now.
    #[inline]
    pub fn fire_rescheduled(
        &mut self,
        queue: &mut EventQueue<Event>,
        now: SimTime,
        ev: Event,
    ) -> bool {
        if self.at != Some(now) {
            return false;
        }
        if let Some(st) = self.later.take() {
            queue.push_stamped(st, ev);
            self.at = Some(st.time());
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

    /// ns-2 `resched` order: a timer moved later pops after an event pushed
    /// for the same instant before the move, and before one pushed after it.
    #[test]
    fn a_rescheduled_timer_keeps_the_place_of_its_resched() {
        let mut q = EventQueue::with_capacity(8);
        let mut timer = LazyTimer::default();
        let ev = Event::SenderTimer(FlowId(0));
        let other = |i| Event::ReceiverTimer(FlowId(i));
        timer.arm_rescheduled(&mut q, t(10), ev);
        q.push(t(30), other(1)); // before the resched
        timer.arm_rescheduled(&mut q, t(30), ev); // resched: reserve a place
        assert_eq!(q.len(), 2, "moving later pushes nothing");
        timer.arm_rescheduled(&mut q, t(30), ev); // same deadline: no resched
        q.push(t(30), other(2)); // after the resched
        let mut order = Vec::new();
        while let Some((now, e)) = q.pop() {
            match e {
                Event::SenderTimer(_) => {
                    if timer.fire_rescheduled(&mut q, now, ev) {
                        order.push((now, 0));
                    }
                }
                Event::ReceiverTimer(FlowId(i)) => order.push((now, i)),
                _ => unreachable!(),
            }
        }
        assert_eq!(order, vec![(t(30), 1), (t(30), 0), (t(30), 2)]);
    }

    /// An earlier deadline supersedes the reserved place; the stale events
    /// do nothing.
    #[test]
    fn an_earlier_deadline_after_a_resched_fires_alone() {
        let mut q = EventQueue::with_capacity(8);
        let mut timer = LazyTimer::default();
        let ev = Event::SenderTimer(FlowId(0));
        timer.arm_rescheduled(&mut q, t(10), ev);
        timer.arm_rescheduled(&mut q, t(40), ev);
        timer.arm_rescheduled(&mut q, t(5), ev);
        let mut fired = Vec::new();
        while let Some((now, _)) = q.pop() {
            if timer.fire_rescheduled(&mut q, now, ev) {
                fired.push(now);
            }
        }
        assert_eq!(fired, vec![t(5)]);
    }
}
