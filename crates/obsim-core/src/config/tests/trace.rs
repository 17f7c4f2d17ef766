//! `[trace]`: bad flow ids, intervals and keys.

use super::*;

/// Bad inputs of this topic, checked by
/// [`bad_inputs_name_path_and_reason`](super::bad_inputs_name_path_and_reason).
pub(super) const BAD: &[Row] = &[
    (
        "trace flow id missing",
        &[("cwnd = true", "cwnd = true\nflows = [0, 5]")],
        "trace.flows[1]",
        "expected a flow id in 0..=0",
    ),
    (
        "trace interval zero",
        &[("cwnd = true", "cwnd = true\ninterval = \"0 ms\"")],
        "trace.interval",
        "greater than zero",
    ),
    (
        "trace unknown key",
        &[("cwnd = true", "cwnd = true\nrtt = true")],
        "trace.rtt",
        "allowed keys: cwnd, seq, interval, flows",
    ),
];
