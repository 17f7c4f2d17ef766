//! What a run produces. Column-oriented where a table is long (traces), so the
//! Python layer can hand the vectors to Arrow without reshaping.

use std::sync::Arc;

use serde::Serialize;

/// Everything one run produces.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunResults {
    /// Run-level facts.
    pub meta: RunMeta,
    /// One row per flow, in flow-id order.
    pub flows: Vec<FlowResult>,
    /// One row per link direction, in link order (forward then reverse).
    pub links: Vec<LinkResult>,
    /// Per-flow time series, if requested in `[trace]`.
    pub trace: TraceTable,
    /// One row per packet event (send, receive, drop), if requested with
    /// `[trace] packets = true`: the content of an ns-2 trace file.
    pub packets: PacketTable,
    /// Burst composition histograms (empty without OBS edges).
    pub bursts: BurstHistTable,
    /// Aggregate series sampled every `metrics.sample_interval`.
    pub series: crate::metrics::aggregate::SeriesTable,
    /// One row per edge and core node: BCPs processed, bursts dropped
    /// (empty without optical links).
    pub nodes: Vec<NodeResult>,
    /// One row per (ingress, egress, class) with bursts sent after warm-up.
    pub paths: Vec<PathResult>,
    /// Assembled bursts sent and lost per (ingress, egress, burst-length
    /// bin) after warm-up (gurel2008 Fig. 11).
    pub burst_lengths: Vec<BurstLengthResult>,
    /// One row per wavelength of every optical link direction.
    pub wavelengths: Vec<WavelengthResult>,
    /// One row per UDP traffic source (`[[traffic]]`), in source-id order.
    pub traffic: Vec<TrafficResult>,
    /// One row per generated flow (`[[flow_generators]]`), in the order the
    /// flows finished; flows still running at the end follow, by id. Empty
    /// when the records were streamed to a `engine::RecordSink`.
    pub flow_records: Vec<FlowRecord>,
    /// With `metrics.pair_series`: one row per whole bin after the warm-up
    /// of the path of `metrics.pair`, in time order (gonzalez2009 §4,
    /// Figs. 15-16).
    pub pair_bins: Vec<PairBinResult>,
    /// Flow-generator totals (not a table: not serialised).
    #[serde(skip)]
    pub flowgen: FlowGenStats,
}

/// Totals of the flow generators over a run (issue 12).
#[derive(Clone, Copy, Debug, Default)]
pub struct FlowGenStats {
    /// Flows created.
    pub created: u64,
    /// Flow slots allocated: the most generated flows live at once, which
    /// bounds their memory.
    pub slots: u64,
    /// Most generated flows active at once.
    pub peak_active: u64,
    /// Time-average number of active generated flows after the warm-up
    /// (Little's L).
    pub mean_active: f64,
    /// Most flow records held at once: every record without a record sink,
    /// at most one chunk with one (`engine::RecordSink`).
    pub records_held_peak: u64,
}

/// One generated flow (issue 12 item 4): what it was asked to send and what
/// became of it. Whole-flow counts (no warm-up cut: the flow is the unit).
#[derive(Clone, Debug, Default, Serialize)]
pub struct FlowRecord {
    /// Flow id, unique over the run and in arrival order.
    pub flow: u32,
    /// Generator name (`flow_generators[i].name`). The names are shared
    /// by every record that carries them (`Arc`): a record allocates
    /// nothing for its names (issue 12: no allocation per flow).
    pub generator: Arc<str>,
    /// Source node name (shared, as `generator`).
    pub src: Arc<str>,
    /// Destination node name (shared, as `generator`).
    pub dst: Arc<str>,
    /// Bytes the flow was to send (its drawn size).
    pub size_bytes: u64,
    /// Arrival time (the connection starts), s.
    pub start_s: f64,
    /// Time its last byte was acknowledged, s; NaN if unfinished.
    pub end_s: f64,
    /// `end_s - start_s`; NaN if unfinished.
    pub completion_s: f64,
    /// Bytes delivered in order to the receiver.
    pub bytes_delivered: u64,
    /// `size_bytes` · 8 / `completion_s` (bit/s) when finished; NaN if not.
    pub goodput_bps: f64,
    /// `bytes_delivered` · 8 over the time from arrival to the end (the
    /// run's end if unfinished), bit/s: the flow's rate, defined for every
    /// flow, so that averages over flows need not drop the unfinished
    /// (long) ones; equals `goodput_bps` for a finished flow.
    pub throughput_bps: f64,
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Triple-duplicate-ACK (fast retransmit) loss events.
    pub td_events: u64,
    /// Retransmission timeouts.
    pub to_events: u64,
    /// Timeouts undone on timestamp or D-SACK evidence (Linux
    /// `LINUX_MIB_TCPLOSSUNDO`; included in `to_events`).
    pub loss_undos: u64,
    /// Fast recoveries undone when they ended (`LINUX_MIB_TCPFULLUNDO`).
    pub recovery_undos: u64,
    /// Reductions undone on D-SACKs (`LINUX_MIB_TCPDSACKUNDO`, RFC 3708).
    pub dsack_undos: u64,
    /// Bursts that carried data of this flow (0 without OBS edges).
    pub bursts_sent: u64,
    /// Those bursts that were lost.
    pub bursts_lost: u64,
    /// Bursts that carried ACKs of this flow (0 unless the receiver's edge
    /// assembles ACKs, `acks = "assemble"`).
    pub ack_bursts_sent: u64,
    /// Those bursts that were lost.
    pub ack_bursts_lost: u64,
    /// True if the flow finished before the run ended.
    pub finished: bool,
    /// Seconds the flow was active after the warm-up: from the later of
    /// its arrival and the warm-up's end to its end (the run's end if it
    /// did not finish). Summed over flows and divided by the measured time,
    /// the time-average number of active flows (Little's L, the "active
    /// sources" of ramantas2007 Fig. 1a).
    pub active_after_warmup_s: f64,
}

/// Per switching node (edge or core) results, whole run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NodeResult {
    /// Node name.
    pub node: String,
    /// `"edge"` or `"core"`.
    pub kind: String,
    /// Burst control packets processed (core nodes; JET, one per burst
    /// crossing the node).
    pub bcps: u64,
    /// Bursts dropped here because no allowed wavelength was free on the
    /// output fibre (bufferless contention).
    pub bursts_dropped: u64,
    /// Wavelength conversions made with the node's converters (partial
    /// conversion; full conversion is not counted).
    pub conversions: u64,
    /// Burst ACKs and NAKs sent to Burst TCP senders (yu2004 §IV.B-C).
    pub signals_sent: u64,
}

/// Bursts between one ingress and one egress edge, counted for bursts that
/// left the ingress after warm-up.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PathResult {
    /// Ingress edge node name.
    pub ingress: String,
    /// Egress edge node name.
    pub egress: String,
    /// `"tcp"` for assembled bursts, `"background"` for generated ones.
    pub class: String,
    /// Optical hops (links) on the path.
    pub hops: u32,
    /// JET offset of the path without any extra offset: Σ Δ of the nodes
    /// after the ingress, seconds.
    pub offset_s: f64,
    /// Bursts sent.
    pub bursts: u64,
    /// Bursts lost anywhere on the path (contention or a burst loss model).
    pub lost: u64,
    /// Of those, bursts dropped for lack of a wavelength (contention).
    pub blocked: u64,
    /// Wire bytes sent.
    pub bytes: u64,
    /// `lost / bursts` (NaN without bursts).
    pub loss_ratio: f64,
    /// With `metrics.pair_bins`, class `tcp`: mean rate of the path's
    /// burst bytes reaching the far end of the ingress's output fibre (the
    /// first core router) per `metrics.throughput_bin`, over the whole bins
    /// after warm-up, bit/s (gonzalez2009 §4, Table 2); NaN otherwise.
    pub bin_rate_mean_bps: f64,
    /// Its standard deviation (divide by n), bit/s.
    pub bin_rate_std_bps: f64,
    /// Its minimum, bit/s.
    pub bin_rate_min_bps: f64,
    /// Its maximum, bit/s.
    pub bin_rate_max_bps: f64,
}

/// One `metrics.throughput_bin` of one path (`metrics.pair_series`): the
/// wire bytes of its assembled (TCP) bursts reaching the far end of the
/// ingress's output fibre (the first core router) in the bin, as counted
/// for the `paths` table's `bin_rate_*_bps` (gonzalez2009 §4, Figs. 15-16:
/// "aggregated throughput variation versus time of all sources of an edge
/// router for a specific source-destination pair").
#[derive(Clone, Debug, Default, Serialize)]
pub struct PairBinResult {
    /// Ingress edge node name.
    pub ingress: String,
    /// Egress edge node name.
    pub egress: String,
    /// Start of the bin, seconds.
    pub start_s: f64,
    /// Wire bytes reaching the first core router in the bin.
    pub bytes: u64,
    /// `bytes` as a rate over the bin, bit/s.
    pub rate_bps: f64,
}

/// Assembled bursts of one length bin between one ingress and one egress.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BurstLengthResult {
    /// Ingress edge node name.
    pub ingress: String,
    /// Egress edge node name.
    pub egress: String,
    /// Smallest packet count in the bin.
    pub packets_lo: u32,
    /// Largest packet count in the bin.
    pub packets_hi: u32,
    /// Bursts sent.
    pub bursts: u64,
    /// Bursts lost.
    pub lost: u64,
    /// `lost / bursts`.
    pub loss_ratio: f64,
}

/// One wavelength (data channel) of an optical link direction.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WavelengthResult {
    /// Link direction index (as in the links table).
    pub link: u32,
    /// Transmitting node name.
    pub from: String,
    /// Receiving node name.
    pub to: String,
    /// Wavelength index.
    pub wavelength: u32,
    /// Bursts carried (whole run).
    pub bursts: u64,
    /// Fraction of the measured window the wavelength was reserved.
    pub utilisation: f64,
}

/// Histograms of burst composition, as rows (`metric`, `value`, `count`):
/// `count` bursts (or flow-bursts) had `value` of `metric`. Metrics:
/// `flows_per_burst` (distinct flows with data in a burst), `segments_per_flow`
/// (data segments of one flow in one burst, per flow-burst pair),
/// `packets_per_burst`. Counted for bursts sent after the warm-up.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BurstHistTable {
    /// Metric name.
    pub metric: Vec<String>,
    /// Value of the metric.
    pub value: Vec<u64>,
    /// Number of bursts (flow-bursts for `segments_per_flow`) with that value.
    pub count: Vec<u64>,
}

/// Run-level facts and engine statistics.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunMeta {
    /// Scenario name.
    pub scenario: String,
    /// Seed actually used.
    pub seed: u64,
    /// obsim-core version.
    pub version: String,
    /// Simulated time at which the run ended, in seconds.
    pub end_time_s: f64,
    /// Warm-up excluded from statistics, in seconds.
    pub warmup_s: f64,
    /// Length of the measurement window (end - warm-up), in seconds.
    pub measured_s: f64,
    /// Events executed.
    pub events: u64,
    /// Wall-clock seconds spent in the event loop.
    pub wall_s: f64,
    /// Data segments delivered in order to receiving applications (whole run).
    pub segments_delivered: u64,
    /// Why the run stopped: `"time"`, `"flows_done"`, or `"interrupted"` (the
    /// partial results of an aborted run, see `SimError::Interrupted`).
    pub stop_reason: String,
    /// Synchronization index I (gonzalez2009 eq. 1) over the samples after
    /// warm-up; NaN if no sample saw a loss.
    pub sync_index: f64,
    /// Mean of the aggregated throughput Σ cwnd_i·MSS/RTT_i, bit/s.
    pub agg_throughput_mean_bps: f64,
    /// Its standard deviation, bit/s.
    pub agg_throughput_std_bps: f64,
    /// Its minimum, bit/s.
    pub agg_throughput_min_bps: f64,
    /// Its maximum, bit/s.
    pub agg_throughput_max_bps: f64,
    /// Its coefficient of variation (std / mean).
    pub agg_throughput_cov: f64,
    /// Mean normalized congestion window Σ cwnd_i / (W_M · N_F).
    pub norm_cwnd_mean: f64,
    /// Mean fraction of the active flows in slow start (cwnd < ssthresh)
    /// over the samples after warm-up with an active flow.
    pub slow_start_fraction_mean: f64,
    /// Mean number of distinct flows with data in a burst (bursts closed
    /// after warm-up; NaN without bursts).
    pub flows_per_burst_mean: f64,
    /// Mean data segments of one flow in one burst (flow-burst pairs).
    pub segments_per_flow_mean: f64,
}

/// Per-flow results. Counters marked "measured" cover only the window after
/// warm-up; the rest cover the whole run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FlowResult {
    /// Flow id.
    pub flow: u32,
    /// Group name.
    pub group: String,
    /// Source node name.
    pub src: String,
    /// Destination node name.
    pub dst: String,
    /// TCP variant.
    pub variant: String,
    /// Start time, seconds.
    pub start_s: f64,
    /// Completion time (last byte acknowledged), seconds; NaN if not finished.
    pub end_s: f64,
    /// Payload bytes delivered in order to the receiver (measured).
    pub bytes_delivered: u64,
    /// Goodput in bit/s over the measured window (or start..end for a flow
    /// that finished), payload only.
    pub goodput_bps: f64,
    /// Data segments sent, including retransmissions (whole run).
    pub segments_sent: u64,
    /// Retransmitted segments (whole run).
    pub retransmits: u64,
    /// Data segments delivered in order to the application (whole run).
    pub segments_delivered: u64,
    /// Loss events detected by triple duplicate ACK (entries into fast
    /// retransmit; whole run).
    pub td_events: u64,
    /// Retransmission timeouts (whole run).
    pub to_events: u64,
    /// Timeouts that fired while already backed off (consecutive timeouts).
    pub backoffs: u64,
    /// Timeouts judged false by Burst TCP (`fto_detection`) and handled like
    /// a triple-duplicate loss (included in `to_events`).
    pub fto_judged_false: u64,
    /// FTO responses a BNAK started before the timer fired (whole run;
    /// included in `fto_judged_false`, not in `to_events`).
    pub early_fto_events: u64,
    /// Timeouts F-RTO proved spurious and undid (`tcp.frto`, RFC 5682;
    /// whole run; included in `to_events`).
    pub spurious_rtos: u64,
    /// Timeouts undone in the Loss state on timestamp or D-SACK evidence
    /// (Linux `LINUX_MIB_TCPLOSSUNDO`; `tcp.timestamps`, `tcp.dsack`;
    /// whole run; included in `to_events`, not in `spurious_rtos`).
    pub loss_undos: u64,
    /// Fast recoveries undone when they ended (Linux
    /// `LINUX_MIB_TCPFULLUNDO`; whole run).
    pub recovery_undos: u64,
    /// Window reductions undone because D-SACKs reported every
    /// retransmission unnecessary (Linux `LINUX_MIB_TCPDSACKUNDO`, RFC
    /// 3708; whole run).
    pub dsack_undos: u64,
    /// Burst ACKs/NAKs received by the sender (whole run).
    pub signals_received: u64,
    /// Judgements "false timeout" (timer or BNAK) where the segment at
    /// `snd_una` was last lost in the optical core: right (whole run).
    pub judged_false_right: u64,
    /// Judgements "false timeout" where it was lost elsewhere (access
    /// network) or not lost: wrong.
    pub judged_false_wrong: u64,
    /// Timeouts judged true where the segment was lost outside the core, or
    /// not lost (a spurious timeout): right.
    pub judged_true_right: u64,
    /// Timeouts judged true where it was lost in the core: wrong (every
    /// timeout of plain TCP after a burst loss counts here).
    pub judged_true_wrong: u64,
    /// Data packets of this flow dropped in the network (whole run).
    pub packets_dropped: u64,
    /// Data packets that reached the receiver, duplicates included (whole run).
    pub segments_received: u64,
    /// Data packets still in the network when the run stopped. Conservation:
    /// `segments_sent = segments_received + packets_dropped + segments_in_flight`.
    pub segments_in_flight: u64,
    /// Smoothed RTT at the end of the run, seconds (NaN before any sample).
    pub srtt_s: f64,
    /// Mean RTT over all samples, seconds.
    pub rtt_mean_s: f64,
    /// Retransmission timeout at the end of the run, seconds.
    pub rto_s: f64,
    /// Mean RTO in force when a first (not backed-off) timeout fired,
    /// seconds (PFTK's `T0`); NaN without timeouts.
    pub t0_mean_s: f64,
    /// cwnd at the end of the run, segments.
    pub cwnd_final: f64,
    /// Bursts that carried at least one of this flow's data segments
    /// (whole run; 0 without OBS edges).
    pub bursts_sent: u64,
    /// Of those, bursts lost in the optical core.
    pub bursts_lost: u64,
    /// Bursts that carried at least one of this flow's ACKs (0 unless the
    /// receiver's edge assembles ACKs, `acks = "assemble"`).
    pub ack_bursts_sent: u64,
    /// Of those, bursts lost in the optical core.
    pub ack_bursts_lost: u64,
}

/// Per link-direction results.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LinkResult {
    /// Link index in the scenario.
    pub link: u32,
    /// Transmitting node name.
    pub from: String,
    /// Receiving node name.
    pub to: String,
    /// Packets accepted into the buffer (whole run).
    pub packets: u64,
    /// Bytes accepted (whole run).
    pub bytes: u64,
    /// Packets dropped at a full buffer (whole run).
    pub drops_buffer: u64,
    /// Packets dropped by the loss model (whole run).
    pub drops_loss: u64,
    /// Fraction of the measured window the transmitter was busy (optical
    /// links: mean over the W wavelengths of the reserved fraction).
    pub utilisation: f64,
    /// Bursts sent on this channel (optical links; whole run).
    pub bursts: u64,
    /// Bursts lost by its burst loss model (whole run).
    pub bursts_lost: u64,
    /// Data wavelengths W (optical links; 0 for electronic links).
    pub wavelengths: u32,
    /// Burst control packets sent on this link direction (whole run).
    pub bcps: u64,
    /// Bursts refused at this output fibre for lack of a wavelength (whole
    /// run; bufferless ports only).
    pub bursts_blocked: u64,
    /// Mean rate of the bytes entering the channel per `metrics.throughput_bin`
    /// (optical channels, measured window), bit/s; NaN otherwise.
    pub bin_rate_mean_bps: f64,
    /// Standard deviation of that rate, bit/s.
    pub bin_rate_std_bps: f64,
    /// Minimum of that rate, bit/s.
    pub bin_rate_min_bps: f64,
    /// Maximum of that rate, bit/s.
    pub bin_rate_max_bps: f64,
}

/// Columns of the time series: row `i` is (`time_s[i]`, `flow[i]`, ...).
#[derive(Clone, Debug, Default, Serialize)]
pub struct TraceTable {
    /// Sample time, seconds.
    pub time_s: Vec<f64>,
    /// Flow id.
    pub flow: Vec<u32>,
    /// Congestion window, segments.
    pub cwnd: Vec<f64>,
    /// Slow-start threshold, segments.
    pub ssthresh: Vec<f64>,
    /// Highest segment number sent plus one.
    pub snd_nxt: Vec<u64>,
    /// Oldest unacknowledged segment.
    pub snd_una: Vec<u64>,
}

/// Columns of the packet trace (`[trace] packets = true`): row `i` is one
/// event of one packet on one link, as a line of an ns-2 trace file
/// (`trace-all`): `send` is ns-2's `+` (the packet is handed to the link's
/// queue at `from`), `receive` is `r` (its last bit reached `to`), `drop` is
/// `d`. ns-2's `-` (dequeue) is not recorded: it follows from the link's rate.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PacketTable {
    /// Event time, seconds.
    pub time_s: Vec<f64>,
    /// `"send"`, `"receive"` or `"drop"`.
    pub event: Vec<&'static str>,
    /// The node the link leaves (a burst loss: the burst's ingress edge).
    pub from: Vec<String>,
    /// The node the link reaches (a burst loss: the burst's egress edge).
    pub to: Vec<String>,
    /// `"data"`, `"ack"`, `"datagram"` or `"signal"` (a burst ACK/NAK).
    pub kind: Vec<&'static str>,
    /// Flow id (a datagram: the number of TCP flows plus its source id).
    pub flow: Vec<u32>,
    /// Data: the segment number; ACK: the cumulative ACK (next segment
    /// expected); datagram and signal: 0.
    pub seq: Vec<u64>,
    /// Size on the wire, bytes.
    pub bytes: Vec<u32>,
    /// A data segment sent again (a retransmission); false otherwise.
    pub retransmit: Vec<bool>,
    /// Why a packet was dropped: `"buffer"` (full drop-tail buffer),
    /// `"loss_model"` (the link's `loss`/`reverse_loss` model) or `"burst"`
    /// (it was in a lost burst); `""` for other events.
    pub reason: Vec<&'static str>,
}

/// Per-source results of the UDP cross traffic (`[[traffic]]`). Counters
/// cover the whole run, except `bytes_delivered` and `throughput_bps`
/// (measured window after warm-up), as in [`FlowResult`]. Conservation:
/// `packets_sent = packets_delivered + packets_dropped + packets_in_flight`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TrafficResult {
    /// Source id (datagram `source`).
    pub source: u32,
    /// Group name (`traffic[i].name`).
    pub group: String,
    /// `"cbr"` or `"onoff"`.
    pub kind: String,
    /// Sending node name.
    pub src: String,
    /// Receiving node name.
    pub dst: String,
    /// Datagrams sent (whole run).
    pub packets_sent: u64,
    /// Datagrams that reached the destination (whole run).
    pub packets_delivered: u64,
    /// Datagrams dropped in the network: full buffers, link loss models, lost
    /// bursts (whole run).
    pub packets_dropped: u64,
    /// Datagrams still in the network when the run stopped.
    pub packets_in_flight: u64,
    /// Bytes on the wire delivered (measured).
    pub bytes_delivered: u64,
    /// `bytes_delivered` · 8 / the measured window, bit/s.
    pub throughput_bps: f64,
}
