//! Resolved TCP parameters of one flow. The scenario schema (`config`) fills
//! these from TOML; `docs/MODEL.md` lists every default and its origin.

use serde::Serialize;

use crate::time::SimDuration;

/// Which loss-recovery algorithm the sender runs. All share the RFC 5681
/// slow-start / congestion-avoidance window growth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Fast retransmit without fast recovery: slow start after every loss.
    Tahoe,
    /// RFC 5681 fast retransmit and fast recovery.
    Reno,
    /// RFC 6582 `NewReno`: stays in recovery across partial ACKs.
    NewReno,
    /// RFC 2018 SACK blocks with RFC 6675 scoreboard and pipe.
    Sack,
}

impl Variant {
    /// Every variant with its name in scenarios (`tcp.variant`) and results
    /// (`flows.variant`), in the order error messages list them.
    pub const ALL: [(&'static str, Variant); 4] = [
        ("tahoe", Variant::Tahoe),
        ("reno", Variant::Reno),
        ("newreno", Variant::NewReno),
        ("sack", Variant::Sack),
    ];

    /// The variant's name, as in [`Variant::ALL`].
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }
}

/// The window-growth rule (`tcp.congestion_control`, Linux's
/// `net.ipv4.tcp_congestion_control` names), independent of the
/// loss-recovery [`Variant`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CongestionControl {
    /// RFC 5681 §3.1 slow start and congestion avoidance, ssthresh per eq.
    /// (4) (`tcp/cc/rfc5681.rs`): every profile's.
    Reno,
    /// RFC 9438 CUBIC (`tcp/cc/cubic.rs`), parameters in [`CubicConfig`].
    Cubic,
}

impl CongestionControl {
    /// Every rule with its name in scenarios (`tcp.congestion_control`).
    pub const ALL: [(&'static str, CongestionControl); 2] = [
        ("reno", CongestionControl::Reno),
        ("cubic", CongestionControl::Cubic),
    ];

    /// The rule's name, as in [`CongestionControl::ALL`].
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }

    /// True for [`CongestionControl::Reno`] (left out of the resolved
    /// scenario, which then reads as before the key existed).
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if signature
    pub fn is_reno(&self) -> bool {
        *self == CongestionControl::Reno
    }
}

/// Which RTT CUBIC adds to `t` for its target `W_cubic(t + RTT)`
/// (`tcp.cubic.target_rtt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubicRtt {
    /// RFC 9438 §4.2 and §4.1.2: "RTT: Smoothed round-trip time in
    /// seconds, calculated as described in [RFC6298]".
    Srtt,
    /// Linux tcp_cubic.c `bictcp_update`: `t += delay_min`, the smallest
    /// RTT sample of the connection.
    MinRtt,
}

impl CubicRtt {
    /// Every choice with its name in scenarios (`tcp.cubic.target_rtt`).
    pub const ALL: [(&'static str, CubicRtt); 2] =
        [("srtt", CubicRtt::Srtt), ("min_rtt", CubicRtt::MinRtt)];
}

/// How CUBIC's slow start may end before a loss (`tcp.cubic.hystart`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HystartMode {
    /// Slow start runs to the first loss (RFC 5681).
    Off,
    /// Linux's HyStart (tcp_cubic.c `hystart` 1; Ha and Rhee 2008):
    /// `tcp/cc/hystart.rs`.
    Linux,
    /// RFC 9406 HyStart++ (which RFC 9438 §4.10 recommends; Linux does not
    /// run it): `tcp/cc/hystart_pp.rs`.
    Rfc9406,
}

impl HystartMode {
    /// Every choice with its name in scenarios (`tcp.cubic.hystart`).
    pub const ALL: [(&'static str, HystartMode); 3] = [
        ("off", HystartMode::Off),
        ("linux", HystartMode::Linux),
        ("rfc9406", HystartMode::Rfc9406),
    ];
}

/// Which of HyStart's two tests end slow start (Linux tcp_cubic.c
/// `hystart_detect`: 1 the ACK train, 2 the delay increase, 3 both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HystartDetect {
    /// `HYSTART_ACK_TRAIN` only.
    Train,
    /// `HYSTART_DELAY` only.
    Delay,
    /// Both (Linux's default, 3).
    Both,
}

impl HystartDetect {
    /// Every choice with its name in scenarios (`tcp.cubic.hystart_detect`).
    pub const ALL: [(&'static str, HystartDetect); 3] = [
        ("train", HystartDetect::Train),
        ("delay", HystartDetect::Delay),
        ("both", HystartDetect::Both),
    ];

    /// The ACK-train test is on.
    pub fn train(self) -> bool {
        self != HystartDetect::Delay
    }

    /// The delay test is on.
    pub fn delay(self) -> bool {
        self != HystartDetect::Train
    }
}

/// Which arithmetic CUBIC's window follows (`tcp.cubic.arithmetic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubicArithmetic {
    /// RFC 9438 in real numbers: a fractional cwnd grown by (target −
    /// cwnd)/cwnd per acknowledged segment, ssthresh = β·window
    /// (`tcp/cc/cubic.rs`).
    Rfc9438,
    /// Linux's tcp_cubic.c in its own integer arithmetic: a whole-segment
    /// cwnd grown through `snd_cwnd_cnt` (`tcp_cong_avoid_ai`), `cnt` from
    /// `bictcp_update` on the jiffies clock (`tcp.hz`), ssthresh = ⌊cwnd ·
    /// 717 / 1024⌋ (`tcp/cc/linux_cubic.rs`).
    Linux,
}

impl CubicArithmetic {
    /// Every choice with its name in scenarios (`tcp.cubic.arithmetic`).
    pub const ALL: [(&'static str, CubicArithmetic); 2] = [
        ("rfc9438", CubicArithmetic::Rfc9438),
        ("linux", CubicArithmetic::Linux),
    ];
}

/// RFC 9438 CUBIC parameters (`[tcp.cubic]`); read only with
/// `congestion_control = "cubic"`. Defaults are the RFC's
/// ([`CubicConfig::RFC9438`]); docs/MODEL.md "CUBIC" lists Linux's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CubicConfig {
    /// β_cubic, the multiplicative window decrease factor (RFC 9438 §4.1.1
    /// and §4.6: 0.7; Linux `beta` 717/1024 = 0.7002). In (0, 1).
    pub beta: f64,
    /// C, the cubic scaling constant in segments/s³ (RFC 9438 §4.1.1: 0.4;
    /// Linux `bic_scale` 41 -> 410/1024 = 0.4004). > 0.
    pub c: f64,
    /// Fast convergence (RFC 9438 §4.7; Linux `fast_convergence` 1): a
    /// congestion event below the previous `W_max` lowers `W_max` to
    /// cwnd·(1 + β)/2.
    pub fast_convergence: bool,
    /// The Reno-friendly region (RFC 9438 §4.3: "SHOULD"; Linux
    /// `tcp_friendliness` 1): cwnd is at least the AIMD estimate `W_est`.
    pub reno_friendly: bool,
    /// α_cubic = 1 once `W_est` reaches `cwnd_prior` (RFC 9438 §4.3: "the
    /// sender SHOULD set α_cubic to 1" once W_est >= cwnd_prior). Linux
    /// 6.18's `tcp_friendliness` keeps `beta_scale`'s α (0.53) throughout:
    /// its `struct bictcp` has no `cwnd_prior` (read from the running
    /// kernel's BTF; the patch "tcp_cubic: fix to match Reno additive
    /// increment", netdev 2024, is not in it). Off in profile `linux`.
    pub reno_friendly_alpha_one: bool,
    /// The RTT of the target `W_cubic(t + RTT)` (RFC 9438 §4.2: SRTT; Linux:
    /// the minimum RTT).
    pub target_rtt: CubicRtt,
    /// The least growth in the first congestion-avoidance stage (before any
    /// fast-recovery event, or after a timeout), as a fraction of cwnd per
    /// round trip: Linux `bictcp_update` caps `cnt` at 20 while
    /// `last_max_cwnd == 0` ("The initial growth of cubic function may be
    /// too conservative when the available bandwidth is still unknown"),
    /// i.e. +1 segment per 20 acknowledged, 5% per RTT. 0 (RFC 9438, no
    /// floor) or in (0, 1]; 0.05 in profile `linux`. After HyStart ends
    /// slow start without a loss this, not the flat curve at `W_max` =
    /// cwnd, sets the pace.
    pub initial_min_growth: f64,
    /// The slow-start exit before a loss: `Linux`'s HyStart (tcp_cubic.c
    /// `hystart` 1; Ha and Rhee 2008: slow start ends, ssthresh = cwnd, when
    /// a round's ACKs keep coming closely spaced for half the minimum RTT,
    /// or when the round's smallest RTT exceeds the minimum by a clamped
    /// eighth; `tcp/cc/hystart.rs`), RFC 9406's HyStart++
    /// (`tcp/cc/hystart_pp.rs`), or `Off`. Off in RFC 9438's defaults and
    /// every profile but `linux`, where it is `Linux`.
    pub hystart: HystartMode,
    /// `hystart_detect` (both; Linux's HyStart only).
    pub hystart_detect: HystartDetect,
    /// `hystart_low_window` (16 segments): no test below this cwnd.
    pub hystart_low_window: u32,
    /// `hystart_ack_delta_us` (2 ms): ACKs this close together continue
    /// a train.
    pub hystart_ack_delta: SimDuration,
    /// RFC 9438's real-number window or Linux's integer arithmetic
    /// (`Linux` in profile `linux`; β and C then enter as Linux's module
    /// parameters `beta` = round(1024·β) and `bic_scale` = round(1024·C/10),
    /// `initial_min_growth` as `cnt` = round(1/growth)).
    pub arithmetic: CubicArithmetic,
}

impl CubicConfig {
    /// RFC 9438's values: β = 0.7, C = 0.4, fast convergence and the
    /// Reno-friendly region on, target one SRTT ahead.
    pub const RFC9438: CubicConfig = CubicConfig {
        beta: 0.7,
        c: 0.4,
        fast_convergence: true,
        reno_friendly: true,
        reno_friendly_alpha_one: true,
        target_rtt: CubicRtt::Srtt,
        initial_min_growth: 0.0,
        hystart: HystartMode::Off,
        hystart_detect: HystartDetect::Both,
        hystart_low_window: 16,
        hystart_ack_delta: SimDuration::from_millis(2),
        arithmetic: CubicArithmetic::Rfc9438,
    };

    /// True for [`CubicConfig::RFC9438`] (left out of the resolved
    /// scenario, which then reads as before the table existed).
    pub fn is_rfc9438(&self) -> bool {
        *self == Self::RFC9438
    }
}

/// How the retransmission timer is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RtoEstimator {
    /// RFC 6298 in nanoseconds: RTO = SRTT + max(G, 4·RTTVAR), clamped to
    /// [min, max].
    Rfc6298,
    /// ns-2's `Agent/TCP` estimator: RTT measured in whole ticks of
    /// `granularity` (`tcpTick_`), integer scaled SRTT/RTTVAR as in tcp.cc.
    Ns2,
    /// Linux (net/ipv4/tcp_input.c `tcp_rtt_estimator`, `__tcp_set_rto`):
    /// RFC 6298's SRTT and RTTVAR, but the minimum bounds the variance
    /// term, not the whole timeout: RTO = SRTT + max(4·RTTVAR, `min`)
    /// (`rttvar_us` is at least `tcp_rto_min_us`, 200 ms), capped at
    /// `max`. So the timeout is never below SRTT + 200 ms. Linux's
    /// per-round maximum of the deviation (`mdev_max_us`) and its slow
    /// decay once per round are not modelled: RTTVAR follows RFC 6298's
    /// EWMA.
    Linux,
}

impl RtoEstimator {
    /// Every estimator with its name in scenarios (`tcp.rto.estimator`).
    pub const ALL: [(&'static str, RtoEstimator); 3] = [
        ("rfc6298", RtoEstimator::Rfc6298),
        ("ns2", RtoEstimator::Ns2),
        ("linux", RtoEstimator::Linux),
    ];
}

/// Which window the timeout and fast-retransmit responses halve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SsthreshBasis {
    /// RFC 5681 §3.1 eq. (4): ssthresh = max(`FlightSize` / 2, 2 SMSS), with
    /// `FlightSize` "the amount of outstanding data in the network": at a
    /// fast retransmit snd_nxt − snd_una less the segments limited transmit
    /// sent (RFC 5681 §3.2 step 2: "additional data sent in limited
    /// transmit MUST NOT be included in this calculation"; RFC 6675 §5
    /// step (4.2) likewise), at a timeout snd_nxt − snd_una less the
    /// segments the receiver has SACKed, which have left the network (after
    /// a lost retransmission in SACK recovery snd_nxt − snd_una is the
    /// whole sequence span the scoreboard covers). obsim's reading; no
    /// stack measured here does exactly this.
    FlightSize,
    /// ns-2 (tcp.cc `slowdown`): ssthresh = max(int(min(cwnd, window_) / 2),
    /// 2); FreeBSD `newreno_cong_signal` and Linux `tcp_reno_ssthresh` also
    /// halve cwnd.
    Cwnd,
    /// RFC 6675 §4 `pipe` (SetPipe: un-SACKed segments not presumed lost,
    /// plus those retransmitted) in place of `FlightSize`, as ns-3's
    /// `TcpNewReno::GetSsThresh(tcb, BytesInFlight())` does; without a SACK
    /// scoreboard it is the `FlightSize` rule above.
    Pipe,
}

impl SsthreshBasis {
    /// Every basis with its name in scenarios (`tcp.ssthresh_basis`).
    pub const ALL: [(&'static str, SsthreshBasis); 3] = [
        ("flight_size", SsthreshBasis::FlightSize),
        ("cwnd", SsthreshBasis::Cwnd),
        ("pipe", SsthreshBasis::Pipe),
    ];
}

/// What the ACK that ends a Reno or `NewReno` fast recovery does to cwnd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryExit {
    /// RFC 5681 §3.2 step 6 / RFC 6582 §3.2 step 6 option (2): "set cwnd to
    /// ssthresh" ("deflating" the window); this ACK opens nothing.
    Deflate,
    /// ns-2 (tcp-reno.cc `RenoTcpAgent::recv`, tcp-newreno.cc
    /// `NewRenoTcpAgent::recv`): `dupwnd_ = 0` and cwnd_ stays what the cut
    /// (and any partial deflation) left, then `recv_newack_helper` →
    /// `opencwnd()` opens it as for any new ACK (+1/cwnd in congestion
    /// avoidance, +1 in slow start).
    Open,
}

impl RecoveryExit {
    /// Every rule with its name in scenarios (`tcp.recovery_exit`).
    pub const ALL: [(&'static str, RecoveryExit); 2] = [
        ("deflate", RecoveryExit::Deflate),
        ("open", RecoveryExit::Open),
    ];
}

/// Proportional Rate Reduction (RFC 6937) during fast recovery
/// (`tcp.prr`): how many segments each ACK in recovery releases. Read by
/// `NewReno` and by RFC 6675 SACK recovery (`recovery/prr.rs`); Tahoe,
/// Reno and ns-2's `Agent/TCP/Sack1` ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Prr {
    /// No PRR: the variant's own recovery window (RFC 5681 §3.2 / RFC 6582
    /// inflation, RFC 6675 §5 cwnd = ssthresh). Every existing profile.
    Off,
    /// PRR with the slow-start reduction bound (RFC 6937 §3 `PRR-SSRB`,
    /// the one RFC 6937 §6 recommends deploying; Linux
    /// `tcp_cwnd_reduction`): once pipe is at or below ssthresh, each ACK
    /// may send what it delivered plus one segment, up to ssthresh.
    Ssrb,
    /// PRR with the conservative reduction bound (RFC 6937 §3 `PRR-CRB`):
    /// once pipe is at or below ssthresh, no more is sent than was
    /// delivered (the strong packet conservation bound, RFC 6937
    /// Appendix A).
    Crb,
}

impl Prr {
    /// Every mode with its name in scenarios (`tcp.prr`).
    pub const ALL: [(&'static str, Prr); 3] =
        [("off", Prr::Off), ("ssrb", Prr::Ssrb), ("crb", Prr::Crb)];
}

/// Forward RTO-Recovery (`tcp.frto`): how the sender tells a spurious
/// retransmission timeout (the segments were delayed, not lost) from a real
/// one, and what it does about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Frto {
    /// Every timeout is taken as a loss (RFC 5681 §3.1, RFC 6298 §5):
    /// ssthresh cut, cwnd = 1, go-back-N. Every profile but `linux`.
    Off,
    /// Linux's F-RTO (`net.ipv4.tcp_frto = 2`, its default;
    /// `tcp_enter_loss` and `tcp_process_loss` in net/ipv4/tcp_input.c):
    /// the SACK-enhanced algorithm of RFC 5682 §3, which Linux runs for
    /// SACK and non-SACK connections alike. After a timeout the first new
    /// ACK that does not prove anything sends new data instead of
    /// go-back-N retransmissions (step 2b); an ACK or SACK of data that was
    /// sent before the timeout and never retransmitted declares the timeout
    /// spurious (step 3b, and Linux also in step 2), and the sender undoes
    /// the window reduction as `tcp_try_undo_loss` does; a duplicate ACK
    /// after the new data proves the loss real (step 3a). Timeout plug-in
    /// `timeout/frto.rs`; docs/MODEL.md "F-RTO".
    Linux,
}

impl Frto {
    /// Every mode with its name in scenarios (`tcp.frto`).
    pub const ALL: [(&'static str, Frto); 2] = [("off", Frto::Off), ("linux", Frto::Linux)];

    /// True when off (left out of `meta.json` then).
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if signature
    pub fn is_off(&self) -> bool {
        *self == Frto::Off
    }
}

/// The TCP timestamp option (`tcp.timestamps`; RFC 7323): every data
/// segment carries TSval, every ACK echoes one (TSecr), and the sender
/// reads the echo as Linux does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Timestamps {
    /// No option: the sender times one segment per round trip (Karn). Every
    /// profile but `linux`.
    Off,
    /// The option as Linux 6.18 uses it (`net.ipv4.tcp_timestamps = 1`):
    /// TSval from a 1 ms clock (`tcp_time_stamp_ts`), TSecr per RFC 7323
    /// §4.3 at the receiver; at the sender an RTT sample on every ACK
    /// (`tcp_ack_update_rtt`: the send time of the data it newly delivers,
    /// else TSecr), RACK's `tcp_skb_spurious_retrans` test, and the
    /// timestamp undo tests (`tcp_packet_delayed`, RFC 3522 Eifel
    /// detection). `tcp/undo.rs`; docs/MODEL.md "Timestamps and undo".
    Linux,
}

impl Timestamps {
    /// Every mode with its name in scenarios (`tcp.timestamps`).
    pub const ALL: [(&'static str, Timestamps); 2] =
        [("off", Timestamps::Off), ("linux", Timestamps::Linux)];

    /// True when off (left out of `meta.json` then).
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if signature
    pub fn is_off(&self) -> bool {
        *self == Timestamps::Off
    }
}

/// Duplicate SACKs (`tcp.dsack`; RFC 2883) and the undo they allow (RFC
/// 3708).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dsack {
    /// No D-SACK blocks. Every profile but `linux`.
    Off,
    /// As Linux 6.18 (`net.ipv4.tcp_dsack = 1`): the SACK receiver reports
    /// a duplicate segment in a D-SACK block (RFC 2883 §4, `tcp_dsack_set`),
    /// and the sender counts the D-SACKed retransmissions of a recovery
    /// episode (`undo_retrans`, `tcp_check_dsack`) and undoes the window
    /// reduction when all of them were unnecessary (`tcp_try_undo_dsack`,
    /// `tcp_may_undo`). Read only with the SACK variant. `tcp/undo.rs`;
    /// docs/MODEL.md "Timestamps and undo".
    Linux,
}

impl Dsack {
    /// Every mode with its name in scenarios (`tcp.dsack`).
    pub const ALL: [(&'static str, Dsack); 2] = [("off", Dsack::Off), ("linux", Dsack::Linux)];

    /// True when off (left out of `meta.json` then).
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if signature
    pub fn is_off(&self) -> bool {
        *self == Dsack::Off
    }
}

/// When duplicate ACKs may start a new fast retransmit after an earlier
/// episode (or timeout) whose recovery point is `recover` (= `snd_nxt` when
/// it began, one past the highest segment sent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoverCheck {
    /// `snd_una >= recover`: everything sent before the episode began is
    /// cumulatively acknowledged (RFC 6675 §5.1: "a new recovery phase ...
    /// MUST NOT be initiated until HighACK is greater than or equal to the
    /// new value of RecoveryPoint"; ns-3 `m_highRxAckMark >= m_recover`).
    Reached,
    /// `snd_una > recover`: at least one segment sent after the episode
    /// began is acknowledged (ns-2 `dupack_action`: `highest_ack_ >
    /// recover_`, its ACK numbers naming the last segment received; RFC
    /// 6582 §3.2 step 2 "covers more than recover" read as its §4 reads it).
    Passed,
    /// Linux 6.18: [`RecoverCheck::Reached`] with SACK, [`RecoverCheck::Passed`]
    /// without. `tcp_try_undo_recovery` (which `tcp_fastretrans_alert` and
    /// `tcp_process_loss` call once `!before(snd_una, high_seq)`) keeps a
    /// non-SACK connection in its Recovery or Loss state while `snd_una ==
    /// high_seq` (`tcp_is_non_sack_preventing_reopen`: "Hold old state until
    /// something *above* high_seq is ACKed. For Reno it is MUST to prevent
    /// false fast retransmits (RFC2582). SACK TCP is safe."), so duplicate
    /// ACKs of segments go-back-N resent start nothing there. Resolved to
    /// one of the other two by the variant when a connection starts
    /// ([`RecoverCheck::for_variant`]).
    Linux,
}

impl RecoverCheck {
    /// Every rule with its name in scenarios (`tcp.recover_check`).
    pub const ALL: [(&'static str, RecoverCheck); 3] = [
        ("reached", RecoverCheck::Reached),
        ("passed", RecoverCheck::Passed),
        ("linux", RecoverCheck::Linux),
    ];

    /// The rule a connection of `variant` applies: [`RecoverCheck::Linux`]
    /// becomes `Reached` for a SACK sender and `Passed` for the others; the
    /// other two stay as they are.
    #[must_use]
    pub fn for_variant(self, variant: Variant) -> RecoverCheck {
        match self {
            RecoverCheck::Linux if variant == Variant::Sack => RecoverCheck::Reached,
            RecoverCheck::Linux => RecoverCheck::Passed,
            other => other,
        }
    }
}

/// Which SACK loss recovery a `sack` sender runs (`tcp.sack_recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SackRecovery {
    /// RFC 6675: `IsLost`, `SetPipe`, `NextSeg` with the rescue
    /// retransmission (`tcp/recovery/sack.rs`).
    #[serde(rename = "rfc6675")]
    Rfc6675,
    /// ns-2.35's `Agent/TCP/Sack1` (tcp-sack1.cc, scoreboard-rq.cc): every
    /// hole below the highest SACKed segment retransmitted once, ns-2's
    /// `pipe_` counter, no rescue retransmission
    /// (`tcp/recovery/ns2_sack1.rs`).
    #[serde(rename = "ns2-sack1")]
    Ns2Sack1,
}

impl SackRecovery {
    /// Every SACK recovery with its name in scenarios (`tcp.sack_recovery`).
    pub const ALL: [(&'static str, SackRecovery); 2] = [
        ("rfc6675", SackRecovery::Rfc6675),
        ("ns2-sack1", SackRecovery::Ns2Sack1),
    ];
}

/// How many bytes the SACK option adds to an ACK that carries `n` blocks
/// (`tcp.sack_option_size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SackOptionSize {
    /// Nothing: ACKs are `header` bytes whatever they carry.
    None,
    /// ns-2.35: 8 bytes per block and no option header (tcp-sink.cc
    /// `Sacker::append_ack`: `ch->size() += sack_index * 8`, "2 4-byte
    /// words for each element").
    Ns2,
    /// RFC 2018 §3: kind and length (2 bytes) plus 8 bytes per block,
    /// "8*n+2 bytes", padded to a 4-byte boundary with two NOPs as
    /// RFC 2018 §3's layout suggests (RFC 793 options end on a 32-bit
    /// boundary): 8n + 4 bytes.
    Rfc2018,
}

impl SackOptionSize {
    /// Every accounting with its name in scenarios (`tcp.sack_option_size`).
    pub const ALL: [(&'static str, SackOptionSize); 3] = [
        ("none", SackOptionSize::None),
        ("ns2", SackOptionSize::Ns2),
        ("rfc2018", SackOptionSize::Rfc2018),
    ];

    /// Bytes the option adds to an ACK carrying `blocks` SACK blocks (0
    /// when it carries none).
    pub fn bytes(self, blocks: usize) -> u32 {
        let n = blocks as u32;
        match self {
            _ if n == 0 => 0,
            SackOptionSize::None => 0,
            SackOptionSize::Ns2 => 8 * n,
            SackOptionSize::Rfc2018 => (8 * n + 2).next_multiple_of(4),
        }
    }
}

/// RFC 6298 retransmission-timer parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RtoConfig {
    /// Estimator flavour.
    pub estimator: RtoEstimator,
    /// RTO before the first RTT sample (RFC 6298 §2.1: 1 s; ns-2 `rtxcur_init_`).
    pub initial: SimDuration,
    /// Lower bound on the RTO (RFC 6298 §2.4: 1 s; ns-2 `minrto_`).
    pub min: SimDuration,
    /// Upper bound on the RTO (RFC 6298 §2.5 allows >= 60 s; ns-2 `maxrto_`).
    pub max: SimDuration,
    /// Clock granularity G (RFC 6298 §2; ns-2 `tcpTick_`).
    pub granularity: SimDuration,
    /// Largest backoff multiplier (ns-2 `rtt_backoff` stops doubling at 64).
    pub max_backoff: u32,
    /// ns-2 `rfc2988_` (only read by [`RtoEstimator::Ns2`]): when true the
    /// minimum RTO is applied *before* the backoff multiplier (Tom Kelly's
    /// RFC 2988 correction in ns-2's `rtt_timeout`), and backoff may continue
    /// past 64 while the backed-off RTO is below `max`; when false the
    /// minimum is applied after backing off (the pre-2002 behaviour).
    pub ns2_rfc2988: bool,
}

/// Burst TCP false-timeout (FTO) detection (yu2004 §IV): how the sender
/// decides whether a retransmission timeout was caused by one burst loss in
/// an OBS network that is not congested (an FTO, answered as a
/// triple-duplicate loss) or is a true timeout (slow start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FtoDetection {
    /// No detection: every timeout is a true timeout (Reno, `NewReno`, SACK).
    None,
    /// Burst-length estimation (yu2004 §IV.A): the sender keeps an estimate
    /// `burst_wd` of the segments one burst carries and judges a timeout
    /// false when `cwnd <= burst_wd` and `burst_wd > 3`.
    Ble {
        /// Consecutive FTOs (no new data acknowledged between them) after
        /// which the next timeout is true whatever the estimate says
        /// (yu2004 §I: "or there have been several consecutive FTOs ...
        /// BTCP performs the usual timeout retransmissions with Slow
        /// Start"). The paper gives no number;
        /// [`crate::tcp::timeout::DEFAULT_MAX_CONSECUTIVE_FTO`] is obsim's
        /// choice (docs/MODEL.md, "Burst TCP").
        max_consecutive_fto: u32,
    },
    /// Burst ACKs (yu2004 §IV.B): the edges send the sender a BACK listing
    /// its segments in each burst; a timeout is false when the latest
    /// ingress BACK covers every outstanding segment and (with the egress)
    /// no egress BACK says that burst arrived.
    Back {
        /// Which edges send BACKs.
        source: BackSource,
        /// As for `Ble`.
        max_consecutive_fto: u32,
    },
    /// Burst NAKs (yu2004 §IV.C): the node that drops a burst tells the
    /// sender; a BNAK holding the whole window starts the FTO response at
    /// once, before the timer fires. How BNAKs are read is `mode`.
    Bnak {
        /// Which reading of §IV.C (default [`BnakMode::Yu2004`]).
        mode: BnakMode,
        /// As for `Ble` (consecutive BNAK-started responses).
        max_consecutive_fto: u32,
    },
}

impl FtoDetection {
    /// The consecutive-FTO limit, for the detectors that have one.
    pub fn max_consecutive_fto(self) -> Option<u32> {
        match self {
            FtoDetection::None => None,
            FtoDetection::Ble {
                max_consecutive_fto,
            }
            | FtoDetection::Back {
                max_consecutive_fto,
                ..
            }
            | FtoDetection::Bnak {
                max_consecutive_fto,
                ..
            } => Some(max_consecutive_fto),
        }
    }
}

/// How a Burst TCP sender reads burst NAKs (yu2004 §IV.C; docs/MODEL.md
/// "BACK and BNAK").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BnakMode {
    /// The paper's rule (§IV.C: "If the sender receives such a BNAK that
    /// contains information on all packets in the cwnd, then it knows for
    /// certain that any TO associated with a packet mentioned in the BNAK
    /// is a FTO"; "the sender can start retransmission of lost packets as
    /// soon as the BNAK is received"): a BNAK holding every segment of the
    /// current window (`[snd_una, tx_next)`, the segments sent since the
    /// last rewind) starts the FTO response at once in any state, loss
    /// recovery included; one the sender could not act on at once is
    /// remembered, and a timeout on a segment it names is false. The
    /// default.
    Yu2004,
    /// obsim's earlier reading (sessions 3-4): only a BNAK holding every
    /// outstanding segment (`[snd_una, snd_nxt)`) that arrives with no loss
    /// recovery in progress (`CaState::Open`) starts the FTO response;
    /// BNAKs during recovery are ignored and every timeout is true.
    EarlyResponse,
}

impl BnakMode {
    /// Every mode with its name in scenarios (`tcp.bnak_mode`).
    pub const ALL: [(&'static str, BnakMode); 2] = [
        ("yu2004", BnakMode::Yu2004),
        ("early_response", BnakMode::EarlyResponse),
    ];
}

/// Which OBS edges send burst ACKs (yu2004 §IV.B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackSource {
    /// The ingress only: a covering BACK means the burst left the ingress
    /// (losses in the sender-side access network are told apart).
    Ingress,
    /// The egress only: a covering BACK means the burst arrived, so the loss
    /// was in the receiver-side access network (a true timeout); without
    /// one obsim judges the timeout false (it cannot tell sender-side
    /// access losses from OBS losses; obsim's reading).
    Egress,
    /// Both: false exactly when the ingress BACK came and the egress BACK
    /// did not (yu2004 §IV.B, the accurate combination).
    Both,
}

impl BackSource {
    /// Every source with its name in scenarios (`tcp.back_source`).
    pub const ALL: [(&'static str, BackSource); 3] = [
        ("ingress", BackSource::Ingress),
        ("egress", BackSource::Egress),
        ("both", BackSource::Both),
    ];
}

/// RACK-TLP loss detection (RFC 8985) for the RFC 6675 SACK sender
/// (`tcp.rack`, `tcp.tlp`, `tcp.tlp_max_ack_delay`); off in every profile.
/// `tcp/recovery/rack.rs` and `tcp/tlp.rs` implement it; docs/MODEL.md
/// "RACK-TLP" says what is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RackTlpConfig {
    /// RACK (RFC 8985 §6): a segment is lost when one sent at least
    /// `RACK.rtt + RACK.reo_wnd` after it was delivered; replaces the
    /// `DupThresh` rule (RFC 6675 `IsLost`) of the SACK recovery.
    pub rack: bool,
    /// Tail Loss Probe (RFC 8985 §7): a probe segment 2·SRTT after the
    /// last transmission in the Open state, before the RTO would fire.
    pub tlp: bool,
    /// RFC 8985 §7.2 `WCDelAckT`, the worst-case delayed-ACK timer added to
    /// the PTO when one segment is in flight: "RECOMMENDED" 200 ms.
    pub tlp_max_ack_delay: SimDuration,
}

impl RackTlpConfig {
    /// Both off (every profile); `WCDelAckT` at RFC 8985 §7.2's 200 ms.
    pub const OFF: RackTlpConfig = RackTlpConfig {
        rack: false,
        tlp: false,
        tlp_max_ack_delay: SimDuration::from_millis(200),
    };
}

/// TCP small queues (`[tcp.small_queues]`): Linux's limit on how much of a
/// connection's data may wait below TCP, in the host's queue and device
/// (net/ipv4/tcp_output.c `tcp_small_queue_check`), so that a bulk sender
/// keeps a few packets in its access queue instead of filling it.
/// `tcp/small_queue.rs` implements it; off in every profile but `linux`.
/// The numbers are the kernel's sysctls and constants of Linux 6.18.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SmallQueuesConfig {
    /// On: the engine hands the first hop a segment only while the flow's
    /// packets there (waiting or in transmission) are under the limit.
    pub enabled: bool,
    /// `tcp_min_tso_segs` (2): the fewest segments in one GSO packet.
    pub min_tso_segs: u32,
    /// `sk_pacing_shift` (10): the limit allows the pacing rate times
    /// 2^-shift seconds (about 1 ms) of data.
    pub pacing_shift: u32,
    /// `tcp_limit_output_bytes` (1 MiB since Linux 5.x): the cap on the
    /// limit when the socket is not paced.
    pub limit_output_bytes: u32,
    /// `sk_gso_max_size` (65536 B): the largest GSO packet.
    pub gso_max_size: u32,
    /// `tcp_tso_rtt_log` (9): `tcp_tso_autosize` adds `gso_max_size >>
    /// (min_rtt_us >> tso_rtt_log)` bytes to a GSO packet on short paths.
    pub tso_rtt_log: u32,
}

impl SmallQueuesConfig {
    /// Off (every profile but `linux`), with Linux 6.18's values.
    pub const OFF: SmallQueuesConfig = SmallQueuesConfig {
        enabled: false,
        min_tso_segs: 2,
        pacing_shift: 10,
        limit_output_bytes: 1_048_576,
        gso_max_size: 65_536,
        tso_rtt_log: 9,
    };

    /// Linux 6.18's defaults, on.
    pub const LINUX: SmallQueuesConfig = SmallQueuesConfig {
        enabled: true,
        ..SmallQueuesConfig::OFF
    };

    /// True when off (left out of `meta.json` then).
    pub fn is_off(&self) -> bool {
        !self.enabled
    }
}

/// Pacing and the pacing rate (`[tcp.pacing]`): Linux's `sk_pacing_rate`
/// (net/ipv4/tcp_input.c `tcp_update_pacing_rate`), which TCP small queues
/// read for their limit, and the spacing of a flow's segments at that rate
/// (net/ipv4/tcp_output.c `tcp_pacing_check`, `tcp_update_skb_after_send`).
/// `tcp/pacing.rs` implements both; pacing itself is off in every profile
/// (Linux paces CUBIC only over the `fq` qdisc). The numbers are Linux
/// 6.18's sysctls and constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PacingConfig {
    /// On: a segment leaves only once the flow's earliest departure time
    /// (`tp->tcp_wstamp_ns`) has come.
    pub enabled: bool,
    /// `tcp_pacing_ss_ratio` (200 %): pacing rate over cwnd·MSS/SRTT while
    /// cwnd < ssthresh / 2.
    pub ss_ratio: u32,
    /// `tcp_pacing_ca_ratio` (120 %): the same ratio otherwise.
    pub ca_ratio: u32,
    /// Data segments a connection sends without waiting for the pacer (10:
    /// `tcp_update_skb_after_send`, "Original sch_fq does not pace first 10
    /// MSS", charges a segment's length from `data_segs_out >= 10`, this
    /// one counted, so the 11th is the first held back).
    pub unpaced_segments: u32,
}

impl PacingConfig {
    /// Off, with Linux 6.18's rate (every profile's).
    pub const OFF: PacingConfig = PacingConfig {
        enabled: false,
        ss_ratio: 200,
        ca_ratio: 120,
        unpaced_segments: 10,
    };

    /// True when every field is the default (left out of `meta.json` then).
    pub fn is_default(&self) -> bool {
        *self == PacingConfig::OFF
    }
}

/// The sender's GSO packets (`[tcp.gso]`): Linux builds new data into
/// write-queue skbs of `tcp_tso_autosize` segments and sends each as one
/// packet of as many of them as the window lets out, with PSH on the last
/// segment of a packet of two or more, and may hold a packet the window can
/// only partly send until the next ACK (net/ipv4/tcp_output.c
/// `tcp_write_xmit`, `tcp_mss_split_point`, `tso_fragment`,
/// `tcp_tso_should_defer`). `tcp/gso.rs` implements it; off in every
/// profile but `linux`. The skb size is [`SmallQueuesConfig`]'s
/// `tcp_tso_autosize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GsoConfig {
    /// On: new data leaves in GSO packets with PSH on their last segment.
    pub enabled: bool,
    /// `tcp_tso_should_defer` on (Linux has no switch: its conditions
    /// decide).
    pub defer: bool,
    /// `tcp_tso_win_divisor` (3): deferral stops once the window lets out
    /// at least 1/divisor of min(cwnd, rwnd).
    pub tso_win_divisor: u32,
}

impl GsoConfig {
    /// Off (every profile but `linux`), with Linux 6.18's values.
    pub const OFF: GsoConfig = GsoConfig {
        enabled: false,
        defer: true,
        tso_win_divisor: 3,
    };

    /// Linux 6.18's, on.
    pub const LINUX: GsoConfig = GsoConfig {
        enabled: true,
        ..GsoConfig::OFF
    };

    /// True when every field is the default (left out of `meta.json` then).
    pub fn is_default(&self) -> bool {
        *self == GsoConfig::OFF
    }
}

/// Linux's receive side (`[tcp.rcvbuf]`): receive-buffer autotuning
/// (net/ipv4/tcp_input.c `tcp_rcv_space_adjust`, `tcp_rcvbuf_grow`; the
/// `tcp_moderate_rcvbuf` sysctl), the growth of `rcv_ssthresh` toward the
/// window clamp (`tcp_grow_window`) and the quick-ACK mode these and a few
/// other events turn on (`tcp_incr_quickack`, `tcp_enter_quickack_mode`),
/// in which every segment is acknowledged at once. `tcp/rcvbuf.rs`
/// implements it; off in every profile but `linux`. The numbers are Linux
/// 6.18's sysctls and constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RcvBufConfig {
    /// On: the receiver keeps Linux's buffer and quick-ACK state and ACKs
    /// at once while in quick-ACK mode. It times its RTT from the segments'
    /// TSecr with `timestamps`, and from the arrival of a window's worth of
    /// data always.
    pub enabled: bool,
    /// `tcp_rmem[1]` (131072 B): the receive buffer a connection starts
    /// with.
    pub initial: u32,
    /// `tcp_rmem[2]` (6 MiB): the largest buffer autotuning reaches.
    pub max: u32,
    /// The memory a received full-sized segment takes (`skb->truesize`),
    /// which sets `scaling_ratio`, the share of the buffer advertised as
    /// window (`len << 8 / truesize`): driver-dependent; 2304 B for a
    /// 1448-byte segment through `obsim emulate`'s TUN path (ratio 160,
    /// traced in docs/VALIDATION.md L1 section 11).
    pub truesize: u32,
    /// `TCP_MAX_QUICKACKS` (16): the most segments one quick-ACK episode
    /// acknowledges at once.
    pub max_quickacks: u32,
}

impl RcvBufConfig {
    /// Off (every profile but `linux`), with Linux 6.18's values.
    pub const OFF: RcvBufConfig = RcvBufConfig {
        enabled: false,
        initial: 131_072,
        max: 6_291_456,
        truesize: 2304,
        max_quickacks: 16,
    };

    /// Linux 6.18's defaults, on.
    pub const LINUX: RcvBufConfig = RcvBufConfig {
        enabled: true,
        ..RcvBufConfig::OFF
    };

    /// True when every field is the default (left out of `meta.json` then).
    pub fn is_default(&self) -> bool {
        *self == RcvBufConfig::OFF
    }
}

/// Linux's adaptive delayed-ACK timeout (`[tcp.ato]`): the receiver's
/// `icsk_ack.ato`, estimated from the gaps between in-order segments
/// (net/ipv4/tcp_input.c `tcp_event_data_recv`), bounded and merged with a
/// pending timer (tcp_output.c `tcp_send_delayed_ack`) and doubled when the
/// timer sends the ACK (tcp_timer.c `tcp_delack_timer_handler`), all on the
/// jiffies clock. `tcp/delack.rs` implements it; off in every profile but
/// `linux`. With it on, `delack_timeout` is not read (`TCP_DELACK_MIN` is
/// HZ/25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AtoConfig {
    /// On: the delayed-ACK timer runs `ato` jiffies of `tcp.hz`.
    pub enabled: bool,
}

impl AtoConfig {
    /// Off.
    pub const OFF: AtoConfig = AtoConfig { enabled: false };

    /// True when every field is the default (left out of `meta.json` then).
    pub fn is_default(&self) -> bool {
        *self == AtoConfig::OFF
    }
}

/// Linux's SACK compression (`[tcp.sack_compression]`): with SACK and data
/// above a hole, the receiver sends the first three duplicate ACKs for one
/// `rcv_nxt` at once and holds later ones for one ACK after
/// min(`delay`, RTT/20) (net/ipv4/tcp_input.c `__tcp_ack_snd_check`,
/// `tcp_sack_new_ofo_skb`; tcp_timer.c `tcp_compressed_ack_kick`).
/// `tcp/delack.rs` implements it; off in every profile but `linux`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SackCompressionConfig {
    /// On: duplicate ACKs after the third are held.
    pub enabled: bool,
    /// `tcp_comp_sack_delay_ns` (1 ms): the longest a held ACK waits.
    pub delay: SimDuration,
    /// `tcp_comp_sack_nr` (44): ACKs held at most; 0 holds none.
    pub nr: u32,
}

impl SackCompressionConfig {
    /// Off, with Linux 6.18's sysctls.
    pub const OFF: SackCompressionConfig = SackCompressionConfig {
        enabled: false,
        delay: SimDuration::from_millis(1),
        nr: 44,
    };

    /// True when every field is the default (left out of `meta.json` then).
    pub fn is_default(&self) -> bool {
        *self == SackCompressionConfig::OFF
    }
}

/// Everything the sender and receiver of one flow need to know.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[allow(clippy::struct_excessive_bools)] // independent on/off switches, each a named RFC option
pub struct TcpConfig {
    /// Loss-recovery variant.
    pub variant: Variant,
    /// Window-growth rule (RFC 5681 in every profile).
    #[serde(skip_serializing_if = "CongestionControl::is_reno")]
    pub congestion_control: CongestionControl,
    /// CUBIC's parameters (read with `congestion_control = "cubic"`).
    #[serde(skip_serializing_if = "CubicConfig::is_rfc9438")]
    pub cubic: CubicConfig,
    /// Maximum segment size: payload bytes per full segment.
    pub mss: u32,
    /// Header bytes added to every segment on the wire; an ACK is `header` bytes.
    pub header: u32,
    /// Sender's maximum window `W_M` in segments (ns-2 `window_`).
    pub max_window: u32,
    /// Receiver's advertised window in segments.
    pub rwnd: u32,
    /// Initial congestion window in segments (RFC 5681 IW; ns-2 windowInit_).
    pub initial_cwnd: u32,
    /// Initial slow-start threshold in segments (RFC 5681 §3.1: arbitrarily
    /// high). 0 means "equal to `max_window`", as ns-2's `reset()` sets
    /// `ssthresh_ = window_`.
    pub initial_ssthresh: u32,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    /// Which window losses halve.
    pub ssthresh_basis: SsthreshBasis,
    /// Receiver delays ACKs (RFC 5681 §4.2: every second full segment, or
    /// the timer below); false acknowledges every segment (ns-2 `TCPSink`).
    pub delayed_ack: bool,
    /// Delayed-ACK timer (RFC 5681: < 500 ms; ns-2 `DelAckSink` `interval_` 100 ms).
    pub delack_timeout: SimDuration,
    /// With `delayed_ack`: a repeat of the last in-order segment
    /// (`seq == rcv_nxt - 1`) with nothing buffered above it is delayed like
    /// a new in-order segment (ns-2.35 tcp-sink.cc `DelAckSink::recv`: the
    /// ACK is delayed when no timer is pending and `th->seqno() ==
    /// acker_->Seqno()`, which a duplicate of the highest in-order packet
    /// also satisfies, and `RFC2581_immediate_ack_` only exempts
    /// `seqno < Maxseen()`). False: every duplicate is ACKed at once
    /// (RFC 9293 §3.10.7.4 / RFC 793 p. 69: an unacceptable segment gets an
    /// ACK; RFC 5681 §4.2).
    pub delack_last_duplicate: bool,
    /// A finite flow's short last segment goes on the wire at the full MSS
    /// (ns-2.35 tcp.cc `TcpAgent::output`: every data packet is `size_` +
    /// header bytes, and `sendmsg(nbytes)` advances by whole packets;
    /// checked with ns-2.35: `send 2500` at `packetSize_ 1000` sends three
    /// 1040-byte packets). The application's byte count is unchanged. False:
    /// the last segment carries only the remaining bytes (RFC 9293 segments
    /// carry what the sender has).
    pub pad_last_segment: bool,
    /// SACK blocks per ACK the receiver sends when the variant is SACK.
    pub sack_blocks: u8,
    /// Which SACK loss recovery the sender runs when the variant is SACK.
    pub sack_recovery: SackRecovery,
    /// Bytes the SACK option adds to an ACK on the wire.
    pub sack_option_size: SackOptionSize,
    /// Retransmission timer.
    pub rto: RtoConfig,
    /// Appropriate byte counting (RFC 3465 with L = 2): slow start grows by
    /// the segments an ACK newly acknowledges (at most 2) and congestion
    /// avoidance by one segment per cwnd of acknowledged data. Off = RFC 5681
    /// per-ACK counting, as ns-2 `opencwnd` does.
    pub abc: bool,
    /// Limited transmit (RFC 3042, recommended by RFC 5681 §3.2): the first
    /// and second duplicate ACKs each allow one new segment beyond cwnd
    /// (ns-2 `singledup_`, default 1 since 2001-11-28).
    pub limited_transmit: bool,
    /// Tahoe and Reno start no new fast retransmit until the ACK reaches the
    /// recovery point of the previous episode (RFC 6582 §3.2 step 2 applied
    /// to Reno, ns-2 `bugFix_`, default true). `NewReno` and SACK always check
    /// (RFC 6582 §3.2, RFC 6675 §5.1). False = plain RFC 5681 Reno, which may
    /// halve several times in one window.
    pub reno_recover_check: bool,
    /// NewReno resets the retransmission timer on every partial ACK
    /// ("Slow-but-Steady", RFC 6582 §4 / RFC 2582; ns-2 `newreno_changes1_ 0`,
    /// its default until 2003-05-05) instead of only on the first
    /// ("Impatient", RFC 6582 §3.2 step 5; ns-2 `newreno_changes1_ 1`).
    pub newreno_slow_but_steady: bool,
    /// What a `NewReno` partial ACK does to the window (RFC 6582 §3.2 step 5,
    /// ns-2 `partial_window_deflation_`). True: "deflate the congestion
    /// window by the amount of new data acknowledged ... add back one SMSS"
    /// (RFC 6582; ns-2 `partial_window_deflation_ 1`, its default since
    /// 2003-05-05). False: drop the whole fast-recovery inflation, so cwnd =
    /// ssthresh, and let later duplicate ACKs inflate it again by one each
    /// (ns-2 `partial_window_deflation_ 0`, the default until 2003-05-05:
    /// `dupwnd_ = 0` in `NewRenoTcpAgent::recv`, cwnd_ untouched). Only
    /// `NewReno` reads it: Reno leaves recovery on the first new ACK.
    pub partial_window_deflation: bool,
    /// ns-2 `precisionReduce_` (tcp.cc `TcpAgent::slowdown`; default true
    /// since 2006-01-24): with `ssthresh_basis = "cwnd"`, the fast
    /// retransmit's halving (`CLOSE_CWND_HALF`) sets cwnd to `windowd()/2`,
    /// fraction kept, while ssthresh is `int(windowd()/2)` (at least 2);
    /// false: both come from the integer window, `int(window()/2)` (cwnd is
    /// then not raised to ssthresh's floor of 2). Only the `cwnd` basis
    /// reads it; the RFC bases set cwnd = ssthresh (RFC 5681 §3.2 step 3,
    /// RFC 6675 §5 step (4.2)).
    pub precision_reduce: bool,
    /// What the ACK that ends Reno/`NewReno` fast recovery does to cwnd.
    pub recovery_exit: RecoveryExit,
    /// Proportional Rate Reduction in `NewReno` and RFC 6675 SACK fast
    /// recovery (RFC 6937); `Off` in every profile. With PRR the ACK that
    /// ends recovery sets cwnd = ssthresh whatever `recovery_exit` says, and
    /// `partial_window_deflation` is not read (PRR sets the window).
    pub prr: Prr,
    /// Limited transmit also outside the Open state (after a timeout, while
    /// go-back-N is under way): ns-2 `RenoTcpAgent::recv` calls `send_one()`
    /// on the first and second duplicate ACK whatever happened before
    /// (`singledup_`), resending `t_seqno_` if it lies within `cwnd_ +
    /// dupacks_`. False: RFC 3042 / RFC 5681 §3.2 step 1, "previously
    /// unsent data" within "cwnd plus 2*SMSS" of FlightSize, which obsim
    /// applies in the Open state only.
    pub limited_transmit_any_state: bool,
    /// At most this many window-rule segments per ACK while `NewReno` has
    /// seen `DupThresh` or more duplicate ACKs (the fast retransmit or
    /// partial-ACK retransmission not counted); 0 = no limit. ns-2
    /// tcp-newreno.cc `NewRenoTcpAgent::recv`: `send_much(0, 0, 2)` when
    /// `dupacks_ > numdupacks_ - 1 && newreno_changes_ == 0` (its default).
    pub recovery_max_burst: u32,
    /// When duplicate ACKs may start a new fast retransmit after an earlier
    /// episode (`NewReno`, SACK, and Tahoe/Reno with `reno_recover_check`).
    pub recover_check: RecoverCheck,
    /// Open the connection with a SYN (ns-2 `syn_`, default true since
    /// 2001-05-17; tcp.cc `TcpAgent::output`: the SYN is ns-2 sequence
    /// number 0, `tcpip_base_hdr_size_` bytes on the wire, and the data
    /// start at 1). The SYN is timed like data, so its ACK gives the first
    /// RTT sample (`rtt_update`) and the RTO falls from its initial value to
    /// about `minrto_` before any data is sent. cwnd is 1 while the SYN is
    /// out and its ACK sets cwnd to `initial_cwnd` without growing it
    /// (`delay_growth_ true`: `set_initial_window()` and the `last_ack_ ==
    /// 0 && delay_growth_` rule in `recv`). The receiver ACKs a SYN at once
    /// (tcp-sink.cc `DelAckSink::recv`, `SYN_immediate_ack_ true`). False:
    /// the flow starts with data, as after an RFC 793/9293 handshake that
    /// is not modelled.
    pub syn: bool,
    /// ns-2 `bugfix_ss_` (tcp.cc `TcpAgent::dupack_action`, default true
    /// since 2006-06-13): duplicate ACKs start a fast retransmit whatever
    /// the recovery point while ns-2's `highest_ack_ == 0`, i.e. with a SYN
    /// while only the SYN is acknowledged, so a lost first data segment is
    /// fast-retransmitted instead of waiting for the RTO. Only read with
    /// `syn` (without a SYN obsim's initial `recover = 0` already lets the
    /// second segment's loss be fast-retransmitted, as ns-2's `highest_ack_
    /// == 0` rule does).
    pub bugfix_ss: bool,
    /// Burst TCP false-timeout detection (yu2004 §IV); `None` in every
    /// profile.
    pub fto: FtoDetection,
    /// Forward RTO-Recovery (RFC 5682 as Linux runs it): `Off` in every
    /// profile but `linux`. With Burst TCP's `fto` detection it tests the
    /// timeouts the detector judges true (the standard response); an FTO
    /// response ends any test.
    #[serde(skip_serializing_if = "Frto::is_off")]
    pub frto: Frto,
    /// The timestamp option (RFC 7323) as Linux uses it: `Off` in every
    /// profile but `linux`. The option's 12 bytes are not added to
    /// `header` (the `linux` profile's header includes them).
    #[serde(skip_serializing_if = "Timestamps::is_off")]
    pub timestamps: Timestamps,
    /// D-SACK (RFC 2883) and its undo (RFC 3708) as Linux runs them: `Off`
    /// in every profile but `linux`.
    #[serde(skip_serializing_if = "Dsack::is_off")]
    pub dsack: Dsack,
    /// RACK-TLP (RFC 8985); off in every profile. Valid only with
    /// `variant = "sack"` and `sack_recovery = "rfc6675"`.
    pub rack_tlp: RackTlpConfig,
    /// Window growth only while the window is used (Linux
    /// `tcp_is_cwnd_limited`, in the spirit of RFC 7661 §4.3): an ACK opens
    /// cwnd only if the sender was cwnd-limited in the current window (a
    /// send attempt ended with as many segments out as cwnd allows), or,
    /// in slow start, while cwnd is under twice the most segments out in
    /// it. False in every profile but `linux`: RFC 5681 grows cwnd on
    /// every ACK.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cwnd_limited_growth: bool,
    /// TCP small queues (Linux); off in every profile but `linux`.
    #[serde(skip_serializing_if = "SmallQueuesConfig::is_off")]
    pub small_queues: SmallQueuesConfig,
    /// Pacing (off in every profile) and the pacing rate small queues read.
    #[serde(skip_serializing_if = "PacingConfig::is_default")]
    pub pacing: PacingConfig,
    /// Linux's receive-buffer autotuning and quick-ACK mode; off in every
    /// profile but `linux`.
    #[serde(skip_serializing_if = "RcvBufConfig::is_default")]
    pub rcvbuf: RcvBufConfig,
    /// The sender's GSO packets, their PSH and `tcp_tso_should_defer`; off
    /// in every profile but `linux`.
    #[serde(skip_serializing_if = "GsoConfig::is_default")]
    pub gso: GsoConfig,
    /// The receiver ACKs at once, when the application has read it, an
    /// in-order segment that is full-sized with PSH (Linux 6.6+,
    /// `tcp_measure_rcv_mss` sets `ICSK_ACK_PUSHED`; `tcp_cleanup_rbuf`) or
    /// shorter than the MSS (every Linux). False in every profile but
    /// `linux` (RFC 5681 §4.2's every second segment and the timer).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ack_on_push: bool,
    /// Linux's adaptive delayed-ACK timeout; off in every profile but
    /// `linux`.
    #[serde(skip_serializing_if = "AtoConfig::is_default")]
    pub ato: AtoConfig,
    /// Linux's SACK compression; off in every profile but `linux`.
    #[serde(skip_serializing_if = "SackCompressionConfig::is_default")]
    pub sack_compression: SackCompressionConfig,
    /// `CONFIG_HZ`: the jiffies per second of the kernel the Linux models
    /// follow, read only by them (`ato` and CUBIC's `linux` arithmetic);
    /// [`DEFAULT_HZ`] in every profile.
    #[serde(skip_serializing_if = "is_default_hz")]
    pub hz: u32,
}

/// `CONFIG_HZ` of Debian's kernels and of the one `obsim emulate` ran
/// (6.18.44): 250.
pub const DEFAULT_HZ: u32 = 250;

/// True for [`DEFAULT_HZ`] (left out of `meta.json` then).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if signature
fn is_default_hz(hz: &u32) -> bool {
    *hz == DEFAULT_HZ
}
