//! The per-channel state of a run, built in one place: every link of the
//! scenario gives one simplex channel (forward), and a second one (reverse)
//! when duplex, in link order. A channel's index is its [`LinkId`] in every
//! table of the run (routes, events, results).
//!
//! Random streams, one per channel: `loss/<from>-><to>#<k>` for the packet
//! loss model (`k` counts earlier parallel channels between the same
//! nodes) and `burst_loss/<from>-><to>` for the burst loss model of an
//! optical channel.
//!
//! [`LinkId`]: crate::ids::LinkId

use crate::config::scenario::{LossSpec, Scenario};
use crate::engine::in_flight::InFlight;
use crate::ids::NodeId;
use crate::metrics::aggregate::BinCounter;
use crate::net::{Channel, LossModel};
use crate::obs::loss::{BurstLossModel, BurstLossSpec};
use crate::obs::switch::OpticalPort;
use crate::rng::stream;

/// One simplex channel and everything the models keep about it.
///
/// Laid out for the packet path (`repr(C)`, the fields in this order): a
/// packet's arrival reads the FIFO and the loss model, then the channel's
/// ends, so they share the record's first cache lines; the optical port,
/// read per burst, is boxed, which brought the record from 496 bytes to 232
/// (issue 12: at 1 000 and 10 000 flows the table of 4 002 records no
/// longer fits the 2 MiB L2 cache; docs/PERFORMANCE.md, session 15), and
/// 240 since the channel keeps the start of its oldest waiting packet
/// (session 16: 4 bytes a waiting packet instead of 16; speed unchanged).
#[repr(C)]
pub struct Link {
    /// Packets crossing the channel, oldest first, in the run's packet
    /// slab; only the head has an event in the future-event list
    /// (`engine/in_flight.rs`).
    pub in_flight: InFlight,
    /// Packet loss model applied after the channel.
    pub loss: LossModel,
    /// The channel: rate, delay, drop-tail buffer, counters.
    pub channel: Channel,
    /// The optical port of an optical channel (`None`: electronic).
    pub optical: Option<Box<OpticalPort>>,
}

// The layout the doc comment above describes: the FIFO first, the record
// no larger than measured (a new per-link field belongs in `Channel` or
// behind a box if it is not read per packet).
const _: () = assert!(std::mem::offset_of!(Link, in_flight) == 0);
const _: () = assert!(std::mem::size_of::<Link>() <= 240);

impl AsRef<Channel> for Link {
    fn as_ref(&self) -> &Channel {
        &self.channel
    }
}

/// One direction of a scenario link.
struct Direction<'s> {
    from: NodeId,
    to: NodeId,
    loss: &'s LossSpec,
    burst_loss: Option<&'s BurstLossSpec>,
}

/// Builds the channels of `sc` in a run with `seed`.
pub fn build(sc: &Scenario, seed: u64) -> Vec<Link> {
    let mut links: Vec<Link> = Vec::new();
    let name = |n: NodeId| &sc.nodes[n.index()].name;
    for l in &sc.links {
        let optical = l.optical.as_ref();
        let mut dirs = vec![Direction {
            from: l.from,
            to: l.to,
            loss: &l.loss,
            burst_loss: optical.and_then(|o| o.burst_loss.as_ref()),
        }];
        if l.duplex {
            dirs.push(Direction {
                from: l.to,
                to: l.from,
                loss: &l.reverse_loss,
                burst_loss: optical.and_then(|o| o.reverse_burst_loss.as_ref()),
            });
        }
        for d in dirs {
            let parallel = links
                .iter()
                .filter(|k| k.channel.from == d.from && k.channel.to == d.to)
                .count();
            let loss_stream = format!("loss/{}->{}#{parallel}", name(d.from), name(d.to));
            let optical = optical.map(|o| {
                let burst_loss = d.burst_loss.map(|s| {
                    let bl_stream = format!("burst_loss/{}->{}", name(d.from), name(d.to));
                    BurstLossModel::new(s, stream(seed, &bl_stream))
                });
                let bins = sc.metrics.throughput_bin.map(BinCounter::new);
                Box::new(OpticalPort::new(
                    &sc.nodes[d.from.index()].switch,
                    o.wavelengths,
                    burst_loss,
                    bins,
                ))
            });
            links.push(Link {
                in_flight: InFlight::default(),
                loss: LossModel::new(d.loss, stream(seed, &loss_stream)),
                channel: Channel::new(d.from, d.to, l.rate_bps, l.delay, l.buffer),
                optical,
            });
        }
    }
    links
}
