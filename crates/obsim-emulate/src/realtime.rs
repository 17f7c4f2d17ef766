//! The real-time loop: reads packets from the two TUN devices, hands them
//! to the [`Pipeline`] stamped with the emulator's clock, and writes each
//! one to the far device when the pipeline says it is due. It measures its
//! own lateness (write time minus due time) for every packet, the figure
//! issue 17 bounds (0.5 ms at the 99th percentile at 20 Mbit/s).

use std::collections::HashMap;
use std::io;
use std::time::{Duration, Instant};

use obsim_core::time::SimTime;

use crate::path::Dir;
use crate::pipeline::{BurstLog, DirStats, Output, Pipeline, Slot};
use crate::sys::{self, Tun};

/// Largest packet the loop reads: the front end sets the devices' MTU to
/// 1500 and no offloads are enabled, so every packet fits.
pub const MAX_PACKET: usize = 2048;

/// How the loop waits.
#[derive(Clone, Copy, Debug)]
pub struct LoopConfig {
    /// Run for this long (`None`: until `stop` says so).
    pub duration: Option<Duration>,
    /// Wait the last `spin` before a due time by polling without sleeping
    /// (a sleep can overshoot by the scheduler's wake-up latency).
    pub spin: Duration,
    /// How often `stop` is asked.
    pub stop_check: Duration,
    /// Run the loop's thread under `SCHED_FIFO` at this priority (1-99)
    /// for the run, 0 for normal scheduling. On a loaded machine normal
    /// scheduling makes the loop wait behind other processes for
    /// milliseconds (measured: 99th percentile lateness 6 ms at a load of
    /// 5 on 2 cores, 39 µs under `SCHED_FIFO`).
    pub fifo_priority: i32,
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            duration: None,
            spin: Duration::from_micros(100),
            stop_check: Duration::from_millis(20),
            fifo_priority: 10,
        }
    }
}

/// Lateness of the loop's writes, in nanoseconds.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// One entry per packet written: write time minus due time.
    pub lateness_ns: Vec<u64>,
}

impl Timing {
    /// The `q`-quantile (0..=1) of the lateness, in seconds (nearest rank);
    /// 0 when nothing was written.
    pub fn quantile_s(&self, q: f64) -> f64 {
        if self.lateness_ns.is_empty() {
            return 0.0;
        }
        let mut v = self.lateness_ns.clone();
        v.sort_unstable();
        let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
        v[i] as f64 * 1e-9
    }
}

/// What a run did.
#[derive(Debug)]
pub struct Report {
    /// Wall seconds the loop ran.
    pub elapsed_s: f64,
    /// Counters per direction (forward, reverse).
    pub stats: [DirStats; 2],
    /// Packets the kernel refused on write (full device queue).
    pub write_refused: [u64; 2],
    /// Packets still inside the emulated path when the loop stopped.
    pub in_flight: u64,
    /// Distinct flows (IP 5-tuples, each direction its own) seen.
    pub flows: u64,
    /// The loop's lateness.
    pub timing: Timing,
    /// Every burst.
    pub bursts: Vec<BurstLog>,
}

/// Packet buffers, recycled.
struct Pool {
    bufs: Vec<[u8; MAX_PACKET]>,
    lens: Vec<u16>,
    free: Vec<Slot>,
}

impl Pool {
    fn take(&mut self) -> Slot {
        if let Some(s) = self.free.pop() {
            return s;
        }
        self.bufs.push([0; MAX_PACKET]);
        self.lens.push(0);
        (self.bufs.len() - 1) as Slot
    }

    fn give(&mut self, s: Slot) {
        self.free.push(s);
    }

    fn in_use(&self) -> u64 {
        (self.bufs.len() - self.free.len()) as u64
    }
}

/// Numbers flows by their IP 5-tuple (IPv4; anything else is flow 0), so
/// per-flow queue selection sees one id per TCP connection and direction.
#[derive(Default)]
struct Flows {
    ids: HashMap<[u8; 13], u32>,
}

impl Flows {
    fn id(&mut self, pkt: &[u8]) -> u32 {
        let Some(key) = five_tuple(pkt) else { return 0 };
        let next = self.ids.len() as u32 + 1;
        *self.ids.entry(key).or_insert(next)
    }
}

/// (protocol, source, destination, ports) of an IPv4 packet.
fn five_tuple(p: &[u8]) -> Option<[u8; 13]> {
    if p.len() < 20 || p[0] >> 4 != 4 {
        return None;
    }
    let ihl = usize::from(p[0] & 0x0f) * 4;
    let mut k = [0u8; 13];
    k[0] = p[9];
    k[1..9].copy_from_slice(&p[12..20]);
    if matches!(p[9], 6 | 17) && p.len() >= ihl + 4 {
        k[9..13].copy_from_slice(&p[ihl..ihl + 4]);
    }
    Some(k)
}

/// Runs the loop: `tuns[0]` is the source namespace's device (its packets
/// go forward), `tuns[1]` the destination's. Returns when `cfg.duration`
/// has passed or `stop()` returns true. A device that fails (for example
/// because its namespace was removed) ends the loop with that error.
pub fn run(
    pipeline: &mut Pipeline,
    tuns: [&Tun; 2],
    cfg: &LoopConfig,
    stop: &mut dyn FnMut() -> bool,
) -> io::Result<Report> {
    sys::tight_timer_slack();
    if cfg.fifo_priority > 0 {
        sys::set_fifo(cfg.fifo_priority)?;
    }
    let result = run_loop(pipeline, tuns, cfg, stop);
    if cfg.fifo_priority > 0 {
        // Back to normal scheduling whatever happened (the thread is the
        // caller's, e.g. Python's main thread).
        let _ = sys::set_fifo(0);
    }
    result
}

fn run_loop(
    pipeline: &mut Pipeline,
    tuns: [&Tun; 2],
    cfg: &LoopConfig,
    stop: &mut dyn FnMut() -> bool,
) -> io::Result<Report> {
    let start = Instant::now();
    let clock = |t: Instant| SimTime(t.duration_since(start).as_nanos() as u64);
    let mut pool = Pool {
        bufs: Vec::new(),
        lens: Vec::new(),
        free: Vec::new(),
    };
    let mut flows = Flows::default();
    let mut out = Output::default();
    let mut timing = Timing::default();
    let mut refused = [0u64; 2];
    let mut last_stop_check = start;
    let end = cfg.duration.map(|d| start + d);
    loop {
        let now_i = Instant::now();
        if end.is_some_and(|e| now_i >= e) {
            break;
        }
        if now_i.duration_since(last_stop_check) >= cfg.stop_check {
            last_stop_check = now_i;
            if stop() {
                break;
            }
        }
        // Read everything waiting on both devices.
        for (i, tun) in tuns.iter().enumerate() {
            loop {
                let s = pool.take();
                let Some(n) = tun.read(&mut pool.bufs[s as usize][..])? else {
                    pool.give(s);
                    break;
                };
                pool.lens[s as usize] = n as u16;
                let now = clock(Instant::now());
                let flow = flows.id(&pool.bufs[s as usize][..n]);
                pipeline.on_packet(now, Dir::from_index(i), s, n as u32, flow);
            }
        }
        // Write everything due.
        let now = clock(Instant::now());
        pipeline.advance(now, &mut out);
        for d in &out.delivered {
            let to = tuns[1 - d.dir.index()];
            let len = usize::from(pool.lens[d.slot as usize]);
            let ok = to.write(&pool.bufs[d.slot as usize][..len])?;
            let written = clock(Instant::now());
            timing.lateness_ns.push(written.0.saturating_sub(d.due.0));
            if !ok {
                refused[d.dir.index()] += 1;
            }
            pool.give(d.slot);
        }
        for &s in &out.dropped {
            pool.give(s);
        }
        out.clear();
        // Wait for the next due time or a packet.
        let now = clock(Instant::now());
        let mut wait = pipeline
            .next_deadline()
            .map(|t| Duration::from_nanos(t.0.saturating_sub(now.0)));
        let horizon = cfg.stop_check.min(end.map_or(cfg.stop_check, |e| {
            e.saturating_duration_since(Instant::now())
        }));
        wait = Some(wait.map_or(horizon, |w| w.min(horizon)));
        let w = wait.unwrap_or(horizon);
        let w = w.saturating_sub(cfg.spin);
        sys::wait_readable(tuns, Some(w))?;
    }
    let elapsed_s = start.elapsed().as_secs_f64();
    Ok(Report {
        elapsed_s,
        stats: [
            pipeline.stats(Dir::Forward).clone(),
            pipeline.stats(Dir::Reverse).clone(),
        ],
        write_refused: refused,
        in_flight: pool.in_use(),
        flows: flows.ids.len() as u64,
        timing,
        bursts: pipeline.take_log(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_tuple_reads_ipv4_tcp() {
        let mut p = [0u8; 40];
        p[0] = 0x45;
        p[9] = 6;
        p[12..16].copy_from_slice(&[10, 0, 0, 1]);
        p[16..20].copy_from_slice(&[10, 0, 0, 2]);
        p[20..24].copy_from_slice(&[0x13, 0x88, 0xc3, 0x50]);
        let k = five_tuple(&p).unwrap();
        assert_eq!(k[0], 6);
        assert_eq!(&k[9..13], &[0x13, 0x88, 0xc3, 0x50]);
        let mut f = Flows::default();
        assert_eq!(f.id(&p), 1);
        p[23] = 0x51;
        assert_eq!(f.id(&p), 2);
        p[23] = 0x50;
        assert_eq!(f.id(&p), 1);
        assert_eq!(f.id(&[0x60; 40]), 0, "IPv6 is flow 0");
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let t = Timing {
            lateness_ns: (1..=100).map(|i| i * 1000).collect(),
        };
        assert!((t.quantile_s(0.99) - 99e-6).abs() < 1e-12);
        assert!((t.quantile_s(1.0) - 100e-6).abs() < 1e-12);
        assert!((Timing::default().quantile_s(0.5)).abs() < 1e-12);
    }
}
