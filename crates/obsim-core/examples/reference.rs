//! The project's reference performance scenario, run once from the command
//! line: `cargo run --release --example reference -- [SCENARIO.toml] [--seconds S]`.
//!
//! Default scenario: `scenarios/dumbbell.toml` (10 bulk Reno flows, 155 Mbit/s
//! 1 ms access links, a 1 Gbit/s 10 ms bottleneck with Bernoulli p = 0.001,
//! 100 s simulated). Prints events/s, delivered segments/s and peak RSS.

mod common;

use common::{parse_or_exit, peak_rss_kib, print_allocs, print_rates, timed_run};

fn main() {
    let mut path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/dumbbell.toml").to_string();
    let mut seconds: Option<f64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--seconds" {
            seconds = args.next().and_then(|s| s.parse().ok());
        } else {
            path = a;
        }
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sc = parse_or_exit(&text);
    if let Some(s) = seconds {
        sc.duration = obsim_core::time::SimDuration::from_secs_f64(s);
    }
    let t = timed_run(&sc);
    let goodput: f64 = t.r.flows.iter().map(|f| f.goodput_bps).sum();
    println!("scenario            {}", t.r.meta.scenario);
    print_rates(&t, "M/s");
    println!("total goodput       {:.1} Mbit/s", goodput / 1e6);
    print_allocs(&t);
    if let Some(k) = peak_rss_kib() {
        println!("peak RSS            {:.1} MiB", k as f64 / 1024.0);
    }
}
