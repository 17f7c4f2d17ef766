//! CUBIC in Linux's own integer arithmetic (`tcp.cubic.arithmetic =
//! "linux"`, on in profile `linux`): net/ipv4/tcp_cubic.c of Linux 6.18
//! (`bictcp_update`, `cubictcp_cong_avoid`, `cubictcp_recalc_ssthresh`,
//! `cubictcp_state`, `cubictcp_acked`, `cubic_root`) with net/ipv4/tcp_cong.c
//! (`tcp_slow_start`, `tcp_cong_avoid_ai`).
//!
//! The window is a whole number of segments. A congestion-avoidance ACK adds
//! its acknowledged segments to `snd_cwnd_cnt`, and cwnd grows by one each
//! time the count reaches `cnt`, the number of acknowledged segments per
//! extra segment that `bictcp_update` derives from the cubic target
//! (`bic_target`, in whole segments, with time in 1/1024 s since the epoch
//! counted in jiffies of `tcp.hz` plus the minimum RTT) and from the AIMD
//! estimate of the TCP-friendly region (`tcp_cwnd`, counted in whole
//! segments); `cnt` is recomputed at most once a jiffy, and not within
//! HZ/32 while cwnd is unchanged. A loss sets ssthresh = ⌊cwnd·β⌋ (at least
//! 2) and `last_max_cwnd` (lowered by fast convergence) in whole segments.
//! RFC 9438's real-number version is `tcp/cc/cubic.rs`; at small windows
//! the two differ by the truncations (ssthresh at cwnd 7 is 4, not 4.9).
//!
//! Parameters from `[tcp.cubic]`: β and C as the module parameters `beta` =
//! round(1024·β) and `bic_scale` = round(1024·C/10) (717 and 41 in the
//! profile), `fast_convergence`, `reno_friendly` (`tcp_friendliness`),
//! `initial_min_growth` as the first-stage cap on `cnt` (round(1/growth):
//! 20), HyStart (`tcp/cc/hystart.rs`). Not read here: `target_rtt` (Linux
//! always adds its minimum RTT), `reno_friendly_alpha_one` (6.18 has no
//! `cwnd_prior`), HyStart++ (Linux does not run it). Not modelled:
//! `cubictcp_cwnd_event`'s shift of the epoch after an idle period
//! (obsim's senders are backlogged until their last segment).

use crate::tcp::cc::hystart::Hystart;
use crate::tcp::cc::{loss_window, LossSignal, WindowGrowth};
use crate::tcp::config::{CongestionControl, CubicArithmetic, SsthreshBasis, TcpConfig};
use crate::tcp::control::ControlBlock;
use crate::tcp::jiffies::Jiffies;
use crate::time::SimTime;

/// `BICTCP_BETA_SCALE`: β is `beta` / 1024.
const BETA_SCALE: u64 = 1024;

/// `BICTCP_HZ`: the cubic's time unit is 2^-10 s.
const BICTCP_HZ: u32 = 10;

/// `cubic_root(a)`: the integer cube root by tcp_cubic.c's method, a
/// 64-entry table for the first estimate and one Newton-Raphson step
/// ("Avg err ~= 0.195%").
#[must_use]
pub fn cubic_root(a: u64) -> u64 {
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164,
        168, 170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209,
        211, 213, 215, 217, 219, 221, 222, 224, 225, 227, 229, 231, 232, 234, 236, 237, 239, 240,
        242, 244, 245, 246, 248, 250, 251, 252, 254,
    ];
    // fls64(a): the position of the highest set bit, 1-based.
    let b = 64 - a.leading_zeros();
    if b < 7 {
        // a in [0 .. 63]
        return (u64::from(V[usize::try_from(a).unwrap_or(0)]) + 35) >> 6;
    }
    // b = ((b * 84) >> 8) - 1: about b / 3 - 1, the table index's shift.
    let b = ((b * 84) >> 8) - 1;
    let shift = usize::try_from(a >> (b * 3)).unwrap_or(0).min(63);
    let mut x = ((u64::from(V[shift]) + 10) << b) >> 6;
    // Newton-Raphson: x = (2x + a/x²) / 3, with x*(x - 1) for x², and
    // /3 as *341 >> 10.
    x = 2 * x + a / (x * (x - 1)).max(1);
    (x * 341) >> 10
}

/// Linux's CUBIC state (`struct bictcp`) and the sender's `snd_cwnd_cnt`,
/// cwnd in whole segments.
#[derive(Clone, Debug)]
pub struct LinuxCubic {
    /// The jiffies clock of `CONFIG_HZ` (`tcp.hz`).
    clock: Jiffies,
    /// `beta` (β·1024).
    beta: u64,
    /// `cube_rtt_scale` = `bic_scale`·10.
    cube_rtt_scale: u64,
    /// `cube_factor` = 2^40 / (`bic_scale`·10).
    cube_factor: u64,
    /// `beta_scale` = 8·(1024 + beta) / 3 / (1024 − beta): the AIMD
    /// estimate's segments per acknowledged window, ×8.
    beta_scale: u64,
    fast_convergence: bool,
    tcp_friendliness: bool,
    /// The first stage's cap on `cnt` (20; 0: none).
    initial_cnt_cap: u64,
    basis: SsthreshBasis,
    /// `ca->cnt`: acknowledged segments per cwnd increment.
    cnt: u64,
    last_max_cwnd: u64,
    last_cwnd: u64,
    /// `last_time`, `epoch_start` in jiffies (0: no epoch).
    last_time: u64,
    epoch_start: u64,
    bic_origin_point: u64,
    /// K in 1/1024 s.
    bic_k: u64,
    /// `delay_min` in µs (0: none yet).
    delay_min_us: u64,
    ack_cnt: u64,
    tcp_cwnd: u64,
    /// `tp->snd_cwnd_cnt`.
    cwnd_cnt: u64,
    hystart: Hystart,
}

impl LinuxCubic {
    /// `cubictcp_register` with `cfg`'s parameters and `cubictcp_init`.
    pub fn for_config(cfg: &TcpConfig) -> Self {
        let p = cfg.cubic;
        // Linux's module parameters from β and C (717 and 41 in profile
        // `linux`).
        let beta = ((p.beta * BETA_SCALE as f64).round() as u64).clamp(1, BETA_SCALE - 1);
        let bic_scale = ((p.c * BETA_SCALE as f64 / 10.0).round() as u64).max(1);
        let initial_cnt_cap = if p.initial_min_growth > 0.0 {
            ((1.0 / p.initial_min_growth).round() as u64).max(1)
        } else {
            0
        };
        LinuxCubic {
            clock: Jiffies::new(cfg.hz),
            beta,
            cube_rtt_scale: bic_scale * 10,
            cube_factor: (1u64 << (10 + 3 * BICTCP_HZ)) / (bic_scale * 10),
            beta_scale: 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta),
            fast_convergence: p.fast_convergence,
            tcp_friendliness: p.reno_friendly,
            initial_cnt_cap,
            basis: cfg.ssthresh_basis,
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: 0,
            epoch_start: 0,
            bic_origin_point: 0,
            bic_k: 0,
            delay_min_us: 0,
            ack_cnt: 0,
            tcp_cwnd: 0,
            cwnd_cnt: 0,
            hystart: Hystart::for_config(cfg),
        }
    }

    /// The epoch's start as a time, while one runs (HyStart reads it).
    fn epoch(&self) -> Option<SimTime> {
        (self.epoch_start != 0).then(|| self.clock.start(self.epoch_start))
    }

    /// `bictcp_reset` (a timeout, `cubictcp_state(TCP_CA_Loss)`): the cubic
    /// state zeroed, `delay_min` included; the sender's count kept.
    fn bictcp_reset(&mut self) {
        self.cnt = 0;
        self.last_max_cwnd = 0;
        self.last_cwnd = 0;
        self.last_time = 0;
        self.epoch_start = 0;
        self.bic_origin_point = 0;
        self.bic_k = 0;
        self.delay_min_us = 0;
        self.ack_cnt = 0;
        self.tcp_cwnd = 0;
    }

    /// `bictcp_update(ca, cwnd, acked)` at jiffy `now`: sets `cnt`.
    fn update(&mut self, now: u64, cwnd: u64, acked: u64) {
        self.ack_cnt += acked;
        if self.last_cwnd == cwnd && now.saturating_sub(self.last_time) <= self.clock.hz() / 32 {
            return;
        }
        // "The CUBIC function can update ca->cnt at most once per jiffy."
        if !(self.epoch_start != 0 && now == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = now;
            if self.epoch_start == 0 {
                // "record beginning" (jiffy 0 is read as no epoch: Linux's
                // clock does not start at 0).
                self.epoch_start = now.max(1);
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                if self.last_max_cwnd <= cwnd {
                    self.bic_k = 0;
                    self.bic_origin_point = cwnd;
                } else {
                    // K = cubic_root((wmax - cwnd) * 2^40 / (bic_scale*10)).
                    self.bic_k = cubic_root(self.cube_factor * (self.last_max_cwnd - cwnd));
                    self.bic_origin_point = self.last_max_cwnd;
                }
            }
            // t = jiffies since the epoch + the minimum RTT, in 1/1024 s.
            let mut t = now.saturating_sub(self.epoch_start);
            t += self.clock.from_us(self.delay_min_us);
            t = (t << BICTCP_HZ) / self.clock.hz();
            let offs = t.abs_diff(self.bic_k);
            // c/rtt * (t-K)^3 in segments.
            let delta = u64::try_from(
                (u128::from(self.cube_rtt_scale) * u128::from(offs).pow(3)) >> (10 + 3 * BICTCP_HZ),
            )
            .unwrap_or(u64::MAX);
            let bic_target = if t < self.bic_k {
                self.bic_origin_point.saturating_sub(delta)
            } else {
                self.bic_origin_point.saturating_add(delta)
            };
            self.cnt = if bic_target > cwnd {
                cwnd / (bic_target - cwnd)
            } else {
                // "very small increment"
                100 * cwnd
            };
            // "The initial growth of cubic function may be too
            // conservative when the available bandwidth is still unknown."
            if self.last_max_cwnd == 0
                && self.initial_cnt_cap > 0
                && self.cnt > self.initial_cnt_cap
            {
                self.cnt = self.initial_cnt_cap;
            }
        }
        // tcp_friendliness: the AIMD estimate, one segment per
        // cwnd·beta_scale/8 acknowledged.
        if self.tcp_friendliness {
            let delta = (cwnd * self.beta_scale) >> 3;
            while delta > 0 && self.ack_cnt > delta {
                self.ack_cnt -= delta;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd {
                let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
                if self.cnt > max_cnt {
                    self.cnt = max_cnt;
                }
            }
        }
        // "The maximum rate of cwnd increase CUBIC allows is 1 packet per 2
        // packets ACKed, meaning cwnd grows at 1.5x per RTT."
        self.cnt = self.cnt.max(2);
    }
}

impl WindowGrowth for LinuxCubic {
    /// `cubictcp_acked`: the minimum RTT ("Discard delay samples right
    /// after fast recovery": within a second of the epoch's start), then
    /// HyStart.
    fn on_acked(&mut self, cb: &mut ControlBlock) {
        let fresh = self.epoch_start != 0
            && self.clock.at(cb.now).saturating_sub(self.epoch_start) < self.clock.hz();
        if let (Some(r), false) = (cb.ack_rtt, fresh) {
            let us = (r.as_nanos() / 1000).max(1);
            if self.delay_min_us == 0 || self.delay_min_us > us {
                self.delay_min_us = us;
            }
        }
        let epoch = self.epoch();
        self.hystart.on_acked(cb, epoch);
    }

    /// `cubictcp_cong_avoid`: `tcp_slow_start` below ssthresh (cwnd +
    /// acknowledged segments, at most ssthresh; the rest goes on), then
    /// `bictcp_update` and `tcp_cong_avoid_ai(tp, cnt, acked)`.
    fn on_ack(&mut self, cb: &mut ControlBlock, acked: u64) {
        if acked == 0 {
            return;
        }
        let mut acked = acked;
        let mut cwnd = cb.cwnd.floor().max(1.0) as u64;
        let ssthresh = if cb.ssthresh >= u64::MAX as f64 {
            u64::MAX
        } else {
            cb.ssthresh.floor() as u64
        };
        if cwnd < ssthresh {
            let grown = cwnd.saturating_add(acked).min(ssthresh);
            acked -= grown - cwnd;
            cwnd = grown;
            cb.cwnd = cwnd as f64;
            if acked == 0 {
                return;
            }
        }
        self.update(self.clock.at(cb.now), cwnd, acked);
        // tcp_cong_avoid_ai: "If credits accumulated at a higher w, apply
        // them gently now."
        let w = self.cnt.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            cwnd += 1;
        }
        self.cwnd_cnt += acked;
        if self.cwnd_cnt >= w {
            let d = self.cwnd_cnt / w;
            self.cwnd_cnt -= d * w;
            cwnd += d;
        }
        cb.cwnd = cwnd as f64;
    }

    /// `cubictcp_recalc_ssthresh`: `last_max_cwnd` with fast convergence
    /// and ssthresh = max(cwnd·beta/1024, 2) in whole segments, cwnd being
    /// the window `tcp.ssthresh_basis` names (Linux: cwnd); the count
    /// restarts (`tcp_init_cwnd_reduction`, `tcp_enter_loss`). A timeout
    /// also runs `cubictcp_state(TCP_CA_Loss)`: `bictcp_reset` and
    /// HyStart's reset.
    fn ssthresh(&mut self, cb: &ControlBlock, signal: LossSignal) -> f64 {
        let cwnd = loss_window(cb, signal, self.basis).floor().max(0.0) as u64;
        // "end of epoch"
        self.epoch_start = 0;
        self.last_max_cwnd = if self.fast_convergence && cwnd < self.last_max_cwnd {
            cwnd * (BETA_SCALE + self.beta) / (2 * BETA_SCALE)
        } else {
            cwnd
        };
        self.cwnd_cnt = 0;
        let ssthresh = (cwnd * self.beta / BETA_SCALE).max(2);
        if signal == LossSignal::Timeout {
            self.bictcp_reset();
            self.hystart.on_timeout(cb);
        }
        ssthresh as f64
    }

    /// cwnd was cut: the next congestion-avoidance ACK starts an epoch.
    fn reset(&mut self) {
        self.epoch_start = 0;
        self.cwnd_cnt = 0;
    }

    fn renew(&mut self, cfg: &TcpConfig) -> bool {
        if cfg.congestion_control != CongestionControl::Cubic
            || cfg.cubic.arithmetic != CubicArithmetic::Linux
        {
            return false;
        }
        *self = LinuxCubic::for_config(cfg);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;
    use crate::time::SimDuration;

    fn cfg() -> TcpConfig {
        let mut c = profile("linux").unwrap();
        c.congestion_control = CongestionControl::Cubic;
        c
    }

    #[test]
    fn module_parameters_are_linux_defaults() {
        let c = LinuxCubic::for_config(&cfg());
        assert_eq!((c.beta, c.cube_rtt_scale), (717, 410));
        // beta_scale = 8 * (1024 + 717) / 3 / (1024 - 717) = 15.
        assert_eq!(c.beta_scale, 15);
        assert_eq!(c.cube_factor, (1u64 << 40) / 410);
        assert_eq!(c.initial_cnt_cap, 20);
    }

    /// tcp_cubic.c's comment: "Avg err ~= 0.195%". Over a log-spaced
    /// sweep of the range `bictcp_update` uses (K for W_max − cwnd from 1
    /// to 10^6 segments), the mean relative error against the exact root is
    /// under 0.25% and no root is off by more than 2%.
    #[test]
    fn cubic_root_is_the_kernels_approximation() {
        let cube_factor = (1u64 << 40) / 410;
        let mut sum = 0.0;
        let mut n = 0.0;
        let mut worst: f64 = 0.0;
        let mut d = 1.0f64;
        while d < 1e6 {
            let a = (cube_factor as f64 * d) as u64;
            let exact = (a as f64).cbrt();
            let err = (cubic_root(a) as f64 - exact).abs() / exact;
            sum += err;
            n += 1.0;
            worst = worst.max(err);
            d *= 1.05;
        }
        assert!(sum / n < 0.0025, "mean {}", sum / n);
        assert!(worst < 0.02, "worst {worst}");
        // Small arguments come from the table.
        assert_eq!(cubic_root(0), 0);
        assert_eq!(cubic_root(1), 1);
        assert_eq!(cubic_root(27), 3);
    }

    /// `cubictcp_recalc_ssthresh`: whole segments, β = 717/1024 truncated
    /// (cwnd 7 gives 4, where RFC 9438's arithmetic gives 4.9), at least 2;
    /// fast convergence lowers `last_max_cwnd` below a W_max not reached.
    #[test]
    fn ssthresh_is_truncated_and_fast_convergence_lowers_wmax() {
        let cfg = cfg();
        let mut c = LinuxCubic::for_config(&cfg);
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.snd_una = 100;
        for (cwnd, want) in [
            (7.0, 4.0),
            (6.0, 4.0),
            (5.0, 3.0),
            (3.0, 2.0),
            (100.0, 70.0),
        ] {
            cb.cwnd = cwnd;
            cb.snd_nxt = 100 + cwnd as u64;
            c.last_max_cwnd = 0;
            assert_eq!(c.ssthresh(&cb, LossSignal::DupAcks), want, "cwnd {cwnd}");
        }
        // cwnd 100 under a last W_max of 100 is not a new maximum only when
        // below it: at 80, last_max_cwnd = 80 * (1024 + 717) / 2048 = 68.
        cb.cwnd = 80.0;
        cb.snd_nxt = 180;
        c.ssthresh(&cb, LossSignal::DupAcks);
        assert_eq!(c.last_max_cwnd, 68);
    }

    /// `tcp_slow_start`: every acknowledged segment up to ssthresh, the
    /// rest into congestion avoidance; cwnd stays whole.
    #[test]
    fn slow_start_adds_every_acknowledged_segment_up_to_ssthresh() {
        let cfg = cfg();
        let mut c = LinuxCubic::for_config(&cfg);
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.cwnd = 10.0;
        cb.ssthresh = 12.0;
        cb.now = SimTime::ZERO + SimDuration::from_secs(1);
        c.on_ack(&mut cb, 3);
        assert_eq!(cb.cwnd, 12.0);
        assert_eq!(c.cwnd_cnt, 1, "the third segment counts toward growth");
        assert!(c.epoch_start > 0);
    }

    /// `tcp_cong_avoid_ai`: cwnd grows by one each time `cnt` segments
    /// have been acknowledged, never by a fraction, and at most one segment
    /// per two acknowledged (`cnt` >= 2).
    #[test]
    fn congestion_avoidance_grows_in_whole_segments() {
        let cfg = cfg();
        let mut c = LinuxCubic::for_config(&cfg);
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.cwnd = 20.0;
        cb.ssthresh = 20.0;
        let mut now = SimTime::ZERO + SimDuration::from_secs(1);
        for _ in 0..2000 {
            cb.now = now;
            let before = cb.cwnd;
            c.on_ack(&mut cb, 1);
            assert_eq!(cb.cwnd.fract(), 0.0);
            assert!(cb.cwnd == before || cb.cwnd == before + 1.0);
            now += SimDuration::from_millis(5);
        }
        assert!(cb.cwnd > 20.0 && cb.cwnd <= 1020.0, "cwnd {}", cb.cwnd);
    }
}
