//! The emulated path as an I/O-free model: real packets go in with the time
//! they were read, and come out with the time they are due at the far
//! namespace. The real-time loop (`realtime.rs`) only reads, waits and
//! writes; everything the path does to a packet is decided here, with
//! obsim's own models: `net::Channel` for electronic links, `Assembler` for
//! burst assembly, `BurstLossModel` for the core's per-burst loss.
//!
//! Model time is the emulator's clock (nanoseconds since it started). A
//! packet's fate depends only on the times it was read and the seed, so the
//! same arrival times give the same deliveries (tested), whatever the loop's
//! own lateness.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use obsim_core::ids::FlowId;
use obsim_core::net::{Channel, Packet, Payload};
use obsim_core::obs::assembly::Assembler;
use obsim_core::obs::loss::BurstLossModel;
use obsim_core::obs::Burst;
use obsim_core::rng;
use obsim_core::tcp::Segment;
use obsim_core::time::{SimDuration, SimTime};

use crate::path::{Dir, EmuPath, OpticalStage, Stage};

/// The caller's handle on a packet's bytes (an index into its buffer pool).
pub type Slot = u32;

/// A packet due at the far end of its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Direction it crossed.
    pub dir: Dir,
    /// The caller's buffer.
    pub slot: Slot,
    /// Model time it is due at the destination namespace.
    pub due: SimTime,
}

/// What [`Pipeline::advance`] hands back.
#[derive(Debug, Default)]
pub struct Output {
    /// Packets due now or earlier, in due order.
    pub delivered: Vec<Delivery>,
    /// Buffers of packets dropped (full link buffer or lost burst): the
    /// caller frees them.
    pub dropped: Vec<Slot>,
}

impl Output {
    /// Empties both lists, keeping their allocations.
    pub fn clear(&mut self) {
        self.delivered.clear();
        self.dropped.clear();
    }
}

/// One burst's record (the per-burst log).
#[derive(Clone, Debug, PartialEq)]
pub struct BurstLog {
    /// `"forward"` or `"reverse"`.
    pub dir: Dir,
    /// Ingress edge.
    pub ingress: String,
    /// Egress edge.
    pub egress: String,
    /// Burst number at its ingress.
    pub burst: u64,
    /// Burstifier queue that built it.
    pub queue: u32,
    /// When its first packet entered the queue (s).
    pub opened_s: f64,
    /// When its trigger fired (s).
    pub closed_s: f64,
    /// When its head left the ingress: closing + offset, later if the
    /// wavelength was busy (s).
    pub sent_s: f64,
    /// When its last bit reached the egress (s); for a lost burst, when it
    /// would have.
    pub arrival_s: f64,
    /// Packets carried.
    pub packets: u32,
    /// Payload bytes (sum of packet sizes).
    pub bytes: u64,
    /// Distinct flows (5-tuples) in it.
    pub flows: u32,
    /// Lost in the core.
    pub lost: bool,
    /// Optical link that lost it (`from->to`), empty when delivered.
    pub lost_on: String,
}

/// Counters of one direction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DirStats {
    /// Packets read from the source side.
    pub packets_in: u64,
    /// Packets due at the destination side.
    pub packets_out: u64,
    /// Packets dropped at a full electronic link buffer.
    pub drops_buffer: u64,
    /// Packets lost with their burst.
    pub drops_burst: u64,
    /// Bursts sent into the core.
    pub bursts_sent: u64,
    /// Bursts lost in the core.
    pub bursts_lost: u64,
}

/// State of one optical stretch in one direction.
struct OpticalState {
    cfg: OpticalStage,
    assembler: Option<Assembler>,
    /// Per hop, the burst loss model (`None`: lossless hop).
    loss: Vec<Option<BurstLossModel>>,
    /// The first link's wavelength, as a channel: bursts and bypassing
    /// packets are sent one at a time (one wavelength, gurel2008 §2 edge
    /// queue without limit); its delay is the stretch's propagation.
    channel: Channel,
    header: u32,
    guard: SimDuration,
}

enum StageState {
    Link(Channel),
    Optical(Box<OpticalState>),
}

/// An event of the model: a packet reaches stage `stage` of `dir`, or a
/// burst's last bit reaches its egress.
#[derive(Clone, Copy, Debug)]
enum What {
    Enter { dir: u8, stage: u16, pkt: Packet },
    BurstArrives { dir: u8, stage: u16, burst: u32 },
}

struct Event {
    at: SimTime,
    seq: u64,
    what: What,
}

impl PartialEq for Event {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Event {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.at, self.seq).cmp(&(o.at, o.seq))
    }
}

/// The emulated path of both directions.
pub struct Pipeline {
    stages: [Vec<StageState>; 2],
    events: BinaryHeap<Reverse<Event>>,
    seq: u64,
    /// Bursts in flight in the core, by slab index.
    bursts: Vec<Option<Burst>>,
    free: Vec<u32>,
    closed: Vec<Burst>,
    stats: [DirStats; 2],
    log: Vec<BurstLog>,
    flows_buf: Vec<FlowId>,
}

impl Pipeline {
    /// The pipeline of `path`; `seed` seeds the burst loss models (streams
    /// named after their link, so a change elsewhere moves no draw) and the
    /// assemblers' random choices.
    pub fn new(path: &EmuPath, seed: u64) -> Self {
        let mut stages: [Vec<StageState>; 2] = [Vec::new(), Vec::new()];
        for d in [Dir::Forward, Dir::Reverse] {
            for s in path.stages(d) {
                stages[d.index()].push(match s {
                    Stage::Link(l) => StageState::Link(Channel::new(
                        obsim_core::ids::NodeId(0),
                        obsim_core::ids::NodeId(0),
                        l.rate_bps,
                        l.delay,
                        l.buffer,
                    )),
                    Stage::Optical(o) => StageState::Optical(Box::new(optical(o, d, seed))),
                });
            }
        }
        Pipeline {
            stages,
            events: BinaryHeap::new(),
            seq: 0,
            bursts: Vec::new(),
            free: Vec::new(),
            closed: Vec::new(),
            stats: [DirStats::default(), DirStats::default()],
            log: Vec::new(),
            flows_buf: Vec::new(),
        }
    }

    /// A packet of `bytes` bytes of flow `flow` (the caller numbers
    /// 5-tuples) was read at `now` on the `dir` side and its bytes are in
    /// `slot`.
    pub fn on_packet(&mut self, now: SimTime, dir: Dir, slot: Slot, bytes: u32, flow: u32) {
        self.stats[dir.index()].packets_in += 1;
        let pkt = Packet {
            flow: FlowId(flow),
            src: obsim_core::ids::NodeId(0),
            dst: obsim_core::ids::NodeId(0),
            bytes,
            // The slot rides in the segment number: the burst machinery
            // carries it, and nothing here reads it as TCP.
            payload: Payload::Data(Segment {
                seq: u64::from(slot),
                len: bytes,
                retransmit: false,
                syn: false,
                push: false,
                sent_at: now,
                tsecr: 0,
            }),
        };
        self.push(
            now,
            What::Enter {
                dir: dir.index() as u8,
                stage: 0,
                pkt,
            },
        );
    }

    /// The earliest time something is due: an event or an assembly timer.
    pub fn next_deadline(&self) -> Option<SimTime> {
        let ev = self.events.peek().map(|Reverse(e)| e.at);
        let timers = self.stages.iter().flatten().filter_map(|s| match s {
            StageState::Optical(o) => o.assembler.as_ref().and_then(Assembler::next_deadline),
            StageState::Link(_) => None,
        });
        ev.into_iter().chain(timers).min()
    }

    /// Runs everything due at or before `now`, in time order; packets due
    /// at their destination go to `out.delivered`, dropped ones to
    /// `out.dropped`.
    pub fn advance(&mut self, now: SimTime, out: &mut Output) {
        loop {
            let ev = self.events.peek().map(|Reverse(e)| e.at);
            let timer = self.earliest_timer();
            match (ev, timer) {
                (_, Some((t, d, s))) if t <= now && ev.is_none_or(|e| t <= e) => {
                    self.fire_timer(t, d, s, out);
                }
                (Some(t), _) if t <= now => {
                    let Reverse(e) = self.events.pop().expect("peeked");
                    self.handle(e.at, e.what, out);
                }
                _ => return,
            }
        }
    }

    /// Counters of direction `d`.
    pub fn stats(&self, d: Dir) -> &DirStats {
        &self.stats[d.index()]
    }

    /// Drains the per-burst log.
    pub fn take_log(&mut self) -> Vec<BurstLog> {
        std::mem::take(&mut self.log)
    }

    fn push(&mut self, at: SimTime, what: What) {
        self.seq += 1;
        self.events.push(Reverse(Event {
            at,
            seq: self.seq,
            what,
        }));
    }

    fn earliest_timer(&self) -> Option<(SimTime, usize, usize)> {
        let mut best: Option<(SimTime, usize, usize)> = None;
        for (d, list) in self.stages.iter().enumerate() {
            for (s, st) in list.iter().enumerate() {
                if let StageState::Optical(o) = st {
                    if let Some(t) = o.assembler.as_ref().and_then(Assembler::next_deadline) {
                        if best.is_none_or(|b| t < b.0) {
                            best = Some((t, d, s));
                        }
                    }
                }
            }
        }
        best
    }

    fn fire_timer(&mut self, t: SimTime, d: usize, s: usize, out: &mut Output) {
        let mut closed = std::mem::take(&mut self.closed);
        if let StageState::Optical(o) = &mut self.stages[d][s] {
            if let Some(a) = o.assembler.as_mut() {
                a.on_timer(t, &mut closed);
            }
        }
        for b in closed.drain(..) {
            self.launch(t, d, s, b, out);
        }
        self.closed = closed;
    }

    fn handle(&mut self, t: SimTime, what: What, out: &mut Output) {
        match what {
            What::Enter { dir, stage, pkt } => {
                self.enter(t, dir as usize, stage as usize, pkt, out);
            }
            What::BurstArrives { dir, stage, burst } => {
                let b = self.bursts[burst as usize].take().expect("burst in flight");
                self.free.push(burst);
                for p in &b.packets {
                    self.push(
                        t,
                        What::Enter {
                            dir,
                            stage: stage + 1,
                            pkt: *p,
                        },
                    );
                }
                if let StageState::Optical(o) = &mut self.stages[dir as usize][stage as usize] {
                    if let Some(a) = o.assembler.as_mut() {
                        a.recycle(b.packets);
                    }
                }
            }
        }
    }

    #[allow(clippy::many_single_char_names)] // t time, d direction, s stage
    fn enter(&mut self, t: SimTime, d: usize, s: usize, pkt: Packet, out: &mut Output) {
        let slot = slot_of(&pkt);
        let Some(stage) = self.stages[d].get_mut(s) else {
            // Past the last stage: at the destination namespace.
            self.stats[d].packets_out += 1;
            out.delivered.push(Delivery {
                dir: Dir::from_index(d),
                slot,
                due: t,
            });
            return;
        };
        let next = What::Enter {
            dir: d as u8,
            stage: (s + 1) as u16,
            pkt,
        };
        match stage {
            StageState::Link(ch) => {
                if let Some(at) = ch.enqueue(t, pkt.bytes) {
                    self.push(at, next);
                } else {
                    self.stats[d].drops_buffer += 1;
                    out.dropped.push(slot);
                }
            }
            StageState::Optical(o) => match o.assembler.as_mut() {
                None => {
                    // Bypass: the packet crosses as itself (gurel2008 §3),
                    // never lost, after the offset-free wavelength delay.
                    let at = o.channel.enqueue(t, pkt.bytes).expect("unlimited");
                    self.push(at, next);
                }
                Some(a) => {
                    let egress = o.cfg.ends.1;
                    let mut closed = std::mem::take(&mut self.closed);
                    a.on_packet(t, egress, pkt, 1.0, &mut closed);
                    for b in closed.drain(..) {
                        self.launch(b.closed, d, s, b, out);
                    }
                    self.closed = closed;
                }
            },
        }
    }

    /// A burst closed at `t` at stretch `s` of direction `d`: JET offset,
    /// wavelength, per-hop loss, and its arrival at the egress.
    #[allow(clippy::many_single_char_names)] // t time, d direction, s stage
    fn launch(&mut self, t: SimTime, d: usize, s: usize, burst: Burst, out: &mut Output) {
        let StageState::Optical(o) = &mut self.stages[d][s] else {
            unreachable!("bursts close at optical stages")
        };
        let bytes = burst.wire_bytes(o.header);
        // JET: the burst may leave `offset` after its BCP, which leaves at
        // closing (signalling.rs); the wavelength serves bursts in turn.
        let arrival = o.channel.enqueue_burst(t + o.cfg.offset, bytes, o.guard);
        let tx = SimDuration::transmission(bytes, o.channel.rate_bps) + o.guard;
        let sent = arrival - o.channel.delay - tx;
        let mut lost_on = String::new();
        for (h, m) in o.loss.iter_mut().enumerate() {
            if let Some(m) = m {
                if m.lose(&burst) {
                    lost_on.clone_from(&o.cfg.hops[h].name);
                    break;
                }
            }
        }
        let lost = !lost_on.is_empty();
        let flows = burst.flow_count(&mut self.flows_buf) as u32;
        self.log.push(BurstLog {
            dir: Dir::from_index(d),
            ingress: o.cfg.ingress.clone(),
            egress: o.cfg.egress.clone(),
            burst: burst.id,
            queue: burst.queue,
            opened_s: burst.opened.as_secs_f64(),
            closed_s: burst.closed.as_secs_f64(),
            sent_s: sent.as_secs_f64(),
            arrival_s: arrival.as_secs_f64(),
            packets: burst.packets.len() as u32,
            bytes: burst.payload_bytes,
            flows,
            lost,
            lost_on,
        });
        let st = &mut self.stats[d];
        st.bursts_sent += 1;
        if lost {
            st.bursts_lost += 1;
            st.drops_burst += burst.packets.len() as u64;
            out.dropped.extend(burst.packets.iter().map(slot_of));
            if let Some(a) = o.assembler.as_mut() {
                a.recycle(burst.packets);
            }
            return;
        }
        let i = if let Some(i) = self.free.pop() {
            self.bursts[i as usize] = Some(burst);
            i
        } else {
            self.bursts.push(Some(burst));
            (self.bursts.len() - 1) as u32
        };
        self.push(
            arrival,
            What::BurstArrives {
                dir: d as u8,
                stage: s as u16,
                burst: i,
            },
        );
    }
}

/// The caller's slot a packet carries.
fn slot_of(p: &Packet) -> Slot {
    match p.payload {
        Payload::Data(seg) => seg.seq as Slot,
        _ => unreachable!("the pipeline only makes data packets"),
    }
}

fn optical(o: &OpticalStage, d: Dir, seed: u64) -> OpticalState {
    let tag = match d {
        Dir::Forward => "forward",
        Dir::Reverse => "reverse",
    };
    let assembler = o.assembly.as_ref().map(|cfg| {
        Assembler::new(
            cfg,
            o.ends.0,
            &[o.ends.1],
            rng::stream(seed, &format!("emulate/assembly/{tag}/{}", o.ingress)),
        )
    });
    let loss = o
        .hops
        .iter()
        .map(|h| {
            h.loss.as_ref().map(|spec| {
                BurstLossModel::new(
                    spec,
                    rng::stream(seed, &format!("emulate/burst_loss/{}", h.name)),
                )
            })
        })
        .collect();
    let (header, guard) = o
        .assembly
        .as_ref()
        .map_or((0, SimDuration::ZERO), |a| (a.header_bytes, a.guard));
    OpticalState {
        cfg: o.clone(),
        assembler,
        loss,
        channel: Channel::new(
            o.ends.0,
            o.ends.1,
            o.rate_bps(),
            o.propagation(),
            obsim_core::config::scenario::Buffer::Unlimited,
        ),
        header,
        guard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::tests::CHAIN;

    fn pipeline(toml: &str) -> Pipeline {
        let sc = obsim_core::config::parse_toml(toml).unwrap();
        Pipeline::new(&EmuPath::from_scenario(&sc, None).unwrap(), 1)
    }

    fn ms(x: f64) -> SimTime {
        SimTime((x * 1e6) as u64)
    }

    fn run_until(p: &mut Pipeline, t: SimTime) -> Output {
        let mut out = Output::default();
        p.advance(t, &mut out);
        out
    }

    #[test]
    fn one_packet_crosses_link_burst_link_in_closed_form() {
        let lossless = CHAIN.replace("burst_loss = { p = 0.01, pattern = \"random\" }", "");
        let mut p = pipeline(&lossless);
        // 1000 bytes at 20 Mbit/s: 0.4 ms per access link, 1 ms delay each.
        p.on_packet(SimTime::ZERO, Dir::Forward, 7, 1000, 0);
        let out = run_until(&mut p, ms(100.0));
        assert_eq!(out.delivered.len(), 1);
        let d = out.delivered[0];
        assert_eq!((d.dir, d.slot), (Dir::Forward, 7));
        // a->E1: 0.4 + 1 = 1.4 ms; timer 5 ms -> closes at 6.4 ms; offset
        // 70 us; 1000 B at 10 Gbit/s = 0.8 us; 5 ms propagation; E2->b 1.4 ms.
        let expect = SimDuration::from_micros(1400 + 5000 + 70)
            + SimDuration::from_nanos(800)
            + SimDuration::from_micros(5000 + 1400);
        assert_eq!(d.due, SimTime::ZERO + expect);
        assert_eq!(p.stats(Dir::Forward).bursts_sent, 1);
        let log = p.take_log();
        assert_eq!(log.len(), 1);
        assert!(!log[0].lost && log[0].packets == 1);
    }

    #[test]
    fn acks_bypass_assembly() {
        let mut p = pipeline(CHAIN);
        p.on_packet(SimTime::ZERO, Dir::Reverse, 3, 40, 0);
        let out = run_until(&mut p, ms(100.0));
        // 40 B at 20 Mbit/s = 16 us, twice; 32 ns at 10 Gbit/s; no offset.
        let expect = SimDuration::from_micros(16 + 1000)
            + SimDuration::from_nanos(32)
            + SimDuration::from_micros(5000)
            + SimDuration::from_micros(16 + 1000);
        assert_eq!(out.delivered[0].due, SimTime::ZERO + expect);
        assert_eq!(p.stats(Dir::Reverse).bursts_sent, 0);
    }

    #[test]
    fn packets_of_one_timer_cycle_share_a_burst_and_its_fate() {
        let always = CHAIN.replace(
            "p = 0.01, pattern = \"random\"",
            "p = 1.0, pattern = \"random\"",
        );
        let mut p = pipeline(&always);
        for i in 0..5 {
            p.on_packet(ms(0.1 * f64::from(i)), Dir::Forward, i, 1000, 0);
        }
        let out = run_until(&mut p, ms(100.0));
        assert!(out.delivered.is_empty());
        let mut dropped = out.dropped.clone();
        dropped.sort_unstable();
        assert_eq!(dropped, vec![0, 1, 2, 3, 4]);
        let st = p.stats(Dir::Forward);
        assert_eq!((st.bursts_sent, st.bursts_lost, st.drops_burst), (1, 1, 5));
        assert_eq!(p.take_log()[0].lost_on, "E1->C");
    }

    #[test]
    fn a_full_access_buffer_drops() {
        let mut p = pipeline(CHAIN);
        // 100-packet buffer, ns-2's DropTail `limit_` (net::Channel): 99
        // waiting + 1 in service; of 102 offered at once, 2 drop.
        for i in 0..102 {
            p.on_packet(SimTime::ZERO, Dir::Forward, i, 1000, 0);
        }
        let out = run_until(&mut p, SimTime::ZERO);
        assert_eq!(out.dropped, vec![100, 101]);
        assert_eq!(p.stats(Dir::Forward).drops_buffer, 2);
    }

    #[test]
    fn same_arrivals_same_fates() {
        let run = || {
            let mut p = pipeline(CHAIN);
            let mut out = Output::default();
            let mut fates = Vec::new();
            for i in 0..20_000u32 {
                let t = SimTime(u64::from(i) * 400_000);
                p.advance(t, &mut out);
                fates.extend(out.delivered.drain(..).map(|d| (d.slot, d.due)));
                fates.extend(out.dropped.drain(..).map(|s| (s, SimTime::MAX)));
                p.on_packet(t, Dir::Forward, i, 1000, i % 3);
            }
            p.advance(SimTime::MAX, &mut out);
            fates.extend(out.delivered.drain(..).map(|d| (d.slot, d.due)));
            fates.extend(out.dropped.drain(..).map(|s| (s, SimTime::MAX)));
            (fates, p.stats(Dir::Forward).clone())
        };
        let (a, sa) = run();
        let (b, sb) = run();
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert_eq!(a.len(), 20_000);
        // About 1% of the bursts lost (20 000 packets, 12-13 per 5 ms burst).
        assert!(
            sa.bursts_lost > 0 && sa.bursts_lost < sa.bursts_sent / 20,
            "{sa:?}"
        );
    }
}
