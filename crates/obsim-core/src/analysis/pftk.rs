//! TCP Reno send rate as a function of loss, after Padhye, Firoiu, Towsley
//! and Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical
//! Validation", SIGCOMM 1998 (PFTK), and the square-root law of Mathis,
//! Semke, Mahdavi and Ott (1997).
//!
//! PFTK's `B(p)` counts *packets sent* per second (retransmissions
//! included); `p` is the probability that a packet is lost, losses in one
//! round after the first being assumed correlated.

/// Parameters of the PFTK model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PftkParams {
    /// Loss probability of a packet.
    pub p: f64,
    /// Round-trip time, seconds.
    pub rtt: f64,
    /// Timeout `T0` (the first RTO of a timeout sequence), seconds.
    pub t0: f64,
    /// Maximum window `W_max`, packets.
    pub wmax: f64,
    /// Packets acknowledged by one ACK (`b`: 1, or 2 with delayed ACKs).
    pub b: f64,
}

/// `f(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶`: the mean length of a
/// timeout sequence in units of `T0` with exponential backoff (PFTK eq. 28).
pub fn backoff_factor(p: f64) -> f64 {
    1.0 + p
        + 2.0 * p.powi(2)
        + 4.0 * p.powi(3)
        + 8.0 * p.powi(4)
        + 16.0 * p.powi(5)
        + 32.0 * p.powi(6)
}

/// `Q̂(p, w)`: probability that a loss in a window of `w` packets is detected
/// by a timeout rather than by triple duplicate ACKs (PFTK eq. 24).
pub fn timeout_probability(p: f64, w: f64) -> f64 {
    let q = 1.0 - p;
    let num = (1.0 - q.powi(3)) * (1.0 + q.powi(3) * (1.0 - q.powf(w - 3.0)));
    let den = 1.0 - q.powf(w);
    if den <= 0.0 {
        1.0
    } else {
        (num / den).min(1.0)
    }
}

/// Expected unconstrained window at a loss, `E[W_u]` (PFTK eq. 13).
pub fn expected_window(p: f64, b: f64) -> f64 {
    let a = (2.0 + b) / (3.0 * b);
    a + (8.0 * (1.0 - p) / (3.0 * b * p) + a * a).sqrt()
}

/// The PFTK "full model" send rate in packets per second (PFTK eq. 32).
pub fn send_rate(m: &PftkParams) -> f64 {
    let PftkParams {
        p,
        rtt,
        t0,
        wmax,
        b,
    } = *m;
    let w = expected_window(p, b);
    let f = backoff_factor(p);
    if w < wmax {
        let q = timeout_probability(p, w);
        ((1.0 - p) / p + w + q / (1.0 - p)) / (rtt * (b / 2.0 * w + 1.0) + q * t0 * f / (1.0 - p))
    } else {
        let q = timeout_probability(p, wmax);
        ((1.0 - p) / p + wmax + q / (1.0 - p))
            / (rtt * (b / 8.0 * wmax + (1.0 - p) / (p * wmax) + 2.0) + q * t0 * f / (1.0 - p))
    }
}

/// The PFTK approximate model (PFTK eq. 33), packets per second.
pub fn send_rate_approx(m: &PftkParams) -> f64 {
    let PftkParams {
        p,
        rtt,
        t0,
        wmax,
        b,
    } = *m;
    let denom = rtt * (2.0 * b * p / 3.0).sqrt()
        + t0 * (1.0f64).min(3.0 * (3.0 * b * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p);
    (wmax / rtt).min(1.0 / denom)
}

/// Mathis et al. square-root law, packets per second: `C / (RTT √p)` with
/// `C = √(3 / (2b))`.
pub fn mathis_rate(p: f64, rtt: f64, b: f64) -> f64 {
    (3.0 / (2.0 * b)).sqrt() / (rtt * p.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_loss_tends_to_square_root_law() {
        let m = PftkParams {
            p: 1e-5,
            rtt: 0.1,
            t0: 1.0,
            wmax: 1e9,
            b: 1.0,
        };
        let r = send_rate(&m) / mathis_rate(m.p, m.rtt, m.b);
        assert!((r - 1.0).abs() < 0.02, "ratio {r}");
    }

    #[test]
    fn window_limit_caps_rate() {
        let m = PftkParams {
            p: 1e-6,
            rtt: 0.1,
            t0: 1.0,
            wmax: 10.0,
            b: 1.0,
        };
        let r = send_rate(&m);
        assert!(r <= 10.0 / 0.1 * 1.0001 && r > 90.0, "rate {r}");
    }

    #[test]
    fn timeouts_dominate_at_high_loss() {
        let lo = PftkParams {
            p: 0.05,
            rtt: 0.1,
            t0: 0.2,
            wmax: 1e6,
            b: 1.0,
        };
        let hi = PftkParams { t0: 2.0, ..lo };
        assert!(send_rate(&hi) < 0.6 * send_rate(&lo));
        assert!((timeout_probability(0.05, 3.0) - 1.0).abs() < 1e-12);
        // Approximate and full models agree within ~20% in the normal range.
        let a = send_rate_approx(&lo) / send_rate(&lo);
        assert!((0.75..1.25).contains(&a), "approx/full {a}");
    }
}
