//! RACK's cost with large windows (issue 17): the G1 network (gurel2008 §3,
//! `python/obsim/reproductions/g1_gurel2008.py`) with the `linux` series' TCP,
//! run once from the command line.
//!
//! `cargo run --release -p obsim-core --example rack -- [--seconds S] [--warmup W]
//! [--timeout T_MS] [--queues M] [--seed N] [--no-rack] [--print-toml]`
//!
//! The scenario: 10 bulk flows from 155 Mbit/s, 1 ms, 1000-packet access
//! links into one edge, timer assembly (T = 10 ms, M = 1 queue per egress by
//! default), a 1 Gbit/s, 10 ms optical link with burst loss p = 0.001 to the
//! egress edge (1 ms timer), the `linux` profile (SACK, RACK-TLP, PRR,
//! CUBIC) with MSS 1040 B and windows of up to 10 000 segments (rwnd,
//! `max_window`), 15 s simulated, 2 s warm-up, seed 1 (G1's quick runs; its
//! full runs are 300 s with 30 s of warm-up). Windows reach thousands of segments and a lost burst takes many
//! of them at once: the case where a loss detection that scans the window
//! on every ACK costs most (docs/PERFORMANCE.md, session 13).
//! `--no-rack` turns RACK and TLP off (RFC 6675's `DupThresh` rule alone),
//! the same run's cost without them.
//!
//! Prints wall and CPU time (user + system of this process, from
//! `/proc/self/stat` at 100 ticks per second), events per second, delivered
//! segments per second, heap allocations during the run and peak RSS.

mod common;

use std::fmt::Write as _;

use common::{parse_or_exit, peak_rss_kib, print_allocs, print_rates, timed_run};

/// CPU seconds (user + system) of this process so far, if `/proc` says.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which ends with ')'): utime is the
    // 12th, stime the 13th (proc(5) fields 14 and 15).
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The G1 network with the linux profile as a scenario file.
fn scenario(
    seconds: f64,
    warmup: f64,
    timeout_ms: f64,
    queues: u32,
    seed: u64,
    rack: bool,
) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "name = \"g1-linux-rack\"\n\n[simulation]\nduration = \"{seconds} s\"\nwarmup = \"{warmup} s\"\n\
         seed = {seed}\n\n[tcp]\nprofile = \"linux\"\nmss = \"1040 B\"\nrwnd = 10000\n\
         max_window = 10000\nvariant = \"sack\"\nrack = {rack}\ntlp = {rack}\n\n\
         [[nodes]]\nname = \"O1\"\nkind = \"edge\"\n[nodes.assembly]\ntrigger = \"timer\"\n\
         timeout = \"{timeout_ms} ms\"\nselection = \"per_egress\"\nacks = \"bypass\"\n\
         queues = {queues}\n\n[[nodes]]\nname = \"O2\"\nkind = \"edge\"\n[nodes.assembly]\n\
         trigger = \"timer\"\ntimeout = \"1 ms\"\n\n\
         [[nodes]]\nname = \"s{{i}}\"\nkind = \"host\"\nrepeat = 10\n\n\
         [[nodes]]\nname = \"d{{i}}\"\nkind = \"host\"\nrepeat = 10\n\n\
         [[links]]\nfrom = \"O1\"\nto = \"O2\"\nkind = \"optical\"\nrate = \"1 Gbit/s\"\n\
         delay = \"10 ms\"\nburst_loss = {{ p = 0.001, pattern = \"random\" }}\n\n\
         [[links]]\nfrom = \"s{{i}}\"\nto = \"O1\"\nrate = \"155 Mbit/s\"\ndelay = \"1 ms\"\n\
         buffer = \"1000 packets\"\nrepeat = 10\n\n\
         [[links]]\nfrom = \"O2\"\nto = \"d{{i}}\"\nrate = \"155 Mbit/s\"\ndelay = \"1 ms\"\n\
         buffer = \"1000 packets\"\nrepeat = 10\n\n\
         [[flows]]\nname = \"ftp\"\nfrom = [{}]\nto = [{}]\nstart = [\"0 s\", \"1 s\"]\n",
        list("s"),
        list("d"),
    );
    s
}

/// `"p0", "p1", ..., "p9"`.
fn list(p: &str) -> String {
    (0..10)
        .map(|i| format!("\"{p}{i}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() {
    let (mut seconds, mut warmup, mut timeout_ms, mut queues, mut seed) = (15.0, 2.0, 10.0, 1, 1);
    let (mut rack, mut print) = (true, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--seconds" => seconds = value().parse().unwrap_or(seconds),
            "--warmup" => warmup = value().parse().unwrap_or(warmup),
            "--timeout" => timeout_ms = value().parse().unwrap_or(timeout_ms),
            "--queues" => queues = value().parse().unwrap_or(queues),
            "--seed" => seed = value().parse().unwrap_or(seed),
            "--no-rack" => rack = false,
            "--print-toml" => print = true,
            _ => {
                eprintln!(
                    "usage: rack [--seconds S] [--warmup W] [--timeout T_MS] [--queues M] [--seed N] \
                     [--no-rack] [--print-toml]"
                );
                std::process::exit(2);
            }
        }
    }
    let text = scenario(seconds, warmup, timeout_ms, queues, seed, rack);
    if print {
        print!("{text}");
        return;
    }
    let sc = parse_or_exit(&text);
    let cpu0 = cpu_seconds();
    let t = timed_run(&sc);
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let goodput: f64 = t.r.flows.iter().map(|f| f.goodput_bps).sum();
    println!(
        "scenario            G1 linux, T = {timeout_ms} ms, M = {queues}, seed {seed}, rack {rack}"
    );
    print_rates(&t, "M/s");
    if let Some(c) = cpu {
        println!("CPU                 {c:.2} s");
    }
    println!("total goodput       {:.1} Mbit/s", goodput / 1e6);
    print_allocs(&t);
    if let Some(k) = peak_rss_kib() {
        println!("peak RSS            {:.1} MiB", k as f64 / 1024.0);
    }
}
