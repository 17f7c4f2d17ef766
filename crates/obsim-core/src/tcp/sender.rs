//! PLACEHOLDER: replaced by the real sender on merge.
#![allow(missing_docs, clippy::all, clippy::pedantic, unused)]
use super::{Ack, Segment, TcpConfig};
use crate::time::{SimDuration, SimTime};
#[derive(Default, Debug, Clone)]
pub struct SenderStats { pub segments_sent: u64, pub retransmits: u64, pub bytes_sent: u64, pub td_events: u64, pub to_events: u64, pub backoffs: u64, pub rtt_samples: u64, pub rtt_sum: SimDuration, pub completed_at: Option<SimTime> }
pub struct TcpSender { cfg: TcpConfig, nxt: u64, una: u64, cwnd: f64, st: SenderStats, started: bool, rto_at: Option<SimTime>, data: Option<u64> }
impl TcpSender {
    pub fn new(cfg: &TcpConfig, data_bytes: Option<u64>) -> Self { Self { cfg: cfg.clone(), nxt: 0, una: 0, cwnd: cfg.initial_cwnd as f64, st: SenderStats::default(), started: false, rto_at: None, data: data_bytes } }
    pub fn start(&mut self, _now: SimTime) { self.started = true; }
    pub fn on_ack(&mut self, now: SimTime, ack: &Ack) { if ack.ack > self.una { self.una = ack.ack; self.cwnd += if self.cwnd < 64.0 {1.0} else {1.0/self.cwnd}; self.rto_at = if self.una < self.nxt { Some(now + SimDuration::from_secs(1)) } else { None }; } }
    pub fn on_timeout(&mut self, now: SimTime) { self.nxt = self.una; self.cwnd = 1.0; self.st.to_events += 1; self.rto_at = None; let _ = now; }
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<Segment> {
        if !self.started || (self.nxt - self.una) as f64 >= self.cwnd.min(self.cfg.max_window as f64) { return None; }
        let s = Segment { seq: self.nxt, len: self.cfg.mss, retransmit: false, sent_at: now }; self.nxt += 1; self.st.segments_sent += 1;
        if self.rto_at.is_none() { self.rto_at = Some(now + SimDuration::from_secs(1)); } Some(s) }
    pub fn rto_deadline(&self) -> Option<SimTime> { self.rto_at }
    pub fn is_complete(&self) -> bool { false }
    pub fn cwnd(&self) -> f64 { self.cwnd }
    pub fn ssthresh(&self) -> f64 { 64.0 }
    pub fn snd_una(&self) -> u64 { self.una }
    pub fn snd_nxt(&self) -> u64 { self.nxt }
    pub fn srtt(&self) -> Option<SimDuration> { None }
    pub fn rto(&self) -> SimDuration { SimDuration::from_secs(1) }
    pub fn stats(&self) -> &SenderStats { &self.st }
}
