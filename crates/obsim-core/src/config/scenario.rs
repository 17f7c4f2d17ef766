//! The resolved scenario: what the simulator runs, after parsing, unit
//! conversion, defaulting and validation of a TOML file (see `config::parse`).
//! Node and flow references are already resolved to dense ids, so the engine
//! never sees a name it cannot find.

use serde::Serialize;

use crate::ids::{FlowId, NodeId};
use crate::metrics::aggregate::SyncIndexDef;
use crate::tcp::config::TcpConfig;
use crate::time::{SimDuration, SimTime};

/// A validated scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    /// Free-form name (`name`), for reports.
    pub name: String,
    /// Scenario seed (`simulation.seed`, default 1); the CLI may override it.
    pub seed: u64,
    /// Simulated time at which the run stops (`simulation.duration`).
    pub duration: SimDuration,
    /// Statistics ignore everything before this time (`simulation.warmup`).
    pub warmup: SimDuration,
    /// Stop as soon as every finite flow has completed (`simulation.stop =
    /// "flows_done"`), or at `duration` (`"time"`, the default).
    pub stop_when_flows_done: bool,
    /// How static routes are chosen (`simulation.routing`).
    pub routing: Routing,
    /// Nodes in declaration order; `NodeId(i)` is `nodes[i]`.
    pub nodes: Vec<NodeSpec>,
    /// Links in declaration order.
    pub links: Vec<LinkSpec>,
    /// Flows, one entry per flow after expanding `count` and source lists;
    /// `FlowId(i)` is `flows[i]`.
    pub flows: Vec<FlowSpec>,
    /// Which time series to record.
    pub trace: TraceSpec,
    /// Aggregate metrics of TCP-over-OBS studies (`[metrics]`).
    pub metrics: MetricsSpec,
    /// Network-wide optical switching defaults (`[optical]`); each edge and
    /// core node's resolved settings are in [`NodeSpec::switch`].
    pub optical: SwitchSpec,
    /// Background burst generators (`[[generators]]`, gurel2008 §4).
    pub generators: Vec<GeneratorSpec>,
    /// UDP cross-traffic sources (`[[traffic]]`), one entry per source after
    /// expanding `count` and source lists.
    pub traffic: Vec<TrafficSpec>,
    /// Flow generators (`[[flow_generators]]`): Poisson arrivals of
    /// short-lived TCP flows (issue 12). Not serialised when empty, so the
    /// scenario echo of existing runs is unchanged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flow_generators: Vec<FlowGenSpec>,
}

/// Sampling of the aggregate metrics (`[metrics]`): gonzalez2009 §3.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsSpec {
    /// Interval at which every flow's cwnd is sampled for the aggregated
    /// throughput Σ cwnd_i/RTT_i, the normalized cwnd and the
    /// synchronization index (`sample_interval`, default 0.7 s: gonzalez2009
    /// §3 samples "every 0.7 s").
    pub sample_interval: SimDuration,
    /// Bin width of the bytes-per-bin profile of every optical channel
    /// (`throughput_bin`, default 3 ms: gonzalez2009 §4); `None` disables it.
    pub throughput_bin: Option<SimDuration>,
    /// Width, in packets, of the burst-length bins of the loss-vs-length
    /// table (`burst_length_bin`, default 6: gurel2008 Fig. 11 groups bursts
    /// of 1-60 packets into 10 bins).
    pub burst_length_bin: u32,
    /// Which flows the synchronization index counts under churn
    /// (`sync_index`, default `"at_sample"`; docs/NSFNET_STUDIES.md §2.10).
    /// Omitted from the scenario echo at its default.
    #[serde(skip_serializing_if = "SyncIndexDef::is_default")]
    pub sync_index: SyncIndexDef,
    /// Only flows from the first node to the second are sampled (`pair`,
    /// default none: every flow; gonzalez2009 §4 measures "a specific
    /// source-destination pair"). Omitted from the echo when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair: Option<(NodeId, NodeId)>,
    /// Each (ingress, egress) path's bytes of assembled bursts per
    /// `throughput_bin` reaching the far end of the ingress's output fibre
    /// (`pair_bins`, default false: gonzalez2009 Table 2's per-pair "bytes/s
    /// received by the first core router"), in the `paths` table. Omitted
    /// from the echo when false.
    #[serde(skip_serializing_if = "is_false")]
    pub pair_bins: bool,
    /// Also every whole bin after the warm-up of the one path that
    /// `pair`'s packets take through the optical domain, as the `pair_bins`
    /// table (`pair_series`, default false; needs `pair_bins` and `pair`:
    /// gonzalez2009 §4, Figs. 15-16, "aggregated throughput variation
    /// versus time of all sources of an edge router for a specific
    /// source-destination pair"). Omitted from the echo when false.
    #[serde(skip_serializing_if = "is_false")]
    pub pair_series: bool,
}

/// For `skip_serializing_if`.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for MetricsSpec {
    fn default() -> Self {
        Self {
            sample_interval: SimDuration::from_millis(700),
            throughput_bin: Some(SimDuration::from_millis(3)),
            burst_length_bin: 6,
            sync_index: SyncIndexDef::AtSample,
            pair: None,
            pair_bins: false,
            pair_series: false,
        }
    }
}

/// Shortest-path metric for static routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    /// Fewest hops; ties broken by lower next-hop node id.
    Hops,
    /// Least total propagation delay; ties broken by fewer hops, then node id.
    Delay,
}

impl Routing {
    /// Every value with its name in scenarios (`simulation.routing`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, Routing); 2] =
        [("hops", Routing::Hops), ("delay", Routing::Delay)];
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// An end host: runs TCP endpoints, forwards nothing it did not originate.
    Host,
    /// An IP router: store-and-forward with drop-tail output queues.
    Router,
    /// An OBS edge node: assembles packets entering the optical domain into
    /// bursts (ingress) and disassembles bursts leaving it (egress)
    /// (gurel2008 §2, gonzalez2009 §2). Forwards transit traffic.
    Edge,
    /// An OBS core node: a bufferless optical cross-connect that processes
    /// each burst control packet (per-hop delay Δ) and reserves an output
    /// wavelength for the burst (JET, Qiao and Yoo 1999; gurel2008 §1, §4).
    /// Has optical links only.
    Core,
}

impl NodeKind {
    /// Every value with its name in scenarios (`nodes[i].kind`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, NodeKind); 4] = [
        ("host", NodeKind::Host),
        ("router", NodeKind::Router),
        ("edge", NodeKind::Edge),
        ("core", NodeKind::Core),
    ];
}

/// Wavelength conversion at a switching node (`conversion`): gonzalez2009
/// §4 compares full, partial and no conversion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Conversion {
    /// Any output wavelength (a converter per channel).
    #[default]
    Full,
    /// Wavelength continuity: a burst keeps the wavelength its ingress chose.
    None,
    /// A pool of `converters` shared per node or per output port: the burst
    /// keeps its wavelength unless a converter is free for its duration.
    Partial,
}

impl Conversion {
    /// Every value with its name in scenarios (`conversion`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, Conversion); 3] = [
        ("full", Conversion::Full),
        ("none", Conversion::None),
        ("partial", Conversion::Partial),
    ];
}

/// Who shares the converters of partial conversion (`converter_sharing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConverterSharing {
    /// One pool of k converters for the whole node (share-per-node).
    Node,
    /// One pool of k converters per output fibre (share-per-link).
    Port,
}

impl ConverterSharing {
    /// Every value with its name in scenarios (`converter_sharing`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, ConverterSharing); 2] = [
        ("node", ConverterSharing::Node),
        ("port", ConverterSharing::Port),
    ];
}

/// What an ingress edge does with a burst whose first optical link has no
/// free wavelength (`edge_queue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeQueue {
    /// Bursts wait in an unlimited electronic burst queue and go out on the
    /// wavelength that frees first (gurel2008 §2: no loss at the edge).
    Unlimited,
    /// The edge is bufferless like a core node: the burst is scheduled by
    /// the node's scheduler at its departure time or dropped (the Erlang B
    /// loss system).
    None,
    /// A finite burst queue: as `Unlimited`, but a burst that would wait
    /// longer than this for its wavelength is dropped at the edge (the
    /// scheduler "is able to find a suitable interval" only that far ahead,
    /// gurel2008 §2).
    MaxWait(SimDuration),
}

/// Optical switching settings of one node (`[optical]` defaults overridden
/// by `[nodes.switch]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SwitchSpec {
    /// BCP processing time Δ at this node (`processing`, default 0): the BCP
    /// waits Δ before it reserves the output channel, and the ingress offset
    /// adds Δ of every node after it on the path (Qiao and Yoo 1999;
    /// gurel2008 §4 uses Δ = 50-500 µs).
    pub processing: SimDuration,
    /// Channel scheduler of the node's output ports (`scheduler`, default
    /// `"lauc-vf"`, the one gurel2008 §4 and gonzalez2009 §4 use).
    pub scheduler: crate::obs::scheduler::SchedulerKind,
    /// Wavelength conversion (`conversion`, default `"full"`).
    pub conversion: Conversion,
    /// Converters k for partial conversion (`converters`, default 0).
    pub converters: u16,
    /// Sharing of the k converters (`converter_sharing`, default `"node"`).
    pub converter_sharing: ConverterSharing,
    /// Ingress behaviour when no wavelength is free (`edge_queue`, default
    /// `"unlimited"`; edge nodes only).
    pub edge_queue: EdgeQueue,
    /// Wire size of a burst ACK or NAK this node sends (`signal_size`,
    /// default 40 B: an IP + TCP header; yu2004 gives no size).
    pub signal_size: u32,
}

impl Default for SwitchSpec {
    fn default() -> Self {
        Self {
            processing: SimDuration::ZERO,
            scheduler: crate::obs::scheduler::SchedulerKind::LaucVf,
            conversion: Conversion::Full,
            converters: 0,
            converter_sharing: ConverterSharing::Node,
            edge_queue: EdgeQueue::Unlimited,
            signal_size: 40,
        }
    }
}

/// Distribution of generated burst lengths (`distribution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LengthDistribution {
    /// Exponential with the given mean (gurel2008 §4: mean 1/μ).
    Exponential,
    /// Every burst has the mean length.
    Fixed,
}

impl LengthDistribution {
    /// Every value with its name in scenarios (`generators[i].distribution`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, LengthDistribution); 2] = [
        ("exponential", LengthDistribution::Exponential),
        ("fixed", LengthDistribution::Fixed),
    ];
}

/// Mean length of a generated burst (`length`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BurstLength {
    /// Time on a wavelength; converted to bytes at the rate of the
    /// generator's first optical link.
    Time(SimDuration),
    /// Bytes on the wire.
    Bytes(u64),
}

/// A background burst generator (`[[generators]]`, gurel2008 §4): Poisson
/// burst arrivals at an edge node, lengths exponential or fixed, egress
/// uniform over a set of edge nodes. Its bursts carry no packets; they only
/// load the core.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GeneratorSpec {
    /// Name (`name`, default `"generators[i]"`).
    pub name: String,
    /// Ingress edge node (`at`).
    pub at: NodeId,
    /// Egress edge nodes, each equally likely (`to`, default every other
    /// edge node).
    pub to: Vec<NodeId>,
    /// Mean time between bursts 1/λ, exponential (`interarrival`).
    pub interarrival: SimDuration,
    /// Mean burst length 1/μ (`length`).
    pub length: BurstLength,
    /// Length distribution (`distribution`, default `"exponential"`).
    pub distribution: LengthDistribution,
    /// First possible arrival (`start`, default 0).
    pub start: SimTime,
    /// No arrivals at or after this time (`stop`, default: never).
    pub stop: Option<SimTime>,
    /// Extra offset of this burst class on top of the hop offset
    /// (`extra_offset`, default 0).
    pub extra_offset: SimDuration,
}

/// What an edge node does with ACKs entering the optical domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AckHandling {
    /// ACKs bypass assembly and cross the optical link as packets
    /// (gurel2008 §3: "ACK packets do not experience any drops or assembly
    /// delays").
    Bypass,
    /// ACKs are assembled into bursts like data and share their fate.
    Assemble,
}

impl AckHandling {
    /// Every value with its name in scenarios (`acks`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, AckHandling); 2] = [
        ("bypass", AckHandling::Bypass),
        ("assemble", AckHandling::Assemble),
    ];
}

/// The burst-assembly set-up of an edge node (`[nodes.assembly]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EdgeSpec {
    /// Queue selection, closing trigger, padding, overheads.
    pub assembly: crate::obs::assembly::AssemblyConfig,
    /// ACK handling (`acks`, default `"bypass"`).
    pub acks: AckHandling,
    /// Extra offset of this edge's bursts on top of the hop offset
    /// (`extra_offset`, default 0): a per-class offset (Yoo, Qiao, Dixit
    /// 2000 give higher classes extra offset).
    pub extra_offset: SimDuration,
}

/// One node (`[[nodes]]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeSpec {
    /// Unique name (`nodes[i].name`).
    pub name: String,
    /// Role (`nodes[i].kind`, default `"router"`).
    pub kind: NodeKind,
    /// Burst assembly, for edge nodes with TCP traffic entering the optical
    /// domain (optional for generator-only edges).
    pub edge: Option<EdgeSpec>,
    /// Optical switching settings (`[optical]` overridden by
    /// `[nodes.switch]`); read for edge and core nodes.
    pub switch: SwitchSpec,
}

/// What makes a link optical (`kind = "optical"`): a fibre with W data
/// wavelengths per direction that carries bursts as single objects, one per
/// wavelength at a time. An ingress edge queues bursts for it without limit
/// (gurel2008 §2) unless its `edge_queue` is `"none"`; a core node reserves a
/// wavelength per burst or drops it (JET, bufferless core).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpticalSpec {
    /// Data wavelengths W per direction (`wavelengths`, default 1); `rate`
    /// is the rate of each.
    pub wavelengths: u16,
    /// Per-burst loss on `from -> to` (`burst_loss`).
    pub burst_loss: Option<crate::obs::loss::BurstLossSpec>,
    /// Per-burst loss on `to -> from` (`reverse_burst_loss`).
    pub reverse_burst_loss: Option<crate::obs::loss::BurstLossSpec>,
}

/// Output buffer of one link direction (drop-tail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Buffer {
    /// At most this many packets in the system, waiting plus the one being
    /// transmitted: ns-2's `DropTail` `limit_` (drop when `length + 1 >=
    /// limit_`). 0 and 1 both mean no waiting room.
    Packets(u32),
    /// At most this many bytes waiting.
    Bytes(u64),
    /// No limit.
    Unlimited,
}

/// A loss model on one direction of a link, applied to each packet when it
/// has crossed the link (the lost packet did occupy the link).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum LossSpec {
    /// No loss.
    None,
    /// Each packet is lost independently with probability `p`.
    Bernoulli {
        /// Loss probability in [0, 1].
        p: f64,
        /// Apply to data segments only (ACKs pass), default false.
        data_only: bool,
    },
    /// Drop the packets with these 0-based indices among all packets that
    /// cross this link direction (for tests).
    Packets {
        /// Sorted, unique indices.
        indices: Vec<u64>,
    },
    /// Drop the first transmission of these segment numbers of one flow
    /// (for scripted-loss tests).
    Segments {
        /// The flow whose segments are dropped.
        flow: FlowId,
        /// Sorted, unique segment numbers.
        seqs: Vec<u64>,
        /// Also drop retransmissions of those segments (default false).
        retransmissions: bool,
    },
}

/// One link (`[[links]]`): a full-duplex pair of simplex channels unless
/// `duplex = false`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkSpec {
    /// One end (`from`).
    pub from: NodeId,
    /// Other end (`to`).
    pub to: NodeId,
    /// Bit rate in bits per second (`rate`).
    pub rate_bps: u64,
    /// One-way propagation delay (`delay`).
    pub delay: SimDuration,
    /// Output buffer at each end (`buffer`, default 50 packets: ns-2's
    /// `Queue set limit_ 50`; see docs/SCENARIOS.md).
    pub buffer: Buffer,
    /// Also create the reverse channel `to -> from` (`duplex`, default true).
    pub duplex: bool,
    /// Loss on `from -> to` (`loss`).
    pub loss: LossSpec,
    /// Loss on `to -> from` (`reverse_loss`).
    pub reverse_loss: LossSpec,
    /// Present for optical links (`kind = "optical"`).
    pub optical: Option<OpticalSpec>,
}

/// When a flow starts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StartSpec {
    /// At this time.
    At(SimTime),
    /// Uniformly at random in `[lo, hi]`, drawn from the flow's own RNG stream.
    Uniform(SimTime, SimTime),
}

impl StartSpec {
    /// The latest time the start can be: the time, or the range's end.
    pub fn latest(self) -> SimTime {
        match self {
            StartSpec::At(t) | StartSpec::Uniform(_, t) => t,
        }
    }
}

/// What the application offers TCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AppSpec {
    /// FTP-like bulk transfer: `None` = infinite backlog, `Some(b)` = b bytes.
    Bulk(Option<u64>),
}

/// One TCP flow.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowSpec {
    /// Dense id.
    pub id: FlowId,
    /// Group name (`flows[i].name`, default `"flows[i]"`), shared by the
    /// flows a `count` or a source list expanded.
    pub group: String,
    /// Sending host.
    pub src: NodeId,
    /// Receiving host.
    pub dst: NodeId,
    /// Start time.
    pub start: StartSpec,
    /// Application.
    pub app: AppSpec,
    /// TCP parameters (profile defaults, `[tcp]`, then `[flows.tcp]`).
    pub tcp: TcpConfig,
}

/// Time series to record (`[trace]`).
// Four independent on/off keys of the schema, one field each.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceSpec {
    /// Record cwnd and ssthresh.
    pub cwnd: bool,
    /// Record `snd_nxt` / `snd_una` (segment numbers).
    pub seq: bool,
    /// Sample every `interval`; `None` records every change.
    pub interval: Option<SimDuration>,
    /// Record one row after every ACK the sender processes and after every
    /// retransmission timeout, whether or not anything changed (what the
    /// ns-2 differential harness compares: ns-2's traced `cwnd_`,
    /// `ssthresh_`, `ack_`, `maxseq_` after each ACK). Excludes `interval`.
    pub per_ack: bool,
    /// Record the packet trace: one row per packet sent onto a link,
    /// received from it, or dropped (`RunResults::packets`).
    pub packets: bool,
    /// Flows to trace (both the time series and the packet trace): declared
    /// flow ids, and generated flow ids (from the first generated id on, the
    /// `flow` column of `flow_records`), traced while those flows live;
    /// empty = every declared flow (the packet trace then includes cross
    /// traffic and generated flows).
    pub flows: Vec<FlowId>,
}

/// How long on and off periods last (`distribution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnOffDistribution {
    /// Exponential with the given means, as ns-2's
    /// `Application/Traffic/Exponential` (`burst_time_`, `idle_time_`).
    Exponential,
    /// Every period lasts exactly its mean.
    Fixed,
}

impl OnOffDistribution {
    /// Every value with its name in scenarios (`traffic[i].distribution`), in the order
    /// messages list them.
    pub const ALL: [(&'static str, OnOffDistribution); 2] = [
        ("exponential", OnOffDistribution::Exponential),
        ("fixed", OnOffDistribution::Fixed),
    ];
}

/// What a source sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrafficModel {
    /// Constant bit rate: one packet every `packet · 8 / rate` seconds
    /// (ns-2 `Application/Traffic/CBR` with `random_ 0`).
    Cbr,
    /// On/off: bursts at `rate` separated by silences (ns-2
    /// `Application/Traffic/Exponential`).
    OnOff {
        /// Mean on (burst) time (`on`, ns-2 `burst_time_`).
        on: SimDuration,
        /// Mean off (idle) time (`off`, ns-2 `idle_time_`).
        off: SimDuration,
        /// Distribution of both periods.
        distribution: OnOffDistribution,
    },
}

/// One UDP traffic source, after expansion (`[[traffic]]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrafficSpec {
    /// Dense source id (`traffic` table row, datagram `source`).
    pub id: u32,
    /// Group name (`traffic[i].name`, default `"traffic[i]"`).
    pub group: String,
    /// Sending node.
    pub src: NodeId,
    /// Receiving node (counts what arrives).
    pub dst: NodeId,
    /// Constant rate or on/off.
    pub model: TrafficModel,
    /// Bit rate while sending (`rate`), bit/s.
    pub rate_bps: u64,
    /// Datagram size on the wire (`packet`), bytes.
    pub packet_bytes: u32,
    /// When the source starts (`start`).
    pub start: StartSpec,
    /// No datagram is sent at or after this time (`stop`).
    pub stop: Option<SimTime>,
}

/// How a generated flow reaches its source and destination nodes
/// (`flow_generators[i].access`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// The flow starts at the source node and ends at the destination node
    /// themselves: every flow of a node shares the node's links (hosts as
    /// in `[[flows]]`, the "shared access link" reading).
    Shared,
    /// Each flow has its own access pipe at each end, of this rate and
    /// one-way delay, with no node per host: "access rate 100 Mbps, equal
    /// for all sources" (ramantas2007 §4, ramantas2008 §4).
    Pipe {
        /// Serialisation rate of each pipe, bit/s.
        rate_bps: u64,
        /// One-way propagation delay of each pipe.
        delay: SimDuration,
    },
}

/// One flow generator (`[[flow_generators]]`), after validation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowGenSpec {
    /// Name (`name`, default `"flow_generators[i]"`); names its RNG streams.
    pub name: String,
    /// The node where flows start.
    pub src: NodeId,
    /// Destination nodes.
    pub to: Vec<NodeId>,
    /// Relative rate towards each destination (a traffic-matrix row),
    /// positive, one per entry of `to`; all 1 when absent (uniform).
    pub weights: Vec<f64>,
    /// λ: flow arrivals per second at this source, over all destinations.
    pub rate: f64,
    /// Flow sizes.
    pub size: crate::traffic::size::SizeLaw,
    /// First instant of the arrival process.
    pub start: SimTime,
    /// No flow arrives at or after this time.
    pub stop: Option<SimTime>,
    /// TCP parameters (profile defaults, `[tcp]`, then the generator's `tcp`).
    pub tcp: TcpConfig,
    /// Access model.
    pub access: Access,
}
