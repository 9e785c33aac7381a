//! The walk over the splits shared by the AVX2 and NEON kernels: blocks of splits as the
//! contract of [`Kernel::mark_options`](super::Kernel::mark_options) lays them out, each run of
//! 64 splits looked up at once by a [`Lookup`] built from the table as it was at the block's
//! start, its hits (rare after the first blocks) cleared one by one from their exact values, and
//! the rest of each block looked up exactly.

use super::super::scan::SplitSide;
use super::sizes::{FIRST_BLOCK, MAX_BLOCK};

/// A vector kernel's lookup of runs of 64 splits in one table, as the table was when it was made.
pub(super) trait Lookup {
    /// The lookup of `table`, of `1024 * pairs` bits (its words from `16 * pairs` on are 0).
    ///
    /// # Safety
    /// The CPU has the kernel's instructions.
    unsafe fn new(table: &[u64; 64], pairs: usize) -> Self;

    /// Bit `j` set when split `at + j` hits: its XOR modulo `1024 * pairs` is in the table.
    /// `lo` and `hi` are the two sides' planes ([`SplitSide::planes`]).
    ///
    /// # Safety
    /// The CPU has the kernel's instructions, and all four planes hold at least `at + 64` bytes.
    unsafe fn hits(&self, lo: &[&[u8]; 2], hi: &[&[u8]; 2], at: usize) -> u64;

    /// [`Lookup::hits`] by the variant `W` of the lookup: a kernel may compile one loop per
    /// shape of its lookup (as [`scan`] with [`scan_runs`]), in which `W` names the shape
    /// (0: whichever the lookup has). By default, `hits`.
    ///
    /// # Safety
    /// As for [`Lookup::hits`], and `W` is 0 or the shape the lookup has.
    ///
    /// [`scan`]: Lookup::scan
    #[inline(always)]
    unsafe fn hits_by<const W: usize>(&self, lo: &[&[u8]; 2], hi: &[&[u8]; 2], at: usize) -> u64 {
        // SAFETY: the caller's guarantees are those of `hits`.
        unsafe { self.hits(lo, hi, at) }
    }

    /// Looks up the runs of 64 splits from `start` while a whole run fits below `end`, and
    /// notes each run that hits in `notes` (its offset from `start` and its [`hits`] mask, in
    /// order); returns how many it noted. A kernel overrides it to choose its lookup once for
    /// the block rather than once per run ([`scan_runs`] with the shape it has).
    ///
    /// # Safety
    /// As for [`hits`]; all four planes hold at least `end` bytes, and `notes` has room for a
    /// note per run.
    ///
    /// [`hits`]: Lookup::hits
    #[inline(always)]
    unsafe fn scan(
        &self,
        lo: &[&[u8]; 2],
        hi: &[&[u8]; 2],
        start: usize,
        end: usize,
        notes: &mut [(u32, u64)],
    ) -> usize {
        // SAFETY: the caller's guarantees are `scan_runs`'s.
        unsafe { scan_runs::<Self, 0>(self, lo, hi, start, end, notes) }
    }
}

/// [`Lookup::scan`] by [`Lookup::hits_by`]`::<W>`: each run's note written without a branch
/// (hits are scattered after the first blocks, and a branch on each run would mispredict).
///
/// # Safety
/// As for [`Lookup::scan`], and `W` is 0 or the shape `lookup` has.
#[inline(always)]
pub(super) unsafe fn scan_runs<L: Lookup + ?Sized, const W: usize>(
    lookup: &L,
    lo: &[&[u8]; 2],
    hi: &[&[u8]; 2],
    start: usize,
    end: usize,
    notes: &mut [(u32, u64)],
) -> usize {
    debug_assert!(lo.iter().chain(hi).all(|p| p.len() >= end));
    let (mut at, mut noted) = (start, 0);
    while at + 64 <= end {
        // SAFETY: the caller guarantees 64 bytes from `at` in every plane, and the CPU.
        let m = unsafe { lookup.hits_by::<W>(lo, hi, at) };
        notes[noted] = ((at - start) as u32, m);
        noted += usize::from(m != 0);
        at += 64;
    }
    noted
}

/// [`Kernel::mark_options`](super::Kernel::mark_options) by the lookup `L`. Inlined into each
/// kernel's `target_feature` function, so that the lookups compile with its instructions.
///
/// # Safety
/// The CPU has the instructions `L` uses.
#[inline(always)]
pub(super) unsafe fn mark<L: Lookup, const H: usize>(
    pairs: usize,
    lo: &SplitSide,
    hi: &[SplitSide; H],
    tables: &mut [[u64; 64]; H],
    count: &mut u64,
) {
    let len = lo.values.len();
    assert!(hi.iter().all(|h| h.values.len() == len && h.len_ok()) && lo.len_ok());
    let words = 16 * pairs;
    let (mut i, mut block) = (0, FIRST_BLOCK);
    // The runs that hit, per table: made once (a kilobyte to clear), filled anew each block.
    let mut notes = [[(0u32, 0u64); MAX_BLOCK / 64]; H];
    while i < len {
        let end = (i + block).min(len);
        block = (2 * block).min(MAX_BLOCK);
        // SAFETY: the caller guarantees the CPU has `L`'s instructions.
        let lookups: [L; H] = std::array::from_fn(|h| unsafe { L::new(&tables[h], pairs) });
        // The runs that hit, noted, then cleared run by run.
        let start = i;
        let mut noted = [0usize; H];
        for (h, lookup) in lookups.iter().enumerate() {
            // SAFETY: every plane holds `len >= end` bytes (`len_ok` above), and a block has
            // at most `MAX_BLOCK / 64` runs.
            noted[h] = unsafe { lookup.scan(&lo.planes, &hi[h].planes, start, end, &mut notes[h]) };
        }
        i = start + (end - start) / 64 * 64;
        // The tables as the block found them, for its splits after the last whole run (the
        // end of the pass only).
        let before = (i < end).then_some(*tables);
        for (h, table) in tables.iter_mut().enumerate() {
            // The hits' values read whole (two loads, not four plane bytes to reassemble).
            let (lo_values, hi_values) = (&lo.values[start..end], &hi[h].values[start..end]);
            for &(at, mut m) in &notes[h][..noted[h]] {
                *count += u64::from(m.count_ones());
                // Two hits a turn, the second cleared only if there is one: after the first
                // blocks most runs that hit do so once or twice, and their loop then ends
                // without a mispredicted branch. (A noted run has a hit: `m != 0`.)
                loop {
                    let first = at as usize + m.trailing_zeros() as usize;
                    m &= m - 1;
                    // Split 63 of the run stands in for a missing second hit, cleared by 0.
                    let second = at as usize + m.trailing_zeros().min(63) as usize;
                    let is_hit = u64::from(m != 0);
                    m &= m.wrapping_sub(1);
                    let v = usize::from(lo_values[first] ^ hi_values[first]) % 4096;
                    table[v / 64] &= !(1 << (v % 64));
                    let v = usize::from(lo_values[second] ^ hi_values[second]) % 4096;
                    table[v / 64] &= !(is_hit << (v % 64));
                    if m == 0 {
                        break;
                    }
                }
            }
        }
        for (h, (table, before)) in tables.iter_mut().zip(before.iter().flatten()).enumerate() {
            for j in i..end {
                let v = usize::from(lo.values[j] ^ hi[h].values[j]);
                assert!(v < 4096, "an XOR beyond the kernel's tables");
                if before[v / 64] >> (v % 64) & 1 != 0 {
                    *count += 1;
                    table[v / 64] &= !(1 << (v % 64));
                }
            }
        }
        i = end;
        if tables.iter().all(|t| t[..words].iter().all(|&w| w == 0)) {
            break;
        }
    }
}

/// The number of `unit`-byte pieces of `words` (a table's words, or a half of them) up to the
/// last that holds a set bit (the pieces after it need no lookup: every byte there is 0).
pub(super) fn pieces_in_use(words: &[u64], unit: usize) -> usize {
    let used_words = words.iter().rposition(|&w| w != 0).map_or(0, |w| w + 1);
    (used_words * 8).div_ceil(unit)
}

/// The first and last bytes of `words` that hold a set bit, if any.
pub(super) fn band(words: &[u64]) -> Option<(usize, usize)> {
    let first = words.iter().position(|&w| w != 0)?;
    let last = words.iter().rposition(|&w| w != 0)?;
    let low = 8 * first + words[first].trailing_zeros() as usize / 8;
    let high = 8 * last + 7 - words[last].leading_zeros() as usize / 8;
    Some((low, high))
}

/// The bytes of a table: bit `v % 8` of byte `v / 8` holds value `v` (the kernels that read it
/// so run on little-endian CPUs only).
pub(super) fn table_bytes(table: &[u64; 64]) -> &[u8; 512] {
    const _: () = assert!(cfg!(target_endian = "little"), "the tables' bytes are little-endian");
    bytemuck::cast_ref(table)
}
