//! PLACEHOLDER for the burst assembly module (replaced on merge): the
//! contract types and a minimal per-egress timer assembler so the engine can
//! be integrated and tested meanwhile.
#![allow(missing_docs, clippy::pedantic)]

use serde::Serialize;

use crate::ids::NodeId;
use crate::net::Packet;
use crate::obs::Burst;
use crate::rng::SimRng;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssemblyConfig {
    pub trigger: Trigger,
    pub selection: Selection,
    pub min_burst_bytes: Option<u64>,
    pub header_bytes: u32,
    pub guard: SimDuration,
}
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Trigger {
    Timer(SimDuration),
    Size(SizeLimit),
    Hybrid(SimDuration, SizeLimit),
}
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum SizeLimit {
    Bytes(u64),
    Packets(u32),
}
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Selection {
    MixedFlow,
    PerFlow,
    PerEgress {
        m: u32,
        mapping: FlowMapping,
    },
    Smq {
        queues: u32,
    },
    Dmq {
        queues: u32,
        allocation: DmqAllocation,
    },
    WindowBased {
        b: f64,
        c: f64,
        timers: [SimDuration; 3],
    },
}
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum FlowMapping {
    Modulo,
    Random,
}
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum DmqAllocation {
    Proactive,
    APosteriori,
}
#[derive(Clone, Debug, Default)]
pub struct AssemblyStats {
    pub bursts: u64,
}

pub struct Assembler {
    ingress: NodeId,
    egresses: Vec<NodeId>,
    t: SimDuration,
    open: Vec<Option<Burst>>,
    next_id: u64,
    stats: AssemblyStats,
}

impl Assembler {
    pub fn new(cfg: &AssemblyConfig, ingress: NodeId, egresses: &[NodeId], _rng: SimRng) -> Self {
        let t = match cfg.trigger {
            Trigger::Timer(t) | Trigger::Hybrid(t, _) => t,
            Trigger::Size(_) => SimDuration::from_millis(1),
        };
        Self {
            ingress,
            egresses: egresses.to_vec(),
            t,
            open: vec![None; egresses.len()],
            next_id: 0,
            stats: AssemblyStats::default(),
        }
    }
    pub fn on_packet(
        &mut self,
        now: SimTime,
        egress: NodeId,
        pkt: Packet,
        _cwnd: f64,
        _out: &mut Vec<Burst>,
    ) {
        let q = self
            .egresses
            .iter()
            .position(|&e| e == egress)
            .expect("egress");
        let b = self.open[q].get_or_insert_with(|| Burst {
            id: 0,
            ingress: self.ingress,
            egress,
            queue: q as u32,
            opened: now,
            ..Burst::default()
        });
        b.payload_bytes += u64::from(pkt.bytes);
        b.packets.push(pkt);
    }
    pub fn on_timer(&mut self, now: SimTime, out: &mut Vec<Burst>) {
        for slot in &mut self.open {
            if slot.as_ref().is_some_and(|b| b.opened + self.t <= now) {
                let mut b = slot.take().unwrap();
                b.id = self.next_id;
                self.next_id += 1;
                b.closed = now;
                self.stats.bursts += 1;
                out.push(b);
            }
        }
    }
    pub fn flush(&mut self, now: SimTime, out: &mut Vec<Burst>) {
        self.on_timer(SimTime::MAX, out);
        for b in out.iter_mut() {
            b.closed = now;
        }
    }
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.open.iter().flatten().map(|b| b.opened + self.t).min()
    }
    pub fn recycle(&mut self, _packets: Vec<Packet>) {}
    pub fn stats(&self) -> &AssemblyStats {
        &self.stats
    }
    pub fn queue_count(&self) -> usize {
        self.open.len()
    }
}
