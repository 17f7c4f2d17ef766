//! The packet network: packets, link channels with drop-tail buffers, loss
//! models, and static shortest-path routing.

pub mod access;
pub mod channel;
pub mod loss;
pub mod packet;
pub mod routing;

pub use channel::Channel;
pub use loss::LossModel;
pub use packet::{Datagram, Packet, Payload};
pub use routing::{Hop, RoutingTable};
