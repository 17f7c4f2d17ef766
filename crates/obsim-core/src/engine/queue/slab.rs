//! Payload storage shared by every design: a slab of `Option<E>` with a dense
//! side table of generations and links, and an intrusive free list.

use super::EventKey;

/// Marks the end of the free list and "not in the heap".
pub(super) const NIL: u32 = u32::MAX;

/// Per-slot bookkeeping, kept apart from the (large) payloads so that heap
/// maintenance touches only 8-byte records.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meta {
    /// Bumped every time the slot is vacated, so stale keys and stale heap
    /// entries never match a later occupant.
    pub(super) gen: u32,
    /// While occupied: the entry's heap position (indexed designs only).
    /// While free: the next free slot, or [`NIL`].
    pub(super) link: u32,
}

/// A slab of pending payloads.
#[derive(Clone, Debug)]
pub(super) struct Slab<E> {
    pub(super) meta: Vec<Meta>,
    payload: Vec<Option<E>>,
    free: u32,
    live: usize,
}

impl<E> Slab<E> {
    pub(super) fn with_capacity(n: usize) -> Self {
        Slab {
            meta: Vec::with_capacity(n),
            payload: Vec::with_capacity(n),
            free: NIL,
            live: 0,
        }
    }

    /// Stores `ev`, returning its slot and generation.
    #[inline]
    pub(super) fn insert(&mut self, ev: E) -> (u32, u32) {
        self.live += 1;
        if self.free == NIL {
            let slot = u32::try_from(self.payload.len()).expect("more than 2^32-1 pending events");
            assert!(slot != NIL, "more than 2^32-1 pending events");
            self.meta.push(Meta { gen: 0, link: NIL });
            self.payload.push(Some(ev));
            (slot, 0)
        } else {
            let slot = self.free;
            let m = &mut self.meta[slot as usize];
            self.free = m.link;
            m.link = NIL;
            let gen = m.gen;
            self.payload[slot as usize] = Some(ev);
            (slot, gen)
        }
    }

    /// Whether `slot` still holds the occupant of generation `gen`.
    /// The payload in the occupied `slot`.
    #[inline]
    pub(super) fn get(&self, slot: u32) -> &E {
        self.payload[slot as usize]
            .as_ref()
            .expect("slab slot was occupied")
    }

    /// Gives the occupied `slot` a new generation, so keys issued for it
    /// before no longer name it; returns the new generation.
    #[inline]
    pub(super) fn renew(&mut self, slot: u32) -> u32 {
        let m = &mut self.meta[slot as usize];
        m.gen = m.gen.wrapping_add(1);
        m.gen
    }

    #[inline]
    pub(super) fn is_live(&self, slot: u32, gen: u32) -> bool {
        self.meta.get(slot as usize).is_some_and(|m| m.gen == gen)
    }

    /// Whether `key` names a pending event.
    #[inline]
    pub(super) fn key_live(&self, key: EventKey) -> bool {
        self.is_live(key.slot, key.gen)
    }

    /// Takes the payload out of an occupied `slot` and frees the slot.
    #[inline]
    pub(super) fn remove(&mut self, slot: u32) -> E {
        let i = slot as usize;
        let m = &mut self.meta[i];
        m.gen = m.gen.wrapping_add(1);
        m.link = self.free;
        self.free = slot;
        self.live -= 1;
        self.payload[i].take().expect("slab slot was occupied")
    }

    /// Number of occupied slots (the lazy designs' pending count).
    #[cfg(feature = "bench-queues")]
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.live
    }

    /// Allocated payload slots.
    #[inline]
    pub(super) fn capacity(&self) -> usize {
        self.payload.capacity().min(self.meta.capacity())
    }

    /// Capacities of every buffer, for no-allocation tests.
    pub(super) fn footprint(&self) -> [usize; 2] {
        [self.meta.capacity(), self.payload.capacity()]
    }
}
