//! The packet trace (`[trace] packets = true`): one row per packet event on a
//! link (send, receive, drop with its reason), the content of an ns-2 trace
//! file (`$ns trace-all`: `+`, `r`, `d`). Off by default; the engine holds an
//! `Option<Box<PacketTracer>>`, so a run without it pays one branch per event
//! and allocates nothing.

use crate::ids::{FlowId, NodeId};
use crate::net::packet::{Packet, Payload};
use crate::results::PacketTable;
use crate::time::SimTime;

/// What happened to a packet (ns-2 trace letters `+`, `r`, `d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketEvent {
    /// Handed to the link's queue at its sending node (`+`).
    Send,
    /// Its last bit reached the link's receiving node (`r`).
    Receive,
    /// Dropped (`d`), with the reason.
    Drop(DropReason),
}

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The link's drop-tail buffer was full (ns-2 `DropTail` `d` at the queue).
    Buffer,
    /// The link's loss model (`loss` / `reverse_loss`) lost it after it
    /// crossed the link (ns-2 `link-lossmodel`).
    LossModel,
    /// It was carried in a burst that was lost in the optical core.
    Burst,
}

impl PacketEvent {
    fn name(self) -> &'static str {
        match self {
            PacketEvent::Send => "send",
            PacketEvent::Receive => "receive",
            PacketEvent::Drop(_) => "drop",
        }
    }

    fn reason(self) -> &'static str {
        match self {
            PacketEvent::Drop(DropReason::Buffer) => "buffer",
            PacketEvent::Drop(DropReason::LossModel) => "loss_model",
            PacketEvent::Drop(DropReason::Burst) => "burst",
            _ => "",
        }
    }
}

/// Collects packet events in columns (node ids; names are put in at the end).
#[derive(Clone, Debug, Default)]
pub struct PacketTracer {
    /// Which TCP flows are traced (index = flow id); datagrams (flow ids at
    /// or above the number of TCP flows) are traced when `all` is set.
    enabled: Vec<bool>,
    all: bool,
    /// Generated flows traced, by id, sorted (`[trace] flows` ids at or
    /// above the number of declared flows).
    generated: Vec<u32>,
    time_s: Vec<f64>,
    event: Vec<PacketEvent>,
    from: Vec<NodeId>,
    to: Vec<NodeId>,
    kind: Vec<&'static str>,
    flow: Vec<u32>,
    seq: Vec<u64>,
    bytes: Vec<u32>,
    retransmit: Vec<bool>,
}

impl PacketTracer {
    /// A tracer for `n_flows` declared TCP flows; `flows` empty means every
    /// packet (cross traffic and generated flows included), otherwise the
    /// packets of the listed flows (declared or generated, by id).
    pub fn new(n_flows: usize, flows: &[FlowId]) -> Self {
        let mut enabled = vec![flows.is_empty(); n_flows];
        let mut generated = Vec::new();
        for f in flows {
            match enabled.get_mut(f.index()) {
                Some(e) => *e = true,
                None => generated.push(f.0),
            }
        }
        generated.sort_unstable();
        generated.dedup();
        Self {
            enabled,
            all: flows.is_empty(),
            generated,
            ..Self::default()
        }
    }

    /// Records `ev` of `pkt` on the link `from -> to` at `now` (if its flow
    /// is traced).
    #[inline]
    pub fn record(
        &mut self,
        now: SimTime,
        ev: PacketEvent,
        from: NodeId,
        to: NodeId,
        pkt: &Packet,
    ) {
        let on = match self.enabled.get(pkt.flow.index()) {
            Some(&on) => on,
            None => self.all || self.generated.binary_search(&pkt.flow.0).is_ok(),
        };
        if !on {
            return;
        }
        let (kind, seq, retransmit) = match pkt.payload {
            Payload::Data(s) if s.syn => ("syn", s.seq, s.retransmit),
            Payload::Data(s) => ("data", s.seq, s.retransmit),
            Payload::Ack(a) => ("ack", a.ack, false),
            Payload::Signal(_) => ("signal", 0, false),
            Payload::Datagram(_) => ("datagram", 0, false),
        };
        self.time_s.push(now.as_secs_f64());
        self.event.push(ev);
        self.from.push(from);
        self.to.push(to);
        self.kind.push(kind);
        self.flow.push(pkt.flow.0);
        self.seq.push(seq);
        self.bytes.push(pkt.bytes);
        self.retransmit.push(retransmit);
    }

    /// The table, with node ids replaced by `names`.
    pub fn finish(self, names: &[String]) -> PacketTable {
        let name = |n: &NodeId| names[n.index()].clone();
        PacketTable {
            time_s: self.time_s,
            event: self.event.iter().map(|e| e.name()).collect(),
            from: self.from.iter().map(name).collect(),
            to: self.to.iter().map(name).collect(),
            kind: self.kind,
            flow: self.flow,
            seq: self.seq,
            bytes: self.bytes,
            retransmit: self.retransmit,
            reason: self.event.iter().map(|e| e.reason()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::test_data;

    #[test]
    fn records_traced_flows_only_and_names_nodes() {
        let mut t = PacketTracer::new(2, &[FlowId(1)]);
        let t0 = SimTime::ZERO;
        t.record(
            t0,
            PacketEvent::Send,
            NodeId(0),
            NodeId(1),
            &test_data(0, 5),
        );
        t.record(
            t0,
            PacketEvent::Send,
            NodeId(0),
            NodeId(1),
            &test_data(1, 7),
        );
        let ev = PacketEvent::Drop(DropReason::LossModel);
        t.record(t0, ev, NodeId(0), NodeId(1), &test_data(1, 7));
        let table = t.finish(&["a".to_string(), "b".to_string()]);
        assert_eq!(table.seq, vec![7, 7]);
        assert_eq!(table.event, vec!["send", "drop"]);
        assert_eq!(table.reason, vec!["", "loss_model"]);
        assert_eq!(table.from, vec!["a", "a"]);
        assert_eq!(table.to, vec!["b", "b"]);
        assert_eq!(table.kind, vec!["data", "data"]);
        assert_eq!(table.bytes, vec![1040, 1040]);
    }

    #[test]
    fn an_empty_filter_traces_every_packet_including_cross_traffic() {
        let mut t = PacketTracer::new(1, &[]);
        // Flow id 3 is beyond the one TCP flow: a datagram's id.
        t.record(
            SimTime::ZERO,
            PacketEvent::Receive,
            NodeId(0),
            NodeId(0),
            &test_data(3, 0),
        );
        assert_eq!(t.finish(&["a".to_string()]).event, vec!["receive"]);
    }
}
