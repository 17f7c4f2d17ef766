//! Traffic sources: when flows start and how much they send ([`bulk`]), the
//! flow-size laws of generated flows ([`size`]), and
//! the open-loop UDP cross traffic of the access networks ([`udp`]).

pub mod background;
pub mod bulk;
pub mod flowgen;
pub mod size;
pub mod udp;
