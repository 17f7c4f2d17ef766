//! RACK's time-ordered list of the segments it may still mark lost (RFC
//! 8985 §6.2 step 5: "a time-ordered list ... the sender can stop scanning
//! at the first segment that was sent after RACK.xmit_ts"; Linux
//! `tp->tsorted_sent_queue`, walked by `tcp_rack_detect_loss`).
//!
//! A doubly linked list threaded through the [`Scoreboard`](super::Scoreboard)
//! ring: one `next` / `prev` link per ring slot, sized once per flow with the
//! ring, so linking, unlinking and moving a segment to the tail allocate
//! nothing and cost O(1). The list holds each outstanding segment that is
//! neither `SACKed` nor marked lost and unsent since (RFC 8985's
//! `Segment.xmit_ts = INFINITE_TS`), in the order of the key
//! (`Segment.xmit_ts`, sequence number), the order of §6.2
//! `RACK_sent_after` (sequence numbers break ties in time). The owner gives
//! the keys (the ring's transmit times and its `una`).
//!
//! A cursor marks the last segment known to be sent before `RACK.xmit_ts`:
//! RACK's key only grows (§6.2 step 2 takes a segment only if it was sent
//! after the current one) and new transmissions go to the tail, so the
//! cursor only moves forward (or one step back when its segment leaves),
//! and finding the latest segment sent before `RACK.xmit_ts` (the
//! reordering timer's deadline, §6.2 step 5) costs O(1) amortised.

use crate::time::SimTime;

/// No slot.
const NIL: u32 = u32::MAX;

/// Bits per word of the membership bitset.
const W: usize = 64;

/// The time-ordered list over ring slots `0..cap`.
#[derive(Clone, Debug)]
pub(super) struct TimeOrder {
    /// Next slot in the list (later sent), or `NIL`.
    next: Vec<u32>,
    /// Previous slot in the list (earlier sent), or `NIL`.
    prev: Vec<u32>,
    /// One bit per slot: in the list.
    linked: Vec<u64>,
    /// Earliest sent, or `NIL`.
    head: u32,
    /// Latest sent, or `NIL`.
    tail: u32,
    /// The last slot known to be sent before `RACK.xmit_ts`, or `NIL`
    /// (none known: the search starts at the head).
    cursor: u32,
    /// Scratch for [`TimeOrder::rebuild`]: sized with the ring.
    scratch: Vec<u32>,
}

impl TimeOrder {
    /// An empty list over no slots; allocates nothing.
    pub(super) const fn empty() -> Self {
        TimeOrder {
            next: Vec::new(),
            prev: Vec::new(),
            linked: Vec::new(),
            head: NIL,
            tail: NIL,
            cursor: NIL,
            scratch: Vec::new(),
        }
    }

    /// An empty list over the slots `0..cap`, keeping the allocations when
    /// they are large enough (a renewed flow slot).
    pub(super) fn resize(&mut self, cap: usize) {
        self.next.clear();
        self.next.resize(cap, NIL);
        self.prev.clear();
        self.prev.resize(cap, NIL);
        self.linked.clear();
        self.linked.resize(cap.div_ceil(W), 0);
        self.scratch.clear();
        self.scratch.reserve(cap);
        self.head = NIL;
        self.tail = NIL;
        self.cursor = NIL;
    }

    /// Forgets every slot and the storage's contents (RACK off).
    pub(super) fn release(&mut self) {
        self.next.clear();
        self.prev.clear();
        self.linked.clear();
        self.scratch.clear();
        self.head = NIL;
        self.tail = NIL;
        self.cursor = NIL;
    }

    /// Empties the list (the storage stays sized).
    pub(super) fn reset(&mut self) {
        self.linked.iter_mut().for_each(|w| *w = 0);
        self.head = NIL;
        self.tail = NIL;
        self.cursor = NIL;
    }

    /// True when `slot` is in the list.
    #[inline]
    pub(super) fn is_linked(&self, slot: usize) -> bool {
        self.linked[slot / W] & (1 << (slot % W)) != 0
    }

    /// The earliest sent slot.
    #[inline]
    pub(super) fn head(&self) -> Option<usize> {
        (self.head != NIL).then_some(self.head as usize)
    }

    /// Takes `slot` out of the list, if it is in it.
    #[inline]
    pub(super) fn unlink(&mut self, slot: usize) {
        if !self.is_linked(slot) {
            return;
        }
        self.linked[slot / W] &= !(1 << (slot % W));
        let (p, n) = (self.prev[slot], self.next[slot]);
        if p == NIL {
            self.head = n;
        } else {
            self.next[p as usize] = n;
        }
        if n == NIL {
            self.tail = p;
        } else {
            self.prev[n as usize] = p;
        }
        if self.cursor == slot as u32 {
            // Every slot before it was sent before RACK.xmit_ts too.
            self.cursor = p;
        }
    }

    /// Puts `slot` (not in the list) at its place by `key`, searching from
    /// the tail: a transmission now is sent after every segment listed but
    /// those sent at the same instant with a higher sequence number, so the
    /// search stops at once but for those.
    #[inline]
    pub(super) fn insert(&mut self, slot: usize, key: impl Fn(usize) -> (SimTime, u64)) {
        debug_assert!(!self.is_linked(slot));
        let k = key(slot);
        let mut p = self.tail;
        while p != NIL && key(p as usize) > k {
            p = self.prev[p as usize];
        }
        let n = if p == NIL {
            self.head
        } else {
            self.next[p as usize]
        };
        self.prev[slot] = p;
        self.next[slot] = n;
        if p == NIL {
            self.head = slot as u32;
        } else {
            self.next[p as usize] = slot as u32;
        }
        if n == NIL {
            self.tail = slot as u32;
        } else {
            self.prev[n as usize] = slot as u32;
        }
        self.linked[slot / W] |= 1 << (slot % W);
    }

    /// The latest slot for which `before` (sent before `RACK.xmit_ts`)
    /// holds, moving the cursor forward from where it stands. `before` must
    /// hold on a prefix of the list and on a longer or equal prefix at each
    /// later call (RACK's key only grows).
    pub(super) fn last_before(&mut self, before: impl Fn(usize) -> bool) -> Option<usize> {
        let mut c = self.cursor;
        let mut n = if c == NIL {
            self.head
        } else {
            self.next[c as usize]
        };
        while n != NIL && before(n as usize) {
            c = n;
            n = self.next[n as usize];
        }
        self.cursor = c;
        (c != NIL).then_some(c as usize)
    }

    /// Rebuilds the list from the slots `slots` yields (not in the list),
    /// sorted by `key`: after RFC 2018 §8's clearing of the scoreboard,
    /// every outstanding segment is back with its old transmit time. No
    /// allocation (`scratch` is sized with the ring, the sort is in place).
    pub(super) fn rebuild(
        &mut self,
        slots: impl Iterator<Item = usize>,
        key: impl Fn(usize) -> (SimTime, u64),
    ) {
        self.reset();
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend(slots.map(|s| s as u32));
        scratch.sort_unstable_by_key(|&s| key(s as usize));
        let mut p = NIL;
        for &s in &scratch {
            self.prev[s as usize] = p;
            self.next[s as usize] = NIL;
            if p == NIL {
                self.head = s;
            } else {
                self.next[p as usize] = s;
            }
            self.linked[s as usize / W] |= 1 << (s as usize % W);
            p = s;
        }
        self.tail = p;
        self.scratch = scratch;
    }

    /// The slots in list order (tests).
    #[cfg(test)]
    pub(super) fn slots(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut n = self.head;
        while n != NIL {
            out.push(n as usize);
            n = self.next[n as usize];
        }
        out
    }
}
