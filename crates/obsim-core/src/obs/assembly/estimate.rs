//! The edge's estimate of a flow's congestion window, for window-based
//! assembly with `window_source = "estimated"` (docs/MODEL.md, "Window-based
//! assembly: estimated window").
//!
//! The papers assume the sender tells the burstifier its window:
//! ramantas2007 §5, "The implementation of the proposed assembly scheme
//! requires three different queues per destination, one for each type of
//! flow, as well as the communication of the window size to the burstifier.
//! Albeit the latter require a modification of the TCP mechanism, we have
//! implemented the scheme in ns-2"; ramantas2008 §5, "requires the
//! communication of the window size to the burstifier, which is not standard
//! in the current TCP implementations". Neither says how an unmodified edge
//! could learn it. The estimator here is a passive one, at a measurement
//! point near the sender. The idea of inferring a sender's window at such a
//! point from the packets it sees, with the round-trip time taken from the
//! connection's handshake, is that of Jaiswal, Iannaccone, Diot, Kurose,
//! Towsley, "Inferring TCP connection characteristics through passive
//! measurements", IEEE INFOCOM 2004 (who replicate the sender's congestion
//! state from the observed packets); obsim's rule is simpler, its own, and
//! stated here in full: the segments of the flow seen in one round-trip time
//! stand for its window.
//!
//! * **RTT.** The edge times the flow's SYN (its most recent one, if resent)
//!   to the flow's first data segment: the sender sends data one round trip
//!   after its SYN (the SYN's ACK opens the window), so the gap seen at the
//!   edge is the whole round trip as the edge sees it, assembly delay of the
//!   SYN included. A flow whose SYN the edge never saw (`tcp.syn = false`)
//!   gets `rtt_fallback` instead. The RTT is measured once per flow.
//! * **Rounds.** A round starts at the flow's first data segment and lasts
//!   one RTT; the next round starts at the first data segment after it
//!   ends. Every data segment counts (first transmissions and
//!   retransmissions alike: the edge does not track sequence numbers).
//! * **Estimate.** A data segment's window estimate is the larger of the
//!   count of the previous round and the count of the current round so far
//!   (this segment included): it rises within a round as soon as a larger
//!   flight passes, and falls one round after the flight shrinks (a cut
//!   after a loss). The previous round counts 0 if the current one started
//!   one RTT or more after it ended (the flow sent nothing for a whole
//!   round: a retransmission timeout or the end of the data), so a flow
//!   that times out restarts in the slow class.
//! * **Other packets.** The SYN (no data yet) and the flow's ACKs, when
//!   assembled, have estimate 0: they join the slow (shortest-timer) queue.
//!
//! State is one 32-byte record per live flow seen at this edge, in slots
//! recycled through a free list and addressed by an id-to-slot map that is
//! only looked up, never iterated (so its hashing orders nothing). The
//! engine frees a flow's record when the flow ends ([`WindowEstimator::end_flow`]),
//! so memory follows the number of concurrent flows; per-packet work is a map
//! lookup and a few arithmetic steps, allocating only when the number of
//! concurrent flows reaches a new maximum.

use std::collections::HashMap;

use crate::ids::FlowId;
use crate::net::Payload;
use crate::time::{SimDuration, SimTime};

/// One flow's estimator state at one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FlowEstimate {
    /// Arrival of the flow's most recent SYN, `SimTime::MAX` if none seen.
    syn_at: SimTime,
    /// Round length (the RTT); `ZERO` until the first data segment.
    rtt: SimDuration,
    /// Start of the current round.
    round_start: SimTime,
    /// Data segments seen in the current round.
    count: u32,
    /// Data segments seen in the previous round (0 if a whole round passed
    /// without any).
    last: u32,
}

impl FlowEstimate {
    const NEW: FlowEstimate = FlowEstimate {
        syn_at: SimTime::MAX,
        rtt: SimDuration::ZERO,
        round_start: SimTime::ZERO,
        count: 0,
        last: 0,
    };
}

/// The window estimator of one ingress edge (`window_source = "estimated"`).
#[derive(Debug)]
pub struct WindowEstimator {
    rtt_fallback: SimDuration,
    by_flow: HashMap<u32, u32>,
    slots: Vec<FlowEstimate>,
    free: Vec<u32>,
}

impl WindowEstimator {
    /// An estimator using `rtt_fallback` as the round length of flows whose
    /// SYN it did not see.
    pub fn new(rtt_fallback: SimDuration) -> Self {
        WindowEstimator {
            rtt_fallback,
            by_flow: HashMap::new(),
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    /// A packet of live TCP flow `flow` with `payload` arrives at `now`:
    /// updates the flow's record and returns its window estimate in
    /// segments (module docs).
    pub fn observe(&mut self, now: SimTime, flow: FlowId, payload: &Payload) -> f64 {
        let Payload::Data(seg) = payload else {
            return 0.0;
        };
        let fallback = self.rtt_fallback;
        let s = self.record(flow);
        if seg.syn {
            s.syn_at = now;
            return 0.0;
        }
        if s.rtt == SimDuration::ZERO {
            // First data segment: the RTT, and the first round.
            s.rtt = if s.syn_at == SimTime::MAX {
                fallback
            } else {
                now.saturating_since(s.syn_at).max(SimDuration(1))
            };
            s.round_start = now;
        } else {
            let end = s.round_start + s.rtt;
            if now >= end {
                s.last = if now < end + s.rtt { s.count } else { 0 };
                s.round_start = now;
                s.count = 0;
            }
        }
        s.count += 1;
        f64::from(s.last.max(s.count))
    }

    /// Flow `flow` has ended: its record is freed for a later flow.
    pub fn end_flow(&mut self, flow: FlowId) {
        if let Some(i) = self.by_flow.remove(&flow.0) {
            self.free.push(i);
        }
    }

    /// Flows with a record now.
    pub fn flows(&self) -> usize {
        self.by_flow.len()
    }

    /// Records ever allocated (live plus free): the high-water mark of
    /// concurrent flows.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The record of `flow`, a fresh one in a free slot if it has none.
    fn record(&mut self, flow: FlowId) -> &mut FlowEstimate {
        let i = if let Some(&i) = self.by_flow.get(&flow.0) {
            i
        } else {
            let i = if let Some(i) = self.free.pop() {
                self.slots[i as usize] = FlowEstimate::NEW;
                i
            } else {
                self.slots.push(FlowEstimate::NEW);
                (self.slots.len() - 1) as u32
            };
            self.by_flow.insert(flow.0, i);
            i
        };
        &mut self.slots[i as usize]
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // estimates are whole segment counts, exact in f64
mod tests {
    use super::*;
    use crate::tcp::segment::{Ack, Segment};

    const MS: u64 = 1_000_000;

    fn data(seq: u64, syn: bool) -> Payload {
        Payload::Data(Segment {
            seq,
            len: if syn { 0 } else { 1000 },
            retransmit: false,
            syn,
            push: false,
            sent_at: SimTime::ZERO,
            tsecr: 0,
        })
    }

    /// Feeds flow 0 one segment at each time (ms); returns the estimates.
    fn run(e: &mut WindowEstimator, times_ms: &[f64]) -> Vec<f64> {
        times_ms
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                e.observe(
                    SimTime((t * MS as f64) as u64),
                    FlowId(0),
                    &data(i as u64, false),
                )
            })
            .collect()
    }

    #[test]
    fn the_rtt_runs_from_the_syn_to_the_first_data_segment() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(100));
        assert_eq!(e.observe(SimTime(0), FlowId(0), &data(0, true)), 0.0);
        // First data at 40 ms: RTT 40 ms, round [40, 80) ms.
        let got = run(&mut e, &[40.0, 79.0, 80.0, 80.5, 81.0]);
        // Round 1 holds 2 segments; round 2 starts at 80 ms and counts up,
        // never below the previous round's 2.
        assert_eq!(got, [1.0, 2.0, 2.0, 2.0, 3.0]);
        assert_eq!(e.slots[0].rtt, SimDuration::from_millis(40));
    }

    #[test]
    fn a_resent_syn_restarts_the_timing() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(100));
        e.observe(SimTime(0), FlowId(0), &data(0, true));
        e.observe(SimTime(3000 * MS), FlowId(0), &data(0, true));
        run(&mut e, &[3030.0]);
        assert_eq!(e.slots[0].rtt, SimDuration::from_millis(30));
    }

    #[test]
    fn without_a_syn_the_fallback_is_the_round_length() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(25));
        // Rounds [0, 25) and [25, 50): 3 then 1 segment.
        let got = run(&mut e, &[0.0, 1.0, 2.0, 25.0, 50.0]);
        assert_eq!(got, [1.0, 2.0, 3.0, 3.0, 1.0]);
        assert_eq!(e.slots[0].rtt, SimDuration::from_millis(25));
    }

    /// Slow start doubles the flight each round: the estimate follows it
    /// (1, 2, 4, 8 segments per 10 ms round), then a cut to half shows one
    /// round later, and a silence of a whole round (a timeout) drops the
    /// previous round to 0.
    #[test]
    fn the_estimate_follows_the_flight_per_round() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(10));
        let mut times = Vec::new();
        for (r, n) in [1u32, 2, 4, 8, 4].iter().enumerate() {
            for k in 0..*n {
                times.push(10.0 * r as f64 + 0.1 * f64::from(k));
            }
        }
        let got = run(&mut e, &times);
        let last_of_round: Vec<f64> = [0usize, 2, 6, 14, 18].iter().map(|&i| got[i]).collect();
        assert_eq!(last_of_round, [1.0, 2.0, 4.0, 8.0, 8.0], "{got:?}");
        // Next round (60 ms) counts the cut flight of 4: estimate 4.
        let after_cut = run(&mut e, &[50.0, 50.1]);
        assert_eq!(after_cut, [4.0, 4.0]);
        // Silent from 60 ms to 90 ms: the round [50, 60) ended more than one
        // RTT before 90 ms, so the timed-out flow restarts at 1.
        assert_eq!(run(&mut e, &[90.0]), [1.0]);
    }

    #[test]
    fn acks_and_syns_are_slow_and_unknown_payloads_keep_no_state() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(10));
        let ack = Payload::Ack(Ack::default());
        assert_eq!(e.observe(SimTime(0), FlowId(3), &ack), 0.0);
        assert_eq!(e.flows(), 0);
        assert_eq!(e.observe(SimTime(0), FlowId(3), &data(0, true)), 0.0);
        assert_eq!(e.flows(), 1);
    }

    /// Records are recycled when flows end: memory follows the number of
    /// concurrent flows, not the number of flows over the run.
    #[test]
    fn records_are_recycled_when_flows_end() {
        let mut e = WindowEstimator::new(SimDuration::from_millis(10));
        for f in 0..10_000u32 {
            let now = SimTime(u64::from(f) * MS);
            e.observe(now, FlowId(f), &data(0, false));
            // Three flows live at a time.
            if f >= 2 {
                e.end_flow(FlowId(f - 2));
            }
        }
        assert_eq!(e.flows(), 2);
        assert!(
            e.capacity() <= 3,
            "{} records for 3 concurrent flows",
            e.capacity()
        );
        // A recycled record starts afresh.
        e.observe(SimTime(20_000 * MS), FlowId(99_999), &data(0, false));
        assert_eq!(
            e.slots.iter().filter(|s| s.count == 1).count(),
            e.capacity()
        );
    }
}
