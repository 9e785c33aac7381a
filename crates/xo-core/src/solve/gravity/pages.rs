//! Zeroed memory for the transposition table, on 2 MiB pages where the system offers them.
//!
//! A gravity search probes its table at random: with 4 KiB pages nearly every probe of a table
//! of hundreds of MiB also misses the TLB. Linux maps anonymous memory with 2 MiB pages when
//! asked (`madvise(MADV_HUGEPAGE)`, which transparent huge pages in `madvise` mode need), so
//! large tables are mapped that way; small ones, and systems without `mmap`, use a plain
//! zeroed vector.
//!
//! This is one of the three places in xo with `unsafe` code (with the Grundy kernel and the
//! store's memory-mapped tiers): a page-aligned anonymous mapping is viewed as a slice of
//! atomics.

#![allow(unsafe_code)]

use std::ops::Deref;

/// Tables at least this large are mapped (and may get huge pages).
#[cfg(unix)]
const MAP_FROM_BYTES: usize = 2 << 20;

/// `len` zeroed entries of `T`.
pub(super) enum Zeroed<T> {
    /// A plain vector.
    Vec(Vec<T>),
    /// An anonymous mapping holding `len` entries.
    #[cfg(unix)]
    Map(memmap2::MmapMut, usize, std::marker::PhantomData<T>),
}

impl<T: bytemuck::Zeroable + Sync> Zeroed<T> {
    /// `len` zeroed entries, mapped with huge pages when large.
    pub(super) fn new(len: usize) -> Self {
        #[cfg(unix)]
        let bytes = len.saturating_mul(size_of::<T>());
        #[cfg(unix)]
        if bytes >= MAP_FROM_BYTES && align_of::<T>() <= 4096 {
            if let Ok(map) = memmap2::MmapMut::map_anon(bytes) {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                return Zeroed::Map(map, len, std::marker::PhantomData);
            }
        }
        Zeroed::Vec(bytemuck::allocation::zeroed_vec(len))
    }
}

/// Asks the processor to bring `entry`'s cache line in, without waiting for it: a search that
/// will read several entries of a large table overlaps their memory latencies this way.
#[inline(always)]
pub(super) fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing into the program and cannot fault
    // (and SSE, which it needs, is part of every x86_64 processor).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((entry as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}

impl<T> Deref for Zeroed<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Zeroed::Vec(v) => v,
            #[cfg(unix)]
            // SAFETY: the mapping is page-aligned (at least `T`'s alignment, checked in `new`),
            // holds `len * size_of::<T>()` bytes, starts zeroed (a valid `T`: `Zeroable`), and
            // lives as long as `self`; it is only ever reached through this shared slice, whose
            // entries (atomics) handle concurrent writes themselves.
            Zeroed::Map(map, len, _) => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len)
            },
        }
    }
}
