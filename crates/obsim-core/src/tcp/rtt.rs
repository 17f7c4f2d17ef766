//! Round-trip-time estimation and the retransmission timeout (RTO).
//!
//! Two flavours, chosen by [`RtoEstimator`]:
//! - [`RtoEstimator::Rfc6298`]: RFC 6298 §2 in integer nanoseconds
//!   (alpha = 1/8, beta = 1/4, K = 4), clamped to `[min, max]`.
//! - [`RtoEstimator::Linux`]: RFC 6298's averages, RTO = SRTT +
//!   max(4·RTTVAR, min) (Linux `__tcp_set_rto`).
//! - [`RtoEstimator::Ns2`]: ns-2's `Agent/TCP` estimator (`tcp.cc`:
//!   `rtt_init`, `rtt_update`, `rtt_timeout`, `rtt_backoff`): samples are
//!   counted in whole ticks of `tcpTick_`, SRTT is kept scaled by 8 and RTTVAR
//!   by 4 in integers, and RTO = (SRTT + 4·RTTVAR) ticks. ns-2 phases the tick
//!   grid with a random `boot_time_`; here the grid starts at time zero.
//!
//! Both apply Karn's algorithm the way the caller drives them: the sender only
//! feeds samples from segments that were never retransmitted, and the
//! backed-off timer is kept until such a sample arrives (RFC 6298 §5.7 and
//! Karn/Partridge 1987); the sample then resets the backoff.

use crate::tcp::config::{RtoConfig, RtoEstimator};
use crate::time::{SimDuration, SimTime};

/// ns-2 `T_SRTT_BITS`: SRTT is stored multiplied by 8.
const SRTT_SHIFT: u32 = 3;
/// ns-2 `T_RTTVAR_BITS`: RTTVAR is stored multiplied by 4.
const RTTVAR_SHIFT: u32 = 2;
/// ns-2 `rttvar_exp_`: RTO = SRTT + 2^2 RTTVAR.
const RTTVAR_EXP: u32 = 2;
/// ns-2 backs off freely up to this multiplier (`rtt_backoff`).
const NS2_BACKOFF_FREE: u32 = 64;
/// ns-2 clobbers SRTT into RTTVAR once the backoff exceeds this (`rtt_backoff`).
const NS2_BACKOFF_CLOBBER: u32 = 8;

/// RFC 6298 state, in nanoseconds.
#[derive(Clone, Debug, Default)]
struct Rfc6298State {
    /// SRTT and RTTVAR, `None` before the first sample (RFC 6298 §2.1).
    smoothed: Option<(u64, u64)>,
}

/// ns-2 state, in ticks (scaled as in tcp.cc).
#[derive(Clone, Debug, Default)]
struct Ns2State {
    /// `t_srtt_`: 8 × SRTT in ticks; 0 means "no estimate".
    srtt8: i64,
    /// `t_rttvar_`: 4 × RTTVAR in ticks.
    rttvar4: i64,
    /// `t_rtxcur_`: the un-backed-off RTO, in nanoseconds.
    rtxcur: u64,
    /// True once a sample was taken (`rtt_timeout`'s first branch).
    sampled: bool,
}

/// The RTT estimator and retransmission-timer value of one sender.
#[derive(Clone, Debug)]
pub struct RttEstimator {
    cfg: RtoConfig,
    rfc: Rfc6298State,
    ns2: Ns2State,
    /// Current backoff multiplier (1, 2, 4, ...), RFC 6298 §5.5.
    backoff: u32,
    /// Last smoothed RTT (for reporting), whatever the flavour.
    srtt: Option<SimDuration>,
}

impl RttEstimator {
    /// A fresh estimator: RTO = `cfg.initial` (RFC 6298 §2.1; ns-2 `rtt_init`
    /// with `rtxcur_init_`).
    pub fn new(cfg: &RtoConfig) -> Self {
        RttEstimator {
            cfg: *cfg,
            rfc: Rfc6298State::default(),
            ns2: Ns2State {
                rtxcur: cfg.initial.as_nanos(),
                ..Ns2State::default()
            },
            backoff: 1,
            srtt: None,
        }
    }

    /// Smoothed RTT, `None` before the first sample.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    /// Current backoff multiplier.
    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    /// Ends the backoff without a sample (ns-2 `t_backoff_ = 1`, as
    /// Sack1 does on a partial ACK in fast recovery).
    pub fn reset_backoff(&mut self) {
        self.backoff = 1;
    }

    /// Feeds one valid RTT sample `r`, measured on a segment sent at
    /// `sent_at` that was never retransmitted (Karn). Resets the backoff, as
    /// the valid sample ends Karn's hold (RFC 6298 §5.7; ns-2 `newack` sets
    /// `t_backoff_ = 1` before `rtt_update`).
    pub fn on_sample(&mut self, r: SimDuration, sent_at: SimTime) {
        self.backoff = 1;
        match self.cfg.estimator {
            RtoEstimator::Rfc6298 | RtoEstimator::Linux => self.rfc_update(r),
            RtoEstimator::Ns2 => self.ns2_update(r, sent_at),
        }
    }

    /// RFC 6298 §2.2 (first sample) and §2.3 (later samples).
    fn rfc_update(&mut self, r: SimDuration) {
        let r = r.as_nanos();
        let (srtt, rttvar) = match self.rfc.smoothed {
            // §2.2: SRTT <- R, RTTVAR <- R/2.
            None => (r, r / 2),
            // §2.3: RTTVAR <- (1 - beta) RTTVAR + beta |SRTT - R| (beta = 1/4),
            // then SRTT <- (1 - alpha) SRTT + alpha R (alpha = 1/8); RTTVAR
            // is updated first, with the old SRTT, as §2.3 requires.
            Some((srtt, rttvar)) => {
                let rttvar = (3 * rttvar + srtt.abs_diff(r)) / 4;
                let srtt = (7 * srtt + r) / 8;
                (srtt, rttvar)
            }
        };
        self.rfc.smoothed = Some((srtt, rttvar));
        self.srtt = Some(SimDuration(srtt));
    }

    /// ns-2 `rtt_update`: quantise the sample to ticks, then the scaled
    /// integer update of SRTT and RTTVAR, then `t_rtxcur_`.
    fn ns2_update(&mut self, r: SimDuration, sent_at: SimTime) {
        let tick = self.cfg.granularity.as_nanos().max(1);
        // t_rtt_ = int((tao + tickoff) / tcp_tick_) with tickoff = the send
        // time's offset within its tick: the number of tick boundaries the
        // sample crossed. At least 1 tick.
        let tickoff = sent_at.as_nanos() % tick;
        let m = i64::try_from((r.as_nanos() + tickoff) / tick)
            .unwrap_or(i64::MAX)
            .max(1);
        let s = &mut self.ns2;
        if s.srtt8 == 0 {
            // First sample: srtt = rtt, rttvar = rtt / 2.
            s.srtt8 = m << SRTT_SHIFT;
            s.rttvar4 = m << (RTTVAR_SHIFT - 1);
        } else {
            // delta = m - srtt; srtt += delta/8 (scaled: srtt8 += delta).
            let mut delta = m - (s.srtt8 >> SRTT_SHIFT);
            s.srtt8 += delta;
            if s.srtt8 <= 0 {
                s.srtt8 = 1;
            }
            // rttvar += (|delta| - rttvar)/4 (scaled: rttvar4 += |delta| - rttvar4/4).
            delta = delta.abs() - (s.rttvar4 >> RTTVAR_SHIFT);
            s.rttvar4 += delta;
            if s.rttvar4 <= 0 {
                s.rttvar4 = 1;
            }
        }
        // t_rtxcur_ = ((rttvar4 << (exp + 1)) + srtt8) >> 3 ticks
        //           = SRTT + 4 RTTVAR, truncated to whole ticks.
        let ticks =
            ((s.rttvar4 << (RTTVAR_EXP + SRTT_SHIFT - RTTVAR_SHIFT)) + s.srtt8) >> SRTT_SHIFT;
        s.rtxcur = (ticks.max(0) as u64).saturating_mul(tick);
        s.sampled = true;
        self.srtt = Some(SimDuration(((s.srtt8.max(0) as u64) * tick) >> SRTT_SHIFT));
    }

    /// The un-backed-off RTO (RFC 6298 §2: SRTT + max(G, K·RTTVAR), at
    /// least `min`; ns-2: `t_rtxcur_`).
    pub fn base_rto(&self) -> SimDuration {
        match self.cfg.estimator {
            RtoEstimator::Rfc6298 => match self.rfc.smoothed {
                None => self.cfg.initial.max(self.cfg.min).min(self.cfg.max),
                Some((srtt, rttvar)) => {
                    let g = self.cfg.granularity.as_nanos();
                    // §2.2/§2.3: RTO <- SRTT + max(G, K*RTTVAR), K = 4.
                    let rto = srtt.saturating_add(g.max(rttvar.saturating_mul(4)));
                    // §2.4: round up to the minimum; §2.5: cap at the maximum.
                    SimDuration(rto).max(self.cfg.min).min(self.cfg.max)
                }
            },
            RtoEstimator::Linux => match self.rfc.smoothed {
                None => self.cfg.initial.min(self.cfg.max),
                Some((srtt, rttvar)) => {
                    // Linux `__tcp_set_rto`: (srtt_us >> 3) + rttvar_us, with
                    // rttvar_us >= tcp_rto_min_us (tcp_rtt_estimator).
                    let var = rttvar.saturating_mul(4).max(self.cfg.min.as_nanos());
                    SimDuration(srtt.saturating_add(var)).min(self.cfg.max)
                }
            },
            RtoEstimator::Ns2 => SimDuration(self.ns2.rtxcur),
        }
    }

    /// The RTO to arm the retransmission timer with, backoff included.
    pub fn rto(&self) -> SimDuration {
        match self.cfg.estimator {
            // §5.5: RTO <- RTO * 2 per expiry; §2.5: at most `max`.
            RtoEstimator::Rfc6298 | RtoEstimator::Linux => self
                .base_rto()
                .saturating_mul(u64::from(self.backoff))
                .min(self.cfg.max),
            RtoEstimator::Ns2 => self.ns2_timeout(),
        }
    }

    /// ns-2 `rtt_timeout`.
    fn ns2_timeout(&self) -> SimDuration {
        let b = u64::from(self.backoff);
        let min = self.cfg.min.as_nanos();
        let cur = self.ns2.rtxcur;
        let mut t = if self.cfg.ns2_rfc2988 {
            // RFC 2988 correction: clamp to minrto_ before backing off.
            if cur < min {
                min.saturating_mul(b)
            } else {
                cur.saturating_mul(b)
            }
        } else {
            // Pre-2002 behaviour: back off, then clamp to minrto_.
            cur.saturating_mul(b).max(min)
        };
        t = t.min(self.cfg.max.as_nanos());
        // Never less than two ticks.
        let two_ticks = 2 * self.cfg.granularity.as_nanos();
        SimDuration(t.max(two_ticks))
    }

    /// Backs the timer off after an expiry (RFC 6298 §5.5; ns-2
    /// `rtt_backoff`).
    pub fn on_timeout(&mut self) {
        match self.cfg.estimator {
            // Linux `tcp_retransmit_timer`: icsk_backoff++ and the RTO
            // doubles, capped at TCP_RTO_MAX (the `max`).
            RtoEstimator::Rfc6298 | RtoEstimator::Linux => {
                if self.backoff < self.cfg.max_backoff {
                    self.backoff = self.backoff.saturating_mul(2);
                }
            }
            RtoEstimator::Ns2 => {
                // Double while below 64, or (rfc2988_) while the backed-off
                // RTO is still below maxrto_.
                let may = self.backoff < NS2_BACKOFF_FREE.min(self.cfg.max_backoff)
                    || (self.cfg.ns2_rfc2988 && self.ns2_timeout() < self.cfg.max);
                if may {
                    self.backoff = self.backoff.saturating_mul(2);
                }
                if self.backoff > NS2_BACKOFF_CLOBBER {
                    // "If backed off this far, clobber the srtt value,
                    // storing it in the mean deviation instead."
                    let s = &mut self.ns2;
                    s.rttvar4 += s.srtt8 >> SRTT_SHIFT;
                    s.srtt8 = 0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux_rto_is_srtt_plus_at_least_the_minimum() {
        let cfg = RtoConfig {
            estimator: RtoEstimator::Linux,
            ..rfc_cfg()
        };
        let mut e = RttEstimator::new(&cfg);
        assert_eq!(e.rto(), SimDuration::from_secs(1), "initial RTO");
        // Steady 100 ms samples: RTTVAR decays towards 0, so RFC 6298 gives
        // max(100 ms + 4 RTTVAR, 200 ms) -> 200 ms; Linux keeps 100 + 200.
        for i in 0..200 {
            e.on_sample(SimDuration::from_millis(100), SimTime(i * 100_000_000));
        }
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(100)));
        assert_eq!(e.rto(), SimDuration::from_millis(300));
        let mut r = RttEstimator::new(&rfc_cfg());
        for i in 0..200 {
            r.on_sample(SimDuration::from_millis(100), SimTime(i * 100_000_000));
        }
        assert_eq!(r.rto(), SimDuration::from_millis(200));
        // A large deviation dominates the minimum, as in RFC 6298.
        let mut v = RttEstimator::new(&cfg);
        v.on_sample(SimDuration::from_millis(400), SimTime::ZERO);
        // SRTT 400, RTTVAR 200: 400 + 800.
        assert_eq!(v.rto(), SimDuration::from_millis(1200));
        v.on_timeout();
        assert_eq!(v.rto(), SimDuration::from_millis(2400), "backoff doubles");
    }

    fn rfc_cfg() -> RtoConfig {
        RtoConfig {
            estimator: RtoEstimator::Rfc6298,
            initial: SimDuration::from_secs(1),
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            granularity: SimDuration::from_millis(1),
            max_backoff: 64,
            ns2_rfc2988: true,
        }
    }

    fn ns2_cfg() -> RtoConfig {
        RtoConfig {
            estimator: RtoEstimator::Ns2,
            initial: SimDuration::from_secs(3),
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            granularity: SimDuration::from_millis(10),
            max_backoff: 64,
            ns2_rfc2988: true,
        }
    }

    #[track_caller]
    fn ms(e: &RttEstimator) -> f64 {
        e.rto().as_secs_f64() * 1e3
    }

    // ---- RFC 6298 ------------------------------------------------------

    #[test]
    fn rfc_initial_rto_is_configured_value() {
        let e = RttEstimator::new(&rfc_cfg());
        assert_eq!(e.rto(), SimDuration::from_secs(1));
        assert_eq!(e.srtt(), None);
    }

    #[test]
    fn rfc_hand_computed_sequence() {
        let mut e = RttEstimator::new(&rfc_cfg());
        // R1 = 100 ms: SRTT 100, RTTVAR 50, RTO = 100 + 200 = 300 ms.
        e.on_sample(SimDuration::from_millis(100), SimTime::ZERO);
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(100)));
        assert_eq!(e.rto(), SimDuration::from_millis(300));
        // R2 = 200 ms: RTTVAR = 3/4*50 + 1/4*|100-200| = 62.5;
        // SRTT = 7/8*100 + 1/8*200 = 112.5; RTO = 112.5 + 250 = 362.5 ms.
        e.on_sample(SimDuration::from_millis(200), SimTime::ZERO);
        assert_eq!(e.srtt(), Some(SimDuration::from_micros(112_500)));
        assert_eq!(e.rto(), SimDuration::from_micros(362_500));
    }

    #[test]
    fn rfc_min_and_granularity_apply() {
        let mut e = RttEstimator::new(&rfc_cfg());
        // 10 ms constant RTT: RTTVAR decays towards 0, RTO -> min 200 ms.
        for _ in 0..50 {
            e.on_sample(SimDuration::from_millis(10), SimTime::ZERO);
        }
        assert_eq!(e.rto(), SimDuration::from_millis(200));
        let mut c = rfc_cfg();
        c.min = SimDuration::ZERO;
        let mut e = RttEstimator::new(&c);
        for _ in 0..200 {
            e.on_sample(SimDuration::from_millis(10), SimTime::ZERO);
        }
        // RTTVAR -> 0, so RTO = SRTT + G = 11 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(11));
    }

    #[test]
    fn rfc_backoff_doubles_caps_and_resets_on_sample() {
        let mut e = RttEstimator::new(&rfc_cfg());
        e.on_sample(SimDuration::from_millis(100), SimTime::ZERO);
        e.on_timeout();
        assert!((ms(&e) - 600.0).abs() < 1e-9);
        e.on_timeout();
        assert!((ms(&e) - 1200.0).abs() < 1e-9);
        for _ in 0..20 {
            e.on_timeout();
        }
        // Multiplier capped at max_backoff = 64: 64 x 300 ms.
        assert_eq!(e.backoff(), 64);
        assert_eq!(e.rto(), SimDuration::from_millis(19_200));
        let mut big = RttEstimator::new(&rfc_cfg());
        big.on_sample(SimDuration::from_secs(5), SimTime::ZERO);
        for _ in 0..4 {
            big.on_timeout();
        }
        // 15 s x 16 capped at max 60 s (RFC 6298 section 2.5).
        assert_eq!(big.rto(), SimDuration::from_secs(60));
        e.on_sample(SimDuration::from_millis(100), SimTime::ZERO);
        assert_eq!(e.backoff(), 1);
    }

    // ---- ns-2 --------------------------------------------------------------

    #[test]
    fn ns2_initial_rto_is_rtxcur_init() {
        let e = RttEstimator::new(&ns2_cfg());
        assert_eq!(e.rto(), SimDuration::from_secs(3));
    }

    #[test]
    fn ns2_hand_computed_tick_example() {
        let mut e = RttEstimator::new(&ns2_cfg());
        // Sent at 1.003 s (tickoff 3 ms), sample 94 ms: (94+3)/10 = 9 ticks.
        // srtt8 = 72, rttvar4 = 18; rtxcur = ((18 << 3) + 72) >> 3 = 27 ticks
        // = 270 ms (>= minrto 200 ms).
        e.on_sample(SimDuration::from_millis(94), SimTime(1_003_000_000));
        assert_eq!(e.rto(), SimDuration::from_millis(270));
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(90)));
        // Second sample at tick boundary, 120 ms = 12 ticks:
        // delta = 12 - 9 = 3 -> srtt8 = 75; |3| - (18 >> 2 = 4) = -1 ->
        // rttvar4 = 17; rtxcur = ((17 << 3) + 75) >> 3 = 211 >> 3 = 26 ticks.
        e.on_sample(SimDuration::from_millis(120), SimTime(2_000_000_000));
        assert_eq!(e.rto(), SimDuration::from_millis(260));
        // Backoff: 520 ms, 1040 ms.
        e.on_timeout();
        assert_eq!(e.rto(), SimDuration::from_millis(520));
    }

    #[test]
    fn ns2_minrto_before_backoff_when_rfc2988() {
        let mut e = RttEstimator::new(&ns2_cfg());
        // 10 ms sample -> 1 tick: srtt8 = 8, rttvar4 = 2: rtxcur = (16+8)>>3
        // = 3 ticks = 30 ms < minrto 200 ms.
        e.on_sample(SimDuration::from_millis(10), SimTime::ZERO);
        assert_eq!(e.rto(), SimDuration::from_millis(200));
        e.on_timeout();
        assert_eq!(e.rto(), SimDuration::from_millis(400));
        let mut c = ns2_cfg();
        c.ns2_rfc2988 = false;
        let mut e = RttEstimator::new(&c);
        e.on_sample(SimDuration::from_millis(10), SimTime::ZERO);
        e.on_timeout();
        // 30 ms * 2 = 60 ms, then clamped up to 200 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(200));
    }

    #[test]
    fn ns2_clobbers_srtt_after_eight_backoffs() {
        let mut e = RttEstimator::new(&ns2_cfg());
        e.on_sample(SimDuration::from_millis(100), SimTime::ZERO);
        for _ in 0..4 {
            e.on_timeout();
        }
        assert_eq!(e.backoff(), 16);
        // srtt was cleared: the next sample is treated as a first sample.
        e.on_sample(SimDuration::from_millis(50), SimTime::ZERO);
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(50)));
        // 5 ticks: srtt8 40, rttvar4 10 -> ((10<<3)+40)>>3 = 15 ticks.
        assert_eq!(e.rto(), SimDuration::from_millis(200));
    }
}
