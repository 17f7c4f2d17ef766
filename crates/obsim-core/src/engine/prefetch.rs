//! A cache prefetch hint for data the engine will read a little later.
//!
//! A channel's packets in flight are written when they are sent and read
//! when they arrive, thousands of events later, so the read misses the cache
//! (issue 12's profile: most of the event loop's time at 1 000 flows). The
//! entry a channel reads at its next arrival is known at the current one;
//! asking the CPU to fetch it then overlaps the miss with the events in
//! between. A prefetch never faults and changes no value: the results are
//! the same with or without it.

/// Hints the CPU to bring the cache lines of `value` (its first 128 bytes)
/// into the cache; a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = std::ptr::from_ref::<T>(value).cast::<i8>();
        // SAFETY: `_mm_prefetch` is a hint; it never dereferences in a way
        // that can fault or change memory, for any address. SSE is part
        // of the x86-64 baseline.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            if std::mem::size_of::<T>() > 64 {
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
