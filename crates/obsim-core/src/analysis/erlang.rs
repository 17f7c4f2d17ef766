//! The Erlang B formula: blocking probability of a loss system with `n`
//! servers and Poisson offered traffic of `A` erlangs (Erlang 1917). A
//! bufferless OBS output port with W wavelengths, full wavelength
//! conversion and no offsets (every burst reserved from its arrival on) is
//! an M/G/W/W loss system, so its burst loss ratio is `B(W, A)` whatever
//! the burst-length distribution (Erlang B is insensitive to it). Used to
//! validate the channel schedulers (`obs::scheduler`).

/// Erlang B blocking probability `B(servers, offered_load_erlangs)`, by the
/// numerically stable recursion `B(0) = 1`,
/// `B(n) = A·B(n-1) / (n + A·B(n-1))` (no factorials, no overflow).
/// Returns 1 for zero servers with positive load, and 0 for zero load with
/// at least one server.
pub fn erlang_b(servers: u32, offered_load_erlangs: f64) -> f64 {
    let a = offered_load_erlangs;
    debug_assert!(a >= 0.0, "negative offered load {a}");
    let mut b = 1.0;
    for n in 1..=servers {
        let ab = a * b;
        b = ab / (f64::from(n) + ab);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn close(got: f64, want: f64, rel: f64) {
        assert!((got - want).abs() <= rel * want, "got {got}, want {want}");
    }

    #[test]
    fn known_values() {
        close(erlang_b(1, 1.0), 0.5, 1e-15);
        close(erlang_b(0, 3.0), 1.0, 1e-15);
        assert!(erlang_b(4, 0.0) <= 0.0);
        // B(2, 1) = (1/2) / (1 + 1 + 1/2) = 0.2.
        close(erlang_b(2, 1.0), 0.2, 1e-12);
        // Exact values from the closed form A^n/n! / sum_k A^k/k!, computed
        // in rational arithmetic.
        close(erlang_b(10, 5.0), 0.018_384_570_336_648, 1e-12);
        close(erlang_b(16, 10.0), 0.022_301_872_040_364, 1e-12);
        close(erlang_b(5, 3.0), 0.110_054_347_826_087, 1e-12);
    }

    #[test]
    fn large_systems_do_not_overflow() {
        // 1000 servers at 950 erlangs: a factorial form would overflow f64.
        let b = erlang_b(1000, 950.0);
        assert!(b > 0.0 && b < 0.05, "{b}");
        assert!(erlang_b(100, 1e6) > 0.99);
    }
}
