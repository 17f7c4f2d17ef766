//! Scoring Burst TCP's false-timeout (FTO) judgements against the truth
//! (yu2004 §IV; obsim issue 6). A detector judges a timeout *false* when it
//! believes one burst was lost in an OBS core that is not congested, and
//! *true* otherwise; only the simulator knows where the segment at `snd_una`
//! was really lost. [`FtoJudgements`] remembers each flow's latest data
//! drops and whether each was in the optical core, and counts every
//! judgement as right or wrong: "false" is right when that segment's latest
//! loss was a burst loss in the core, "true" is right when it was lost
//! elsewhere (access network, edge buffer) or its loss is not remembered.

/// How many of one flow's latest data drops are remembered.
pub const DROP_RING: usize = 32;

/// One flow's judgements, by verdict and correctness (the `judged_*`
/// columns of the flows table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judgements {
    /// Judged false and the segment was lost in the core.
    pub false_right: u64,
    /// Judged false but it was lost elsewhere.
    pub false_wrong: u64,
    /// Judged true and it was lost elsewhere (or not remembered).
    pub true_right: u64,
    /// Judged true but it was lost in the core.
    pub true_wrong: u64,
}

/// One flow's drop memory and judgement counts.
#[derive(Clone, Debug)]
pub struct FtoJudgements {
    /// The latest data drops: (segment, lost in the optical core), a ring.
    drops: [(u64, bool); DROP_RING],
    /// Next ring slot to write.
    next: usize,
    counts: Judgements,
}

impl Default for FtoJudgements {
    fn default() -> Self {
        FtoJudgements {
            drops: [(u64::MAX, false); DROP_RING],
            next: 0,
            counts: Judgements::default(),
        }
    }
}

impl FtoJudgements {
    /// Remembers that segment `seq` was lost, in the optical core (`core`,
    /// a burst loss) or not; forgets the oldest of [`DROP_RING`] drops.
    pub fn note_drop(&mut self, seq: u64, core: bool) {
        self.drops[self.next] = (seq, core);
        self.next = (self.next + 1) % DROP_RING;
    }

    /// Whether the latest remembered loss of `seq` was in the optical core
    /// (false when it was elsewhere or is not remembered).
    pub fn lost_in_core(&self, seq: u64) -> bool {
        (1..=DROP_RING)
            .map(|k| self.drops[(self.next + DROP_RING - k) % DROP_RING])
            .find(|&(s, _)| s == seq)
            .is_some_and(|(_, core)| core)
    }

    /// Scores a judgement (`judged_false`: an FTO) made with `snd_una = una`.
    pub fn judge(&mut self, una: u64, judged_false: bool) {
        let core = self.lost_in_core(una);
        let j = &mut self.counts;
        match (judged_false, core) {
            (true, true) => j.false_right += 1,
            (true, false) => j.false_wrong += 1,
            (false, false) => j.true_right += 1,
            (false, true) => j.true_wrong += 1,
        }
    }

    /// The counts so far.
    pub fn counts(&self) -> Judgements {
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_verdict_is_scored_against_the_latest_loss() {
        let mut j = FtoJudgements::default();
        j.note_drop(5, true);
        j.note_drop(9, false);
        j.judge(5, true); // FTO, lost in the core: right
        j.judge(9, true); // FTO, lost in the access network: wrong
        j.judge(9, false); // true timeout, lost outside the core: right
        j.judge(5, false); // true timeout, but a burst loss: wrong
        j.judge(7, false); // never dropped (not remembered): counts as outside
        assert_eq!(
            j.counts(),
            Judgements {
                false_right: 1,
                false_wrong: 1,
                true_right: 2,
                true_wrong: 1,
            }
        );
    }

    #[test]
    fn a_later_loss_of_the_same_segment_overrides() {
        let mut j = FtoJudgements::default();
        j.note_drop(3, true);
        assert!(j.lost_in_core(3));
        j.note_drop(3, false); // the retransmission died in the access network
        assert!(!j.lost_in_core(3));
        j.note_drop(3, true);
        assert!(j.lost_in_core(3));
    }

    #[test]
    fn only_the_latest_drops_are_remembered() {
        let mut j = FtoJudgements::default();
        j.note_drop(0, true);
        for s in 1..DROP_RING as u64 {
            j.note_drop(s, false);
        }
        assert!(j.lost_in_core(0), "still in the ring");
        j.note_drop(100, false);
        assert!(!j.lost_in_core(0), "pushed out by the newest drop");
        assert!(!j.lost_in_core(u64::MAX), "an empty slot is no drop");
    }
}
