//! Per-packet loss models of a channel, applied when a packet has crossed
//! the channel (a lost packet still occupied the link, like a corrupted frame).
//! Stochastic models draw from the channel's own named RNG stream.

use crate::config::scenario::LossSpec;
use crate::ids::FlowId;
use crate::net::packet::{Packet, Payload};
use crate::rng::{uniform01, SimRng};

/// A loss model with its state.
#[derive(Clone, Debug)]
pub enum LossModel {
    /// Never loses.
    None,
    /// Independent loss with probability `p` (optionally data only).
    Bernoulli {
        /// Loss probability.
        p: f64,
        /// Only data segments and datagrams are lost; ACKs and burst
        /// signals never are.
        data_only: bool,
        /// The channel's stream.
        rng: Box<SimRng>,
    },
    /// Loses the packets with the listed indices (0-based, counting every
    /// packet that crosses the channel).
    Packets {
        /// Sorted indices.
        indices: Vec<u64>,
        /// Index of the next packet.
        count: u64,
        /// Position of the next index to drop in `indices`.
        next: usize,
    },
    /// Loses listed segments of one flow (first transmissions only unless
    /// `retransmissions`).
    Segments {
        /// Flow.
        flow: FlowId,
        /// Sorted segment numbers.
        seqs: Vec<u64>,
        /// Drop retransmissions too.
        retransmissions: bool,
    },
}

impl LossModel {
    /// Builds the model described by `spec`; `rng` is the channel's stream.
    pub fn new(spec: &LossSpec, rng: SimRng) -> Self {
        match spec {
            LossSpec::None => LossModel::None,
            LossSpec::Bernoulli { p, data_only } => LossModel::Bernoulli {
                p: *p,
                data_only: *data_only,
                rng: Box::new(rng),
            },
            LossSpec::Packets { indices } => {
                let mut indices = indices.clone();
                indices.sort_unstable();
                indices.dedup();
                LossModel::Packets {
                    indices,
                    count: 0,
                    next: 0,
                }
            }
            LossSpec::Segments {
                flow,
                seqs,
                retransmissions,
            } => {
                let mut seqs = seqs.clone();
                seqs.sort_unstable();
                seqs.dedup();
                LossModel::Segments {
                    flow: *flow,
                    seqs,
                    retransmissions: *retransmissions,
                }
            }
        }
    }

    /// Decides whether `pkt` is lost.
    #[inline]
    pub fn lose(&mut self, pkt: &Packet) -> bool {
        match self {
            LossModel::None => false,
            LossModel::Bernoulli { p, data_only, rng } => {
                if *data_only && !pkt.is_data() && pkt.datagram_source().is_none() {
                    return false;
                }
                uniform01(rng) < *p
            }
            LossModel::Packets {
                indices,
                count,
                next,
            } => {
                let i = *count;
                *count += 1;
                if indices.get(*next) == Some(&i) {
                    *next += 1;
                    true
                } else {
                    false
                }
            }
            LossModel::Segments {
                flow,
                seqs,
                retransmissions,
            } => match pkt.payload {
                // The SYN (`tcp.syn`) is not a data segment of the list.
                Payload::Data(seg) if pkt.flow == *flow && !seg.syn => {
                    (*retransmissions || !seg.retransmit) && seqs.binary_search(&seg.seq).is_ok()
                }
                _ => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::test_data;
    use crate::rng::stream;

    fn data(flow: u32, seq: u64, retransmit: bool) -> Packet {
        let mut p = test_data(flow, seq);
        if let Payload::Data(s) = &mut p.payload {
            s.retransmit = retransmit;
        }
        p
    }

    #[test]
    fn bernoulli_rate_is_close_to_p() {
        let mut m = LossModel::new(
            &LossSpec::Bernoulli {
                p: 0.01,
                data_only: false,
            },
            stream(3, "t"),
        );
        let n = 200_000;
        let lost = (0..n).filter(|&i| m.lose(&data(0, i, false))).count();
        let rate = lost as f64 / n as f64;
        // 5 standard deviations of a binomial(200000, 0.01).
        assert!(
            (rate - 0.01).abs() < 5.0 * (0.01 * 0.99 / n as f64).sqrt(),
            "rate {rate}"
        );
    }

    #[test]
    fn data_only_spares_acks_and_signals_but_not_datagrams() {
        let mut m = LossModel::new(
            &LossSpec::Bernoulli {
                p: 1.0,
                data_only: true,
            },
            stream(3, "t"),
        );
        let mut ack = data(0, 0, false);
        ack.payload = Payload::Ack(crate::tcp::Ack::default());
        let mut dgram = data(0, 0, false);
        dgram.payload = Payload::Datagram(crate::net::Datagram { source: 0, seq: 0 });
        assert!(!m.lose(&ack));
        let mut sig = data(0, 0, false);
        sig.payload = Payload::Signal(crate::tcp::signal::BurstSignal {
            kind: crate::tcp::signal::SignalKind::Nak,
            burst: 0,
            lo: 0,
            hi: 0,
            count: 1,
        });
        assert!(!m.lose(&sig));
        assert!(m.lose(&dgram));
        assert!(m.lose(&data(0, 1, false)));
    }

    #[test]
    fn packet_list_drops_exactly_those() {
        let mut m = LossModel::new(
            &LossSpec::Packets {
                indices: vec![3, 1, 3],
            },
            stream(1, "t"),
        );
        let lost: Vec<u64> = (0..6).filter(|&i| m.lose(&data(0, i, false))).collect();
        assert_eq!(lost, vec![1, 3]);
    }

    #[test]
    fn segment_list_spares_other_flows_and_retransmissions() {
        let spec = LossSpec::Segments {
            flow: FlowId(1),
            seqs: vec![5],
            retransmissions: false,
        };
        let mut m = LossModel::new(&spec, stream(1, "t"));
        assert!(!m.lose(&data(0, 5, false)));
        assert!(m.lose(&data(1, 5, false)));
        assert!(!m.lose(&data(1, 5, true)));
        assert!(!m.lose(&data(1, 6, false)));
    }
}
