//! Proportional Rate Reduction, RFC 6937 §3: how much each ACK in fast
//! recovery may send, so that the data in flight falls smoothly from the
//! window before the loss to ssthresh over one round trip (instead of RFC
//! 6675's half-RTT silence, or the burst RFC 5681 sends when the window was
//! inflated) and ends recovery at ssthresh.
//!
//! A recovery plug-in (`sack.rs`, `newreno.rs`) owns one [`PrrState`]: it
//! calls [`PrrState::enter`] when recovery starts, [`PrrState::on_ack`]
//! on every ACK in recovery with that ACK's `DeliveredData` and its `pipe`
//! estimate, [`PrrState::on_transmit`] for every segment sent in recovery,
//! and [`PrrState::exit`] on the ACK that ends it. Units are segments (the
//! RFC's bytes divided by SMSS, as everywhere in obsim's TCP). No state
//! outlives an episode: a new episode starts from [`PrrState::enter`].

use crate::tcp::config::Prr;
use crate::tcp::control::ControlBlock;

/// The PRR variables of one recovery episode (RFC 6937 §3).
#[derive(Clone, Debug, PartialEq)]
pub struct PrrState {
    /// `tcp.prr`: off, or the reduction bound.
    mode: Prr,
    /// `prr_delivered`: segments delivered to the receiver during recovery.
    delivered: u64,
    /// `prr_out`: segments sent (new or retransmitted) during recovery.
    out: u64,
    /// `RecoverFS = snd.nxt - snd.una`, the flight size when recovery began.
    recover_fs: u64,
    /// `sndcnt` of the last ACK (for tests and traces).
    sndcnt: f64,
}

impl PrrState {
    /// PRR of mode `mode`, outside recovery.
    pub fn new(mode: Prr) -> Self {
        PrrState {
            mode,
            delivered: 0,
            out: 0,
            recover_fs: 0,
            sndcnt: 0.0,
        }
    }

    /// True unless `tcp.prr = "off"`.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.mode != Prr::Off
    }

    /// RFC 6937 §3, "at the beginning of recovery": `prr_delivered = 0`,
    /// `prr_out = 0`, `RecoverFS = snd.nxt - snd.una`. The caller has set
    /// `ssthresh = CongCtrlAlg()` (the window-growth plug-in's ssthresh).
    pub fn enter(&mut self, cb: &ControlBlock) {
        self.delivered = 0;
        self.out = 0;
        // snd_nxt > snd_una whenever recovery starts (duplicate ACKs need
        // data outstanding); at least 1 keeps the division defined.
        self.recover_fs = cb.flight_size().max(1);
        self.sndcnt = 0.0;
    }

    /// RFC 6937 §3, "on every ACK during recovery": `prr_delivered +=
    /// DeliveredData`, then `sndcnt` from `pipe` (the caller's estimate of
    /// the segments in flight before anything this ACK releases), and
    /// cwnd = pipe + sndcnt, so that the sending rule "cwnd − pipe ≥ 1
    /// segment" (RFC 6675 §5 (C)) releases exactly `sndcnt` segments: RFC
    /// 6937 §3 gives only sndcnt; cwnd = pipe + sndcnt is the form Linux
    /// (`tcp_cwnd_reduction`) and ns-3 (`TcpPrrRecovery::DoRecovery`) use.
    /// obsim keeps cwnd at least 1 segment, so with nothing in flight an
    /// ACK may release one segment where `PRR-CRB` gives 0.
    pub fn on_ack(&mut self, cb: &mut ControlBlock, delivered_data: u64, pipe: u64) {
        self.delivered += delivered_data;
        self.sndcnt = self.sndcnt(delivered_data, pipe, cb.ssthresh);
        cb.cwnd = (pipe as f64 + self.sndcnt).max(1.0);
    }

    /// RFC 6937 §3's `sndcnt` for an ACK that delivered `delivered_data`
    /// segments, with `pipe` segments in flight; never negative (the RFC's
    /// proportional term is negative when more was sent than it allows,
    /// e.g. the fast retransmit, which goes out whatever the window).
    pub fn sndcnt(&self, delivered_data: u64, pipe: u64, ssthresh: f64) -> f64 {
        let pipe = pipe as f64;
        let prr_delivered = self.delivered as f64;
        let prr_out = self.out as f64;
        let sndcnt = if pipe > ssthresh {
            // Proportional Rate Reduction:
            // sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out.
            (prr_delivered * ssthresh / self.recover_fs as f64).ceil() - prr_out
        } else {
            // The two reduction bounds.
            let limit = match self.mode {
                // PRR-CRB: limit = prr_delivered - prr_out.
                Prr::Crb => prr_delivered - prr_out,
                // PRR-SSRB: limit = MAX(prr_delivered - prr_out,
                // DeliveredData) + MSS.
                Prr::Ssrb | Prr::Off => (prr_delivered - prr_out).max(delivered_data as f64) + 1.0,
            };
            // "Attempt to catch up, as permitted by limit":
            // sndcnt = MIN(ssthresh - pipe, limit).
            (ssthresh - pipe).min(limit)
        };
        sndcnt.max(0.0)
    }

    /// RFC 6937 §3, "on any data transmission or retransmission":
    /// `prr_out += (data sent)`.
    #[inline]
    pub fn on_transmit(&mut self) {
        self.out += 1;
    }

    /// The ACK that ends recovery: cwnd = ssthresh, the window PRR steered
    /// the flight towards (RFC 6937 §4: "PRR will converge to exactly the
    /// target window chosen by the congestion control algorithm"; Linux
    /// `tcp_end_cwnd_reduction`, ns-3 `TcpPrrRecovery::ExitRecovery`). RFC
    /// 6675's own exit leaves cwnd = ssthresh too.
    pub fn exit(&mut self, cb: &mut ControlBlock) {
        cb.cwnd = cb.ssthresh;
    }

    /// `prr_delivered`.
    pub fn prr_delivered(&self) -> u64 {
        self.delivered
    }

    /// `prr_out`.
    pub fn prr_out(&self) -> u64 {
        self.out
    }

    /// `RecoverFS`.
    pub fn recover_fs(&self) -> u64 {
        self.recover_fs
    }

    /// The `sndcnt` of the last ACK in recovery.
    pub fn last_sndcnt(&self) -> f64 {
        self.sndcnt
    }
}

#[cfg(test)]
mod tests {
    //! The arithmetic of RFC 6937 §3 on the inputs of its §3.1 examples
    //! (cwnd = FlightSize = pipe = 20 segments, ssthresh = 10, limited
    //! transmit). The end-to-end versions with the RFC 6675 scoreboard are
    //! in `tcp/tests.rs` ("PRR").
    #![allow(clippy::float_cmp)] // whole segments: equality is the claim

    use super::*;
    use crate::tcp::profile::profile;

    fn cb(snd_una: u64, snd_nxt: u64, ssthresh: f64) -> ControlBlock {
        let cfg = profile("rfc").unwrap();
        let mut cb = ControlBlock::new(&cfg, u64::MAX);
        cb.snd_una = snd_una;
        cb.snd_nxt = snd_nxt;
        cb.tx_next = snd_nxt;
        cb.ssthresh = ssthresh;
        cb
    }

    /// RFC 6937 §3.1, 15 of 20 segments lost (0-14): the ACKs of 15 and 16
    /// send two new segments by limited transmit (snd.nxt = 22), the ACK
    /// of 17 starts recovery with pipe = 4 (18-21), far below ssthresh =
    /// 10, so the reduction bound decides from the first ACK. Per ACK of
    /// 17, 18, 19: PRR-CRB sends 1, 1, 1 ("b", from banked), PRR-SSRB 2, 2,
    /// 2 ("bd", "d", "d"), pipe 4, 4, 4 against 4, 5, 6.
    #[test]
    fn rfc6937_burst_of_15_losses_crb_vs_ssrb() {
        for (mode, sent, pipes) in [
            (Prr::Crb, [1.0, 1.0, 1.0], [4, 4, 4]),
            (Prr::Ssrb, [2.0, 2.0, 2.0], [4, 5, 6]),
        ] {
            let mut c = cb(0, 22, 10.0);
            let mut prr = PrrState::new(mode);
            prr.enter(&c);
            assert_eq!(prr.recover_fs(), 22);
            let mut pipe = 4;
            for (i, want) in sent.into_iter().enumerate() {
                assert_eq!(pipe, pipes[i], "{mode:?} ACK {}", 17 + i);
                // Each ACK SACKs one segment: DeliveredData = 1.
                prr.on_ack(&mut c, 1, pipe);
                assert_eq!(prr.last_sndcnt(), want, "{mode:?} ACK {}", 17 + i);
                assert_eq!(c.cwnd, pipe as f64 + want);
                for _ in 0..want as u64 {
                    prr.on_transmit();
                }
                // The next ACK SACKs one segment; the retransmissions
                // are in flight.
                pipe = pipe + want as u64 - 1;
            }
        }
    }

    /// RFC 6937 §3.1, one loss: with pipe above ssthresh the proportional
    /// part sends on every other ACK, ssthresh/RecoverFS = 1/2 of what is
    /// delivered, whatever the bound; the fast retransmit is the first.
    #[test]
    fn rfc6937_single_loss_sends_on_every_other_ack() {
        for mode in [Prr::Crb, Prr::Ssrb] {
            // No limited transmit here: 0-19 out, 1-3 SACKed, 0 lost.
            let mut c = cb(0, 20, 10.0);
            let mut prr = PrrState::new(mode);
            prr.enter(&c);
            let mut pipe = 16;
            let mut sent = Vec::new();
            for _ in 0..12 {
                prr.on_ack(&mut c, 1, pipe);
                let n = prr.last_sndcnt() as u64;
                sent.push(n);
                for _ in 0..n {
                    prr.on_transmit();
                }
                pipe = pipe + n - 1;
            }
            assert_eq!(sent, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0], "{mode:?}");
            assert_eq!(prr.prr_delivered(), 12);
            assert_eq!(prr.prr_out(), 6);
        }
    }

    /// The two bounds differ only once pipe ≤ ssthresh, and there only by
    /// the SSRB's extra segment (and DeliveredData when nothing is banked).
    #[test]
    fn bounds_differ_only_at_or_below_ssthresh() {
        let c = cb(0, 20, 10.0);
        let mut crb = PrrState::new(Prr::Crb);
        let mut ssrb = PrrState::new(Prr::Ssrb);
        crb.enter(&c);
        ssrb.enter(&c);
        crb.delivered = 6;
        ssrb.delivered = 6;
        crb.out = 3;
        ssrb.out = 3;
        // pipe 12 > 10: CEIL(6 * 10 / 20) - 3 = 0 for both.
        assert_eq!(crb.sndcnt(1, 12, 10.0), 0.0);
        assert_eq!(ssrb.sndcnt(1, 12, 10.0), 0.0);
        // pipe 8 <= 10: CRB limit 6 - 3 = 3, SSRB max(3, 1) + 1 = 4; both
        // above ssthresh - pipe = 2, which both send.
        assert_eq!(crb.sndcnt(1, 8, 10.0), 2.0);
        assert_eq!(ssrb.sndcnt(1, 8, 10.0), 2.0);
        // pipe 5: CRB 3, SSRB 4 (ssthresh - pipe = 5 does not bind).
        assert_eq!(crb.sndcnt(1, 5, 10.0), 3.0);
        assert_eq!(ssrb.sndcnt(1, 5, 10.0), 4.0);
        // Nothing banked (prr_out = prr_delivered): CRB sends nothing,
        // SSRB DeliveredData + 1.
        crb.out = 6;
        ssrb.out = 6;
        assert_eq!(crb.sndcnt(2, 5, 10.0), 0.0);
        assert_eq!(ssrb.sndcnt(2, 5, 10.0), 3.0);
    }

    #[test]
    fn exit_sets_cwnd_to_ssthresh() {
        let mut c = cb(0, 20, 10.0);
        let mut prr = PrrState::new(Prr::Ssrb);
        prr.enter(&c);
        prr.on_ack(&mut c, 1, 18);
        assert_eq!(c.cwnd, 19.0);
        prr.exit(&mut c);
        assert_eq!(c.cwnd, 10.0);
    }
}

#[cfg(test)]
#[path = "prr_tests.rs"]
mod scripted;
