//! The bufferless optical switch: per output fibre its wavelength
//! reservations ([`OpticalPort`]), per node the BCP processing time Δ, the
//! channel scheduler, the wavelength-conversion policy and its converters
//! ([`Switch`]).
//!
//! A burst control packet (BCP) processed at a node reserves the outgoing
//! wavelength over exactly the burst's passage (JET, Qiao and Yoo 1999:
//! delayed reservation, immediate release); with no wavelength free the
//! burst is dropped at that node (the core has no buffers, gurel2008 §1).
//! The ingress edge reserves its first link through its electronic burst
//! queue ([`queue_reserve`]) or, with `edge_queue = "none"`, like a core
//! node at the offset time.
//!
//! I/O free: the engine hands in the output port and the times, and gets
//! back the wavelength or a refusal.

use crate::config::scenario::{Conversion, ConverterSharing, EdgeQueue, NodeKind, SwitchSpec};
use crate::metrics::aggregate::{BinCounter, Moments};
use crate::obs::loss::BurstLossModel;
use crate::obs::scheduler::{
    queue_reserve, ChannelScheduler, ChannelSet, ConverterPool, PortSchedule, Request,
    SchedulerKind,
};
use crate::time::{SimDuration, SimTime};

/// The optical side of one output fibre (one direction of an optical link):
/// its W wavelengths and their reservations, the converters of the port
/// (partial conversion shared per port), the burst loss model of the
/// fibre, and its counters.
#[derive(Clone, Debug)]
pub struct OpticalPort {
    /// Reservations of the W wavelengths.
    pub schedule: PortSchedule,
    /// Converters shared by this port (`converter_sharing = "port"`).
    pool: Option<ConverterPool>,
    /// Burst loss model of the fibre (`burst_loss`), if any.
    pub burst_loss: Option<BurstLossModel>,
    /// Bytes per bin of bursts reaching the far end
    /// (`metrics.throughput_bin`).
    pub bins: Option<BinCounter>,
    /// BCPs sent on the fibre.
    pub bcps: u64,
    /// Bursts refused for want of a wavelength.
    pub blocked: u64,
    /// Per-wavelength reserved time at the end of the warm-up.
    busy_at_warmup: Vec<SimDuration>,
}

impl OpticalPort {
    /// The port of a fibre with `wavelengths` W sent by a node with switch
    /// settings `sw`.
    pub fn new(
        sw: &SwitchSpec,
        wavelengths: u16,
        burst_loss: Option<BurstLossModel>,
        bins: Option<BinCounter>,
    ) -> Self {
        Self {
            schedule: sw.scheduler.port(wavelengths),
            pool: (sw.conversion == Conversion::Partial
                && sw.converter_sharing == ConverterSharing::Port)
                .then(|| ConverterPool::new(usize::from(sw.converters))),
            burst_loss,
            bins,
            bcps: 0,
            blocked: 0,
            busy_at_warmup: Vec::new(),
        }
    }

    /// Wavelengths W.
    pub fn wavelengths(&self) -> u16 {
        self.schedule.channels()
    }

    /// Per-wavelength reserved time so far.
    fn busy(&self) -> impl Iterator<Item = SimDuration> + '_ {
        (0..self.schedule.channels()).map(|w| self.schedule.stats(w).busy)
    }

    /// Per-wavelength bursts so far.
    pub fn bursts(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.schedule.channels()).map(|w| self.schedule.stats(w).reservations)
    }

    /// Statistics start now (`simulation.warmup`).
    pub fn on_warmup_end(&mut self) {
        self.busy_at_warmup = self.busy().collect();
    }

    /// Per wavelength, the fraction of `measured` it was reserved after the
    /// warm-up. Time reserved beyond the end of the run is not subtracted
    /// (at most one burst per wavelength).
    pub fn utilisation(&self, measured: SimDuration) -> Vec<f64> {
        let warm = &self.busy_at_warmup;
        self.busy()
            .enumerate()
            .map(|(w, b)| {
                let b0 = warm.get(w).copied().unwrap_or_default();
                if measured > SimDuration::ZERO {
                    (b.as_secs_f64() - b0.as_secs_f64()) / measured.as_secs_f64()
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Mean over the wavelengths of [`OpticalPort::utilisation`].
    pub fn mean_utilisation(&self, measured: SimDuration) -> f64 {
        let u = self.utilisation(measured);
        u.iter().sum::<f64>() / u.len().max(1) as f64
    }

    /// Moments of the bytes-per-bin rate over `[from, to)` (all NaN
    /// without bins).
    pub fn bin_moments(&self, from: SimTime, to: SimTime) -> Moments {
        match &self.bins {
            Some(b) => b.rate_moments(from, to),
            None => Moments::of(std::iter::empty()),
        }
    }
}

/// Counters of one switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwitchCounters {
    /// BCPs processed.
    pub bcps: u64,
    /// Bursts dropped here (no wavelength, or a full edge queue).
    pub dropped: u64,
    /// Wavelength conversions made.
    pub conversions: u64,
    /// Burst signals (BACK, BNAK) sent.
    pub signals: u64,
}

/// The optical switching of one node.
#[derive(Clone, Debug)]
pub struct Switch {
    /// BCP processing time Δ.
    processing: SimDuration,
    scheduler: SchedulerKind,
    conversion: Conversion,
    /// Converters shared by the whole node (`converter_sharing = "node"`).
    pool: Option<ConverterPool>,
    /// At an edge node with a burst queue, the longest a burst may wait in
    /// it (`SimDuration(u64::MAX)`: unlimited); `None`: bufferless.
    edge_queue: Option<SimDuration>,
    /// Counters.
    pub counters: SwitchCounters,
}

impl Switch {
    /// The switch of a node of `kind` with settings `sw`.
    pub fn new(kind: NodeKind, sw: &SwitchSpec) -> Self {
        Self {
            processing: sw.processing,
            scheduler: sw.scheduler,
            conversion: sw.conversion,
            pool: (sw.conversion == Conversion::Partial
                && sw.converter_sharing == ConverterSharing::Node)
                .then(|| ConverterPool::new(usize::from(sw.converters))),
            edge_queue: match (kind, sw.edge_queue) {
                (NodeKind::Edge, EdgeQueue::Unlimited) => Some(SimDuration(u64::MAX)),
                (NodeKind::Edge, EdgeQueue::MaxWait(d)) => Some(d),
                _ => None,
            },
            counters: SwitchCounters::default(),
        }
    }

    /// BCP processing time Δ.
    pub fn processing(&self) -> SimDuration {
        self.processing
    }

    /// Reserves the first link of a burst launched here at `now` on `port`:
    /// it may start at `earliest` (now + offset) and holds a wavelength for
    /// `tx`. Through the electronic burst queue when the node has one, else
    /// bufferless at exactly `earliest`. Returns the wavelength and the
    /// start, or `None`: dropped at the edge.
    pub fn reserve_first(
        &mut self,
        port: &mut OpticalPort,
        now: SimTime,
        earliest: SimTime,
        tx: SimDuration,
    ) -> Option<(u16, SimTime)> {
        match self.edge_queue {
            Some(max_wait) => queue_reserve(&mut port.schedule, now, earliest, tx, Some(max_wait)),
            None => self
                .scheduler
                .reserve(
                    &mut port.schedule,
                    Request::new(now, earliest, earliest + tx, ChannelSet::All),
                )
                .map(|w| (w, earliest)),
        }
    }

    /// Processes at `now` the BCP of a burst that arrives on wavelength `w`
    /// and will pass over `[start, end)`, heading out through `port`
    /// (`None`: an electronic link, refused). The conversion policy
    /// (gonzalez2009 §4): none keeps the burst on `w`; full lets it use any
    /// wavelength; partial lets it change wavelength only with a converter
    /// free at `start` (the port's pool, else the node's), which it then
    /// holds until `end` if it did change. Returns the wavelength reserved,
    /// or `None`: the burst is dropped here.
    pub fn on_bcp(
        &mut self,
        port: Option<&mut OpticalPort>,
        now: SimTime,
        w: u16,
        start: SimTime,
        end: SimTime,
    ) -> Option<u16> {
        self.counters.bcps += 1;
        let port = port?;
        let (allowed, converter) = match self.conversion {
            Conversion::None => (ChannelSet::Only(w), None),
            Conversion::Partial => {
                let pool = port.pool.as_ref().or(self.pool.as_ref());
                match pool.and_then(|p| p.available(start)) {
                    Some(k) => (ChannelSet::All, Some(k)),
                    None => (ChannelSet::Only(w), None),
                }
            }
            Conversion::Full => (ChannelSet::All, None),
        };
        let c = self
            .scheduler
            .reserve(&mut port.schedule, Request::new(now, start, end, allowed))?;
        if let (Some(k), true) = (converter, c != w) {
            self.counters.conversions += 1;
            match port.pool.as_mut() {
                Some(p) => p.commit(k, end),
                None => {
                    if let Some(p) = self.pool.as_mut() {
                        p.commit(k, end);
                    }
                }
            }
        }
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(us: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_micros(us)
    }

    fn spec(conversion: Conversion, converters: u16, sharing: ConverterSharing) -> SwitchSpec {
        SwitchSpec {
            scheduler: SchedulerKind::Horizon,
            conversion,
            converters,
            converter_sharing: sharing,
            ..SwitchSpec::default()
        }
    }

    /// A core switch and a 2-wavelength output port where wavelength 0 is
    /// busy over [0, 100) µs.
    fn busy_zero(sw: &SwitchSpec) -> (Switch, OpticalPort) {
        let mut port = OpticalPort::new(sw, 2, None, None);
        port.schedule.commit(0, t(0), None, t(0), t(100));
        (Switch::new(NodeKind::Core, sw), port)
    }

    #[test]
    fn without_conversion_a_burst_keeps_its_wavelength_or_is_dropped() {
        let sw = spec(Conversion::None, 0, ConverterSharing::Node);
        let (mut s, mut port) = busy_zero(&sw);
        assert_eq!(s.on_bcp(Some(&mut port), t(0), 0, t(10), t(20)), None);
        assert_eq!(s.on_bcp(Some(&mut port), t(0), 1, t(10), t(20)), Some(1));
        assert_eq!(s.counters.bcps, 2);
        assert_eq!(s.counters.conversions, 0);
    }

    #[test]
    fn full_conversion_moves_a_burst_to_a_free_wavelength() {
        let sw = spec(Conversion::Full, 0, ConverterSharing::Node);
        let (mut s, mut port) = busy_zero(&sw);
        assert_eq!(s.on_bcp(Some(&mut port), t(0), 0, t(10), t(20)), Some(1));
        // Full conversion is not counted against converters.
        assert_eq!(s.counters.conversions, 0);
    }

    #[test]
    fn partial_conversion_needs_a_free_converter_and_holds_it() {
        // (incoming wavelength, start, end in µs) -> (reserved, conversions
        // so far), Horizon scheduling, wavelength 0 busy over [0, 100) µs.
        let steps = [
            // Converts 0 -> 1 and holds the only converter until 20 µs.
            ((0, 10, 20), (Some(1), 1)),
            // The converter is busy at 15 µs: only wavelength 0, taken.
            ((0, 15, 30), (None, 1)),
            // Free again at 20 µs: 0 -> 1 (latest horizon, 20 µs).
            ((0, 20, 30), (Some(1), 2)),
            // Staying on a free wavelength needs no converter (busy until
            // 30 µs) and counts no conversion.
            ((2, 25, 40), (Some(2), 2)),
        ];
        for sharing in [ConverterSharing::Node, ConverterSharing::Port] {
            let sw = spec(Conversion::Partial, 1, sharing);
            let mut port = OpticalPort::new(&sw, 3, None, None);
            port.schedule.commit(0, t(0), None, t(0), t(100));
            let mut s = Switch::new(NodeKind::Core, &sw);
            for ((w, start, end), want) in steps {
                let got = s.on_bcp(Some(&mut port), t(0), w, t(start), t(end));
                assert_eq!(
                    (got, s.counters.conversions),
                    want,
                    "{sharing:?} at {start}"
                );
            }
        }
    }

    #[test]
    fn an_electronic_next_link_refuses_the_burst() {
        let sw = spec(Conversion::Full, 0, ConverterSharing::Node);
        let mut s = Switch::new(NodeKind::Core, &sw);
        assert_eq!(s.on_bcp(None, t(0), 0, t(10), t(20)), None);
        assert_eq!(s.counters.bcps, 1);
    }

    #[test]
    fn the_first_link_queues_at_an_edge_and_not_at_a_bufferless_one() {
        let queued = SwitchSpec::default();
        let mut edge = Switch::new(NodeKind::Edge, &queued);
        let mut port = OpticalPort::new(&queued, 1, None, None);
        let tx = SimDuration::from_micros(100);
        assert_eq!(
            edge.reserve_first(&mut port, t(0), t(0), tx),
            Some((0, t(0)))
        );
        assert_eq!(
            edge.reserve_first(&mut port, t(0), t(0), tx),
            Some((0, t(100)))
        );
        let none = SwitchSpec {
            edge_queue: EdgeQueue::None,
            ..SwitchSpec::default()
        };
        let mut bufferless = Switch::new(NodeKind::Edge, &none);
        let mut port = OpticalPort::new(&none, 1, None, None);
        assert_eq!(
            bufferless.reserve_first(&mut port, t(0), t(0), tx),
            Some((0, t(0)))
        );
        assert_eq!(bufferless.reserve_first(&mut port, t(0), t(0), tx), None);
    }
}
