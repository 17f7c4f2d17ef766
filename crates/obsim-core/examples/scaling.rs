//! How the engine's cost grows with the number of flows (issue 12,
//! "Performance and scale"): the reference dumbbell (`scenarios/dumbbell.toml`)
//! scaled to N flows keeping about 10 Mbit/s per flow.
//!
//! `cargo run --release -p obsim-core --example scaling -- N [--seconds S] [--pairs P] [--print-toml]`
//!
//! The scenario: Reno (ns-2 profile, MSS 1040 B, rwnd 10 000), a bottleneck of
//! N/10 Gbit/s and 10 ms with Bernoulli loss p = 0.001 (so it is never the
//! limit: each flow's window is set by the loss, about 13 Mbit/s at a 24 ms
//! RTT), 1 ms access links, flows starting uniformly in [0, 1 s]. Up to 1 000
//! flows, one sender and one receiver host per flow on 155 Mbit/s, 1 000-packet
//! access links, exactly as the reference. Above 1 000 flows the hosts stay at
//! 1 000 pairs and each pair carries N/1 000 flows on access links N/1 000
//! times faster with N/1 000 times the buffer (a node per host would make the
//! all-pairs routing table, O(nodes²), the thing measured; `--pairs P` sets
//! this cap, e.g. to see how much of the cost is per node). Default simulated
//! time: 100 s at N = 10, 20 s at 100, 4 s at 1 000, 2 s at 10 000 (about the
//! same number of delivered segments per run from 100 flows up).
//!
//! Prints wall time, events per second, delivered segments per engine second,
//! heap allocations during the run, and peak RSS (`VmHWM`) with its growth
//! during the run per flow (what the run built: peak RSS less the RSS after
//! parsing the scenario, which the workspace's `unsafe_code = "forbid"` leaves
//! as the measure; a counting allocator with a peak would need `unsafe`).

mod common;

use std::fmt::Write as _;

use common::{parse_or_exit, peak_rss_kib, print_allocs, print_rates, timed_run};

/// Host pairs at most; above this, flows share host pairs.
const MAX_PAIRS: usize = 1000;

/// The scaled dumbbell as a scenario file.
fn scenario(n: usize, seconds: f64, max_pairs: usize) -> String {
    let pairs = n.min(max_pairs);
    assert!(
        n % pairs == 0,
        "N must be a multiple of the host pairs ({pairs})"
    );
    let per_pair = n / pairs;
    let mut s = String::new();
    let _ = write!(
        s,
        "name = \"dumbbell_x{n}\"\n\n[simulation]\nduration = \"{seconds} s\"\nwarmup = \"0 s\"\n\
         seed = 1\nstop = \"time\"\nrouting = \"hops\"\n\n[tcp]\nprofile = \"ns2\"\n\
         variant = \"reno\"\nmss = \"1040 B\"\nrwnd = 10000\nmax_window = 10000\n\n\
         [[nodes]]\nname = \"r0\"\nkind = \"router\"\n\n[[nodes]]\nname = \"r1\"\nkind = \"router\"\n\n"
    );
    for side in ["s", "d"] {
        for i in 0..pairs {
            let _ = write!(s, "[[nodes]]\nname = \"{side}{i}\"\nkind = \"host\"\n\n");
        }
    }
    let _ = write!(
        s,
        "[[links]]\nfrom = \"r0\"\nto = \"r1\"\nrate = \"{} Mbit/s\"\ndelay = \"10 ms\"\n\
         buffer = \"unlimited\"\nloss = {{ model = \"bernoulli\", p = 0.001 }}\n\
         reverse_loss = {{ model = \"none\" }}\n\n",
        n * 100
    );
    let access = 155 * per_pair;
    let buffer = 1000 * per_pair;
    for i in 0..pairs {
        for (a, b) in [
            (format!("s{i}"), "r0".to_string()),
            ("r1".to_string(), format!("d{i}")),
        ] {
            let _ = write!(
                s,
                "[[links]]\nfrom = \"{a}\"\nto = \"{b}\"\nrate = \"{access} Mbit/s\"\n\
                 delay = \"1 ms\"\nbuffer = \"{buffer} packets\"\n\n"
            );
        }
    }
    let list = |p: &str| {
        (0..pairs)
            .map(|i| format!("\"{p}{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        s,
        "[[flows]]\nname = \"ftp\"\nfrom = [{}]\nto = [{}]\ncount = {per_pair}\n\
         start = [\"0 s\", \"1 s\"]\nsize = \"infinite\"\n\n[trace]\ncwnd = false\nseq = false\n",
        list("s"),
        list("d")
    );
    s
}

fn main() {
    let mut n: Option<usize> = None;
    let mut seconds: Option<f64> = None;
    let mut print = false;
    let mut max_pairs = MAX_PAIRS;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|s| s.parse().ok()),
            "--print-toml" => print = true,
            "--pairs" => {
                max_pairs = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(MAX_PAIRS);
            }
            _ => n = a.parse().ok(),
        }
    }
    let Some(n) = n.filter(|&n| n > 0) else {
        eprintln!("usage: scaling N [--seconds S] [--pairs P] [--print-toml]");
        std::process::exit(2);
    };
    let seconds = seconds.unwrap_or(match n {
        0..=10 => 100.0,
        11..=100 => 20.0,
        101..=1000 => 4.0,
        _ => 2.0,
    });
    let text = scenario(n, seconds, max_pairs);
    if print {
        print!("{text}");
        return;
    }
    let sc = parse_or_exit(&text);
    let rss_before = peak_rss_kib().unwrap_or(0);
    let t = timed_run(&sc);
    let goodput: f64 = t.r.flows.iter().map(|f| f.goodput_bps).sum();
    println!("flows               {n}");
    print_rates(&t, "M per engine second");
    println!("goodput per flow    {:.2} Mbit/s", goodput / 1e6 / n as f64);
    print_allocs(&t);
    if let Some(k) = peak_rss_kib() {
        println!(
            "peak RSS            {:.1} MiB ({:.1} MiB after parsing; growth {:.1} KiB per flow)",
            k as f64 / 1024.0,
            rss_before as f64 / 1024.0,
            k.saturating_sub(rss_before) as f64 / n as f64
        );
    }
}
