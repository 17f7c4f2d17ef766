//! PLACEHOLDER: replaced by the real receiver on merge.
#![allow(missing_docs, clippy::all, clippy::pedantic, unused)]
use super::{Ack, Segment, TcpConfig};
use crate::time::SimTime;
#[derive(Default, Debug, Clone)]
pub struct ReceiverStats { pub segments_received: u64, pub duplicates: u64, pub out_of_order: u64 }
pub struct TcpReceiver { next: u64, bytes: u64, st: ReceiverStats }
impl TcpReceiver {
    pub fn new(_cfg: &TcpConfig) -> Self { Self { next: 0, bytes: 0, st: ReceiverStats::default() } }
    pub fn on_segment(&mut self, _now: SimTime, seg: &Segment) -> Option<Ack> { self.st.segments_received += 1; if seg.seq == self.next { self.next += 1; self.bytes += u64::from(seg.len); } Some(Ack { ack: self.next, ..Ack::default() }) }
    pub fn on_delack_timeout(&mut self, _now: SimTime) -> Option<Ack> { None }
    pub fn delack_deadline(&self) -> Option<SimTime> { None }
    pub fn delivered_segments(&self) -> u64 { self.next }
    pub fn delivered_bytes(&self) -> u64 { self.bytes }
    pub fn stats(&self) -> &ReceiverStats { &self.st }
}
