//! Bulk (FTP-like) transfers: an infinite backlog or a fixed number of bytes,
//! starting at a fixed time or at a time uniform in a range (the studies
//! start N FTP flows uniformly in [0, T_start]).

use rand::Rng;

use crate::config::scenario::StartSpec;
use crate::ids::FlowId;
use crate::rng::stream;
use crate::time::SimTime;

/// Start time of flow `id` in a run with `seed`. A uniform start is drawn
/// from the flow's own stream `flow/<id>/start`, so adding flows never moves
/// the start of an existing one.
pub fn start_time(spec: StartSpec, seed: u64, id: FlowId) -> SimTime {
    draw_start(spec, seed, &format!("flow/{}/start", id.0))
}

/// A start time per `spec`; a uniform start is drawn from the stream
/// `stream_name` (flows use `flow/<id>/start`, traffic sources
/// `traffic/<id>/start`).
pub fn draw_start(spec: StartSpec, seed: u64, stream_name: &str) -> SimTime {
    match spec {
        StartSpec::At(t) => t,
        StartSpec::Uniform(lo, hi) => {
            let mut rng = stream(seed, stream_name);
            let span = hi.0 - lo.0;
            if span == 0 {
                return lo;
            }
            // Integer draw avoids float rounding at the range ends; the
            // modulo bias is below 2^-40 for any span under 10^7 s.
            SimTime(lo.0 + rng.next_u64() % (span + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_start_stays_in_range_and_is_per_flow() {
        let spec = StartSpec::Uniform(SimTime(1_000), SimTime(2_000));
        let a = start_time(spec, 9, FlowId(0));
        assert!((1_000..=2_000).contains(&a.0));
        assert_eq!(a, start_time(spec, 9, FlowId(0)));
        let many: Vec<u64> = (0..20).map(|i| start_time(spec, 9, FlowId(i)).0).collect();
        assert!(many.iter().any(|&t| t != many[0]));
        assert_eq!(
            start_time(StartSpec::At(SimTime(5)), 9, FlowId(3)),
            SimTime(5)
        );
    }
}
