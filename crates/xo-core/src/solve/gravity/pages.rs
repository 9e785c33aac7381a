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

/// `len` zeroed entries of `T`, made only by [`Zeroed::new`] (its field is private to this
/// file, so the mapping's length and alignment, on which the `unsafe` view rests, are always
/// the ones `new` checked).
pub(super) struct Zeroed<T>(Memory<T>);

/// The memory behind a [`Zeroed`].
enum Memory<T> {
    /// A plain vector.
    Vec(Vec<T>),
    /// An anonymous mapping holding `len` entries, and whether huge pages were asked for (read
    /// by the tests).
    #[cfg(unix)]
    Map(
        memmap2::MmapMut,
        usize,
        #[cfg_attr(not(test), allow(dead_code))] bool,
        std::marker::PhantomData<T>,
    ),
}

impl<T: bytemuck::Zeroable + Sync> Zeroed<T> {
    /// `len` zeroed entries, mapped when large, with huge pages if `huge`.
    ///
    /// Huge pages save the TLB misses of a long search, but a fault on one may stall for
    /// milliseconds while the kernel compacts memory to find 2 MiB free (Linux's default
    /// `defrag` setting does this for advised mappings): a search of a fraction of a second
    /// could spend seconds in such faults between two readings of its clock, so only jobs with
    /// time to amortise them ask for huge pages.
    pub(super) fn new(len: usize, huge: bool) -> Self {
        #[cfg(unix)]
        let bytes = len.saturating_mul(size_of::<T>());
        #[cfg(unix)]
        if bytes >= MAP_FROM_BYTES
            && align_of::<T>() <= 4096
            && let Ok(map) = memmap2::MmapMut::map_anon(bytes)
        {
            #[cfg(target_os = "linux")]
            if huge {
                let _ = map.advise(memmap2::Advice::HugePage);
            }
            return Zeroed(Memory::Map(map, len, huge, std::marker::PhantomData));
        }
        #[cfg(not(unix))]
        let _ = huge;
        Zeroed(Memory::Vec(bytemuck::allocation::zeroed_vec(len)))
    }

    /// Whether the entries are mapped with huge pages asked for.
    #[cfg(test)]
    pub(super) fn huge_pages(&self) -> bool {
        match &self.0 {
            Memory::Vec(_) => false,
            #[cfg(unix)]
            Memory::Map(_, _, huge, _) => cfg!(target_os = "linux") && *huge,
        }
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
        match &self.0 {
            Memory::Vec(v) => v,
            #[cfg(unix)]
            // SAFETY: the mapping is page-aligned (at least `T`'s alignment, checked in `new`,
            // the only maker of a `Memory::Map`), holds `len * size_of::<T>()` bytes, starts zeroed (a valid `T`: `Zeroable`), and
            // lives as long as `self`; it is only ever reached through this shared slice, whose
            // entries (atomics) handle concurrent writes themselves.
            Memory::Map(map, len, _, _) => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn huge_pages_only_when_asked_and_the_entries_start_zeroed() {
        // 4 MiB: mapped (2 MiB and more), with or without huge pages as asked.
        for huge in [false, true] {
            let z = Zeroed::<AtomicU64>::new(1 << 19, huge);
            assert_eq!(z.len(), 1 << 19);
            assert!(z
                .iter()
                .step_by(4096)
                .all(|e| e.load(std::sync::atomic::Ordering::Relaxed) == 0));
            assert_eq!(z.huge_pages(), huge && cfg!(target_os = "linux"));
        }
        // Small tables are plain vectors.
        assert!(!Zeroed::<AtomicU64>::new(16, true).huge_pages());
    }
}
