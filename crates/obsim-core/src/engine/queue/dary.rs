//! Array-backed d-ary min-heap primitives on small `(time, seq, slot, gen)`
//! entries, with a hook that reports every entry move (the indexed design uses
//! it to keep its position map; the lazy design passes a no-op).
//!
//! All sifts move a *hole* instead of swapping, so each level costs one copy.

/// One heap record: 24 bytes; the payload stays in the slab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) time: u64,
    pub(super) seq: u64,
    pub(super) slot: u32,
    pub(super) gen: u32,
}

impl Entry {
    /// Strict total order `(time, seq)`; `seq` is unique, so no two entries tie.
    #[inline]
    pub(super) fn before(&self, other: &Entry) -> bool {
        self.key() < other.key()
    }

    /// `time << 64 | seq`: one branch-free 128-bit comparison.
    #[inline]
    pub(super) fn key(&self) -> u128 {
        (u128::from(self.time) << 64) | u128::from(self.seq)
    }
}

/// Moves the entry at `i` up towards the root; returns its final position.
#[inline]
pub(super) fn sift_up<const D: usize>(
    heap: &mut [Entry],
    mut i: usize,
    mut moved: impl FnMut(u32, usize),
) -> usize {
    let e = heap[i];
    while i > 0 {
        let p = (i - 1) / D;
        if e.before(&heap[p]) {
            heap[i] = heap[p];
            moved(heap[i].slot, i);
            i = p;
        } else {
            break;
        }
    }
    heap[i] = e;
    moved(e.slot, i);
    i
}

/// Moves the entry at `i` down towards the leaves; returns its final position.
#[inline]
pub(super) fn sift_down<const D: usize>(
    heap: &mut [Entry],
    mut i: usize,
    mut moved: impl FnMut(u32, usize),
) -> usize {
    let len = heap.len();
    let e = heap[i];
    loop {
        let first = D * i + 1;
        if first >= len {
            break;
        }
        let last = (first + D).min(len);
        let m = first + argmin(&heap[first..last]);
        if heap[m].before(&e) {
            heap[i] = heap[m];
            moved(heap[i].slot, i);
            i = m;
        } else {
            break;
        }
    }
    heap[i] = e;
    moved(e.slot, i);
    i
}

/// Index (within `kids`) of the smallest entry; `kids` is non-empty.
#[inline]
fn argmin(kids: &[Entry]) -> usize {
    let mut m = 0;
    let mut mk = kids[0].key();
    for (c, e) in kids.iter().enumerate().skip(1) {
        let k = e.key();
        if k < mk {
            m = c;
            mk = k;
        }
    }
    m
}

/// Removes and returns the root. The last entry replaces it, is sunk along
/// the path of smallest children all the way to a leaf (no comparison with
/// itself on the way down: it almost always belongs near the bottom), then
/// sifted up; Floyd's trick, as in `std`'s `BinaryHeap::pop`.
#[inline]
pub(super) fn pop_root<const D: usize>(
    heap: &mut Vec<Entry>,
    mut moved: impl FnMut(u32, usize),
) -> Option<Entry> {
    let last = heap.pop()?;
    if heap.is_empty() {
        return Some(last);
    }
    let out = heap[0];
    let len = heap.len();
    let mut i = 0;
    loop {
        let first = D * i + 1;
        if first + D <= len {
            let m = first + argmin(&heap[first..first + D]);
            heap[i] = heap[m];
            moved(heap[i].slot, i);
            i = m;
        } else {
            if first < len {
                let m = first + argmin(&heap[first..len]);
                heap[i] = heap[m];
                moved(heap[i].slot, i);
                i = m;
            }
            break;
        }
    }
    heap[i] = last;
    sift_up::<D>(heap, i, moved);
    Some(out)
}

/// Removes and returns the entry at `i`, restoring the heap property.
#[inline]
pub(super) fn remove_at<const D: usize>(
    heap: &mut Vec<Entry>,
    i: usize,
    mut moved: impl FnMut(u32, usize),
) -> Entry {
    let last = heap.pop().expect("remove_at on an empty heap");
    if i == heap.len() {
        return last;
    }
    let out = std::mem::replace(&mut heap[i], last);
    if i > 0 && last.before(&heap[(i - 1) / D]) {
        sift_up::<D>(heap, i, &mut moved);
    } else {
        sift_down::<D>(heap, i, &mut moved);
    }
    out
}

/// Restores the heap property over the whole array in O(n) (Floyd); used by
/// the lazy designs' compaction.
#[cfg(feature = "bench-queues")]
pub(super) fn heapify<const D: usize>(heap: &mut [Entry], mut moved: impl FnMut(u32, usize)) {
    if heap.len() < 2 {
        for (i, e) in heap.iter().enumerate() {
            moved(e.slot, i);
        }
        return;
    }
    for i in (0..heap.len()).rev() {
        sift_down::<D>(heap, i, &mut moved);
    }
}
