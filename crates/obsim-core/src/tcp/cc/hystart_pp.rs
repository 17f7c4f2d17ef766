//! RFC 9406 HyStart++, the slow-start exit RFC 9438 §4.10 recommends for
//! CUBIC (`tcp.cubic.hystart = "rfc9406"`; Linux runs its own HyStart
//! instead, `tcp/cc/hystart.rs`).
//!
//! §4.2: slow start is split into rounds (a round ends when an ACK passes
//! `windowEnd`, the SND.NXT at its start). Each ACK's RTT sample
//! (`ControlBlock::ack_rtt`) updates the round's minimum. Once a round has
//! `N_RTT_SAMPLE` samples and the previous round's minimum is known, a
//! round minimum at least `RttThresh = clamp(lastRoundMinRTT /
//! MIN_RTT_DIVISOR, MIN_RTT_THRESH, MAX_RTT_THRESH)` above the previous
//! round's moves the sender into Conservative Slow Start (CSS), where each
//! ACK grows cwnd by a `CSS_GROWTH_DIVISOR`-th of slow start's increase. A
//! CSS round whose minimum falls below the baseline taken at entry means the
//! rise was jitter: slow start resumes. After `CSS_ROUNDS` rounds in CSS,
//! ssthresh = cwnd and congestion avoidance begins. In slow start and CSS
//! an ACK's increase is at most `L` segments (8; unlimited for a paced
//! sender). §4.3: only in the initial slow start (before any congestion
//! event); a loss during slow start or CSS ends it, and every later slow
//! start (after a timeout) is RFC 5681's.
//!
//! Constants are the RFC's recommended values (§4.3). Departures: the
//! increase is also bounded by obsim's `abc` rule (RFC 3465's L = 2 per ACK
//! when on); the round in which CSS begins counts as its first.

use crate::tcp::config::{HystartMode, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::time::SimDuration;

/// §4.3 `MIN_RTT_THRESH`.
const MIN_RTT_THRESH: SimDuration = SimDuration::from_millis(4);
/// §4.3 `MAX_RTT_THRESH`.
const MAX_RTT_THRESH: SimDuration = SimDuration::from_millis(16);
/// §4.3 `MIN_RTT_DIVISOR`.
const MIN_RTT_DIVISOR: u64 = 8;
/// §4.3 `N_RTT_SAMPLE`.
const N_RTT_SAMPLE: u32 = 8;
/// §4.3 `CSS_GROWTH_DIVISOR`.
const CSS_GROWTH_DIVISOR: f64 = 4.0;
/// §4.3 `CSS_ROUNDS`.
const CSS_ROUNDS: u32 = 5;
/// §4.3 `L` for a sender that does not pace (segments per ACK).
const UNPACED_L: f64 = 8.0;

/// Where HyStart++ is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Standard slow start with HyStart++'s round tracking.
    SlowStart,
    /// Conservative Slow Start.
    Css,
    /// HyStart++ is over (CSS ended, a loss, or it was off): RFC 5681.
    Done,
}

/// HyStart++'s state (§4.2's variables).
#[derive(Clone, Debug, PartialEq)]
pub struct HystartPlusPlus {
    phase: Phase,
    /// `L` in segments.
    limit: f64,
    /// `windowEnd`; `None` before the first round.
    window_end: Option<u64>,
    /// `lastRoundMinRTT`, `currentRoundMinRTT` (`None` = infinity).
    last_round_min: Option<SimDuration>,
    current_round_min: Option<SimDuration>,
    /// `rttSampleCount`.
    samples: u32,
    /// `cssBaselineMinRtt`.
    css_baseline: Option<SimDuration>,
    /// Rounds begun in CSS.
    css_rounds: u32,
}

impl HystartPlusPlus {
    /// Off (never changes slow start).
    pub const OFF: HystartPlusPlus = HystartPlusPlus {
        phase: Phase::Done,
        limit: UNPACED_L,
        window_end: None,
        last_round_min: None,
        current_round_min: None,
        samples: 0,
        css_baseline: None,
        css_rounds: 0,
    };

    /// HyStart++ for `cfg` (`tcp.cubic.hystart = "rfc9406"`), `L` from
    /// `tcp.pacing.enabled`.
    pub fn for_config(cfg: &TcpConfig) -> Self {
        if cfg.cubic.hystart != HystartMode::Rfc9406 {
            return HystartPlusPlus::OFF;
        }
        HystartPlusPlus {
            phase: Phase::SlowStart,
            limit: if cfg.pacing.enabled {
                f64::INFINITY
            } else {
                UNPACED_L
            },
            ..HystartPlusPlus::OFF
        }
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A congestion event (loss or timeout): HyStart++ is over (§4.2: "If
    /// loss or ECN-marking is observed anytime during standard slow start
    /// or CSS", and §4.3: later slow starts are standard).
    pub fn end(&mut self) {
        self.phase = Phase::Done;
    }

    /// An ACK with its sample `cb.ack_rtt`: rounds, minima, and the moves
    /// between slow start, CSS and congestion avoidance (which sets
    /// `cb.ssthresh = cb.cwnd`).
    pub fn on_acked(&mut self, cb: &mut ControlBlock) {
        if self.phase == Phase::Done {
            return;
        }
        if self.window_end.is_none_or(|w| cb.snd_una > w) {
            // A new round: lastRoundMinRTT = currentRoundMinRTT, ...
            self.window_end = Some(cb.snd_nxt);
            self.last_round_min = self.current_round_min;
            self.current_round_min = None;
            self.samples = 0;
            if self.phase == Phase::Css {
                self.css_rounds += 1;
                if self.css_rounds > CSS_ROUNDS {
                    // "If CSS_ROUNDS rounds are complete, enter congestion
                    // avoidance by setting the ssthresh to the current cwnd."
                    cb.ssthresh = cb.cwnd;
                    self.phase = Phase::Done;
                    return;
                }
            }
        }
        let Some(rtt) = cb.ack_rtt else {
            return;
        };
        self.current_round_min = Some(self.current_round_min.map_or(rtt, |m| m.min(rtt)));
        self.samples += 1;
        if self.samples < N_RTT_SAMPLE {
            return;
        }
        let (Some(current), Some(last)) = (self.current_round_min, self.last_round_min) else {
            return;
        };
        match self.phase {
            Phase::SlowStart => {
                let thresh = SimDuration::from_nanos(last.as_nanos() / MIN_RTT_DIVISOR)
                    .clamp(MIN_RTT_THRESH, MAX_RTT_THRESH);
                if current >= last + thresh {
                    self.css_baseline = Some(current);
                    self.phase = Phase::Css;
                    self.css_rounds = 1;
                }
            }
            Phase::Css => {
                if self.css_baseline.is_some_and(|b| current < b) {
                    // The rise was jitter: back to slow start.
                    self.css_baseline = None;
                    self.phase = Phase::SlowStart;
                }
            }
            Phase::Done => {}
        }
    }

    /// Slow start's increase `inc` (segments) for one ACK as HyStart++
    /// allows it: at most `L`, divided by `CSS_GROWTH_DIVISOR` in CSS.
    pub fn increase(&self, inc: f64) -> f64 {
        match self.phase {
            Phase::Done => inc,
            Phase::SlowStart => inc.min(self.limit),
            Phase::Css => inc.min(self.limit) / CSS_GROWTH_DIVISOR,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;
    use crate::time::SimTime;

    const MS: u64 = 1_000_000;

    fn on() -> (TcpConfig, HystartPlusPlus) {
        let mut cfg = profile("linux").unwrap();
        cfg.cubic.hystart = HystartMode::Rfc9406;
        let h = HystartPlusPlus::for_config(&cfg);
        (cfg, h)
    }

    /// A round of `n` ACKs with RTT `rtt_ms`, each advancing SND.UNA by
    /// one, the round ending at `end`; returns the next round's start.
    fn round(
        h: &mut HystartPlusPlus,
        cb: &mut ControlBlock,
        start: u64,
        n: u64,
        rtt_ms: u64,
    ) -> u64 {
        cb.snd_nxt = start + n;
        for i in 0..n {
            cb.snd_una = start + i + 1;
            cb.now = SimTime((start + i) * MS);
            cb.ack_rtt = Some(SimDuration::from_millis(rtt_ms));
            h.on_acked(cb);
        }
        start + n
    }

    fn cb(cfg: &TcpConfig) -> ControlBlock {
        let mut cb = ControlBlock::new(cfg, u64::MAX);
        cb.cwnd = 20.0;
        cb.ssthresh = f64::INFINITY;
        cb
    }

    #[test]
    fn a_delay_rise_enters_css_and_five_rounds_end_slow_start() {
        // 100 ms rounds, then 113 ms: RttThresh = clamp(12.5, 4, 16) ms.
        let (cfg, mut h) = on();
        let mut c = cb(&cfg);
        let mut s = round(&mut h, &mut c, 0, 10, 100);
        s = round(&mut h, &mut c, s, 10, 100);
        assert_eq!(h.phase(), Phase::SlowStart);
        assert_eq!(h.increase(20.0), 8.0, "L = 8 unpaced");
        s = round(&mut h, &mut c, s, 10, 113);
        assert_eq!(h.phase(), Phase::Css);
        assert_eq!(h.increase(2.0), 0.5, "a quarter of slow start's");
        // Rounds in CSS at the same RTT: congestion avoidance after
        // CSS_ROUNDS of them.
        for _ in 0..CSS_ROUNDS {
            assert_eq!(h.phase(), Phase::Css);
            s = round(&mut h, &mut c, s, 10, 113);
        }
        assert_eq!(h.phase(), Phase::Done);
        assert_eq!(c.ssthresh, c.cwnd);
    }

    #[test]
    fn a_rise_under_the_threshold_or_with_few_samples_stays_in_slow_start() {
        let (cfg, mut h) = on();
        let mut c = cb(&cfg);
        let mut s = round(&mut h, &mut c, 0, 10, 100);
        s = round(&mut h, &mut c, s, 10, 112);
        assert_eq!(h.phase(), Phase::SlowStart, "12 ms < 12.5 ms");
        s = round(&mut h, &mut c, s, 7, 140);
        assert_eq!(h.phase(), Phase::SlowStart, "7 samples");
        round(&mut h, &mut c, s, 8, 160);
        assert_eq!(h.phase(), Phase::Css);
    }

    #[test]
    fn a_css_round_below_the_baseline_resumes_slow_start() {
        let (cfg, mut h) = on();
        let mut c = cb(&cfg);
        let mut s = round(&mut h, &mut c, 0, 10, 100);
        s = round(&mut h, &mut c, s, 10, 120);
        assert_eq!(h.phase(), Phase::Css);
        round(&mut h, &mut c, s, 10, 110);
        assert_eq!(h.phase(), Phase::SlowStart);
        assert!(c.ssthresh.is_infinite());
    }

    #[test]
    fn a_loss_ends_it_and_off_changes_nothing() {
        let (cfg, mut h) = on();
        h.end();
        assert_eq!(h.increase(20.0), 20.0);
        let mut c = cb(&cfg);
        let mut off = HystartPlusPlus::for_config(&profile("linux").unwrap());
        let s = round(&mut off, &mut c, 0, 10, 100);
        round(&mut off, &mut c, s, 10, 200);
        assert_eq!(off.phase(), Phase::Done);
        assert!(c.ssthresh.is_infinite());
    }

    #[test]
    fn a_paced_sender_has_no_per_ack_limit() {
        let (mut cfg, _) = on();
        cfg.pacing.enabled = true;
        let h = HystartPlusPlus::for_config(&cfg);
        assert_eq!(h.increase(20.0), 20.0);
    }
}
