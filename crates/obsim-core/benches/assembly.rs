//! Burst-assembly micro-benchmark (`obs::assembly`): the cost of one
//! `Assembler::on_packet` (timers due first, as the engine does) with
//! hundreds of burstifier queues.
//!
//! Workload: one ingress, 7 egresses, 700 flows (flow `f` goes to egress
//! `1 + f % 7`), one 1040-byte data packet every 800 ns from a uniformly
//! drawn flow, hybrid trigger (1 ms timer or 40 packets), for mixed-flow,
//! per-flow (700 queues), DMQ with 8 proactive queues per egress, and
//! window-based assembly (B = 32, C = 100) with the window from the sender
//! (a fixed 10) or estimated at the edge (`window_source = "estimated"`:
//! the engine's call to `estimate_window` included). Closed
//! bursts hand their buffers straight back (`recycle`), so the steady state
//! allocates nothing. Flows are pre-drawn, so the time is the assembler's.
//! Reported time is per packet. Rerun with:
//!
//! ```text
//! cargo bench -p obsim-core --bench assembly -- --measurement-time 2 --warm-up-time 1
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use obsim_core::ids::{FlowId, NodeId};
use obsim_core::net::{Packet, Payload};
use obsim_core::obs::assembly::{
    Assembler, AssemblyConfig, DmqAllocation, Selection, SizeLimit, Trigger, WindowSource,
};
use obsim_core::obs::Burst;
use obsim_core::rng::{stream, uniform_below};
use obsim_core::tcp::segment::Segment;
use obsim_core::time::{SimDuration, SimTime};

const FLOWS: u32 = 700;
const EGRESSES: u32 = 7;
const TABLE: usize = 1 << 16;

/// An assembler fed by a cyclic table of pre-drawn flows.
struct Feed {
    a: Assembler,
    flows: Vec<u32>,
    i: usize,
    t: u64,
    seq: u64,
    out: Vec<Burst>,
}

impl Feed {
    fn new(selection: Selection) -> Self {
        let conf = AssemblyConfig {
            trigger: Trigger::Hybrid(SimDuration::from_millis(1), SizeLimit::Packets(40)),
            selection,
            ..AssemblyConfig::default()
        };
        let egresses: Vec<NodeId> = (1..=EGRESSES).map(NodeId).collect();
        let a = Assembler::new(&conf, NodeId(0), &egresses, stream(1, "asm"));
        let mut rng = stream(3, "arr");
        let flows = (0..TABLE).map(|_| uniform_below(&mut rng, FLOWS)).collect();
        let mut feed = Feed {
            a,
            flows,
            i: 0,
            t: 0,
            seq: 0,
            out: Vec::new(),
        };
        // Warm up: every flow seen, every queue opened and buffers pooled.
        for _ in 0..TABLE {
            feed.packet();
        }
        feed
    }

    /// One packet arrival, as the engine delivers it.
    #[inline]
    fn packet(&mut self) {
        self.t += 800;
        self.seq += 1;
        self.i = (self.i + 1) & (TABLE - 1);
        let now = SimTime(self.t);
        let f = self.flows[self.i];
        if self.a.next_deadline().is_some_and(|d| d <= now) {
            self.a.on_timer(now, &mut self.out);
        }
        let pkt = Packet {
            flow: FlowId(f),
            src: NodeId(0),
            dst: NodeId(1 + f % EGRESSES),
            bytes: 1040,
            payload: Payload::Data(Segment {
                seq: self.seq,
                len: 1000,
                retransmit: false,
                syn: false,
                push: false,
                sent_at: now,
                tsecr: 0,
            }),
        };
        let cwnd = if self.a.estimates_window() {
            self.a.estimate_window(now, &pkt)
        } else {
            10.0
        };
        self.a.on_packet(
            now,
            NodeId(1 + f % EGRESSES),
            black_box(pkt),
            cwnd,
            &mut self.out,
        );
        for b in self.out.drain(..) {
            self.a.recycle(b.packets);
        }
    }
}

fn assembly(c: &mut Criterion) {
    let mut g = c.benchmark_group("assembly/on_packet");
    g.throughput(Throughput::Elements(1));
    let ms = SimDuration::from_millis;
    let window = |source| Selection::WindowBased {
        b: 32.0,
        c: 100.0,
        timers: [ms(1), ms(5), ms(10)],
        source,
    };
    for (name, sel) in [
        ("mixed-flow", Selection::MixedFlow),
        ("per-flow", Selection::PerFlow),
        (
            "dmq-8-proactive",
            Selection::Dmq {
                queues: 8,
                allocation: DmqAllocation::Proactive,
            },
        ),
        ("window-sender", window(WindowSource::Sender)),
        (
            "window-estimated",
            window(WindowSource::Estimated {
                rtt_fallback: ms(20),
            }),
        ),
    ] {
        let mut feed = Feed::new(sel);
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| feed.packet());
        });
        black_box(feed.a.stats().bursts);
    }
    g.finish();
}

criterion_group!(benches, assembly);
criterion_main!(benches);
