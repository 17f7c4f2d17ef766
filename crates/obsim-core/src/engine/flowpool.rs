//! The pool of generated flows (issue 12): flow state lives in recycled
//! slots, so memory follows the number of flows active at once, not the
//! number created over the run. Each flow gets a fresh id in arrival order
//! (`base`, `base + 1`, ...), never reused: a packet or timer event of a
//! finished flow still in the network carries an id the pool no longer
//! knows, and is discarded instead of reaching the flow that took over its
//! slot (a closed connection). The id-to-slot map is only looked up, never
//! iterated, so its hashing does not affect the order of anything.
//! A freed slot keeps its stale value until the next flow takes it:
//! [`FlowPool::insert_with`] renews that value in place, so a flow's
//! arrival reuses the allocations of the flow before it (its TCP plug-ins,
//! scoreboard and buffers) instead of making its own.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ids::FlowId;

/// The hash of a flow id for the id-to-slot map: one multiplication by the
/// 64-bit golden ratio (Fibonacci hashing, Knuth TAOCP vol. 3 §6.4), which
/// spreads consecutive ids over the table's high and low bits alike. Ids are
/// assigned by the simulator, not chosen by an adversary, so the default
/// SipHash's flood resistance buys nothing here; its cost was 6% of an
/// NSFNET run with 2 700 flows (issue 12's profile), paid on every packet.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    #[inline]
    fn write_u32(&mut self, id: u32) {
        self.0 = (self.0 ^ u64::from(id)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The map from flow id to slot, hashed by [`IdHasher`].
type IdMap = HashMap<u32, u32, BuildHasherDefault<IdHasher>>;

/// `owner` of a free slot (no flow id reaches it: `insert` stops before
/// `u32::MAX`).
const FREE: u32 = u32::MAX;

/// Slots of `T` recycled through a free list, addressed by flow id.
#[derive(Debug)]
pub struct FlowPool<T> {
    slots: Vec<T>,
    /// The id of the live flow in each slot; [`FREE`] for a free slot.
    owner: Vec<u32>,
    free: Vec<u32>,
    by_id: IdMap,
    next: u32,
}

impl<T> FlowPool<T> {
    /// An empty pool whose first flow gets id `base`.
    pub fn new(base: u32) -> Self {
        Self {
            slots: Vec::new(),
            owner: Vec::new(),
            free: Vec::new(),
            by_id: IdMap::default(),
            next: base,
        }
    }

    /// Stores `value` as a new flow in a free slot (or a new one) and
    /// returns its id; `None` when the id space (u32) is exhausted.
    pub fn insert(&mut self, value: T) -> Option<FlowId> {
        self.place(value, |v| v, |stale, v| *stale = v)
    }

    /// Stores a new flow and returns its id, as [`FlowPool::insert`] does:
    /// in the free slot `insert` would take, whose stale value (the flow
    /// that held it last) `renew` turns into the new flow in place, keeping
    /// its allocations; or, with no slot free, in a new slot holding
    /// `fresh()`. Exactly one of the two is called, and neither when the id
    /// space is exhausted (`None`). Ids and slots are those of `insert`.
    pub fn insert_with(
        &mut self,
        fresh: impl FnOnce() -> T,
        renew: impl FnOnce(&mut T),
    ) -> Option<FlowId> {
        self.place((), |()| fresh(), |stale, ()| renew(stale))
    }

    /// The new flow's id and slot: the most recently freed slot, where
    /// `renew(stale, arg)` makes the flow, or a new one holding
    /// `fresh(arg)`.
    fn place<A>(
        &mut self,
        arg: A,
        fresh: impl FnOnce(A) -> T,
        renew: impl FnOnce(&mut T, A),
    ) -> Option<FlowId> {
        let id = self.next;
        if id == FREE {
            return None;
        }
        self.next += 1;
        let slot = if let Some(s) = self.free.pop() {
            renew(&mut self.slots[s as usize], arg);
            self.owner[s as usize] = id;
            s
        } else {
            self.slots.push(fresh(arg));
            self.owner.push(id);
            (self.slots.len() - 1) as u32
        };
        self.by_id.insert(id, slot);
        Some(FlowId(id))
    }

    /// The live flow `id`, if it is one.
    #[inline]
    pub fn get_mut(&mut self, id: FlowId) -> Option<&mut T> {
        let s = *self.by_id.get(&id.0)?;
        Some(&mut self.slots[s as usize])
    }

    /// The live flow `id`, if it is one.
    #[inline]
    pub fn get(&self, id: FlowId) -> Option<&T> {
        let s = *self.by_id.get(&id.0)?;
        Some(&self.slots[s as usize])
    }

    /// Ends flow `id`: its slot becomes free (the value stays until the
    /// slot is reused). False if `id` was not live.
    pub fn remove(&mut self, id: FlowId) -> bool {
        match self.by_id.remove(&id.0) {
            Some(s) => {
                self.free.push(s);
                self.owner[s as usize] = FREE;
                true
            }
            None => false,
        }
    }

    /// Flows live now.
    pub fn live(&self) -> usize {
        self.by_id.len()
    }

    /// Slots ever allocated: the most flows live at once.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Live flows in slot order, with their slot index: deterministic (the
    /// slots a run fills and frees follow its events), O(slots) = O(the
    /// most flows live at once), and allocation-free (the metrics sampler
    /// walks it at every sample).
    pub fn iter_live(&self) -> impl Iterator<Item = (usize, FlowId, &T)> + '_ {
        self.owner
            .iter()
            .zip(&self.slots)
            .enumerate()
            .filter(|(_, (&o, _))| o != FREE)
            .map(|(s, (&o, v))| (s, FlowId(o), v))
    }

    /// Live flows by id (deterministic; for end-of-run records).
    pub fn live_ids(&self) -> Vec<FlowId> {
        let mut ids: Vec<u32> = self.by_id.keys().copied().collect();
        ids.sort_unstable();
        ids.into_iter().map(FlowId).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_arrival_order_slots_recycled() {
        let mut p = FlowPool::new(10);
        let a = p.insert("a").unwrap();
        let b = p.insert("b").unwrap();
        assert_eq!((a, b), (FlowId(10), FlowId(11)));
        assert!(p.remove(a));
        assert!(!p.remove(a), "already ended");
        let c = p.insert("c").unwrap();
        assert_eq!(c, FlowId(12), "ids are never reused");
        assert_eq!(p.slots(), 2, "c took a's slot");
        assert_eq!(p.get_mut(a), None, "a stale id finds nothing");
        assert_eq!(p.get(c), Some(&"c"));
        assert_eq!(p.get(b), Some(&"b"));
        assert_eq!(p.live_ids(), vec![b, c]);
        // Slot order: c reuses slot 0, b is in slot 1.
        let live: Vec<_> = p.iter_live().map(|(s, id, v)| (s, id, *v)).collect();
        assert_eq!(live, vec![(0, c, "c"), (1, b, "b")]);
        p.remove(b);
        assert_eq!(p.iter_live().count(), 1);
    }

    /// `insert_with` takes the slots and ids `insert` would, building a
    /// value only for a new slot and renewing the stale one in a freed slot.
    #[test]
    fn insert_with_renews_the_stale_value_of_a_freed_slot() {
        let mut pool: FlowPool<Vec<u32>> = FlowPool::new(0);
        let fresh = |n: u32| move || vec![n];
        let renew = |n: u32| move |v: &mut Vec<u32>| v.push(n);
        let first = pool.insert_with(fresh(1), renew(1)).unwrap();
        let second = pool.insert_with(fresh(2), renew(2)).unwrap();
        pool.remove(first);
        pool.remove(second);
        // LIFO: the third takes the second's slot (1), the fourth the first's
        // (0), the fifth a new one (2).
        let third = pool.insert_with(fresh(3), renew(3)).unwrap();
        let fourth = pool.insert_with(fresh(4), renew(4)).unwrap();
        let fifth = pool.insert_with(fresh(5), renew(5)).unwrap();
        assert_eq!((third, fourth, fifth), (FlowId(2), FlowId(3), FlowId(4)));
        let live: Vec<_> = pool
            .iter_live()
            .map(|(s, id, v)| (s, id, v.clone()))
            .collect();
        assert_eq!(
            live,
            vec![
                (0, fourth, vec![1, 4]),
                (1, third, vec![2, 3]),
                (2, fifth, vec![5])
            ]
        );
        assert_eq!(pool.get(first), None);
    }

    #[test]
    fn id_hash_spreads_consecutive_ids() {
        use std::hash::BuildHasher;
        // hashbrown takes its control byte from the top 7 bits and the
        // bucket from the low bits: both must vary over consecutive ids.
        let b = BuildHasherDefault::<IdHasher>::default();
        let top: std::collections::BTreeSet<u64> =
            (0..1000u32).map(|i| b.hash_one(i) >> 57).collect();
        let low: std::collections::BTreeSet<u64> =
            (0..1000u32).map(|i| b.hash_one(i) & 1023).collect();
        assert!(top.len() > 100, "top bits: {} values", top.len());
        assert!(low.len() > 600, "low bits: {} values", low.len());
    }

    #[test]
    fn slot_count_follows_concurrency_not_total() {
        let mut p = FlowPool::new(0);
        let mut live = std::collections::VecDeque::new();
        for i in 0..100_000u32 {
            live.push_back(p.insert(i).unwrap());
            if live.len() > 7 {
                p.remove(live.pop_front().unwrap());
            }
        }
        assert_eq!(p.slots(), 8);
        assert_eq!(p.live(), 7);
    }
}
