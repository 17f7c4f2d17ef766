//! HyStart, the slow-start exit Linux's CUBIC runs (net/ipv4/tcp_cubic.c,
//! Linux 6.18: `cubictcp_acked`, `hystart_update`, `bictcp_hystart_reset`,
//! `hystart_ack_delay`; Ha and Rhee, "Taming the Elephants: New TCP Slow
//! Start", 2008). Not RFC 9406's HyStart++, which Linux does not run.
//!
//! Slow start proceeds in rounds: a round starts when an ACK passes the
//! `snd_nxt` the previous one started with. Within a round two tests may end
//! slow start by setting ssthresh to cwnd (and only once per connection,
//! until a retransmission timeout resets it), each only at cwnd ≥
//! `hystart_low_window`:
//!
//! - **ACK train**: ACKs keep arriving within `hystart_ack_delta` of each
//!   other for longer than half the minimum delay (plus a cushion of up to
//!   1 ms for GSO, `hystart_ack_delay`; not halved when the sender paces)
//!   since the round began: the window already fills the path.
//! - **Delay increase**: after 8 RTT samples in the round, the round's
//!   smallest exceeds the minimum delay by `clamp(delay_min / 8, 4 ms, 16
//!   ms)`: a queue is building.
//!
//! Each ACK's RTT sample (Linux `ack_sample.rtt_us`, `ControlBlock::ack_rtt`)
//! feeds the tests; none within 1 s of the start of a congestion-avoidance
//! stage ("Discard delay samples right after fast recovery"). The minimum
//! delay is HyStart's own (`delay_min`, cleared with CUBIC's state at a
//! timeout, `cubictcp_state(TCP_CA_Loss)`).

use crate::tcp::config::{CubicConfig, HystartDetect, HystartMode, PacingConfig, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::tcp::pacing::rate_of;
use crate::time::{SimDuration, SimTime};

/// `HYSTART_MIN_SAMPLES`: RTT samples per round before the delay test.
const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN`, `HYSTART_DELAY_MAX`: the clamp of the delay test's
/// margin.
const DELAY_MIN: SimDuration = SimDuration::from_millis(4);
const DELAY_MAX: SimDuration = SimDuration::from_millis(16);
/// `hystart_ack_delay`'s cap ("We cap the cushion to 1ms").
const ACK_DELAY_CAP: SimDuration = SimDuration::from_millis(1);
/// "Discard delay samples right after fast recovery": `HZ`, one second.
const AFTER_EPOCH: SimDuration = SimDuration::from_secs(1);

/// HyStart's state (Linux `struct bictcp`'s `found`, `round_start`,
/// `end_seq`, `last_ack`, `curr_rtt`, `sample_cnt`, `delay_min`).
#[derive(Clone, Debug, PartialEq)]
pub struct Hystart {
    on: bool,
    detect: HystartDetect,
    low_window: f64,
    ack_delta: SimDuration,
    /// For `hystart_ack_delay`: the pacing rate's configuration, whether
    /// the sender paces, the MSS and `sk_gso_max_size`.
    pacing: PacingConfig,
    mss: u32,
    gso_max_size: u32,
    /// Slow start's exit was found (ssthresh set to cwnd).
    found: bool,
    /// When the current round began (`round_start`) and its last ACK of a
    /// train (`last_ack`).
    round_start: SimTime,
    last_ack: SimTime,
    /// `snd_nxt` when the round began (`end_seq`).
    end_seq: u64,
    /// The round's smallest RTT sample (`curr_rtt`; `None` = `~0U`).
    curr_rtt: Option<SimDuration>,
    /// Samples in the round (`sample_cnt`).
    samples: u32,
    /// The smallest sample (`delay_min`; `None` = 0).
    delay_min: Option<SimDuration>,
}

impl Hystart {
    /// HyStart off (never ends slow start).
    pub const OFF: Hystart = Hystart {
        on: false,
        detect: HystartDetect::Both,
        low_window: 16.0,
        ack_delta: SimDuration::from_millis(2),
        pacing: PacingConfig::OFF,
        mss: 1,
        gso_max_size: 65_536,
        found: false,
        round_start: SimTime::ZERO,
        last_ack: SimTime::ZERO,
        end_seq: 0,
        curr_rtt: None,
        samples: 0,
        delay_min: None,
    };

    /// HyStart for `cfg` (on with `tcp.cubic.hystart = "linux"`), its first round
    /// starting at time zero with nothing sent (`cubictcp_init`).
    pub fn for_config(cfg: &TcpConfig) -> Self {
        let c: &CubicConfig = &cfg.cubic;
        Hystart {
            on: c.hystart == HystartMode::Linux,
            detect: c.hystart_detect,
            low_window: f64::from(c.hystart_low_window),
            ack_delta: c.hystart_ack_delta,
            pacing: cfg.pacing,
            mss: cfg.mss,
            gso_max_size: cfg.small_queues.gso_max_size,
            ..Hystart::OFF
        }
    }

    /// True once a test ended slow start (until a timeout).
    pub fn found(&self) -> bool {
        self.found
    }

    /// The smallest delay sample HyStart has taken.
    pub fn delay_min(&self) -> Option<SimDuration> {
        self.delay_min
    }

    /// `bictcp_hystart_reset`: a new round from `cb.now` and `cb.snd_nxt`.
    fn new_round(&mut self, cb: &ControlBlock) {
        self.round_start = cb.now;
        self.last_ack = cb.now;
        self.end_seq = cb.snd_nxt;
        self.curr_rtt = None;
        self.samples = 0;
    }

    /// `cubictcp_state(TCP_CA_Loss)`: a retransmission timeout clears
    /// `found` and `delay_min` (`bictcp_reset`) and starts a new round.
    pub fn on_timeout(&mut self, cb: &ControlBlock) {
        self.found = false;
        self.delay_min = None;
        self.new_round(cb);
    }

    /// `hystart_ack_delay`: min(1 ms, 4 GSO packets at the pacing rate); 0
    /// without a rate.
    fn ack_delay(&self, cb: &ControlBlock) -> SimDuration {
        match rate_of(&self.pacing, cb, self.mss) {
            Some(rate) if rate > 0.0 => {
                let s = f64::from(self.gso_max_size) * 4.0 / rate;
                SimDuration::from_secs_f64(s).min(ACK_DELAY_CAP)
            }
            _ => SimDuration::ZERO,
        }
    }

    /// `cubictcp_acked`: an ACK that acknowledged new data, with its RTT
    /// sample `cb.ack_rtt` if it gave one; `epoch`: when CUBIC's current
    /// congestion-avoidance stage began (`ca->epoch_start`), if one is under
    /// way. May end slow start by setting `cb.ssthresh = cb.cwnd`.
    pub fn on_acked(&mut self, cb: &mut ControlBlock, epoch: Option<SimTime>) {
        if !self.on {
            return;
        }
        // "Some calls are for duplicates without timestamps".
        let Some(rtt) = cb.ack_rtt else {
            return;
        };
        // "Discard delay samples right after fast recovery".
        if epoch.is_some_and(|e| cb.now.saturating_since(e) < AFTER_EPOCH) {
            return;
        }
        let delay = rtt.max(SimDuration::from_micros(1));
        // "first time call or link delay decreases".
        if self.delay_min.is_none_or(|m| m > delay) {
            self.delay_min = Some(delay);
        }
        // `tcp_in_slow_start`: cwnd < ssthresh.
        if !self.found && cb.cwnd < cb.ssthresh {
            self.update(cb, delay);
        }
    }

    /// `hystart_update`.
    fn update(&mut self, cb: &mut ControlBlock, delay: SimDuration) {
        if cb.snd_una > self.end_seq {
            self.new_round(cb);
        }
        // "hystart triggers when cwnd is larger than some threshold".
        if cb.cwnd.floor() < self.low_window {
            return;
        }
        let delay_min = self.delay_min.unwrap_or(delay);
        if self.detect.train() && cb.now.saturating_since(self.last_ack) <= self.ack_delta {
            self.last_ack = cb.now;
            let mut threshold = delay_min + self.ack_delay(cb);
            // "Pacing might have delayed packets up to RTT/2 during slow
            // start": halved only for an unpaced sender.
            if !self.pacing.enabled {
                threshold = SimDuration::from_nanos(threshold.as_nanos() / 2);
            }
            if cb.now.saturating_since(self.round_start) > threshold {
                self.exit(cb);
                return;
            }
        }
        if self.detect.delay() {
            if self.curr_rtt.is_none_or(|c| c > delay) {
                self.curr_rtt = Some(delay);
            }
            if self.samples < MIN_SAMPLES {
                self.samples += 1;
            } else {
                let margin =
                    SimDuration::from_nanos(delay_min.as_nanos() / 8).clamp(DELAY_MIN, DELAY_MAX);
                if self.curr_rtt.is_some_and(|c| c > delay_min + margin) {
                    self.exit(cb);
                }
            }
        }
    }

    /// "tp->snd_ssthresh = tcp_snd_cwnd(tp)": slow start ends here.
    fn exit(&mut self, cb: &mut ControlBlock) {
        self.found = true;
        cb.ssthresh = cb.cwnd.floor();
    }
}

#[cfg(test)]
mod tests {
    //! The tests alone, on a control block driven by hand: a round of ACKs
    //! at chosen times with chosen RTT samples.

    use super::*;
    use crate::tcp::profile::profile;

    const MS: u64 = 1_000_000;

    fn linux() -> TcpConfig {
        let cfg = profile("linux").unwrap();
        assert_eq!(cfg.cubic.hystart, HystartMode::Linux);
        cfg
    }

    /// A slow-start control block: cwnd `cwnd`, nothing acknowledged yet of
    /// a flight that ends at `snd_nxt`.
    fn cb(cfg: &TcpConfig, cwnd: f64, snd_una: u64, snd_nxt: u64) -> ControlBlock {
        let mut cb = ControlBlock::new(cfg, u64::MAX);
        cb.cwnd = cwnd;
        cb.ssthresh = f64::INFINITY;
        cb.snd_una = snd_una;
        cb.snd_nxt = snd_nxt;
        cb
    }

    /// One ACK at `t_ns` moving SND.UNA to `una`, with RTT sample `rtt_ns`.
    fn ack(h: &mut Hystart, cb: &mut ControlBlock, t_ns: u64, una: u64, rtt_ns: u64) {
        cb.now = SimTime(t_ns);
        cb.snd_una = una;
        cb.ack_rtt = Some(SimDuration::from_nanos(rtt_ns));
        h.on_acked(cb, None);
    }

    /// 400 ACKs 0.25 ms apart in one round, each RTT 1 ms above the last:
    /// a train and a delay rise that end slow start whenever HyStart may.
    fn both_tests_would_fire(h: &mut Hystart, c: &mut ControlBlock) {
        for i in 0..400 {
            ack(h, c, 1000 * MS + i * MS / 4, 1 + i, (100 + i) * MS);
        }
    }

    #[test]
    fn an_ack_train_longer_than_half_the_minimum_delay_ends_slow_start() {
        // delay_min 100 ms; unpaced: threshold (100 ms + the GSO cushion)/2.
        // The round begins at the first ACK past end_seq (t = 1 s); ACKs
        // every 1 ms (within the 2 ms delta) keep the train going.
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 64.0, 0, 64);
        c.srtt = Some(SimDuration::from_millis(100));
        ack(&mut h, &mut c, 1000 * MS, 1, 100 * MS);
        let cushion = h.ack_delay(&c).as_nanos();
        assert!(cushion > 0 && cushion <= MS);
        let threshold = (100 * MS + cushion) / 2;
        let mut t = 1000 * MS;
        let mut una = 1;
        while !h.found() {
            t += MS;
            una += 1;
            ack(&mut h, &mut c, t, una, 100 * MS);
            assert!(
                t - 1000 * MS <= threshold + MS,
                "no exit after {} ns",
                t - 1000 * MS
            );
        }
        assert!(t - 1000 * MS > threshold);
        assert_eq!(c.ssthresh, 64.0, "ssthresh = cwnd");
    }

    #[test]
    fn a_gap_over_the_ack_delta_breaks_the_train() {
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 64.0, 0, 1000);
        ack(&mut h, &mut c, 1000 * MS, 1, 100 * MS);
        // ACKs 3 ms apart: never a train; the same RTT: no delay increase.
        for i in 1..40 {
            ack(&mut h, &mut c, 1000 * MS + 3 * i * MS, 1 + i, 100 * MS);
        }
        assert!(!h.found());
        assert!(c.ssthresh.is_infinite());
    }

    #[test]
    fn a_round_whose_smallest_rtt_rises_past_the_margin_ends_slow_start() {
        // delay_min 40 ms: margin clamp(5 ms, 4, 16) = 5 ms. ACKs 3 ms apart
        // (no train). Round 1 at 40 ms; round 2 at 44 ms: 8 samples, then
        // 44 < 45: no exit; round 3 at 46 ms: exit at its 9th sample.
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 32.0, 0, 0);
        let mut t = 1000 * MS;
        for (round, rtt) in [(0u64, 40 * MS), (1, 44 * MS), (2, 46 * MS)] {
            // Each round's first ACK passes what was sent when the previous
            // one began (100 segments a round).
            c.snd_nxt = 100 * (round + 1);
            for i in 0..12 {
                t += 3 * MS;
                ack(&mut h, &mut c, t, 100 * round + 1 + i, rtt);
                // Sample i + 1 of the round; the test runs from the 9th.
                if round < 2 || i < 8 {
                    assert!(!h.found(), "round {round} sample {}", i + 1);
                }
            }
        }
        assert!(h.found());
        assert_eq!(c.ssthresh, 32.0);
        assert_eq!(h.delay_min(), Some(SimDuration::from_millis(40)));
    }

    #[test]
    fn the_storm_below_ends_slow_start_at_cwnd_16() {
        // The positive control of the two tests that follow.
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 16.0, 0, 1000);
        both_tests_would_fire(&mut h, &mut c);
        assert!(h.found());
        assert_eq!(c.ssthresh, 16.0);
    }

    #[test]
    fn below_the_low_window_nothing_is_tested() {
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 15.0, 0, 1000);
        both_tests_would_fire(&mut h, &mut c);
        assert!(!h.found());
    }

    #[test]
    fn samples_in_the_first_second_of_a_stage_are_discarded_and_a_timeout_starts_over() {
        let cfg = linux();
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 64.0, 0, 1000);
        c.now = SimTime(5000 * MS);
        c.ack_rtt = Some(SimDuration::from_millis(7));
        h.on_acked(&mut c, Some(SimTime(4500 * MS)));
        assert_eq!(h.delay_min(), None, "0.5 s into the stage");
        h.on_acked(&mut c, Some(SimTime(3900 * MS)));
        assert_eq!(h.delay_min(), Some(SimDuration::from_millis(7)));
        h.found = true;
        h.on_timeout(&c);
        assert!(!h.found() && h.delay_min().is_none());
    }

    #[test]
    fn off_never_ends_slow_start() {
        let mut cfg = linux();
        cfg.cubic.hystart = HystartMode::Off;
        let mut h = Hystart::for_config(&cfg);
        let mut c = cb(&cfg, 64.0, 0, 1000);
        both_tests_would_fire(&mut h, &mut c);
        assert!(!h.found());
        assert!(c.ssthresh.is_infinite());
    }
}
