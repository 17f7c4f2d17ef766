//! The TCP sender: an I/O-free state machine (smoltcp style). The engine
//! calls [`TcpSender::start`], [`TcpSender::on_ack`] and
//! [`TcpSender::on_timeout`], then drains [`TcpSender::poll_transmit`] until
//! it returns `None`, and arms one timer at [`TcpSender::next_deadline`]:
//! the retransmission timer ([`TcpSender::rto_deadline`]) or, with RACK-TLP
//! (RFC 8985), the earlier of it, the probe timeout and RACK's reordering
//! timer; [`TcpSender::on_timeout`] serves whichever is due.
//! Window growth, loss recovery and the timeout response are plug-ins that
//! share the [`ControlBlock`].

use crate::tcp::cc::{self, LossSignal, WindowGrowth};
use crate::tcp::config::{Dsack, Frto, TcpConfig, Timestamps};
use crate::tcp::control::{CaState, ControlBlock};
use crate::tcp::gso::Gso;
use crate::tcp::recovery::{self, Actions, LossRecovery};
use crate::tcp::rtt::RttEstimator;
use crate::tcp::segment::{ts_before, ts_clock, Ack, Segment};
use crate::tcp::signal::{BurstSignal, SignalSet};
use crate::tcp::timeout::{
    self, ForwardRto, FrtoVerdict, SignalReaction, TimeoutReaction, TimeoutResponse,
};
use crate::tcp::tlp::Tlp;
use crate::tcp::undo::Undo;
use crate::time::{SimDuration, SimTime};

/// Counters of one sender.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SenderStats {
    /// Data segments handed to the network, retransmissions included.
    pub segments_sent: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Payload bytes handed to the network, retransmissions included.
    pub bytes_sent: u64,
    /// Fast retransmits: entries into loss recovery on duplicate ACKs ("TD"
    /// loss indications), plus timeouts a plug-in turned into one.
    pub td_events: u64,
    /// Retransmission-timer expiries ("TO" loss indications).
    pub to_events: u64,
    /// Expiries the timeout plug-in judged false (Burst TCP FTOs, yu2004
    /// §IV) and answered as a TD loss; also counted in `to_events` and
    /// `td_events`. Judged true = `to_events - fto_events`.
    pub fto_events: u64,
    /// Expiries that hit an already backed-off timer (consecutive timeouts).
    pub backoffs: u64,
    /// FTO responses a burst signal started before the timer fired (BNAK,
    /// yu2004 §IV.C); also counted in `fto_events` and `td_events`, not in
    /// `to_events`.
    pub early_fto_events: u64,
    /// Burst signals (BACK/BNAK) received.
    pub signals_received: u64,
    /// Valid RTT samples taken (Karn's rule).
    pub rtt_samples: u64,
    /// Sum of those samples (mean = `rtt_sum / rtt_samples`).
    pub rtt_sum: SimDuration,
    /// Sum of the RTO in force when a *first* timeout of a sequence fired
    /// (PFTK's `T0`; mean = `first_rto_sum / (to_events - backoffs)`).
    pub first_rto_sum: SimDuration,
    /// Tail loss probes sent (RFC 8985 §7.3, `tcp.tlp`).
    pub tlp_probes: u64,
    /// Probe episodes that ended with a retransmitted probe acknowledged
    /// (RFC 8985 §7.4: a loss repaired, cwnd reduced); not counted in
    /// `td_events`.
    pub tlp_recoveries: u64,
    /// RACK reordering-timer expiries (RFC 8985 §6.2 step 5, `tcp.rack`).
    pub rack_timer_events: u64,
    /// Retransmission timeouts F-RTO proved spurious and undid (RFC 5682
    /// `SpuriousRecovery = SPUR_TO`; Linux `LINUX_MIB_TCPSPURIOUSRTOS`,
    /// `tcp.frto`); also counted in `to_events`.
    pub spurious_rtos: u64,
    /// Timeouts undone in the Loss state because the ACK's timestamp echo
    /// predates the first retransmission or every retransmission was
    /// D-SACKed (Linux `tcp_try_undo_loss(sk, false)`,
    /// `LINUX_MIB_TCPLOSSUNDO`; `tcp.timestamps`, `tcp.dsack`); also
    /// counted in `to_events`, not in `spurious_rtos`.
    pub loss_undos: u64,
    /// Fast recoveries undone when they ended, on the same evidence (Linux
    /// `tcp_try_undo_recovery`, `LINUX_MIB_TCPFULLUNDO`).
    pub recovery_undos: u64,
    /// Window reductions undone because D-SACKs reported every
    /// retransmission of the episode unnecessary, during or after a fast
    /// recovery (Linux `tcp_try_undo_dsack`, `LINUX_MIB_TCPDSACKUNDO`; RFC
    /// 3708).
    pub dsack_undos: u64,
    /// When [`TcpSender::start`] was called.
    pub started_at: Option<SimTime>,
    /// When a finite flow was fully acknowledged.
    pub completed_at: Option<SimTime>,
}

/// What the sender decided on a timer expiry or a burst signal, as its
/// timeout plug-in answered it. The engine scores Burst TCP's judgements
/// from it (`metrics::judgement`); the counters in [`SenderStats`] count
/// the same decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossDecision {
    /// Nothing taken: the timer was not due or nothing was outstanding, or
    /// the signal started no response.
    Nothing,
    /// The retransmission timer expired with data outstanding (a "TO" loss
    /// indication, counted in `to_events`) and the plug-in answered so.
    Timeout(TimeoutReaction),
    /// A burst signal started the FTO response before the timer fired
    /// (BNAK, yu2004 §IV.C; counted in `early_fto_events`).
    EarlyFto,
}

impl LossDecision {
    /// The FTO verdict the decision carries (yu2004 §IV): `Some(true)` when
    /// the loss was judged a false timeout (at the timer or early, on a
    /// BNAK), `Some(false)` for a timeout judged true, `None` when nothing
    /// was judged.
    pub fn judged_false(self) -> Option<bool> {
        match self {
            LossDecision::Nothing => None,
            LossDecision::Timeout(r) => Some(r == TimeoutReaction::FalseTimeout),
            LossDecision::EarlyFto => Some(true),
        }
    }
}

/// Where the connection's SYN stands (`tcp.syn`, ns-2 `syn_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SynState {
    /// No SYN (`tcp.syn = false`) or its ACK has arrived: data may flow.
    Open,
    /// The SYN is to be sent (at start, or again after a timeout).
    Due,
    /// The SYN is out; nothing else is sent until it is acknowledged.
    Sent,
}

/// A TCP sender (Tahoe, Reno, `NewReno` or SACK, per [`TcpConfig::variant`]).
#[derive(Debug)]
pub struct TcpSender {
    cb: ControlBlock,
    cc: Box<dyn WindowGrowth>,
    recovery: Box<dyn LossRecovery>,
    timeout: Box<dyn TimeoutResponse>,
    rtt: RttEstimator,
    mss: u32,
    data_bytes: Option<u64>,
    /// `TcpConfig::pad_last_segment`.
    pad_last_segment: bool,
    started: bool,
    rto_deadline: Option<SimTime>,
    /// A retransmission that goes out before anything else, outside the
    /// window (fast retransmit, `NewReno` partial ACK).
    pending_rtx: Option<u64>,
    /// Window-rule segments still allowed in answer to the last ACK
    /// ([`LossRecovery::max_burst`]); `None` = no limit.
    burst_left: Option<u32>,
    /// The timed segment and its send time: one RTT measurement at a time,
    /// as BSD and ns-2 do without timestamps (`rtt_active_`, `rtt_seq_`);
    /// unused with `tcp.timestamps` (every ACK is a sample).
    timing: Option<(u64, SimTime)>,
    /// `tcp.timestamps`: unless off, RTT samples as Linux's
    /// `tcp_ack_update_rtt` takes them.
    timestamps: Timestamps,
    /// RFC 7323 §4.3 `TS.Recent` of this end: the newest TSval of the
    /// receiver's ACKs (Linux `rx_opt.ts_recent`, `tcp_replace_ts_recent`:
    /// a pure ACK's SEG.SEQ never passes `rcv_wup`, so every acceptable ACK
    /// whose TSval is not older updates it), echoed as each segment's
    /// TSecr; 0 before the first ACK and without timestamps.
    ts_recent: u32,
    /// Linux's GSO packets, their PSH and `tcp_tso_should_defer`
    /// (`tcp.gso`).
    gso: Gso,
    /// Linux's undo of a reduction proved unnecessary (`tcp.timestamps`,
    /// `tcp.dsack`).
    undo: Undo,
    /// The SYN handshake's state (`tcp.syn`).
    syn: SynState,
    /// When the SYN now out was sent, if it is timed (its first
    /// transmission; Karn: no sample from a resent SYN, as ns-2 times
    /// only `seqno > maxseq_`).
    syn_sent_at: Option<SimTime>,
    /// cwnd once the SYN is acknowledged (`initial_cwnd`; ns-2
    /// `initial_window()` under `delay_growth_`).
    initial_cwnd: f64,
    stats: SenderStats,
    /// cwnd and ssthresh when [`TcpSender::take_changed`] last looked.
    last_seen: (f64, f64),
    /// `tcp.rack`: the loss-recovery plug-in runs RACK (RFC 8985 §6) and is
    /// given the clock ([`LossRecovery::set_clock`]) and asked for its
    /// reordering timer.
    rack: bool,
    /// Tail Loss Probe (RFC 8985 §7, `tcp.tlp`) and its probe timer.
    tlp: Tlp,
    /// F-RTO (RFC 5682, `tcp.frto`): the test of a timeout for spuriousness.
    frto: ForwardRto,
}

/// The values of a new sender that follow from its configuration and
/// size: shared by [`TcpSender::new`] and [`TcpSender::renew`].
struct Start {
    cb: ControlBlock,
    mss: u32,
    syn: SynState,
    initial_cwnd: f64,
    last_seen: (f64, f64),
}

impl Start {
    fn new(cfg: &TcpConfig, data_bytes: Option<u64>) -> Self {
        let mss = cfg.mss.max(1);
        let end_seq = data_bytes.map_or(u64::MAX, |b| b.div_ceil(u64::from(mss)));
        let mut cb = ControlBlock::new(cfg, end_seq);
        let initial_cwnd = cb.cwnd;
        if cfg.syn {
            // ns-2 `set_initial_window()`: cwnd_ = 1 while the SYN is out
            // when `syn_ && delay_growth_`.
            cb.cwnd = 1.0;
        }
        let last_seen = (cb.cwnd, cb.ssthresh);
        Start {
            cb,
            mss,
            syn: if cfg.syn {
                SynState::Due
            } else {
                SynState::Open
            },
            initial_cwnd,
            last_seen,
        }
    }
}

impl TcpSender {
    /// A sender for `data_bytes` bytes (`None` = infinite bulk transfer).
    pub fn new(cfg: &TcpConfig, data_bytes: Option<u64>) -> Self {
        let start = Start::new(cfg, data_bytes);
        TcpSender {
            cb: start.cb,
            cc: cc::for_config(cfg),
            recovery: recovery::for_config(cfg),
            timeout: timeout::for_config(cfg),
            rtt: RttEstimator::new(&cfg.rto),
            mss: start.mss,
            data_bytes,
            pad_last_segment: cfg.pad_last_segment,
            started: false,
            rto_deadline: None,
            pending_rtx: None,
            burst_left: None,
            timing: None,
            syn: start.syn,
            syn_sent_at: None,
            initial_cwnd: start.initial_cwnd,
            stats: SenderStats::default(),
            last_seen: start.last_seen,
            rack: cfg.rack_tlp.rack,
            tlp: Tlp::new(cfg),
            frto: ForwardRto::new(cfg.frto != Frto::Off),
            timestamps: cfg.timestamps,
            ts_recent: 0,
            gso: Gso::new(cfg),
            undo: new_undo(cfg),
        }
    }

    /// Turns this sender, whatever it did, into exactly the one
    /// [`TcpSender::new`]`(cfg, data_bytes)` builds, keeping its
    /// allocations: its plug-ins are renewed in place when `cfg` selects
    /// the same ones (else built anew). A generated flow arriving in a
    /// recycled slot renews the sender of the flow that held it, so its
    /// arrival allocates nothing (issue 12).
    pub fn renew(&mut self, cfg: &TcpConfig, data_bytes: Option<u64>) {
        let start = Start::new(cfg, data_bytes);
        // Every field, by name: a field added later must be set here too.
        let TcpSender {
            cb,
            cc: window_growth,
            recovery: loss_recovery,
            timeout: timeout_response,
            rtt,
            mss,
            data_bytes: bytes,
            pad_last_segment,
            started,
            rto_deadline,
            pending_rtx,
            burst_left,
            timing,
            syn,
            syn_sent_at,
            initial_cwnd,
            stats,
            last_seen,
            rack,
            tlp,
            frto,
            timestamps,
            ts_recent,
            gso,
            undo,
        } = self;
        *cb = start.cb;
        cc::renew(window_growth, cfg);
        recovery::renew(loss_recovery, cfg);
        timeout::renew(timeout_response, cfg);
        *rtt = RttEstimator::new(&cfg.rto);
        *mss = start.mss;
        *bytes = data_bytes;
        *pad_last_segment = cfg.pad_last_segment;
        *started = false;
        *rto_deadline = None;
        *pending_rtx = None;
        *burst_left = None;
        *timing = None;
        *syn = start.syn;
        *syn_sent_at = None;
        *initial_cwnd = start.initial_cwnd;
        *stats = SenderStats::default();
        *last_seen = start.last_seen;
        *rack = cfg.rack_tlp.rack;
        *tlp = Tlp::new(cfg);
        *frto = ForwardRto::new(cfg.frto != Frto::Off);
        *timestamps = cfg.timestamps;
        *ts_recent = 0;
        gso.renew(cfg);
        *undo = new_undo(cfg);
    }

    /// Replaces the timeout-response plug-in (Burst TCP).
    pub fn set_timeout_response(&mut self, t: Box<dyn TimeoutResponse>) {
        self.timeout = t;
    }

    /// The burst signals the timeout plug-in reads (yu2004 §IV.B-C): the
    /// ones the OBS nodes should send this flow.
    pub fn wanted_signals(&self) -> SignalSet {
        self.timeout.signals()
    }

    /// The application starts sending at `now`.
    pub fn start(&mut self, now: SimTime) {
        if self.started {
            return;
        }
        self.started = true;
        self.stats.started_at = Some(now);
        if self.cb.end_seq == 0 {
            self.stats.completed_at = Some(now);
        }
    }

    /// Payload bytes of segment `seq` (the last one of a finite flow may be
    /// short: `data_bytes - (n - 1) * mss`).
    fn seg_len(&self, seq: u64) -> u32 {
        match self.data_bytes {
            Some(b) if seq + 1 == self.cb.end_seq => (b - seq * u64::from(self.mss)) as u32,
            _ => self.mss,
        }
    }

    /// Payload bytes `seg` occupies on the wire: its `len`, or the full MSS
    /// for a short last segment when `tcp.pad_last_segment` is set (ns-2.35
    /// tcp.cc: every data packet is `size_` bytes, `sendmsg` counts whole
    /// packets). The SYN carries none.
    pub fn wire_payload(&self, seg: &Segment) -> u32 {
        if self.pad_last_segment && !seg.syn {
            self.mss
        } else {
            seg.len
        }
    }

    /// Processes an acknowledgement arriving at `now`.
    pub fn on_ack(&mut self, now: SimTime, ack: &Ack) {
        if !self.started || self.is_complete() {
            return;
        }
        self.cb.now = now;
        match self.syn {
            SynState::Open => {}
            SynState::Sent => return self.on_syn_ack(now),
            // An ACK before the SYN went out cannot be ours.
            SynState::Due => return,
        }
        // Acknowledges data never sent: not acceptable (RFC 793 §3.9).
        if ack.ack > self.cb.snd_nxt {
            return;
        }
        self.note_ack_tsval(now, ack);
        let mut out = Actions::default();
        let advanced = ack.ack > self.cb.snd_una;
        self.cb.ack_rtt = None;
        if self.undo.is_on() && ack.ack >= self.cb.snd_una {
            // Linux `tcp_ack` -> `tcp_sacktag_write_queue` ->
            // `tcp_check_dsack`, before anything else of the ACK.
            self.undo.on_ack(ack, self.cb.window_cap());
        }
        if ack.ack > self.cb.snd_una {
            let acked = ack.ack - self.cb.snd_una;
            if self.timestamps == Timestamps::Off {
                self.take_rtt_sample(now, ack.ack);
            }
            self.clock(now);
            self.cb.snd_una = ack.ack;
            self.cb.tx_next = self.cb.tx_next.max(ack.ack);
            self.frto.skip_unmarked(&mut self.cb);
            // Limited-transmit segments count as outstanding data again.
            self.cb.lt_sent = 0;
            self.cb.consecutive_timeouts = 0;
            if self.pending_rtx.is_some_and(|s| s < ack.ack) {
                self.pending_rtx = None;
            }
            self.recovery.on_ack_info(&self.cb, ack);
            if self.timestamps != Timestamps::Off {
                self.linux_rtt_sample(now, ack, true);
            }
            // Linux `tcp_clean_rtx_queue` -> `ca_ops->pkts_acked` (CUBIC's
            // HyStart) with this ACK's sample, before the undo tests of
            // `tcp_fastretrans_alert` and `tcp_cong_control`'s growth.
            self.cc.on_acked(&mut self.cb);
            if self.undo.is_on() {
                self.try_undo(ack, true);
            }
            let frto = if self.frto.armed() {
                self.frto_on_ack(now, ack.ack, true)
            } else {
                FrtoVerdict::Nothing
            };
            let before = self.before();
            self.recovery
                .on_new_ack(&mut self.cb, self.cc.as_mut(), acked, &mut out);
            self.note_episode(&out, before);
            if frto == FrtoVerdict::SendNew {
                // RFC 5682 §3.1 step 2b with the window this ACK opened.
                self.frto.allow_new_data(&self.cb);
            }
            if self.is_complete() {
                self.stats.completed_at = Some(now);
                self.rto_deadline = None;
                self.pending_rtx = None;
                if self.tlp.is_on() {
                    // RFC 8985 §7.4: the probe's ACK may be the last one.
                    self.tlp_episode(ack.ack);
                }
                self.tlp.reset_episode();
                return;
            }
        } else if ack.ack == self.cb.snd_una && self.cb.snd_nxt > self.cb.snd_una {
            // RFC 5681 §2 duplicate ACK: same cumulative ACK, data outstanding.
            self.cb.dupacks += 1;
            self.clock(now);
            self.recovery.on_ack_info(&self.cb, ack);
            if self.timestamps != Timestamps::Off {
                self.linux_rtt_sample(now, ack, false);
            }
            // `pkts_acked` runs for a SACK's sample too (`sack_rtt_us`).
            self.cc.on_acked(&mut self.cb);
            if self.undo.is_on() {
                self.try_undo(ack, false);
            }
            if self.frto.armed() {
                self.frto_on_ack(now, ack.ack, false);
            }
            let window = self.cb.window();
            let before = self.before();
            self.recovery
                .on_dup_ack(&mut self.cb, self.cc.as_mut(), &mut out);
            self.note_episode(&out, before);
            if out.entered_recovery {
                // Burst TCP: BLE learns from every TD loss and the window it
                // hit (yu2004 §IV.A steps 2-3).
                self.timeout.on_td_loss(window);
            }
        } else {
            // Nothing outstanding: Linux's `no_queue` still runs the undo
            // of a D-SACK ("If data was DSACKed, see if we can undo a cwnd
            // reduction").
            if ack.ack == self.cb.snd_una && self.undo.is_on() {
                self.try_undo(ack, false);
            }
            // Old ACK (below snd_una): ignored.
            return;
        }
        self.apply(now, out);
        self.burst_left = self.recovery.max_burst(&self.cb);
        if self.cb.snd_una >= self.cb.snd_nxt {
            // RFC 6298 §5.2: all outstanding data acknowledged: stop the timer.
            self.rto_deadline = None;
        }
        if self.tlp.is_on() {
            self.tlp_on_ack(now, ack.ack, advanced, out.entered_recovery);
        }
    }

    /// F-RTO on an ACK in the Loss state (RFC 5682 §3.1 steps 2-3, Linux
    /// `tcp_process_loss`), after the scoreboard took the ACK's SACK
    /// blocks and before the recovery plug-in's hook (Linux undoes in
    /// `tcp_fastretrans_alert`, before `tcp_cong_control` grows cwnd).
    fn frto_on_ack(&mut self, now: SimTime, ack: u64, advanced: bool) -> FrtoVerdict {
        let sacked = self.frto.high().map_or(0, |h| self.sacked_below(h));
        let verdict = self.frto.on_ack(&self.cb, advanced, sacked);
        match verdict {
            FrtoVerdict::Spurious => {
                let timing = self.frto.undo(&mut self.cb);
                self.undo.forget();
                self.stats.spurious_rtos += 1;
                self.pending_rtx = None;
                // Linux samples the RTT of the never-retransmitted segment
                // this ACK covers (Karn allows it), which also ends the
                // backoff (`tcp_ack_update_rtt`): the measurement the
                // timeout cancelled if this ACK covers it, else the
                // backoff alone ends.
                if self.timing.is_none() {
                    self.timing = timing;
                }
                let samples = self.stats.rtt_samples;
                self.take_rtt_sample(now, ack);
                if self.stats.rtt_samples == samples {
                    self.rtt.reset_backoff();
                }
            }
            // Step 2b: no go-back-N while the new data tests the path.
            FrtoVerdict::SendNew => self.cb.tx_next = self.cb.snd_nxt,
            // Step 3a: go-back-N resumes from SND.UNA, up to what the
            // timeout marked lost.
            FrtoVerdict::Real => {
                self.cb.tx_next = self.cb.snd_una;
                self.frto.skip_unmarked(&mut self.cb);
            }
            FrtoVerdict::Nothing | FrtoVerdict::Ended => {}
        }
        verdict
    }

    /// cwnd, ssthresh and the state before a recovery hook that may start
    /// an episode.
    #[inline]
    fn before(&self) -> (f64, f64, CaState) {
        (self.cb.cwnd, self.cb.ssthresh, self.cb.state)
    }

    /// RFC 7323 §4.3 rule (2) at the sender: the ACK's TSval becomes
    /// `TS.Recent` unless older.
    fn note_ack_tsval(&mut self, now: SimTime, ack: &Ack) {
        if let Some(tsval) = ack.tsval(now) {
            if self.ts_recent == 0 || !ts_before(tsval, self.ts_recent) {
                self.ts_recent = tsval;
            }
        }
    }

    /// A recovery hook started a fast recovery: Linux `tcp_enter_recovery`
    /// -> `tcp_init_undo` with the window `before` it.
    #[inline]
    fn note_episode(&mut self, out: &Actions, before: (f64, f64, CaState)) {
        if out.entered_recovery && self.undo.is_on() {
            self.undo.on_episode(&self.cb, before);
        }
    }

    /// Linux `tcp_ack_update_rtt` (`tcp.timestamps`), after the scoreboard
    /// took the ACK: the RTT of the data this ACK newly delivers when the
    /// loss-recovery plug-in knows its send time and none of it was
    /// retransmitted (`seq_rtt_us`, else `sack_rtt_us`: "Prefer RTT
    /// measured from ACK's timing to TS-ECR"); else, on an ACK that
    /// advances SND.UNA, the timestamp echo ("RTTM Rule", RFC 7323 §4.1),
    /// `tcp_rtt_tsopt_us(tp, 1)`: whole 1 ms ticks, at least 1. Karn's
    /// rule does not apply to the echo (RFC 7323 §4.1: a retransmission
    /// carries its own TSval). A valid sample ends the backoff
    /// (`icsk_backoff = 0`).
    fn linux_rtt_sample(&mut self, now: SimTime, ack: &Ack, advanced: bool) {
        if let Some(sent) = self.recovery.rtt_sent_at() {
            self.rtt_sample(now.saturating_since(sent), sent);
        } else if advanced && ack.tsecr != 0 {
            let ticks = ts_clock(now).wrapping_sub(ack.tsecr).max(1);
            // "delta < INT_MAX / (USEC_PER_SEC / TCP_TS_HZ)", else no sample.
            if ticks < i32::MAX as u32 / 1000 {
                let r = SimDuration::from_millis(u64::from(ticks));
                self.rtt_sample(r, SimTime(now.as_nanos().saturating_sub(r.as_nanos())));
            }
        }
    }

    /// Linux `tcp_fastretrans_alert`'s undo tests on an ACK (`advanced`:
    /// it moved SND.UNA), after the scoreboard took it and before the
    /// recovery plug-in's hook (Linux undoes before `tcp_cong_control`
    /// grows cwnd):
    /// - Loss state, SND.UNA advanced: `tcp_process_loss` ->
    ///   `tcp_try_undo_loss(sk, false)` when `tcp_may_undo` (before
    ///   F-RTO's own test): the window restored, no more go-back-N
    ///   (`tcp_undo_cwnd_reduction(sk, true)`), the Open state;
    /// - Recovery state, the recovery point reached: `tcp_try_undo_recovery`
    ///   when `tcp_may_undo`: the window restored, the Open state (the lost
    ///   marks stay: RACK may start a new recovery at once, as Linux's
    ///   `tcp_identify_packet_loss` after it);
    /// - Recovery or Open state: `tcp_try_undo_dsack` once every
    ///   retransmission of the episode was D-SACKed (during recovery Linux
    ///   then leaves it, `tcp_try_to_open`).
    ///
    /// Not modelled: `tcp_try_undo_partial` (a partial ACK whose echo
    /// predates the retransmission). Non-SACK Linux holding the state
    /// until SND.UNA passes the recovery point
    /// (`tcp_is_non_sack_preventing_reopen`) is `RecoverCheck::Linux`: obsim
    /// leaves the state but starts no fast retransmit there.
    fn try_undo(&mut self, ack: &Ack, advanced: bool) {
        match self.cb.state {
            CaState::Loss if advanced && self.undo.may_undo(ack.tsecr) => {
                self.undo.undo(&mut self.cb);
                self.stats.loss_undos += 1;
                self.leave_for_open(true);
            }
            CaState::Recovery
                if advanced
                    && self.cb.snd_una >= self.cb.recover
                    && self.undo.may_undo(ack.tsecr) =>
            {
                self.undo.undo(&mut self.cb);
                self.stats.recovery_undos += 1;
                self.leave_for_open(false);
            }
            CaState::Recovery | CaState::Open if self.undo.dsack_undo() => {
                self.undo.undo(&mut self.cb);
                self.stats.dsack_undos += 1;
                if self.cb.state == CaState::Recovery {
                    self.leave_for_open(false);
                }
            }
            _ => {}
        }
    }

    /// The Open state after an undo, the recovery point withdrawn (Linux
    /// in Open starts a recovery on its own rules; `recover = SND.UNA`, as
    /// F-RTO's undo does); from the Loss state (`unmark_loss`) also no more
    /// go-back-N (`tx_next = snd_nxt`), the backoff count cleared
    /// (`icsk_retransmits = 0`) and any F-RTO test ended.
    fn leave_for_open(&mut self, unmark_loss: bool) {
        self.cb.state = CaState::Open;
        self.cb.recover = self.cb.snd_una;
        self.cb.dupacks = 0;
        if unmark_loss {
            self.cb.tx_next = self.cb.snd_nxt;
            self.cb.consecutive_timeouts = 0;
            self.pending_rtx = None;
            self.frto.disarm();
        }
    }

    /// Segments SACKed in `[snd_una, high)` as the loss-recovery plug-in
    /// knows them (0 without SACK).
    fn sacked_below(&mut self, high: u64) -> u64 {
        if self.cb.snd_una >= high {
            return 0;
        }
        let nxt = self.cb.snd_nxt;
        self.cb.snd_nxt = high.min(nxt);
        let n = self.recovery.sacked_out(&self.cb);
        self.cb.snd_nxt = nxt;
        n
    }

    /// Gives the loss-recovery plug-in the clock when it runs RACK.
    #[inline]
    fn clock(&mut self, now: SimTime) {
        if self.rack {
            self.recovery.set_clock(now, self.rtt.srtt());
        }
    }

    /// RFC 8985 §7.4 and §7.2 on an ACK: ends a probe episode (reducing
    /// cwnd as for a fast retransmit when a retransmitted probe repaired a
    /// loss), then stops the PTO or, on an ACK that advanced `snd_una`,
    /// restarts it.
    fn tlp_on_ack(&mut self, now: SimTime, ack: u64, advanced: bool, entered_recovery: bool) {
        if entered_recovery || self.cb.state != CaState::Open {
            self.tlp.reset_episode();
            return;
        }
        self.tlp_episode(ack);
        self.tlp_rearm(now, advanced);
    }

    /// RFC 8985 §7.4 `TLP_process_ack()`: when the ACK ends a probe
    /// episode in which a retransmitted probe repaired a loss, "invoke the
    /// congestion control to reduce cwnd": the window-growth plug-in's
    /// ssthresh for a fast retransmit, cwnd = ssthresh.
    fn tlp_episode(&mut self, ack: u64) {
        if self.tlp.on_ack(ack) {
            self.cb.ssthresh = self.cc.ssthresh(&self.cb, LossSignal::DupAcks);
            self.cb.cwnd = self.cb.ssthresh;
            self.cc.reset();
            self.stats.tlp_recoveries += 1;
        }
    }

    /// Stops the PTO when RFC 8985 §7.2 no longer allows it, or (re)starts
    /// it when `restart` (an ACK advanced `snd_una`, or new data went out).
    fn tlp_rearm(&mut self, now: SimTime, restart: bool) {
        let sacked = self.recovery.sacked_out(&self.cb);
        if !self.tlp.allowed(&self.cb, sacked) {
            self.tlp.disarm();
        } else if restart || self.tlp.deadline().is_none() {
            let rto_at = self.rto_deadline.unwrap_or(now + self.rtt.rto());
            self.tlp
                .arm(now, self.rtt.srtt(), self.cb.flight_size(), rto_at);
        }
    }

    /// The SYN's ACK: its RTT sample (ns-2 `newack`: `rtt_update` on
    /// `seqno >= rtt_seq_` = 0, `t_backoff_ = 1`) and cwnd = `initial_cwnd`
    /// without the slow-start increase (ns-2 `recv`: `last_ack_ == 0 &&
    /// delay_growth_` sets `cwnd_ = initial_window()`). Nothing is then
    /// outstanding: the timer stops (RFC 6298 §5.2) until data go out.
    fn on_syn_ack(&mut self, now: SimTime) {
        if let Some(sent) = self.syn_sent_at.take() {
            self.rtt_sample(now - sent, sent);
        }
        self.syn = SynState::Open;
        self.cb.cwnd = self.initial_cwnd;
        self.cb.consecutive_timeouts = 0;
        self.rto_deadline = None;
    }

    /// The timer expired with the SYN out: back the timer off (RFC 6298
    /// §5.5) and send the SYN again, untimed. ssthresh falls to its floor
    /// of 2 segments (ns-2 `timeout` -> `slowdown(CLOSE_SSTHRESH_HALF |
    /// CLOSE_CWND_RESTART)` with cwnd_ = 1: `ssthresh_ < 2` -> 2; RFC 5681
    /// eq. (4), FlightSize/2 floored at 2*SMSS); cwnd stays 1 until the
    /// SYN's ACK sets `initial_cwnd`.
    fn on_syn_timeout(&mut self, now: SimTime) -> LossDecision {
        self.stats.to_events += 1;
        if self.cb.consecutive_timeouts > 0 {
            self.stats.backoffs += 1;
        } else {
            self.stats.first_rto_sum += self.rtt.rto();
        }
        self.cb.consecutive_timeouts += 1;
        self.cb.ssthresh = 2.0;
        self.rtt.on_timeout();
        self.syn_sent_at = None;
        self.syn = SynState::Due;
        self.rto_deadline = Some(now + self.rtt.rto());
        LossDecision::Timeout(TimeoutReaction::GoBackN)
    }

    /// Applies the actions a recovery hook returned.
    fn apply(&mut self, now: SimTime, out: Actions) {
        if out.entered_recovery {
            self.stats.td_events += 1;
            // Karn: the timed segment's ACK may now reflect a retransmission.
            self.timing = None;
        }
        if let Some(s) = out.retransmit {
            self.pending_rtx = Some(s);
        }
        if out.reset_backoff {
            self.rtt.reset_backoff();
        }
        if out.restart_timer && self.cb.snd_nxt > self.cb.snd_una {
            // RFC 6298 §5.3: restart the timer so it expires after RTO.
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }

    /// Takes an RTT sample if `ack` covers the timed segment (RFC 6298 §3:
    /// one sample per RTT; Karn: never from a retransmitted segment, since
    /// any retransmission cancels the measurement).
    fn take_rtt_sample(&mut self, now: SimTime, ack: u64) {
        if let Some((seq, sent)) = self.timing {
            if ack > seq {
                self.rtt_sample(now - sent, sent);
                self.timing = None;
            }
        }
    }

    /// One valid RTT sample `r` of a segment sent at `sent`: the RTO
    /// estimator (RFC 6298 §2), the counters, and the RTT facts the
    /// plug-ins read in the control block (latest, minimum, SRTT).
    fn rtt_sample(&mut self, r: SimDuration, sent: SimTime) {
        self.rtt.on_sample(r, sent);
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum += r;
        self.cb.rtt_latest = Some(r);
        self.cb.ack_rtt = Some(r);
        self.cb.rtt_min = Some(self.cb.rtt_min.map_or(r, |m| m.min(r)));
        self.cb.srtt = self.rtt.srtt();
    }

    /// A timer expired (the engine calls this when `now >=
    /// next_deadline()`): the probe timeout (RFC 8985 §7.3) and RACK's
    /// reordering timer (§6.2 step 5) when due, then the retransmission
    /// timer if it is due. The probe (RFC 8985 §7.3) goes out first at the
    /// next [`TcpSender::poll_transmit`]. Says what the timeout plug-in decided about the
    /// latter ([`LossDecision::Nothing`] when only the others fired).
    pub fn on_timeout(&mut self, now: SimTime) -> LossDecision {
        // The plug-ins' clock (CUBIC reads it in a reordering-timer recovery).
        self.cb.now = now;
        if self.tlp.due(now) && self.tlp.on_expiry(&self.cb) {
            // §7.3: the probe goes instead of an RTO due now (the PTO is
            // capped at it); the RTO is re-armed after the probe.
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        if self.rack && self.recovery.reorder_deadline().is_some_and(|d| now >= d) {
            self.on_reorder_timeout(now);
        }
        self.on_rto(now)
    }

    /// RFC 8985 §6.2 step 5: RACK's reordering timer fired; losses it now
    /// marks start or feed the recovery.
    fn on_reorder_timeout(&mut self, now: SimTime) {
        self.stats.rack_timer_events += 1;
        self.clock(now);
        let mut out = Actions::default();
        let window = self.cb.window();
        let before = self.before();
        self.recovery
            .on_reorder_timer(&mut self.cb, self.cc.as_mut(), &mut out);
        self.note_episode(&out, before);
        if out.entered_recovery {
            self.timeout.on_td_loss(window);
            self.tlp.reset_episode();
        }
        self.apply(now, out);
    }

    /// The retransmission timer, if due (RFC 6298 §5.4-5.6).
    fn on_rto(&mut self, now: SimTime) -> LossDecision {
        match self.rto_deadline {
            Some(d) if now >= d => {}
            _ => return LossDecision::Nothing,
        }
        self.cb.now = now;
        if self.syn == SynState::Sent {
            return self.on_syn_timeout(now);
        }
        if self.cb.snd_nxt <= self.cb.snd_una {
            self.rto_deadline = None;
            return LossDecision::Nothing;
        }
        self.stats.to_events += 1;
        if self.cb.consecutive_timeouts > 0 {
            self.stats.backoffs += 1;
        } else {
            self.stats.first_rto_sum += self.rtt.rto();
        }
        // Karn: no sample from anything sent before the expiry (F-RTO keeps
        // it in case the timeout proves spurious).
        let timing = self.timing.take();
        self.pending_rtx = None;
        // RFC 8985 §7.4: an RTO ends any probe episode.
        self.tlp.reset_episode();
        // ns-2 `timeout`: send_much(0, TCP_REASON_TIMEOUT, maxburst_).
        self.burst_left = None;
        // What the scoreboard knows of the data in flight, for ssthresh
        // (SsthreshBasis), before the plug-ins forget it.
        self.cb.sacked_out = self.recovery.sacked_out(&self.cb);
        self.cb.pipe_est = self.recovery.pipe_estimate(&self.cb);
        // ns-2 `RenoTcpAgent::timeout`: `dupwnd_ = 0` before any timeout
        // response, so a timeout during fast recovery halves (and BLE
        // judges) the un-inflated cwnd.
        self.cb.clear_inflation();
        let before = (self.cb.cwnd, self.cb.ssthresh, self.cb.state);
        let sacked = self.cb.sacked_out;
        let reaction = self.timeout.on_timeout(&mut self.cb, self.cc.as_mut());
        self.cb.sacked_out = 0;
        self.cb.pipe_est = None;
        self.cb.lt_sent = 0;
        match reaction {
            TimeoutReaction::GoBackN => {
                // Linux `tcp_enter_loss`: `tcp_init_undo` for a new episode.
                if self.undo.is_on() {
                    self.undo.on_episode(&self.cb, before);
                }
                // RFC 5682 §3.1 step 1 (Linux `tcp_enter_loss`): F-RTO
                // tests this timeout, if on and if it covers it.
                let recurring = self.cb.consecutive_timeouts > 0;
                self.frto
                    .on_rto(&self.cb, before, recurring, sacked, timing);
                // RFC 6298 §5.5: back off the timer.
                self.rtt.on_timeout();
                self.cb.consecutive_timeouts += 1;
                self.recovery.on_timeout(&mut self.cb);
            }
            TimeoutReaction::FastRetransmit => {
                self.frto.disarm();
                let mut out = Actions::default();
                self.recovery
                    .enter_recovery(&mut self.cb, self.cc.as_mut(), &mut out);
                self.note_episode(&out, before);
                self.apply(now, out);
            }
            TimeoutReaction::FalseTimeout => {
                // Burst TCP FTO (yu2004 §IV.A rule 1): a TD loss; no backoff
                // (§V.A.2); go-back-N state as after any timeout.
                self.stats.fto_events += 1;
                self.stats.td_events += 1;
                self.frto.disarm();
                self.recovery.on_timeout(&mut self.cb);
            }
        }
        // RFC 6298 §5.6: start the timer with the (backed-off) RTO.
        self.rto_deadline = Some(now + self.rtt.rto());
        LossDecision::Timeout(reaction)
    }

    /// A burst signal (BACK or BNAK, yu2004 §IV.B-C) reached the sender. If
    /// the timeout plug-in answers it with the FTO response (BNAK), the
    /// sender resends the lost burst now, counts a TD loss and an FTO, and
    /// restarts the timer without backing off, as for a false timeout.
    /// Says whether it did ([`LossDecision::EarlyFto`]).
    pub fn on_burst_signal(&mut self, now: SimTime, sig: &BurstSignal) -> LossDecision {
        self.stats.signals_received += 1;
        if !self.started || self.cb.snd_nxt <= self.cb.snd_una {
            return LossDecision::Nothing;
        }
        self.cb.now = now;
        match self
            .timeout
            .on_burst_signal(&mut self.cb, self.cc.as_mut(), sig)
        {
            SignalReaction::Noted => LossDecision::Nothing,
            SignalReaction::FalseTimeout => {
                self.stats.fto_events += 1;
                self.stats.early_fto_events += 1;
                self.stats.td_events += 1;
                self.timing = None;
                self.pending_rtx = None;
                self.burst_left = None;
                self.frto.disarm();
                self.recovery.on_timeout(&mut self.cb);
                self.tlp.reset_episode();
                self.rto_deadline = Some(now + self.rtt.rto());
                LossDecision::EarlyFto
            }
        }
    }

    /// The next segment to hand to the network now, or `None`.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Segment> {
        if !self.started || self.is_complete() {
            return None;
        }
        match self.syn {
            SynState::Open => {}
            SynState::Sent => return None,
            SynState::Due => return Some(self.emit_syn(now)),
        }
        self.clock(now);
        if let Some(seq) = self.tlp.take_pending() {
            return Some(self.emit_probe(now, seq));
        }
        if let Some(seq) = self.frto.take_new_data(&self.cb) {
            // RFC 5682 §3.1 step 2b: new data, outside go-back-N's window.
            return Some(self.emit(now, seq));
        }
        let seq = match self.pending_rtx.take() {
            Some(s) if s >= self.cb.snd_una && s < self.cb.snd_nxt => s,
            _ => {
                if self.burst_left == Some(0) {
                    return None;
                }
                if self.gso.is_on()
                    && self.cb.state == CaState::Open
                    && self.cb.window_allows_tx_next()
                    && self.gso.should_defer(now, &self.cb, self.mss)
                {
                    return None;
                }
                let s = self.recovery.next_segment(&mut self.cb)?;
                if let Some(n) = self.burst_left.as_mut() {
                    *n -= 1;
                }
                s
            }
        };
        // New data in GSO packets: PSH on the last of two or more.
        let push = self.gso.is_on()
            && seq == self.cb.tx_next
            && seq >= self.cb.snd_nxt
            && self
                .gso
                .new_segment(&self.cb, self.mss, self.cb.state != CaState::Open);
        let mut seg = self.emit(now, seq);
        seg.push = push;
        if self.tlp.is_on() && !seg.retransmit {
            // RFC 8985 §7.2: (re)start the PTO after sending new data.
            self.tlp_rearm(now, true);
        }
        Some(seg)
    }

    /// The end of a send attempt (the engine stopped calling
    /// [`TcpSender::poll_transmit`]) that sent `sent` segments: the
    /// cwnd-limited state that `tcp.cwnd_limited_growth` reads (Linux
    /// `tcp_write_xmit` ends with `tcp_cwnd_validate`), with the segments
    /// in flight as Linux's `tcp_packets_in_flight` counts them in the Open
    /// state (outstanding less SACKed).
    pub fn end_transmit(&mut self, sent: u32) {
        if self.cb.cwnd_limited_growth {
            let in_flight = self.cb.flight_size()
                - self
                    .recovery
                    .sacked_out(&self.cb)
                    .min(self.cb.flight_size());
            self.cb.validate_cwnd(sent, in_flight);
        }
    }

    /// Sends the loss probe the PTO chose (RFC 8985 §7.3), whatever cwnd
    /// allows; `TLP.end_seq = SND.NXT`; then "the sender MUST re-arm the
    /// RTO timer, not the PTO timer".
    fn emit_probe(&mut self, now: SimTime, seq: u64) -> Segment {
        let seg = self.emit(now, seq);
        self.stats.tlp_probes += 1;
        self.tlp.sent(self.cb.snd_nxt, seg.retransmit);
        self.rto_deadline = Some(now + self.rtt.rto());
        seg
    }

    /// Sends the SYN (ns-2 tcp.cc `TcpAgent::output`, `syn_ && seqno ==
    /// 0`: no data, the header alone on the wire). Its first transmission
    /// is timed (`rtt_active_`, `rtt_seq_ = 0`); the timer starts if it is
    /// not running (RFC 6298 §5.1). Not counted in `segments_sent`.
    fn emit_syn(&mut self, now: SimTime) -> Segment {
        let first = self.stats.to_events == 0 && self.cb.consecutive_timeouts == 0;
        if first {
            self.syn_sent_at = Some(now);
        }
        self.syn = SynState::Sent;
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        Segment {
            seq: 0,
            len: 0,
            retransmit: !first,
            syn: true,
            push: false,
            sent_at: now,
            tsecr: 0,
        }
    }

    /// Bookkeeping for one transmission of `seq`.
    fn emit(&mut self, now: SimTime, seq: u64) -> Segment {
        if self.gso.is_on() {
            self.gso.on_transmit(now, seq, self.cb.snd_una);
        }
        let retransmit = seq < self.cb.snd_nxt;
        let len = self.seg_len(seq);
        if seq == self.cb.tx_next {
            self.cb.tx_next += 1;
            self.frto.skip_unmarked(&mut self.cb);
        }
        if retransmit {
            self.stats.retransmits += 1;
            self.frto.on_retransmit(seq);
            if self.undo.is_on() {
                self.undo.on_retransmit(now);
            }
            // Karn's algorithm (as ns-2 `reset_rtx_timer`): a retransmission
            // ends the current measurement.
            self.timing = None;
        } else {
            // RFC 5681 §3.2 step 2: remember what limited transmit sent
            // beyond the window (not part of FlightSize at the cut).
            let win = self.cb.window().floor() as u64;
            if self.cb.limited_transmit_allowance() > 0 && seq >= self.cb.snd_una + win {
                self.cb.lt_sent += 1;
            }
            self.cb.snd_nxt = seq + 1;
            if self.timing.is_none() && self.timestamps == Timestamps::Off {
                self.timing = Some((seq, now));
            }
        }
        self.stats.segments_sent += 1;
        self.stats.bytes_sent += u64::from(len);
        self.recovery.on_transmit(&self.cb, seq, retransmit);
        if self.rto_deadline.is_none() {
            // RFC 6298 §5.1: start the timer when sending data if it is not
            // running.
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        Segment {
            seq,
            len,
            retransmit,
            syn: false,
            push: false,
            sent_at: now,
            tsecr: self.ts_recent,
        }
    }

    /// The control block, to set up a state in a unit test.
    #[cfg(test)]
    pub(crate) fn control_block_mut_for_tests(&mut self) -> &mut ControlBlock {
        &mut self.cb
    }

    /// Payload bytes of a full segment (`tcp.mss`).
    pub fn mss(&self) -> u32 {
        self.mss
    }

    /// When the retransmission timer expires; `None` when nothing is
    /// outstanding.
    pub fn rto_deadline(&self) -> Option<SimTime> {
        self.rto_deadline
    }

    /// When the sender next needs [`TcpSender::on_timeout`]: the earliest
    /// of the retransmission timer, the TLP probe timeout (RFC 8985 §7.2)
    /// and RACK's reordering timer (§6.2 step 5); the retransmission timer
    /// alone when RACK-TLP is off.
    #[inline]
    pub fn next_deadline(&self) -> Option<SimTime> {
        let mut d = self.rto_deadline;
        if self.tlp.is_on() {
            d = earliest(d, self.tlp.deadline());
        }
        if self.rack {
            d = earliest(d, self.recovery.reorder_deadline());
        }
        d
    }

    /// When the TLP probe timeout fires, if armed (RFC 8985 §7.2).
    pub fn pto_deadline(&self) -> Option<SimTime> {
        self.tlp.deadline()
    }

    /// True when a finite flow is fully acknowledged.
    pub fn is_complete(&self) -> bool {
        self.started && self.cb.end_seq != u64::MAX && self.cb.snd_una >= self.cb.end_seq
    }

    /// Congestion window in segments, without fast-recovery inflation (ns-2
    /// `cwnd_`, what the papers' cwnd traces show).
    pub fn cwnd(&self) -> f64 {
        self.cb.cwnd
    }

    /// Fast-recovery window inflation in segments (ns-2 `dupwnd_`); the send
    /// window is `cwnd() + dupwnd()`, capped by `W_M` and rwnd.
    pub fn dupwnd(&self) -> f64 {
        self.cb.dupwnd
    }

    /// Slow-start threshold in segments.
    pub fn ssthresh(&self) -> f64 {
        self.cb.ssthresh
    }

    /// Oldest unacknowledged segment.
    pub fn snd_una(&self) -> u64 {
        self.cb.snd_una
    }

    /// One past the highest segment sent.
    pub fn snd_nxt(&self) -> u64 {
        self.cb.snd_nxt
    }

    /// Smoothed RTT, `None` before the first sample.
    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// The current retransmission timeout, backoff included.
    pub fn rto(&self) -> SimDuration {
        self.rtt.rto()
    }

    /// Congestion state (Open, Recovery, Loss).
    pub fn state(&self) -> CaState {
        self.cb.state
    }

    /// The control block, read-only (for traces and plug-in tests).
    pub fn control_block(&self) -> &ControlBlock {
        &self.cb
    }

    /// The loss-recovery plug-in, read-only (for traces and plug-in tests:
    /// its pipe, its PRR state).
    pub fn loss_recovery(&self) -> &dyn LossRecovery {
        self.recovery.as_ref()
    }

    /// Counters.
    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }

    /// True when cwnd or ssthresh changed since the previous call (cheap
    /// polling for cwnd traces).
    pub fn take_changed(&mut self) -> bool {
        let now = (self.cb.cwnd, self.cb.ssthresh);
        #[allow(clippy::float_cmp)] // exact change detection is the point
        let changed = now != self.last_seen;
        self.last_seen = now;
        changed
    }
}

/// The undo state of a new sender of `cfg` (D-SACKs count only with SACK,
/// whose receiver sends them).
fn new_undo(cfg: &TcpConfig) -> Undo {
    let sack = cfg.variant == crate::tcp::config::Variant::Sack;
    Undo::new(
        cfg.timestamps != Timestamps::Off,
        sack && cfg.dsack != Dsack::Off,
    )
}

/// The earlier of two optional deadlines.
#[inline]
fn earliest(a: Option<SimTime>, b: Option<SimTime>) -> Option<SimTime> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}
