//! The TCP receiver (ns-2 `TCPSink` / `DelAckSink` / `Sack1` sink): cumulative
//! ACKs, an out-of-order buffer kept as sorted segment ranges, SACK blocks per
//! RFC 2018 §4, and delayed ACKs per RFC 5681 §4.2. In-order delivery only:
//! nothing reaches the application twice or out of order. With
//! `tcp.timestamps` every ACK echoes a TSval (RFC 7323 §4.3); with
//! `tcp.dsack` a duplicate segment is reported in a D-SACK block (RFC 2883).

use crate::tcp::config::{Dsack, TcpConfig, Timestamps, Variant};
use crate::tcp::delack::{AckTiming, Ato, Compress, SackCompression, SACK_BLOCKS_EXPECTED};
use crate::tcp::rcvbuf::RcvBuf;
use crate::tcp::segment::{ts_before, ts_clock, Ack, SackBlock, Segment, MAX_SACK_BLOCKS};
use crate::time::{SimDuration, SimTime};

/// Counters of one receiver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    /// Data segments that arrived, duplicates included.
    pub segments_received: u64,
    /// Segments that carried nothing new (already delivered or buffered).
    pub duplicates: u64,
    /// Segments that arrived above a gap.
    pub out_of_order: u64,
    /// ACKs generated.
    pub acks_sent: u64,
}

/// A TCP receiver.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // independent on/off switches, each a named rule
pub struct TcpReceiver {
    mss: u32,
    sack_blocks: usize,
    delayed_ack: bool,
    delack_timeout: SimDuration,
    /// `TcpConfig::delack_last_duplicate`.
    delack_last_duplicate: bool,
    /// Next segment expected (RFC 793 RCV.NXT).
    rcv_nxt: u64,
    /// Buffered segments above `rcv_nxt`: disjoint, sorted, non-adjacent
    /// `[start, end)` ranges. Capacity is reserved up front.
    ooo: Vec<(u64, u64)>,
    /// Bytes of each buffered range that are not a full MSS (only a finite
    /// flow's last segment can be short): `(seq, len)`.
    short: Option<(u64, u32)>,
    /// SACK blocks in the order RFC 2018 §4 reports them (most recent first).
    recent: [SackBlock; MAX_SACK_BLOCKS],
    n_recent: usize,
    /// Full segments received in order and not yet acknowledged.
    unacked: u32,
    delack_deadline: Option<SimTime>,
    delivered_segments: u64,
    delivered_bytes: u64,
    stats: ReceiverStats,
    /// `tcp.timestamps`: unless off, ACKs echo `ts_recent`.
    timestamps: Timestamps,
    /// RFC 7323 §4.3 `TS.Recent`: the timestamp to echo (Linux
    /// `rx_opt.ts_recent`); 0 before the first segment.
    ts_recent: u32,
    /// RFC 7323 §4.3 `Last.ACK.sent`: the cumulative ACK of the last ACK
    /// sent (Linux `rcv_wup`).
    last_ack_sent: u64,
    /// `tcp.dsack` with SACK: duplicates are reported (RFC 2883).
    dsack: bool,
    /// The duplicate the next ACK reports in its D-SACK block (RFC 2883 §4:
    /// each duplicate once; Linux `duplicate_sack[0]`).
    dsack_block: Option<SackBlock>,
    /// `tcp.rcvbuf`: Linux's receive buffer and quick-ACK mode (boxed: off
    /// in every profile but `linux`, and kept when the receiver is renewed).
    rcvbuf: Option<Box<RcvBuf>>,
    /// `tcp.ack_on_push`: Linux's `ICSK_ACK_PUSHED`.
    ack_on_push: bool,
    /// `tcp.ato` and `tcp.sack_compression`: Linux's timing of the ACKs it
    /// does not send at once (boxed and kept when renewed, as `rcvbuf`).
    timing: Option<Box<AckTiming>>,
}

impl TcpReceiver {
    /// A receiver for one flow.
    pub fn new(cfg: &TcpConfig) -> Self {
        TcpReceiver::around(cfg, Vec::with_capacity(32), None, None)
    }

    /// Turns this receiver, whatever it received, into exactly the one
    /// [`TcpReceiver::new`]`(cfg)` builds, keeping its out-of-order buffer's
    /// allocation. A generated flow arriving in a recycled slot renews the
    /// receiver of the flow that held it, so its arrival allocates nothing
    /// (issue 12).
    pub fn renew(&mut self, cfg: &TcpConfig) {
        let ooo = std::mem::take(&mut self.ooo);
        let rcvbuf = self.rcvbuf.take();
        let timing = self.timing.take();
        *self = TcpReceiver::around(cfg, ooo, rcvbuf, timing);
    }

    /// The receiver [`TcpReceiver::new`] builds, around the allocations of
    /// `ooo` (emptied), `rcvbuf` and `timing` (renewed).
    fn around(
        cfg: &TcpConfig,
        mut ooo: Vec<(u64, u64)>,
        rcvbuf: Option<Box<RcvBuf>>,
        timing: Option<Box<AckTiming>>,
    ) -> Self {
        ooo.clear();
        let rcvbuf = cfg
            .rcvbuf
            .enabled
            .then(|| renewed(rcvbuf, RcvBuf::new(&cfg.rcvbuf, cfg.mss)));
        let sack_blocks = if cfg.variant == Variant::Sack {
            usize::from(cfg.sack_blocks).min(MAX_SACK_BLOCKS)
        } else {
            0
        };
        // Both read the receiver's RTT from `rcvbuf` (the configuration
        // requires it); "!tcp_is_sack(tp) ... goto send_now": no
        // compression without SACK.
        let compress = sack_blocks > 0 && cfg.sack_compression.enabled;
        let timing = (cfg.rcvbuf.enabled && (cfg.ato.enabled || compress)).then(|| {
            let fresh = AckTiming {
                ato: cfg.ato.enabled.then(|| Ato::new(cfg.hz)),
                compress: compress.then(|| SackCompression::new(&cfg.sack_compression)),
            };
            renewed(timing, fresh)
        });
        TcpReceiver {
            mss: cfg.mss.max(1),
            sack_blocks,
            delayed_ack: cfg.delayed_ack,
            delack_timeout: cfg.delack_timeout,
            delack_last_duplicate: cfg.delack_last_duplicate,
            rcv_nxt: 0,
            ooo,
            short: None,
            recent: [SackBlock::default(); MAX_SACK_BLOCKS],
            n_recent: 0,
            unacked: 0,
            delack_deadline: None,
            delivered_segments: 0,
            delivered_bytes: 0,
            stats: ReceiverStats::default(),
            timestamps: cfg.timestamps,
            ts_recent: 0,
            last_ack_sent: 0,
            dsack: sack_blocks > 0 && cfg.dsack != Dsack::Off,
            dsack_block: None,
            rcvbuf,
            ack_on_push: cfg.ack_on_push,
            timing,
        }
    }

    /// Next segment expected.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// Processes a data segment; returns the ACK to send now, or `None` when
    /// the ACK is delayed (then see [`Self::delack_deadline`]).
    pub fn on_segment(&mut self, now: SimTime, seg: &Segment) -> Option<Ack> {
        if seg.syn {
            // The connection's SYN (`tcp.syn`): ACKed at once, delayed ACKs
            // or not (ns-2 tcp-sink.cc `DelAckSink::recv`: seqno 0 with
            // `SYN_immediate_ack_ true`); it carries no data.
            return Some(self.make_ack(now));
        }
        self.stats.segments_received += 1;
        if self.timestamps != Timestamps::Off {
            self.note_tsval(seg);
        }
        if let Some(b) = &mut self.rcvbuf {
            b.on_tsecr(now, seg.tsecr, seg.len >= self.mss);
        }
        if seg.len < self.mss {
            self.short = Some((seg.seq, seg.len));
        }
        if seg.seq < self.rcv_nxt || self.buffered(seg.seq) {
            self.stats.duplicates += 1;
            if let Some(b) = &mut self.rcvbuf {
                if seg.seq < self.rcv_nxt {
                    // Linux `tcp_data_queue`, a segment wholly below
                    // rcv_nxt: `tcp_enter_quickack_mode`.
                    b.on_old_data();
                } else {
                    // A repeat of buffered data: `tcp_data_queue_ofo`
                    // drops it and still provisions the queue's span.
                    let span = ooo_span(&self.ooo, self.rcv_nxt, self.mss);
                    b.on_out_of_order(false, false, seg.len, 0, span);
                }
            }
            if self.dsack {
                // RFC 2883 §4: "the first SACK block ... MUST specify the
                // contiguous sequence space of the duplicate segment"
                // (Linux `tcp_dsack_set` in `tcp_data_queue` below
                // rcv_nxt, in `tcp_data_queue_ofo` above it); above the
                // cumulative ACK the block holding it follows (below,
                // `note_recent`).
                self.dsack_block = Some(SackBlock {
                    start: seg.seq,
                    end: seg.seq + 1,
                });
            }
            if self.delayed_ack
                && self.delack_last_duplicate
                && seg.seq + 1 == self.rcv_nxt
                && self.ooo.is_empty()
            {
                // ns-2.35 tcp-sink.cc `DelAckSink::recv` delays the ACK when
                // no timer is pending and `th->seqno() == acker_->Seqno()`
                // (the highest in-order packet, so also a repeat of it);
                // `RFC2581_immediate_ack_` exempts only `th->seqno() <
                // acker_->Maxseen()`, false with nothing buffered above.
                return self.delay_or_ack(now, false);
            }
            // Duplicate: RFC 5681 §4.2 treats it like out-of-order data and
            // acknowledges immediately (it may be a sender's probe after a
            // lost ACK; RFC 9293 §3.10.7.4: an unacceptable segment gets an
            // ACK).
            if seg.seq > self.rcv_nxt {
                // RFC 2018 §4: the first block reports the segment that
                // triggered this ACK, here a repeat of buffered data.
                let i = self.ooo.partition_point(|&(_, e)| e <= seg.seq);
                self.note_recent(self.ooo[i]);
                // Linux: data above the hole, so `__tcp_ack_snd_check` may
                // hold it (SACK compression).
                return self.dupack_or_hold(now, None);
            }
            return Some(self.make_ack(now));
        }
        if seg.seq > self.rcv_nxt {
            // Out of order: buffer and send an immediate duplicate ACK
            // (RFC 5681 §4.2 "SHOULD send an immediate duplicate ACK").
            self.stats.out_of_order += 1;
            // Segments held before this one (read only by the rcvbuf model).
            let before = if self.rcvbuf.is_some() {
                ooo_segments(&self.ooo)
            } else {
                0
            };
            let idx = self.insert(seg.seq);
            // Linux `tcp_sack_new_ofo_skb`: a segment that extends none of
            // the first `TCP_SACK_BLOCKS_EXPECTED` blocks sends the held
            // ACK first (`tcp_sack_compress_send_ack`), without its block.
            let early = self.holding() && self.sack_rank(self.ooo[idx]) >= SACK_BLOCKS_EXPECTED;
            let early = early.then(|| self.make_ack(now));
            self.note_recent(self.ooo[idx]);
            if let Some(b) = &mut self.rcvbuf {
                let span = ooo_span(&self.ooo, self.rcv_nxt, self.mss);
                b.on_out_of_order(self.sack_blocks > 0, true, seg.len, before, span);
            }
            // Two ACKs at one instant (the early one and this segment's)
            // go as the second alone (docs/MODEL.md).
            return self.dupack_or_hold(now, early);
        }
        // In order: deliver it, and whatever it makes contiguous.
        let filled_gap = !self.ooo.is_empty();
        if let Some(b) = &mut self.rcvbuf {
            // Linux `tcp_event_data_recv` runs before `tcp_ofo_queue`.
            let rcv_nxt = (seg.seq + 1) * u64::from(self.mss);
            b.on_in_order(now, seg.len, ooo_segments(&self.ooo), rcv_nxt);
            if let Some(a) = self.timing.as_mut().and_then(|t| t.ato.as_mut()) {
                a.on_data(now, b.rto_us());
            }
        }
        self.deliver_to(seg.seq + 1);
        if let Some(&(s, e)) = self.ooo.first() {
            if s == self.rcv_nxt {
                self.ooo.remove(0);
                self.deliver_to(e);
            }
        }
        let quick = self.rcvbuf.as_ref().is_some_and(|b| b.quick_mode());
        // Linux `tcp_measure_rcv_mss`: a full-sized segment with PSH (since
        // 6.6, "tcp: fix delayed ACKs for MSS boundary condition") or a
        // short one sets `ICSK_ACK_PUSHED`, and `tcp_cleanup_rbuf` ACKs once
        // the application has read everything (here at once, nothing being
        // held above a hole: with one, the ACK goes at once anyway).
        // `ICSK_ACK_PUSHED`: a PSH segment or a short one.
        let pushed_flag = seg.push || seg.len < self.mss;
        let pushed = self.ack_on_push && pushed_flag;
        let ack = if filled_gap || !self.delayed_ack || quick || pushed {
            // RFC 5681 §4.2: ACK immediately a segment that fills all or
            // part of a gap; without delayed ACKs, ACK every segment (ns-2
            // TCPSink); in Linux's quick-ACK mode, every segment
            // (`__tcp_ack_snd_check`: `tcp_in_quickack_mode`).
            Some(self.make_ack(now))
        } else {
            // `ICSK_ACK_PUSHED` without `ack_on_push` still bounds `ato`.
            self.delay_or_ack(now, pushed_flag)
        };
        if let Some(b) = &mut self.rcvbuf {
            // The application reads what arrived in order (`tcp_recvmsg`
            // -> `tcp_rcv_space_adjust`), after the ACK was decided.
            let span = ooo_span(&self.ooo, self.rcv_nxt, self.mss);
            b.on_read(now, self.delivered_bytes, span);
        }
        ack
    }

    /// RFC 5681 §4.2: an ACK at least every second full-sized segment, and
    /// within the delayed-ACK timeout (ns-2 `DelAckSink::recv`: a packet
    /// arriving while `delay_timer_` is pending is ACKed at once).
    /// With `tcp.ato`, Linux's `tcp_send_delayed_ack` sets the timer
    /// (`pushed`: `ICSK_ACK_PUSHED`).
    fn delay_or_ack(&mut self, now: SimTime, pushed: bool) -> Option<Ack> {
        self.unacked += 1;
        if self.unacked >= 2 {
            return Some(self.make_ack(now));
        }
        if let Some(a) = self.timing.as_ref().and_then(|t| t.ato.as_ref()) {
            let srtt = self.rcvbuf.as_ref().and_then(|b| b.srtt_us());
            return match a.delayed_ack_at(now, self.delack_deadline, pushed, srtt) {
                Some(at) => {
                    self.delack_deadline = Some(at);
                    None
                }
                None => Some(self.make_ack(now)),
            };
        }
        if self.delack_deadline.is_none() {
            self.delack_deadline = Some(now + self.delack_timeout);
        }
        None
    }

    /// True while SACK compression holds duplicate ACKs.
    fn holding(&self) -> bool {
        self.timing
            .as_ref()
            .and_then(|t| t.compress.as_ref())
            .is_some_and(SackCompression::holding)
    }

    /// Where a block touching `range` stands among the remembered SACK
    /// blocks, most recent first (Linux `tcp_sack_extend` over
    /// `selective_acks`); their number when none does.
    fn sack_rank(&self, (start, end): (u64, u64)) -> usize {
        self.recent[..self.n_recent]
            .iter()
            .position(|b| b.start <= end && start <= b.end)
            .unwrap_or(self.n_recent)
    }

    /// A duplicate ACK for data above a hole: Linux's SACK compression
    /// (`__tcp_ack_snd_check`) sends it, or holds it when on (quick-ACK
    /// mode sends it); `early` is an ACK already due now, which a held one
    /// leaves to go alone and a sent one replaces.
    fn dupack_or_hold(&mut self, now: SimTime, early: Option<Ack>) -> Option<Ack> {
        let quick = self.rcvbuf.as_ref().is_some_and(|b| b.quick_mode());
        let (rtt, srtt) = self
            .rcvbuf
            .as_ref()
            .map_or((0, None), |b| (b.rtt_us(), b.srtt_us()));
        let rcv_nxt = self.rcv_nxt;
        let held = match self.timing.as_mut().and_then(|t| t.compress.as_mut()) {
            Some(c) if !quick => matches!(c.on_dupack(now, rcv_nxt, rtt, srtt), Compress::Hold(_)),
            _ => false,
        };
        if held {
            early
        } else {
            Some(self.make_ack(now))
        }
    }

    /// The delayed-ACK timer or, with `tcp.sack_compression`, the
    /// compressed-ACK timer fired: the pending ACK, if any. With `tcp.ato`
    /// the delayed-ACK timer's ACK doubles `ato` ("Delayed ACK missed:
    /// inflate ATO").
    pub fn on_delack_timeout(&mut self, now: SimTime) -> Option<Ack> {
        if let Some(c) = self.timing.as_mut().and_then(|t| t.compress.as_mut()) {
            if c.on_timer(now) {
                return Some(self.make_ack(now));
            }
        }
        match self.delack_deadline {
            Some(d) if now >= d => {
                let rto = self.rcvbuf.as_ref().and_then(|b| b.rto_us());
                if let Some(a) = self.timing.as_mut().and_then(|t| t.ato.as_mut()) {
                    a.on_timer_ack(rto);
                }
                Some(self.make_ack(now))
            }
            _ => None,
        }
    }

    /// When the receiver's next timer expires: the delayed-ACK timer, if
    /// an ACK is being delayed, or the compressed-ACK timer, if one is held.
    pub fn delack_deadline(&self) -> Option<SimTime> {
        let held = self
            .timing
            .as_ref()
            .and_then(|t| t.compress.as_ref())
            .and_then(SackCompression::deadline);
        match (self.delack_deadline, held) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Segments delivered in order to the application.
    pub fn delivered_segments(&self) -> u64 {
        self.delivered_segments
    }

    /// Bytes delivered in order to the application.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered_bytes
    }

    /// Counters.
    pub fn stats(&self) -> &ReceiverStats {
        &self.stats
    }

    /// True when `seq` sits in the out-of-order buffer.
    fn buffered(&self, seq: u64) -> bool {
        let i = self.ooo.partition_point(|&(_, e)| e <= seq);
        self.ooo.get(i).is_some_and(|&(s, _)| s <= seq)
    }

    /// Delivers `[rcv_nxt, end)` to the application.
    fn deliver_to(&mut self, end: u64) {
        let n = end - self.rcv_nxt;
        let mut bytes = n * u64::from(self.mss);
        if let Some((s, len)) = self.short {
            if s >= self.rcv_nxt && s < end {
                bytes -= u64::from(self.mss - len);
            }
        }
        self.delivered_segments += n;
        self.delivered_bytes += bytes;
        self.rcv_nxt = end;
    }

    /// Inserts `seq` (not yet buffered, above `rcv_nxt`) into the range
    /// list, merging neighbours; returns the index of its range.
    fn insert(&mut self, seq: u64) -> usize {
        let i = self.ooo.partition_point(|&(_, e)| e < seq);
        // ranges[i] is the first with end >= seq: it may end exactly at seq.
        let joins_left = self.ooo.get(i).is_some_and(|&(_, e)| e == seq);
        if joins_left {
            self.ooo[i].1 = seq + 1;
            if self.ooo.get(i + 1).is_some_and(|&(s, _)| s == seq + 1) {
                self.ooo[i].1 = self.ooo[i + 1].1;
                self.ooo.remove(i + 1);
            }
            i
        } else if self.ooo.get(i).is_some_and(|&(s, _)| s == seq + 1) {
            self.ooo[i].0 = seq;
            i
        } else {
            self.ooo.insert(i, (seq, seq + 1));
            i
        }
    }

    /// RFC 2018 §4: the first block holds the segment that triggered this
    /// ACK; the others repeat the most recently reported blocks.
    fn note_recent(&mut self, (start, end): (u64, u64)) {
        let mut next = [SackBlock::default(); MAX_SACK_BLOCKS];
        next[0] = SackBlock { start, end };
        let mut n = 1;
        for b in &self.recent[..self.n_recent] {
            if n == MAX_SACK_BLOCKS {
                break;
            }
            // Drop blocks the new one absorbed.
            if b.start >= start && b.end <= end {
                continue;
            }
            next[n] = *b;
            n += 1;
        }
        self.recent = next;
        self.n_recent = n;
    }

    /// RFC 7323 §4.3 rule (2): "If SEG.TSval >= TS.Recent and SEG.SEQ <=
    /// Last.ACK.sent, then SEG.TSval is copied to TS.Recent; otherwise, it
    /// is ignored" (Linux `tcp_replace_ts_recent`: `!after(seq, rcv_wup)`
    /// and `tcp_paws_check`). With delayed ACKs the echo is thus the TSval
    /// of the earliest segment not yet acknowledged (§4.3 case A); a
    /// segment above a hole does not change it, and the one that fills
    /// the hole does (case B). A segment wholly below the last ACK sent is
    /// not acceptable and is dropped, with a duplicate ACK, before its
    /// TSval is looked at (RFC 7323 §5.3: R2 before R3; Linux
    /// `tcp_validate_incoming` step 1, `tcp_sequence`: `!before(end_seq,
    /// rcv_wup)`, before `tcp_replace_ts_recent`): a needless
    /// retransmission's TSval is never echoed, so the echo of its ACK
    /// shows the original arrived (Eifel, RFC 3522; `tcp_packet_delayed`).
    /// PAWS (§5: discarding a segment whose TSval is older than
    /// TS.Recent) is not modelled.
    fn note_tsval(&mut self, seg: &Segment) {
        let tsval = seg.tsval();
        // Segment numbers: `seg` spans [seq, seq + 1), so `end_seq >=
        // rcv_wup` is `seq + 1 >= last_ack_sent`.
        let acceptable = seg.seq + 1 >= self.last_ack_sent;
        if acceptable && seg.seq <= self.last_ack_sent && !ts_before(tsval, self.ts_recent) {
            self.ts_recent = tsval;
        }
    }

    /// Builds the ACK for the current state and resets the delayed-ACK state.
    fn make_ack(&mut self, now: SimTime) -> Ack {
        self.unacked = 0;
        self.delack_deadline = None;
        self.stats.acks_sent += 1;
        if let Some(b) = &mut self.rcvbuf {
            b.on_ack_sent(ooo_segments(&self.ooo));
        }
        if let Some(c) = self.timing.as_mut().and_then(|t| t.compress.as_mut()) {
            // `tcp_event_ack_sent`: nothing held, the timer stops.
            c.on_ack_sent();
        }
        // RFC 7323 §4.3 rule (3): "When a TSopt is sent, its TSecr field is
        // set to the current TS.Recent value"; Last.ACK.sent follows.
        self.last_ack_sent = self.rcv_nxt;
        let mut ack = self.make_ack_blocks();
        if self.timestamps != Timestamps::Off {
            ack.tsecr = self.ts_recent;
            ack.set_tsval(ts_clock(now));
        }
        ack
    }

    /// The cumulative ACK with its SACK blocks (a D-SACK block first, RFC
    /// 2883 §4), refreshing the remembered blocks.
    fn make_ack_blocks(&mut self) -> Ack {
        if self.sack_blocks == 0 {
            return Ack::new(self.rcv_nxt);
        }
        // Refresh the remembered blocks against the buffer: drop those now
        // below the cumulative ACK, widen the rest to their current range
        // (ranges only grow by merging), and drop duplicates.
        let mut kept = 0;
        let mut next = 0;
        while next < self.n_recent {
            let b = self.recent[next];
            next += 1;
            if b.end <= self.rcv_nxt {
                continue;
            }
            let k = self.ooo.partition_point(|&(_, e)| e <= b.start);
            let Some(&(s, e)) = self.ooo.get(k) else {
                continue;
            };
            if s > b.start {
                continue;
            }
            let cur = SackBlock { start: s, end: e };
            if self.recent[..kept].contains(&cur) {
                continue;
            }
            self.recent[kept] = cur;
            kept += 1;
        }
        self.n_recent = kept;
        if let Some(d) = self.dsack_block.take() {
            // RFC 2883 §4: the D-SACK block first, then the SACK blocks as
            // room allows (Linux `tcp_established_options`: `num_sacks +
            // dsack` blocks, at most what the option space holds).
            let mut blocks = [SackBlock::default(); MAX_SACK_BLOCKS];
            blocks[0] = d;
            let k = kept.min(self.sack_blocks - 1);
            blocks[1..=k].copy_from_slice(&self.recent[..k]);
            return Ack::with_sack(self.rcv_nxt, &blocks[..=k]);
        }
        let k = kept.min(self.sack_blocks);
        Ack::with_sack(self.rcv_nxt, &self.recent[..k])
    }
}

/// `fresh` in the allocation of `slot` when there is one (a renewed flow
/// slot allocates nothing), else in a new box.
#[allow(clippy::unnecessary_box_returns)] // the box is the allocation kept
fn renewed<T>(slot: Option<Box<T>>, fresh: T) -> Box<T> {
    match slot {
        Some(mut b) => {
            *b = fresh;
            b
        }
        None => Box::new(fresh),
    }
}

/// Segments held in an out-of-order buffer of `[start, end)` ranges.
fn ooo_segments(ooo: &[(u64, u64)]) -> u64 {
    ooo.iter().map(|&(s, e)| e - s).sum()
}

/// Bytes from `rcv_nxt` to the end of an out-of-order buffer of segments of
/// `mss` bytes (Linux `ooo_last_skb->end_seq - rcv_nxt`), 0 when it is empty.
fn ooo_span(ooo: &[(u64, u64)], rcv_nxt: u64, mss: u32) -> u64 {
    ooo.last()
        .map_or(0, |&(_, e)| (e - rcv_nxt) * u64::from(mss))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::profile::profile;

    fn seg(seq: u64) -> Segment {
        Segment {
            seq,
            len: 1000,
            retransmit: false,
            syn: false,
            push: false,
            sent_at: SimTime::ZERO,
            tsecr: 0,
        }
    }

    fn cfg(variant: Variant, delayed: bool) -> TcpConfig {
        let mut c = profile("ns2").unwrap();
        c.variant = variant;
        c.mss = 1000;
        c.delayed_ack = delayed;
        c.delack_timeout = SimDuration::from_millis(100);
        c
    }

    #[track_caller]
    fn blocks(a: &Ack) -> Vec<(u64, u64)> {
        a.sack_blocks().iter().map(|b| (b.start, b.end)).collect()
    }

    // ---- ACK every segment -------------------------------------------------

    #[test]
    fn acks_every_segment_without_delack() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, false));
        for i in 0..5 {
            let a = r.on_segment(SimTime::ZERO, &seg(i)).expect("immediate ack");
            assert_eq!(a.ack, i + 1);
            assert_eq!(a.n_sack(), 0);
        }
        assert_eq!(r.delivered_segments(), 5);
        assert_eq!(r.delivered_bytes(), 5000);
    }

    #[test]
    fn reorders_and_never_delivers_twice() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, false));
        let t = SimTime::ZERO;
        assert_eq!(r.on_segment(t, &seg(0)).unwrap().ack, 1);
        assert_eq!(r.on_segment(t, &seg(2)).unwrap().ack, 1);
        assert_eq!(r.on_segment(t, &seg(4)).unwrap().ack, 1);
        assert_eq!(r.on_segment(t, &seg(2)).unwrap().ack, 1);
        assert_eq!(r.on_segment(t, &seg(3)).unwrap().ack, 1);
        assert_eq!(r.delivered_segments(), 1);
        assert_eq!(r.on_segment(t, &seg(1)).unwrap().ack, 5);
        assert_eq!(r.on_segment(t, &seg(0)).unwrap().ack, 5);
        assert_eq!(r.delivered_segments(), 5);
        assert_eq!(r.stats().duplicates, 2);
        assert_eq!(r.stats().out_of_order, 3);
    }

    #[test]
    fn short_last_segment_counts_its_bytes() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, false));
        let t = SimTime::ZERO;
        let mut last = seg(2);
        last.len = 300;
        r.on_segment(t, &last);
        r.on_segment(t, &seg(0));
        r.on_segment(t, &seg(1));
        assert_eq!(r.delivered_bytes(), 2300);
    }

    // ---- SACK blocks (RFC 2018 §4) -------------------------------------------

    #[test]
    fn sack_first_block_is_most_recent() {
        let mut r = TcpReceiver::new(&cfg(Variant::Sack, false));
        let t = SimTime::ZERO;
        r.on_segment(t, &seg(0));
        let a = r.on_segment(t, &seg(2)).unwrap();
        assert_eq!(blocks(&a), vec![(2, 3)]);
        let a = r.on_segment(t, &seg(5)).unwrap();
        assert_eq!(blocks(&a), vec![(5, 6), (2, 3)]);
        let a = r.on_segment(t, &seg(8)).unwrap();
        assert_eq!(blocks(&a), vec![(8, 9), (5, 6), (2, 3)]);
        let a = r.on_segment(t, &seg(11)).unwrap();
        assert_eq!(
            blocks(&a),
            vec![(11, 12), (8, 9), (5, 6)],
            "at most 3 blocks"
        );
        let a = r.on_segment(t, &seg(3)).unwrap();
        assert_eq!(blocks(&a), vec![(2, 4), (11, 12), (8, 9)]);
        // A repeat of buffered data moves its block to the front.
        let a = r.on_segment(t, &seg(8)).unwrap();
        assert_eq!(blocks(&a), vec![(8, 9), (2, 4), (11, 12)]);
        // Filling the first hole: the cumulative ACK jumps, old blocks go.
        let a = r.on_segment(t, &seg(1)).unwrap();
        assert_eq!(a.ack, 4);
        assert_eq!(blocks(&a), vec![(8, 9), (11, 12), (5, 6)]);
    }

    #[test]
    fn no_sack_blocks_unless_sack_variant() {
        let mut r = TcpReceiver::new(&cfg(Variant::NewReno, false));
        r.on_segment(SimTime::ZERO, &seg(1));
        let a = r.on_segment(SimTime::ZERO, &seg(3)).unwrap();
        assert_eq!(a.n_sack(), 0);
    }

    #[test]
    fn a_syn_is_acked_at_once_even_with_delayed_acks() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, true));
        let syn = Segment {
            len: 0,
            syn: true,
            push: false,
            ..seg(0)
        };
        let a = r.on_segment(SimTime::ZERO, &syn).expect("immediate ACK");
        assert_eq!(a.ack, 0);
        assert_eq!((r.delivered_segments(), r.delack_deadline()), (0, None));
        // Data segment 0 is then delayed as usual.
        assert!(r.on_segment(SimTime::ZERO, &seg(0)).is_none());
    }

    // ---- delayed ACK (RFC 5681 §4.2) ------------------------------------------

    #[test]
    fn delayed_ack_every_second_segment() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, true));
        let t = SimTime::ZERO;
        assert!(r.on_segment(t, &seg(0)).is_none());
        assert_eq!(r.delack_deadline(), Some(SimTime(100_000_000)));
        assert_eq!(r.on_segment(t, &seg(1)).unwrap().ack, 2);
        assert_eq!(r.delack_deadline(), None);
        assert!(r.on_segment(t, &seg(2)).is_none());
        assert_eq!(r.on_segment(t, &seg(3)).unwrap().ack, 4);
        assert_eq!(r.stats().acks_sent, 2);
    }

    #[test]
    fn delack_timer_fires_for_a_lone_segment() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, true));
        assert!(r.on_segment(SimTime(5), &seg(0)).is_none());
        let d = r.delack_deadline().unwrap();
        assert_eq!(d, SimTime(5 + 100_000_000));
        assert!(r.on_delack_timeout(SimTime(6)).is_none(), "too early");
        assert_eq!(r.on_delack_timeout(d).unwrap().ack, 1);
        assert_eq!(r.delack_deadline(), None);
    }

    #[test]
    fn out_of_order_and_gap_fill_ack_immediately_with_delack() {
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, true));
        let t = SimTime::ZERO;
        assert!(r.on_segment(t, &seg(0)).is_none());
        assert_eq!(r.on_segment(t, &seg(2)).unwrap().ack, 1);
        assert_eq!(r.on_segment(t, &seg(1)).unwrap().ack, 3);
    }

    /// The `ten_alternate` pattern after its timeout: the go-back-N resend
    /// of 2 fills the hole below the buffered 3 (ACK at once), then the
    /// resend of 3 repeats the last in-order segment with nothing buffered
    /// above. ns-2 `DelAckSink::recv` delays that ACK (`seqno ==
    /// acker_->Seqno()`, not `< Maxseen()`), and the next in-order segment,
    /// arriving while the timer runs, is ACKed at once; the RFC rule ACKs
    /// the duplicate at once.
    #[test]
    fn a_repeat_of_the_last_in_order_segment_is_delayed_only_in_ns2() {
        for (last_dup, dup_ack) in [(true, None), (false, Some(4))] {
            let mut c = cfg(Variant::Reno, true);
            c.delack_last_duplicate = last_dup;
            let mut r = TcpReceiver::new(&c);
            let t = SimTime::ZERO;
            assert_eq!(r.on_segment(t, &seg(0)), None);
            assert_eq!(r.on_segment(t, &seg(1)).unwrap().ack, 2);
            assert_eq!(r.on_segment(t, &seg(3)).unwrap().ack, 2, "out of order");
            assert_eq!(r.on_segment(t, &seg(2)).unwrap().ack, 4, "fills the hole");
            let dup = r.on_segment(SimTime(7), &seg(3)).map(|a| a.ack);
            assert_eq!(dup, dup_ack, "delack_last_duplicate = {last_dup}");
            if last_dup {
                assert_eq!(r.delack_deadline(), Some(SimTime(7 + 100_000_000)));
            }
            // An older duplicate is ACKed at once either way.
            let older = r.on_segment(t, &seg(1)).map(|a| a.ack);
            assert_eq!(older, Some(4), "delack_last_duplicate = {last_dup}");
            // With a segment buffered above, a repeat of the last in-order
            // one is ACKed at once (ns-2: `seqno < Maxseen()`).
            assert_eq!(r.on_segment(t, &seg(5)).unwrap().ack, 4);
            assert_eq!(r.on_segment(t, &seg(3)).unwrap().ack, 4);
        }
        // The timer sends the delayed ACK; the next in-order segment while it
        // runs is ACKed at once.
        let mut r = TcpReceiver::new(&cfg(Variant::Reno, true));
        let t = SimTime::ZERO;
        assert_eq!(r.on_segment(t, &seg(0)), None);
        assert_eq!(r.on_segment(t, &seg(1)).unwrap().ack, 2);
        assert_eq!(r.on_segment(t, &seg(1)), None);
        assert_eq!(r.on_segment(t, &seg(2)).unwrap().ack, 3);
        assert_eq!(r.on_segment(t, &seg(2)), None);
        let d = r.delack_deadline().unwrap();
        assert_eq!(r.on_delack_timeout(d).unwrap().ack, 3);
    }

    // ---- timestamps (RFC 7323 §4.3) and D-SACK (RFC 2883 §4) ---------------

    /// Segment `seq` sent at `ms` milliseconds (TSval `ms + 1`).
    fn seg_at(seq: u64, ms: u64) -> Segment {
        Segment {
            sent_at: SimTime(ms * 1_000_000),
            tsecr: 0,
            ..seg(seq)
        }
    }

    fn linux(delayed: bool) -> TcpConfig {
        let mut c = cfg(Variant::Sack, delayed);
        c.sack_blocks = 3;
        c.timestamps = Timestamps::Linux;
        c.dsack = Dsack::Linux;
        c
    }

    /// `[tcp.rcvbuf]` (Linux's quick-ACK mode): the first 16 segments and
    /// each one that grows `rcv_ssthresh` are ACKed one by one; once
    /// `rcv_ssthresh` reaches the clamp the receiver is back to every
    /// second segment; a needless retransmission turns quick ACKs on again.
    /// Every ACK carries its own TSval.
    #[test]
    fn linux_quick_acks_until_the_window_stops_growing() {
        let mut c = linux(true);
        c.mss = 1448;
        c.rcvbuf = crate::tcp::config::RcvBufConfig::LINUX;
        let mut r = TcpReceiver::new(&c);
        let at = |ms: u64| SimTime(ms * 1_000_000);
        let mut acked_alone = 0;
        for seq in 0..40 {
            if r.on_segment(at(seq), &seg_at(seq, seq)).is_some() {
                acked_alone += 1;
            } else {
                break;
            }
        }
        // 16 quick ACKs, then growth to the 80 480 B free space of the
        // 128 KiB buffer (5 more steps from 65 160 B) keeps them coming.
        assert_eq!(acked_alone, 22);
        let b = r.rcvbuf.as_ref().unwrap();
        assert_eq!(b.rcv_ssthresh(), 80_480);
        assert!(r.on_segment(at(30), &seg_at(23, 30)).unwrap().ack == 24);
        assert!(r.on_segment(at(31), &seg_at(24, 31)).is_none());
        let a = r.on_segment(at(32), &seg_at(25, 32)).unwrap();
        assert_eq!(a.tsval(at(32)), Some(ts_clock(at(32))));
        // A repeat of segment 3: immediate duplicate ACK, then quick ACKs.
        assert!(r.on_segment(at(33), &seg_at(3, 33)).is_some());
        assert!(r.on_segment(at(34), &seg_at(26, 34)).is_some());
        // Off (the rfc and ns2 profiles): the every-second rule from the start.
        let mut off = TcpReceiver::new(&linux(true));
        assert!(off.on_segment(at(0), &seg_at(0, 0)).is_none());
    }

    /// A Linux receiver with `[tcp.rcvbuf]` whose buffer cannot grow
    /// (`initial` = `max`), past its quick-ACK phase: `n` in-order
    /// segments 1 ms apart from time 0, their ACKs dropped.
    fn linux_settled(c: &mut TcpConfig, n: u64) -> TcpReceiver {
        c.mss = 1448;
        c.rcvbuf = crate::tcp::config::RcvBufConfig {
            max: 131_072,
            ..crate::tcp::config::RcvBufConfig::LINUX
        };
        let mut r = TcpReceiver::new(c);
        for seq in 0..n {
            let at = SimTime(seq * 1_000_000);
            r.on_segment(at, &seg_at(seq, seq));
            if r.delack_deadline()
                .is_some_and(|d| d <= at + SimDuration::from_millis(1))
            {
                r.on_delack_timeout(r.delack_deadline().unwrap());
            }
        }
        assert!(!r.rcvbuf.as_ref().unwrap().quick_mode());
        r
    }

    /// `[tcp.sack_compression]`: above a hole the first three duplicate
    /// ACKs go at once, later ones wait for one ACK 1 ms after the first
    /// held (`tcp_comp_sack_delay_ns`), and a segment outside the two most
    /// recent SACK blocks sends the held ACK first, without its own block.
    #[test]
    fn linux_sack_compression_holds_duplicate_acks_after_the_third() {
        let mut c = linux(true);
        c.sack_compression.enabled = true;
        let mut r = linux_settled(&mut c, 60);
        let t0 = SimTime(100_000_000);
        let us = |d: u64| t0 + SimDuration::from_micros(d);
        // Segment 60 is lost: 61-63 are ACKed at once, 64 and 65 held.
        for (k, seq) in (61..=63).enumerate() {
            let a = r.on_segment(us(k as u64 * 100), &seg_at(seq, 100)).unwrap();
            assert_eq!(a.ack, 60);
        }
        assert_eq!(r.on_segment(us(300), &seg_at(64, 100)), None);
        assert_eq!(r.on_segment(us(400), &seg_at(65, 100)), None);
        assert_eq!(r.delack_deadline(), Some(us(1300)));
        // Segment 67 opens a second block (two remembered): still held.
        assert_eq!(r.on_segment(us(500), &seg_at(67, 100)), None);
        // Segment 69 would be a third block: the held ACK goes first,
        // reporting 67 and 61-65 only; 69's own ACK is then held.
        let a = r.on_segment(us(600), &seg_at(69, 100)).unwrap();
        assert_eq!(blocks(&a), vec![(67, 68), (61, 66)]);
        assert_eq!(r.delack_deadline(), Some(us(1600)));
        let a = r.on_delack_timeout(us(1600)).unwrap();
        assert_eq!(blocks(&a), vec![(69, 70), (67, 68), (61, 66)]);
        assert_eq!(r.delack_deadline(), None);
        // Without the option every one of them is ACKed at once.
        let mut c = linux(true);
        let mut r = linux_settled(&mut c, 60);
        for seq in 61..70 {
            assert!(r.on_segment(t0, &seg_at(seq, 100)).is_some());
        }
    }

    /// `[tcp.ato]`: a lone segment's ACK waits `ato` jiffies from the
    /// current one and a tick more (HZ 250: 40 ms from jiffy 25, 100 ms,
    /// then the timer wheel's round-up, so 144 ms), and the timer's ACK
    /// doubles `ato` for the next lone segment (80 ms, under the
    /// receiver's SRTT bound).
    #[test]
    fn linux_ato_times_a_lone_segment_and_grows_after_the_timer() {
        let mut c = linux(true);
        c.ato.enabled = true;
        let mut r = linux_settled(&mut c, 60);
        let ms = |t: u64| SimTime(t * 1_000_000);
        assert_eq!(r.on_segment(ms(101), &seg_at(60, 100)), None);
        // 41 ms of silence first: ato stays 10 jiffies.
        assert_eq!(r.delack_deadline(), Some(ms(144)));
        assert!(r.on_delack_timeout(ms(144)).is_some());
        // rcv RTT sampled from the window's arrival (tens of ms), so the
        // SRTT bound is at least TCP_DELACK_MIN; ato is now 20 jiffies.
        assert_eq!(r.on_segment(ms(301), &seg_at(61, 300)), None);
        let srtt = r.rcvbuf.as_ref().unwrap().srtt_us().unwrap();
        let bound = (srtt * 250).div_ceil(1_000_000).max(10);
        assert_eq!(r.delack_deadline(), Some(ms(304 + 4 * bound.min(20))));
    }

    #[test]
    fn a_delayed_ack_echoes_the_earliest_unacknowledged_segment() {
        // RFC 7323 §4.3 case (A): segments 0 (sent at 10 ms) and 1 (11 ms)
        // share one ACK, which echoes 0's TSval; the next pair, 1's
        // successors 2 and 3, echo 2's.
        let mut r = TcpReceiver::new(&linux(true));
        let t = SimTime::ZERO;
        assert_eq!(r.on_segment(t, &seg_at(0, 10)), None);
        assert_eq!(r.on_segment(t, &seg_at(1, 11)).unwrap().tsecr, 11);
        assert_eq!(r.on_segment(t, &seg_at(2, 12)), None);
        let d = r.delack_deadline().unwrap();
        // The delayed-ACK timer's ACK echoes the lone segment 2.
        assert_eq!(r.on_delack_timeout(d).unwrap().tsecr, 13);
        assert_eq!(r.on_segment(t, &seg_at(3, 14)), None);
        assert_eq!(r.on_segment(t, &seg_at(4, 15)).unwrap().tsecr, 15);
        // Off: no echo.
        let mut off = TcpReceiver::new(&cfg(Variant::Sack, false));
        assert_eq!(off.on_segment(t, &seg_at(0, 10)).unwrap().tsecr, 0);
    }

    #[test]
    fn a_hole_echoes_the_last_in_order_segment_then_the_one_that_fills_it() {
        // RFC 7323 §4.3 case (B): 0 arrives, 1 is lost; 2 and 3 (above the
        // hole) do not change TS.Recent, their duplicate ACKs echo 0's
        // TSval; the retransmission of 1 (sent at 40 ms) fills the hole and
        // is echoed, the delayed originals' TSvals are not (older).
        let mut r = TcpReceiver::new(&linux(true));
        let t = SimTime::ZERO;
        assert_eq!(r.on_segment(t, &seg_at(0, 10)), None);
        let d = r.delack_deadline().unwrap();
        assert_eq!(r.on_delack_timeout(d).unwrap().tsecr, 11);
        let a = r.on_segment(t, &seg_at(2, 12)).unwrap();
        assert_eq!((a.ack, a.tsecr), (1, 11));
        let a = r.on_segment(t, &seg_at(3, 13)).unwrap();
        assert_eq!((a.ack, a.tsecr), (1, 11));
        let a = r.on_segment(t, &seg_at(1, 40)).unwrap();
        assert_eq!((a.ack, a.tsecr), (4, 41));
        // Reordering, no loss: 1 arrives late and fills the hole with its
        // own (older) TSval, still not before TS.Recent (0's).
        let mut r = TcpReceiver::new(&linux(false));
        assert_eq!(r.on_segment(t, &seg_at(0, 10)).unwrap().tsecr, 11);
        assert_eq!(r.on_segment(t, &seg_at(2, 12)).unwrap().tsecr, 11);
        let a = r.on_segment(t, &seg_at(1, 11)).unwrap();
        assert_eq!((a.ack, a.tsecr), (3, 12));
        // The original of a segment already retransmitted (TSval older than
        // TS.Recent) is not echoed.
        let a = r.on_segment(t, &seg_at(3, 50)).unwrap();
        assert_eq!((a.ack, a.tsecr), (4, 51));
        let a = r.on_segment(t, &seg_at(3, 13)).unwrap();
        assert_eq!((a.ack, a.tsecr), (4, 51));
    }

    #[test]
    fn a_retransmission_below_the_last_ack_is_not_echoed() {
        // 0, 1 and 2 arrive and are acknowledged (ACK 3, no delayed ACKs);
        // the timer resends 0 (TSval 50): it is wholly below the last ACK,
        // so its ACK echoes 2's TSval (13), not 50 (Linux `tcp_sequence`
        // drops it before `tcp_replace_ts_recent`), and reports it in a
        // D-SACK. A resend of 2 (end = the last ACK) is acceptable and
        // echoed.
        let mut r = TcpReceiver::new(&linux(false));
        let t = SimTime::ZERO;
        for q in 0..3 {
            r.on_segment(t, &seg_at(q, 10 + q));
        }
        let a = r.on_segment(t, &seg_at(0, 50)).unwrap();
        assert_eq!((a.ack, a.tsecr), (3, 13));
        assert_eq!(blocks(&a), vec![(0, 1)]);
        let a = r.on_segment(t, &seg_at(2, 60)).unwrap();
        assert_eq!((a.ack, a.tsecr), (3, 61));
    }

    #[test]
    fn a_duplicate_is_reported_once_in_a_dsack_block() {
        let mut r = TcpReceiver::new(&linux(false));
        let t = SimTime::ZERO;
        for q in [0, 1, 3, 5] {
            r.on_segment(t, &seg(q));
        }
        // Below the cumulative ACK: the D-SACK block alone names it, the
        // SACK blocks follow (RFC 2883 §4.1 example).
        let a = r.on_segment(t, &seg(1)).unwrap();
        assert_eq!(a.ack, 2);
        assert_eq!(blocks(&a), vec![(1, 2), (5, 6), (3, 4)]);
        // Reported once: the next ACK has the SACK blocks alone.
        let a = r.on_segment(t, &seg(7)).unwrap();
        assert_eq!(blocks(&a), vec![(7, 8), (5, 6), (3, 4)]);
        // Above it: the D-SACK block, then the block holding the duplicate
        // (RFC 2883 §4.2 example), then the most recent others.
        r.on_segment(t, &seg(4));
        let a = r.on_segment(t, &seg(4)).unwrap();
        assert_eq!(blocks(&a), vec![(4, 5), (3, 6), (7, 8)]);
        // Off: the SACK blocks alone.
        let mut c = linux(false);
        c.dsack = Dsack::Off;
        let mut r = TcpReceiver::new(&c);
        for q in [0, 1, 3] {
            r.on_segment(t, &seg(q));
        }
        assert_eq!(blocks(&r.on_segment(t, &seg(1)).unwrap()), vec![(3, 4)]);
    }

    // ---- invariants (proptest) -----------------------------------------------

    proptest::proptest! {
        /// Any arrival order, with repeats: each segment delivered once, in
        /// order; SACK blocks lie above the cumulative ACK, are disjoint and
        /// cover only received segments; the first block holds the segment
        /// that triggered the ACK when it was buffered.
        #[test]
        fn any_arrival_order_delivers_exactly_once(
            order in proptest::collection::vec(0u64..40, 1..200)
        ) {
            let mut r = TcpReceiver::new(&cfg(Variant::Sack, false));
            let mut got = std::collections::BTreeSet::new();
            for &q in &order {
                let a = r.on_segment(SimTime::ZERO, &seg(q)).expect("no delack");
                got.insert(q);
                let expect = (0..=40u64).find(|i| !got.contains(i)).unwrap();
                proptest::prop_assert_eq!(a.ack, expect);
                proptest::prop_assert_eq!(r.delivered_segments(), expect);
                let bl = a.sack_blocks();
                for (i, b) in bl.iter().enumerate() {
                    proptest::prop_assert!(b.start > a.ack && b.start < b.end);
                    proptest::prop_assert!((b.start..b.end).all(|x| got.contains(&x)));
                    for c in &bl[i + 1..] {
                        proptest::prop_assert!(b.end < c.start || c.end < b.start);
                    }
                }
                if q > a.ack {
                    proptest::prop_assert!(bl[0].start <= q && q < bl[0].end);
                }
            }
            proptest::prop_assert_eq!(r.delivered_bytes(), r.delivered_segments() * 1000);
        }
    }
}
