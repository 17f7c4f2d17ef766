//! Schema of the TCP parameters: profile defaults <- `[tcp]` <- `[flows.tcp]`.
//! Documented key by key in docs/SCENARIOS.md; the profiles are in
//! `tcp/profile.rs`.
//!
//! Every key is declared once, in the [`key_table!`] lists below: its name,
//! how its value is read and the [`TcpConfig`] field it sets. Adding a TCP
//! parameter is one line there, its field in `TcpConfig` (with its value in
//! each profile) and a line in docs/SCENARIOS.md.

use super::fields::{bytes_in, duration, positive_duration, Quantity};
use super::units::SIZE_UNITS;
use super::walk::{boolean, choice, count_in, join, named, u32_in, Errors, Table, Val};
use crate::tcp::config::{
    BackSource, BnakMode, CongestionControl, CubicArithmetic, CubicRtt, Dsack, Frto, FtoDetection,
    HystartDetect, HystartMode, Prr, RecoverCheck, RecoveryExit, RtoEstimator, SackOptionSize,
    SackRecovery, SsthreshBasis, TcpConfig, Timestamps, Variant,
};
use crate::tcp::profile::{profile, PROFILES};
use crate::time::SimDuration;

/// `bnak_mode` when no table sets it (docs/MODEL.md "BACK and BNAK").
pub const DEFAULT_BNAK_MODE: BnakMode = BnakMode::Yu2004;

/// TCP profile when neither `[tcp]` nor `[flows.tcp]` names one.
pub const DEFAULT_PROFILE: &str = "rfc";

key_table! {
    /// What one `[tcp]` or `[flows.tcp]` table sets.
    struct TcpKeys for TcpConfig, keys TCP_KEYS;
    profile: &'static str = |v| choice(v, PROFILES);
    variant: Variant = variant_name => variant;
    congestion_control: CongestionControl =
        |v| named(v, &CongestionControl::ALL) => congestion_control;
    mss: u32 = |v| bytes_in(v, &SEG_SIZE, 1, 65535) => mss;
    header: u32 = |v| bytes_in(v, &HDR_SIZE, 0, 65535) => header;
    max_window: u32 = segments => max_window;
    rwnd: u32 = segments => rwnd;
    initial_cwnd: u32 = segments => initial_cwnd;
    initial_ssthresh: u32 = ssthresh => initial_ssthresh;
    dupack_threshold: u32 = segments => dupack_threshold;
    ssthresh_basis: SsthreshBasis = |v| named(v, &SsthreshBasis::ALL) => ssthresh_basis;
    delayed_ack: bool = boolean => delayed_ack;
    delack_timeout: SimDuration = positive_duration => delack_timeout;
    delack_last_duplicate: bool = boolean => delack_last_duplicate;
    pad_last_segment: bool = boolean => pad_last_segment;
    sack_blocks: u8 = |v| u32_in(v, 1, 4).map(|n| n as u8) => sack_blocks;
    sack_recovery: SackRecovery = |v| named(v, &SackRecovery::ALL) => sack_recovery;
    sack_option_size: SackOptionSize = |v| named(v, &SackOptionSize::ALL) => sack_option_size;
    abc: bool = boolean => abc;
    limited_transmit: bool = boolean => limited_transmit;
    reno_recover_check: bool = boolean => reno_recover_check;
    newreno_timer: bool = |v| named(v, &NEWRENO_TIMERS) => newreno_slow_but_steady;
    partial_window_deflation: bool = boolean => partial_window_deflation;
    precision_reduce: bool = boolean => precision_reduce;
    recovery_exit: RecoveryExit = |v| named(v, &RecoveryExit::ALL) => recovery_exit;
    prr: Prr = |v| named(v, &Prr::ALL) => prr;
    limited_transmit_any_state: bool = boolean => limited_transmit_any_state;
    recovery_max_burst: u32 = |v| u32_in(v, 0, u32::MAX) => recovery_max_burst;
    recover_check: RecoverCheck = |v| named(v, &RecoverCheck::ALL) => recover_check;
    syn: bool = boolean => syn;
    bugfix_ss: bool = boolean => bugfix_ss;
    rack: bool = boolean => rack_tlp.rack;
    tlp: bool = boolean => rack_tlp.tlp;
    tlp_max_ack_delay: SimDuration = duration => rack_tlp.tlp_max_ack_delay;
    fto_detection: FtoMethod = |v| named(v, &FtoMethod::ALL);
    back_source: BackSource = |v| named(v, &BackSource::ALL);
    bnak_mode: BnakMode = |v| named(v, &BnakMode::ALL);
    max_consecutive_fto: u32 = |v| u32_in(v, 0, u32::MAX);
    frto: Frto = |v| named(v, &Frto::ALL) => frto;
    timestamps: Timestamps = |v| named(v, &Timestamps::ALL) => timestamps;
    dsack: Dsack = |v| named(v, &Dsack::ALL) => dsack;
    cwnd_limited_growth: bool = boolean => cwnd_limited_growth;
    ack_on_push: bool = boolean => ack_on_push;
    hz: u32 = kernel_hz => hz;
    [rto]: RtoKeys;
    [cubic]: CubicKeys;
    [small_queues]: SmallQueuesKeys;
    [pacing]: PacingKeys;
    [rcvbuf]: RcvBufKeys;
    [gso]: GsoKeys;
    [ato]: AtoKeys;
    [sack_compression]: SackCompressionKeys;
}

key_table! {
    /// What one `[tcp.rto]` or `[flows.tcp.rto]` table sets.
    struct RtoKeys for TcpConfig, keys RTO_KEYS;
    estimator: RtoEstimator = |v| named(v, &RtoEstimator::ALL) => rto.estimator;
    initial: SimDuration = positive_duration => rto.initial;
    min: SimDuration = duration => rto.min;
    max: SimDuration = positive_duration => rto.max;
    granularity: SimDuration = positive_duration => rto.granularity;
    max_backoff: u32 = |v| u32_in(v, 1, u32::MAX) => rto.max_backoff;
    ns2_rfc2988: bool = boolean => rto.ns2_rfc2988;
}

key_table! {
    /// What one `[tcp.cubic]` or `[flows.tcp.cubic]` table sets (RFC 9438
    /// CUBIC, read with `congestion_control = "cubic"`).
    struct CubicKeys for TcpConfig, keys CUBIC_KEYS;
    beta: f64 = cubic_beta => cubic.beta;
    c: f64 = cubic_c => cubic.c;
    fast_convergence: bool = boolean => cubic.fast_convergence;
    reno_friendly: bool = boolean => cubic.reno_friendly;
    reno_friendly_alpha_one: bool = boolean => cubic.reno_friendly_alpha_one;
    target_rtt: CubicRtt = |v| named(v, &CubicRtt::ALL) => cubic.target_rtt;
    initial_min_growth: f64 = growth_fraction => cubic.initial_min_growth;
    hystart: HystartMode = |v| named(v, &HystartMode::ALL) => cubic.hystart;
    hystart_detect: HystartDetect = |v| named(v, &HystartDetect::ALL) => cubic.hystart_detect;
    hystart_low_window: u32 = |v| u32_in(v, 0, u32::MAX) => cubic.hystart_low_window;
    hystart_ack_delta: SimDuration = duration => cubic.hystart_ack_delta;
    arithmetic: CubicArithmetic = |v| named(v, &CubicArithmetic::ALL) => cubic.arithmetic;
}

key_table! {
    /// What one `[tcp.small_queues]` or `[flows.tcp.small_queues]` table
    /// sets (Linux TCP small queues, `tcp/small_queue.rs`).
    struct SmallQueuesKeys for TcpConfig, keys SMALL_QUEUES_KEYS;
    enabled: bool = boolean => small_queues.enabled;
    min_tso_segs: u32 = |v| u32_in(v, 1, 65535) => small_queues.min_tso_segs;
    pacing_shift: u32 = |v| u32_in(v, 0, 31) => small_queues.pacing_shift;
    limit_output_bytes: u32 =
        |v| bytes_in(v, &OUTPUT_LIMIT, 1, u64::from(u32::MAX)) => small_queues.limit_output_bytes;
    gso_max_size: u32 = |v| bytes_in(v, &OUTPUT_LIMIT, 1, 16_777_216) => small_queues.gso_max_size;
    tso_rtt_log: u32 = |v| u32_in(v, 0, 31) => small_queues.tso_rtt_log;
}

key_table! {
    /// What one `[tcp.pacing]` or `[flows.tcp.pacing]` table sets (Linux's
    /// pacing rate and pacing, `tcp/pacing.rs`).
    struct PacingKeys for TcpConfig, keys PACING_KEYS;
    enabled: bool = boolean => pacing.enabled;
    ss_ratio: u32 = |v| u32_in(v, 1, 100_000) => pacing.ss_ratio;
    ca_ratio: u32 = |v| u32_in(v, 1, 100_000) => pacing.ca_ratio;
    unpaced_segments: u32 = |v| u32_in(v, 0, u32::MAX) => pacing.unpaced_segments;
}

key_table! {
    /// What one `[tcp.rcvbuf]` or `[flows.tcp.rcvbuf]` table sets (Linux's
    /// receive-buffer autotuning and quick-ACK mode, `tcp/rcvbuf.rs`).
    struct RcvBufKeys for TcpConfig, keys RCVBUF_KEYS;
    enabled: bool = boolean => rcvbuf.enabled;
    initial: u32 = |v| bytes_in(v, &RCVBUF_SIZE, 1, 1 << 30) => rcvbuf.initial;
    max: u32 = |v| bytes_in(v, &RCVBUF_SIZE, 1, 1 << 30) => rcvbuf.max;
    truesize: u32 = |v| bytes_in(v, &RCVBUF_SIZE, 1, 1 << 20) => rcvbuf.truesize;
    max_quickacks: u32 = |v| u32_in(v, 1, 255) => rcvbuf.max_quickacks;
}

key_table! {
    /// What one `[tcp.gso]` or `[flows.tcp.gso]` table sets (the sender's
    /// GSO packets, `tcp/gso.rs`).
    struct GsoKeys for TcpConfig, keys GSO_KEYS;
    enabled: bool = boolean => gso.enabled;
    defer: bool = boolean => gso.defer;
    tso_win_divisor: u32 = |v| u32_in(v, 1, 255) => gso.tso_win_divisor;
}

key_table! {
    /// What one `[tcp.ato]` or `[flows.tcp.ato]` table sets (Linux's
    /// adaptive delayed-ACK timeout, `tcp/delack.rs`).
    struct AtoKeys for TcpConfig, keys ATO_KEYS;
    enabled: bool = boolean => ato.enabled;
}

key_table! {
    /// What one `[tcp.sack_compression]` or `[flows.tcp.sack_compression]`
    /// table sets (Linux's SACK compression, `tcp/delack.rs`).
    struct SackCompressionKeys for TcpConfig, keys SACK_COMPRESSION_KEYS;
    enabled: bool = boolean => sack_compression.enabled;
    delay: SimDuration = duration => sack_compression.delay;
    nr: u32 = |v| u32_in(v, 0, 255) => sack_compression.nr;
}

/// `hz`: `CONFIG_HZ`, at least 25 (`TCP_ATO_MIN` is HZ/25 jiffies).
fn kernel_hz(v: &Val) -> Result<u32, String> {
    u32_in(v, 25, 10_000).map_err(|e| format!("{e} (Linux's CONFIG_HZ: 100, 250, 300 or 1000)"))
}

const RCVBUF_SIZE: Quantity = Quantity {
    expected: "a size in bytes like \"128 KiB\" or 131072",
    units: SIZE_UNITS,
    unit: "B",
};

/// `variant`: the loss recovery; a window-growth name (`"cubic"`) is
/// pointed to `congestion_control`.
fn variant_name(v: &Val) -> Result<Variant, String> {
    named(v, &Variant::ALL).map_err(|e| match v {
        Val::Str(s) if CongestionControl::ALL.iter().any(|(n, _)| n == s) => {
            format!("{e}; window growth is chosen with congestion_control = \"{s}\"")
        }
        _ => e,
    })
}

/// A finite number (an integer is accepted), or `None`.
fn number(v: &Val) -> Option<f64> {
    match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) if f.is_finite() => Some(*f),
        _ => None,
    }
}

/// `cubic.beta`: β_cubic in (0, 1) (RFC 9438 §4.6 multiplies the window
/// by it; 0 or 1 would leave no window or cut nothing).
fn cubic_beta(v: &Val) -> Result<f64, String> {
    number(v).filter(|b| *b > 0.0 && *b < 1.0).ok_or_else(|| {
        format!(
            "expected a number in (0, 1), exclusive, like 0.7 (RFC 9438 β_cubic), found {}",
            v.describe()
        )
    })
}

/// `cubic.initial_min_growth`: 0 (none) or a fraction of cwnd per RTT in
/// (0, 1].
fn growth_fraction(v: &Val) -> Result<f64, String> {
    number(v)
        .filter(|g| (0.0..=1.0).contains(g))
        .ok_or_else(|| {
            format!(
                "expected a number from 0 to 1 like 0.05 (Linux: 5% per RTT; 0 for none), found {}",
                v.describe()
            )
        })
}

/// `cubic.c`: C > 0 in segments/s³ (RFC 9438 §4.2).
fn cubic_c(v: &Val) -> Result<f64, String> {
    number(v).filter(|c| *c > 0.0).ok_or_else(|| {
        format!(
            "expected a number > 0 like 0.4 (RFC 9438 C, segments/s³), found {}",
            v.describe()
        )
    })
}

const OUTPUT_LIMIT: Quantity = Quantity {
    expected: "a size in bytes like \"1 MiB\" or 1048576",
    units: SIZE_UNITS,
    unit: "B",
};

const SEG_SIZE: Quantity = Quantity {
    expected: "a segment size from 1 B to 65535 B like \"1040 B\"",
    units: SIZE_UNITS,
    unit: "B",
};
const HDR_SIZE: Quantity = Quantity {
    expected: "a header size from 0 B to 65535 B like \"40 B\"",
    units: SIZE_UNITS,
    unit: "B",
};

/// `newreno_timer`: whether NewReno resets the timer on every partial ACK
/// (RFC 6582 §4 "Slow-but-Steady") or only on the first (§3.2 step 5,
/// "Impatient").
const NEWRENO_TIMERS: [(&str, bool); 2] = [("impatient", false), ("slow_but_steady", true)];

/// `initial_ssthresh`: segments, or `"infinite"`.
fn ssthresh(v: &Val) -> Result<u32, String> {
    match v {
        Val::Str(s) if s == "infinite" => Ok(u32::MAX),
        _ => count_in(v, 1, i128::from(u32::MAX), "segments")
            .map(|n| n as u32)
            .map_err(|e| e.replacen(" >= 1", " >= 1, or \"infinite\"", 1)),
    }
}

/// A positive number of segments.
fn segments(v: &Val) -> Result<u32, String> {
    count_in(v, 1, i128::from(u32::MAX), "segments").map(|n| n as u32)
}

/// Burst TCP's false-timeout detection methods by name (`fto_detection`,
/// yu2004 §IV); their parameters are separate keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FtoMethod {
    None,
    Ble,
    Back,
    Bnak,
}

impl FtoMethod {
    const ALL: [(&'static str, FtoMethod); 4] = [
        ("none", FtoMethod::None),
        ("ble", FtoMethod::Ble),
        ("back", FtoMethod::Back),
        ("bnak", FtoMethod::Bnak),
    ];

    /// The method `fto` uses.
    fn of(fto: FtoDetection) -> Self {
        match fto {
            FtoDetection::None => FtoMethod::None,
            FtoDetection::Ble { .. } => FtoMethod::Ble,
            FtoDetection::Back { .. } => FtoMethod::Back,
            FtoDetection::Bnak { .. } => FtoMethod::Bnak,
        }
    }

    /// The detection with these parameters (`source` is read by BACKs
    /// only, `bnak` by BNAKs only).
    fn with(self, source: BackSource, bnak: BnakMode, max_consecutive_fto: u32) -> FtoDetection {
        match self {
            FtoMethod::None => FtoDetection::None,
            FtoMethod::Ble => FtoDetection::Ble {
                max_consecutive_fto,
            },
            FtoMethod::Back => FtoDetection::Back {
                source,
                max_consecutive_fto,
            },
            FtoMethod::Bnak => FtoDetection::Bnak {
                mode: bnak,
                max_consecutive_fto,
            },
        }
    }
}

/// The TCP keys one table sets, and where it is (for messages).
#[derive(Clone, Debug, Default)]
pub(super) struct TcpOverrides {
    path: String,
    keys: TcpKeys,
}

/// Reads one `[tcp]` or `[flows.tcp]` table at `path`.
pub(super) fn parse_tcp(errs: &mut Errors, path: &str, val: &Val) -> TcpOverrides {
    TcpOverrides {
        path: path.to_string(),
        keys: Table::open(errs, path, val, TCP_KEYS)
            .map_or_else(TcpKeys::default, |t| TcpKeys::read(errs, &t)),
    }
}

impl TcpOverrides {
    /// Applies this table's keys over `c` (the profile, or the `[tcp]`
    /// layer under a `[flows.tcp]`).
    fn apply(&self, c: &mut TcpConfig) {
        let k = &self.keys;
        k.set(c);
        // Burst TCP (yu2004 §IV): the detection method, then its parameters
        // (a later table keeps what an earlier one set unless it changes it).
        let limit = k
            .max_consecutive_fto
            .value()
            .or(c.fto.max_consecutive_fto())
            .unwrap_or(crate::tcp::timeout::DEFAULT_MAX_CONSECUTIVE_FTO);
        let source = k.back_source.value().unwrap_or(match c.fto {
            FtoDetection::Back { source, .. } => source,
            _ => BackSource::Both,
        });
        let bnak = k.bnak_mode.value().unwrap_or(match c.fto {
            FtoDetection::Bnak { mode, .. } => mode,
            _ => DEFAULT_BNAK_MODE,
        });
        let method = k.fto_detection.value().unwrap_or(FtoMethod::of(c.fto));
        c.fto = method.with(source, bnak, limit);
    }
}

/// Profile defaults, then `top`, then `group`; `None` if a profile is
/// unknown (already reported). Checks rules that span several keys and
/// reports them at the most specific key that was written.
pub(super) fn resolve_tcp(
    errs: &mut Errors,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<TcpConfig> {
    let name = group
        .and_then(|g| g.keys.profile.value())
        .or(top.keys.profile.value())
        .unwrap_or(DEFAULT_PROFILE);
    let mut c = profile(name)?;
    top.apply(&mut c);
    if let Some(g) = group {
        g.apply(&mut c);
    }
    if c.rto.min > c.rto.max {
        let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
        let path = layers
            .iter()
            .find_map(|o| {
                if o.keys.rto.min.value().is_some() {
                    Some(join(&o.path, "rto.min"))
                } else if o.keys.rto.max.value().is_some() {
                    Some(join(&o.path, "rto.max"))
                } else {
                    None
                }
            })
            .unwrap_or_else(|| join(&layers[0].path, "profile"));
        errs.push(
            path,
            format!(
                "expected rto.min <= rto.max, found rto.min = {} and rto.max = {}",
                c.rto.min, c.rto.max
            ),
        );
        return None;
    }
    if let Some((path, reason)) = rack_tlp_conflict(&c, top, group) {
        errs.push(path, reason);
        return None;
    }
    if let Some((path, reason)) = rcvbuf_conflict(&c, top, group) {
        errs.push(path, reason);
        return None;
    }
    if let Some((path, reason)) = receiver_rtt_conflict(&c, top, group) {
        errs.push(path, reason);
        return None;
    }
    if let Some((path, reason)) = cubic_arithmetic_conflict(&c, top, group) {
        errs.push(path, reason);
        return None;
    }
    Some(c)
}

/// RFC 9406's HyStart++ (`cubic.hystart = "rfc9406"`) shapes slow start in
/// RFC 9438's real-number window; Linux's integer CUBIC (`cubic.arithmetic =
/// "linux"`) runs Linux's HyStart or none, as the kernel does. The error
/// names the most specific of the two keys written (else `profile`).
fn cubic_arithmetic_conflict(
    c: &TcpConfig,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<(String, String)> {
    if c.congestion_control != CongestionControl::Cubic
        || c.cubic.arithmetic != CubicArithmetic::Linux
        || c.cubic.hystart != HystartMode::Rfc9406
    {
        return None;
    }
    let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
    let path = layers
        .iter()
        .find_map(|o| {
            let key = if o.keys.cubic.hystart.value().is_some() {
                Some("cubic.hystart")
            } else if o.keys.cubic.arithmetic.value().is_some() {
                Some("cubic.arithmetic")
            } else {
                None
            };
            key.map(|k| join(&o.path, k))
        })
        .unwrap_or_else(|| join(&layers[0].path, "profile"));
    Some((
        path,
        "expected cubic.hystart = \"linux\" or \"off\" with cubic.arithmetic = \"linux\" \
         (Linux does not run RFC 9406's HyStart++); for HyStart++ set cubic.arithmetic = \"rfc9438\""
            .to_string(),
    ))
}

/// Linux's receive-buffer model (`[tcp.rcvbuf]`): its buffer starts within
/// its maximum, and a full-sized segment's `truesize` must exceed the MSS
/// (the kernel's `scaling_ratio`, `len << 8 / truesize`, is under 256).
/// The error names the most specific key written (else `profile`).
fn rcvbuf_conflict(
    c: &TcpConfig,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<(String, String)> {
    let r = &c.rcvbuf;
    if !r.enabled {
        return None;
    }
    let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
    let at = |written: &dyn Fn(&TcpOverrides) -> Option<&'static str>| {
        layers
            .iter()
            .find_map(|o| written(o).map(|key| join(&o.path, key)))
            .unwrap_or_else(|| join(&layers[0].path, "profile"))
    };
    if r.initial > r.max {
        let path = at(&|o: &TcpOverrides| {
            if o.keys.rcvbuf.initial.value().is_some() {
                Some("rcvbuf.initial")
            } else if o.keys.rcvbuf.max.value().is_some() {
                Some("rcvbuf.max")
            } else {
                None
            }
        });
        return Some((
            path,
            format!(
                "expected rcvbuf.initial <= rcvbuf.max (tcp_rmem[1] <= tcp_rmem[2]), found {} B and {} B",
                r.initial, r.max
            ),
        ));
    }
    if r.truesize <= c.mss {
        let path = at(&|o: &TcpOverrides| {
            if o.keys.rcvbuf.truesize.value().is_some() {
                Some("rcvbuf.truesize")
            } else if o.keys.mss.value().is_some() {
                Some("mss")
            } else {
                None
            }
        });
        return Some((
            path,
            format!(
                "expected rcvbuf.truesize > mss (a segment's buffer holds its payload and more), \
                 found truesize {} B with mss {} B",
                r.truesize, c.mss
            ),
        ));
    }
    None
}

/// Linux's delayed-ACK timeout and SACK compression (`[tcp.ato]`,
/// `[tcp.sack_compression]`) read the receiver's RTT, SRTT and RTO, which
/// the receive-side model of `[tcp.rcvbuf]` keeps: either needs it on. The
/// error names the `enabled` key written (else `profile`).
fn receiver_rtt_conflict(
    c: &TcpConfig,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<(String, String)> {
    if c.rcvbuf.enabled || !(c.ato.enabled || c.sack_compression.enabled) {
        return None;
    }
    let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
    let path = layers
        .iter()
        .find_map(|o| {
            let key = if o.keys.ato.enabled.value() == Some(true) {
                Some("ato.enabled")
            } else if o.keys.sack_compression.enabled.value() == Some(true) {
                Some("sack_compression.enabled")
            } else if o.keys.rcvbuf.enabled.value().is_some() {
                Some("rcvbuf.enabled")
            } else {
                None
            };
            key.map(|k| join(&o.path, k))
        })
        .unwrap_or_else(|| join(&layers[0].path, "profile"));
    let which = if c.ato.enabled {
        "ato"
    } else {
        "sack_compression"
    };
    Some((
        path,
        format!(
            "expected rcvbuf.enabled = true with {which}.enabled = true (the receiver's RTT, SRTT \
             and RTO come from Linux's receive-side model, [tcp.rcvbuf]); without it, set \
             ato.enabled = false and sack_compression.enabled = false too"
        ),
    ))
}

/// RACK-TLP (RFC 8985) reads per-segment SACK state: it is valid only with
/// the RFC 6675 SACK recovery. The error names the most specific `rack` or
/// `tlp` key written (else `variant` or `sack_recovery`, else `profile`).
fn rack_tlp_conflict(
    c: &TcpConfig,
    top: &TcpOverrides,
    group: Option<&TcpOverrides>,
) -> Option<(String, String)> {
    let on = c.rack_tlp.rack || c.rack_tlp.tlp;
    if !on || (c.variant == Variant::Sack && c.sack_recovery == SackRecovery::Rfc6675) {
        return None;
    }
    let layers: Vec<&TcpOverrides> = group.into_iter().chain(std::iter::once(top)).collect();
    let written = |o: &TcpOverrides| -> Option<&'static str> {
        let k = &o.keys;
        if k.rack.value() == Some(true) {
            Some("rack")
        } else if k.tlp.value() == Some(true) {
            Some("tlp")
        } else if k.variant.value().is_some() {
            Some("variant")
        } else if k.sack_recovery.value().is_some() {
            Some("sack_recovery")
        } else {
            None
        }
    };
    let path = layers
        .iter()
        .find_map(|o| written(o).map(|key| join(&o.path, key)))
        .unwrap_or_else(|| join(&layers[0].path, "profile"));
    let recovery = SackRecovery::ALL
        .iter()
        .find(|(_, r)| *r == c.sack_recovery)
        .map_or("", |(n, _)| n);
    Some((
        path,
        format!(
            "expected variant = \"sack\" with sack_recovery = \"rfc6675\" for rack or tlp \
             (RFC 8985 reads the RFC 6675 SACK scoreboard), found variant = \"{}\"{}",
            c.variant.name(),
            if c.variant == Variant::Sack {
                format!(" with sack_recovery = \"{recovery}\"")
            } else {
                String::new()
            }
        ),
    ))
}
