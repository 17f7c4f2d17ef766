//! I/O-free TCP model (smoltcp style): the sender and receiver take packets
//! and timer expiries in and hand segments and ACKs out; the engine owns the
//! clock and the network. Window growth (`cc`), loss recovery (`recovery`)
//! and the reaction to a retransmission timeout (`timeout`) are separate
//! parts sharing one control block, so Burst TCP can replace the timeout
//! reaction without touching Reno.

pub mod cc;
pub mod config;
pub mod control;
pub mod delack;
pub mod gso;
pub mod jiffies;
pub mod pacing;
pub mod profile;
pub mod rcvbuf;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod segment;
pub mod sender;
pub mod signal;
pub mod small_queue;
pub mod timeout;
pub mod tlp;
pub mod undo;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests;

pub use config::{TcpConfig, Variant};
pub use receiver::{ReceiverStats, TcpReceiver};
pub use segment::{Ack, SackBlock, SackBlocks, Segment};
pub use sender::{LossDecision, SenderStats, TcpSender};
