//! Channel scheduling at the output ports of an OBS core node: which data
//! channel (wavelength) of an output fibre carries a burst over `[start, end)`,
//! or whether the burst is dropped (the core is bufferless).
//!
//! A burst control packet (BCP) reaches a node ahead of its burst by the
//! *residual offset* (the JET offset of Qiao and Yoo 1999, less the per-hop
//! processing Δ already spent upstream). The node then reserves, on one output
//! channel, exactly the interval the burst will occupy (JET: delayed
//! reservation, explicit release), so requests arrive out of order in `start`
//! whenever residual offsets differ, and idle *voids* open between
//! reservations (gurel2008 §1, §4; Dolzer et al. 2001).
//!
//! | scheduler | state per channel | rule | source |
//! |---|---|---|---|
//! | [`Horizon`] | horizon (latest reserved end) | latest horizon `<= start` | Turner 1999 |
//! | [`Lauc`] | horizon | the same rule, named after Xiong et al. | Xiong, Vandenhoute, Cankaya 2000 |
//! | [`LaucVf`] | sorted reservations | smallest gap before `start`, voids included | Xiong, Vandenhoute, Cankaya 2000 |
//! | [`FfucVf`] | sorted reservations | lowest-index channel where it fits, voids included | first-fit baseline |
//!
//! The module is I/O free: the engine owns one [`PortSchedule`] per output
//! fibre, calls [`ChannelScheduler::reserve`] when a BCP is processed, and
//! decides about wavelength conversion ([`ChannelSet`], [`ConverterPool`]).
//! Every choice is recorded in `docs/MODEL.md`, "Optical core: channel
//! scheduling".

mod converter;
mod edge_queue;
mod ffuc_vf;
mod horizon;
mod lauc;
mod lauc_vf;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use crate::time::{SimDuration, SimTime};

pub use converter::ConverterPool;
pub use edge_queue::queue_reserve;
pub use ffuc_vf::FfucVf;
pub use horizon::Horizon;
pub use lauc::Lauc;
pub use lauc_vf::LaucVf;

/// One reservation of a data channel: the burst holds the channel over the
/// half-open interval `[start, end)` (JET, Qiao and Yoo 1999: the channel is
/// reserved from the burst's first bit to its last, guard time included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reservation {
    /// First instant the channel is held.
    pub start: SimTime,
    /// First instant the channel is free again.
    pub end: SimTime,
}

/// Counters of one data channel, for channel utilisation and for comparing
/// schedulers (Horizon and LAUC: Turner 1999, Xiong et al. 2000; void
/// filling: Xiong et al. 2000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelStats {
    /// Reservations made on the channel.
    pub reservations: u64,
    /// Sum of the reserved lengths (`end - start`). Counted when the
    /// reservation is made, so it can include time that is still in the
    /// future; utilisation over a run is `busy / run length`.
    pub busy: SimDuration,
    /// Reservations placed in a void, that is, ending no later than the
    /// channel's horizon at the time they were made (only void-filling
    /// schedulers do this).
    pub voids_filled: u64,
}

/// The channels a burst may use, as decided by the engine from the node's
/// wavelength conversion (gonzalez2009 §4 runs full, partial and no
/// conversion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelSet {
    /// Any channel: full conversion, or partial conversion with a free
    /// converter ([`ConverterPool`]).
    All,
    /// Only this channel: no conversion (the burst stays on its incoming
    /// wavelength), or partial conversion with every converter busy. An
    /// index `>= W` allows no channel (the burst is refused).
    Only(u16),
}

/// One BCP's request to an output port (JET, Qiao and Yoo 1999): the burst
/// will hold a channel over `[start, end)`, its BCP is processed at `now`,
/// and it may use the channels in `allowed` (the conversion policy's
/// choice). Every channel scheduler decides on these four facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// When the BCP is processed; never after `start` and never decreasing
    /// between requests to one port.
    pub now: SimTime,
    /// First instant the burst needs the channel.
    pub start: SimTime,
    /// First instant the channel is free again.
    pub end: SimTime,
    /// The channels the burst may use.
    pub allowed: ChannelSet,
}

impl Request {
    /// The request for `[start, end)` on a channel in `allowed`, processed
    /// at `now`.
    #[inline]
    pub const fn new(now: SimTime, start: SimTime, end: SimTime, allowed: ChannelSet) -> Self {
        Request {
            now,
            start,
            end,
            allowed,
        }
    }

    /// Debug checks: JET never reserves in the past, and a burst has a
    /// positive length.
    #[inline]
    fn check(&self) {
        let Request {
            now, start, end, ..
        } = *self;
        debug_assert!(
            start >= now,
            "reservation starts before now: {start:?} < {now:?}"
        );
        debug_assert!(
            start < end,
            "empty or reversed reservation: [{start:?}, {end:?})"
        );
    }
}

/// One data channel of a port.
#[derive(Clone, Debug, Default)]
struct Channel {
    /// End of the latest reservation pruned from `list` (the start of the
    /// void before the first reservation still listed). Keeps void-filling
    /// decisions independent of when pruning happens.
    pruned_end: SimTime,
    /// Reservations ending after the last pruning time, sorted by start and
    /// disjoint (so sorted by end too). Empty unless the port tracks voids.
    list: VecDeque<Reservation>,
    stats: ChannelStats,
}

/// One output fibre port: W data channels (wavelengths) and their
/// reservations.
///
/// Every port keeps the horizon of each channel (all Horizon and LAUC need,
/// Turner 1999; Xiong et al. 2000). A port built with `voids = true` also keeps
/// each channel's reservations in a sorted ring buffer searched by bisection,
/// as LAUC-VF and FFUC-VF need. A channel's reservations that end at or
/// before the `now` of a call are pruned in place when its list is next
/// searched or appended to, so a port in steady state does not allocate. All scheduler kinds can share a void-tracking port; a
/// void-filling scheduler on a port without voids panics.
#[derive(Clone, Debug)]
pub struct PortSchedule {
    /// Latest end of any reservation ever made, per channel (Turner's
    /// "horizon"). Kept apart from `channels` so that the Horizon/LAUC scan
    /// and LAUC-VF's fast path read one contiguous array.
    horizons: Vec<SimTime>,
    channels: Vec<Channel>,
    voids: bool,
    accepted: u64,
    dropped: u64,
}

/// Where a burst fits on one channel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fit {
    /// End of the reservation before the burst (the start of the void or of
    /// the unscheduled gap it goes into).
    pub(crate) void_start: SimTime,
    /// Index in the channel's list where the reservation goes; `None`:
    /// after the last one.
    pub(crate) index: Option<usize>,
}

impl PortSchedule {
    /// A port with `channels` data channels (W), all free. `voids` keeps the
    /// reservation lists needed by void-filling schedulers
    /// ([`SchedulerKind::fills_voids`]).
    pub fn new(channels: u16, voids: bool) -> Self {
        PortSchedule {
            horizons: vec![SimTime::ZERO; usize::from(channels)],
            channels: vec![Channel::default(); usize::from(channels)],
            voids,
            accepted: 0,
            dropped: 0,
        }
    }

    /// Number of data channels W.
    #[inline]
    pub fn channels(&self) -> u16 {
        self.channels.len() as u16
    }

    /// True when the port keeps reservation lists (void filling possible).
    #[inline]
    pub fn tracks_voids(&self) -> bool {
        self.voids
    }

    /// Latest reserved end on `channel` (Turner's horizon).
    #[inline]
    pub fn horizon(&self, channel: u16) -> SimTime {
        self.horizons[usize::from(channel)]
    }

    /// Counters of `channel`.
    #[inline]
    pub fn stats(&self, channel: u16) -> &ChannelStats {
        &self.channels[usize::from(channel)].stats
    }

    /// Bursts accepted on this port (all channels).
    #[inline]
    pub fn accepted(&self) -> u64 {
        self.accepted
    }

    /// Bursts refused by this port (no channel).
    #[inline]
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Reservations of `channel` not yet pruned, in time order (empty on a
    /// port without voids).
    pub fn reservations(&self, channel: u16) -> impl Iterator<Item = Reservation> + '_ {
        self.channels[usize::from(channel)].list.iter().copied()
    }

    /// Channels in `allowed`, as an index range (empty if out of range).
    #[inline]
    pub(crate) fn range(&self, allowed: ChannelSet) -> std::ops::Range<u16> {
        let w = self.channels();
        match allowed {
            ChannelSet::All => 0..w,
            ChannelSet::Only(c) if c < w => c..c + 1,
            ChannelSet::Only(_) => 0..0,
        }
    }

    /// The Horizon / LAUC choice (Turner 1999; Xiong et al. 2000): among the
    /// allowed channels whose horizon is `<= start`, the one with the latest
    /// horizon; ties go to the lowest index. Read-only.
    pub fn latest_available(&self, start: SimTime, allowed: ChannelSet) -> Option<u16> {
        let r = self.range(allowed);
        let hs = &self.horizons[usize::from(r.start)..usize::from(r.end)];
        // Two passes that the compiler can vectorise: the latest available
        // horizon (a max reduction), then the first channel that has it.
        let best = hs.iter().filter(|&&h| h <= start).max().copied()?;
        let i = hs.iter().position(|&h| h == best)?;
        Some(r.start + i as u16)
    }

    /// Drops the reservations of `channel` that end at or before `now`.
    #[inline]
    pub(crate) fn prune(&mut self, channel: u16, now: SimTime) {
        let ch = &mut self.channels[usize::from(channel)];
        while let Some(r) = ch.list.front() {
            if r.end > now {
                break;
            }
            ch.pruned_end = r.end;
            ch.list.pop_front();
        }
    }

    /// Where `[start, end)` fits on `channel`, voids included, or `None`.
    /// Needs a void-tracking port. Prunes the channel up to `now` only when
    /// it has to search its list.
    #[inline]
    pub(crate) fn fit(
        &mut self,
        channel: u16,
        now: SimTime,
        start: SimTime,
        end: SimTime,
    ) -> Option<Fit> {
        let h = self.horizons[usize::from(channel)];
        if h <= start {
            // Fast path: after every reservation; the list is not touched.
            return Some(Fit {
                void_start: h,
                index: None,
            });
        }
        self.prune(channel, now);
        let ch = &self.channels[usize::from(channel)];
        // First reservation that ends after `start`: the burst must end
        // before it starts. Lists are disjoint, so ends are sorted.
        let i = ch.list.partition_point(|r| r.end <= start);
        if ch.list.get(i).is_some_and(|r| r.start < end) {
            return None;
        }
        let void_start = if i == 0 {
            ch.pruned_end
        } else {
            ch.list[i - 1].end
        };
        Some(Fit {
            void_start,
            index: Some(i),
        })
    }

    /// Records `[start, end)` on `channel` and returns `channel`. On a
    /// void-tracking port the reservation goes at list position `index`
    /// (`None`: at the end, after pruning up to `now`).
    #[inline]
    pub(crate) fn commit(
        &mut self,
        channel: u16,
        now: SimTime,
        index: Option<usize>,
        start: SimTime,
        end: SimTime,
    ) -> u16 {
        if self.voids {
            let r = Reservation { start, end };
            if let Some(i) = index {
                self.channels[usize::from(channel)].list.insert(i, r);
            } else {
                self.prune(channel, now);
                self.channels[usize::from(channel)].list.push_back(r);
            }
        }
        let ch = &mut self.channels[usize::from(channel)];
        let h = &mut self.horizons[usize::from(channel)];
        if end <= *h {
            ch.stats.voids_filled += 1;
        } else {
            *h = end;
        }
        ch.stats.reservations += 1;
        ch.stats.busy += end - start;
        self.accepted += 1;
        channel
    }

    /// Counts a refused burst and returns `None`.
    #[inline]
    pub(crate) fn refuse(&mut self) -> Option<u16> {
        self.dropped += 1;
        None
    }

    /// The shared code of Horizon and LAUC: latest available channel by
    /// horizon, never a void.
    pub(crate) fn reserve_by_horizon(&mut self, request: Request) -> Option<u16> {
        request.check();
        match self.latest_available(request.start, request.allowed) {
            Some(c) => Some(self.commit(c, request.now, None, request.start, request.end)),
            None => self.refuse(),
        }
    }
}

/// The checks of a void-filling scheduler (`name`) on a request: those of
/// [`Request::check`], and that `port` tracks voids (it panics otherwise).
#[inline]
fn check_void_filling(port: &PortSchedule, request: &Request, name: &str) {
    request.check();
    assert!(
        port.tracks_voids(),
        "{name} needs a port built with voids = true"
    );
}

/// A channel scheduling algorithm (one per core node, or per port).
pub trait ChannelScheduler {
    /// Try to reserve `[start, end)` on some channel of `port` among
    /// `allowed`. Returns the channel, or `None` when none is free (the burst
    /// is dropped). `now` is the time the BCP is processed; the caller
    /// guarantees `now <= start` and that `now` never decreases between
    /// calls on one port. Reservations ending at or before `now` are pruned.
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16>;
}

/// A boxed scheduler schedules as the one inside (for `Box<dyn
/// ChannelScheduler>`).
impl<S: ChannelScheduler + ?Sized> ChannelScheduler for Box<S> {
    #[inline]
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        (**self).reserve(port, request)
    }
}

/// The channel schedulers, for configuration and for static dispatch (a
/// `match`, no virtual call) in the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerKind {
    /// [`Horizon`] (Turner 1999).
    #[default]
    Horizon,
    /// [`Lauc`] (Xiong, Vandenhoute, Cankaya 2000).
    Lauc,
    /// [`LaucVf`] (Xiong, Vandenhoute, Cankaya 2000).
    LaucVf,
    /// [`FfucVf`] (first fit with void filling).
    FfucVf,
}

impl SchedulerKind {
    /// Every kind, in declaration order.
    pub const ALL: [SchedulerKind; 4] = [
        SchedulerKind::Horizon,
        SchedulerKind::Lauc,
        SchedulerKind::LaucVf,
        SchedulerKind::FfucVf,
    ];

    /// True for the schedulers that fill voids and need reservation lists.
    pub const fn fills_voids(self) -> bool {
        matches!(self, SchedulerKind::LaucVf | SchedulerKind::FfucVf)
    }

    /// An empty port with `channels` channels, with the state this kind
    /// needs.
    pub fn port(self, channels: u16) -> PortSchedule {
        PortSchedule::new(channels, self.fills_voids())
    }

    /// Short name, as used in scenario files and reports.
    pub const fn name(self) -> &'static str {
        match self {
            SchedulerKind::Horizon => "horizon",
            SchedulerKind::Lauc => "lauc",
            SchedulerKind::LaucVf => "lauc-vf",
            SchedulerKind::FfucVf => "ffuc-vf",
        }
    }
}

impl ChannelScheduler for SchedulerKind {
    #[inline]
    fn reserve(&mut self, port: &mut PortSchedule, request: Request) -> Option<u16> {
        match self {
            SchedulerKind::Horizon => Horizon.reserve(port, request),
            SchedulerKind::Lauc => Lauc.reserve(port, request),
            SchedulerKind::LaucVf => LaucVf.reserve(port, request),
            SchedulerKind::FfucVf => FfucVf.reserve(port, request),
        }
    }
}
