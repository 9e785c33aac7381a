//! The kernel of the filtered pass (see [`filter`](super::filter)): two operations on bit tables
//! of values, behind one safe interface, [`Kernel`], with one contract and four implementations,
//! chosen at run time by what the CPU has (as memchr does):
//!
//! - [`Kernel::Avx512`] (x86_64 with AVX-512 BW, VBMI, VBMI2, BITALG): 64 splits per byte permute
//!   (`vpermi2b`), the hits compressed out (see [`avx512`]).
//! - [`Kernel::Avx2`] (x86_64 with AVX2: every x86 CPU of the last decade) and [`Kernel::Neon`]
//!   (every aarch64 CPU): the table's bytes looked up 16 at a time from `vpshufb` / `tbl`
//!   registers, one per 16 (`vpshufb`) or 64 (`tbl` of four) bytes of the table that still hold
//!   a value, the hits taken from a bit mask (see [`blocks`], [`avx2`], [`neon`]).
//! - [`Kernel::Scalar`] is plain Rust on any CPU, the reference the others are tested against.
//!
//! A vector kernel can only be had from its token's `detect`, which checks the running CPU, so
//! holding one is the proof that its `unsafe` calls are sound. All four give exactly the same
//! outputs for the same inputs, work counter included (they follow the same blocks and look up
//! runs of 64 splits modulo the table), so that tests compare them word for word. The scalar one
//! is several times slower than candidate testing: the engine uses it only when asked to
//! ([`Method::FilteredOn`](super::Method::FilteredOn)), and its other methods on CPUs with no
//! vector kernel.
//!
//! [`PassKernel`] is the public name of each; `XO_GRUNDY_KERNEL` caps the one chosen (to time or
//! test a weaker path on a CPU that has a stronger one).

// The vector kernels call `target_feature` functions and read vectors through raw pointers;
// every `unsafe` block states why it is sound.
#![allow(unsafe_code)]

mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
// The walk the AVX2 and NEON kernels share (unused where neither can run).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod blocks;
mod choice;
mod neon;
mod sizes;

pub use choice::PassKernel;

use super::scan::SplitSide;
use sizes::{FIRST_BLOCK, MAX_BLOCK};

/// An implementation of the filtered pass's kernel. All give the same outputs for the same
/// inputs; they differ in speed (and in where they run) only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Plain Rust, on any CPU.
    Scalar,
    /// AVX2, on an x86_64 CPU that has it.
    Avx2(avx2::Avx2),
    /// AVX-512, on a CPU that has it.
    Avx512(choice::Avx512),
    /// NEON, on aarch64.
    Neon(neon::Neon),
}

impl Default for Kernel {
    /// The fastest kernel on the running CPU (within `XO_GRUNDY_KERNEL`'s cap).
    fn default() -> Self {
        Kernel::best()
    }
}

impl Kernel {
    /// The kernel `which`, if the running CPU has it.
    pub fn of(which: PassKernel) -> Option<Kernel> {
        match which {
            PassKernel::Scalar => Some(Kernel::Scalar),
            PassKernel::Avx2 => avx2::Avx2::detect().map(Kernel::Avx2),
            PassKernel::Avx512 => choice::Avx512::detect().map(Kernel::Avx512),
            PassKernel::Neon => neon::Neon::detect().map(Kernel::Neon),
        }
    }

    /// The fastest kernel on the running CPU, within `XO_GRUNDY_KERNEL`'s cap
    /// ([`PassKernel::best`]).
    pub fn best() -> Kernel {
        Kernel::at_most(PassKernel::best())
    }

    /// `which` if the running CPU has it, else the fastest weaker one it has.
    pub fn at_most(which: PassKernel) -> Kernel {
        PassKernel::available()
            .into_iter()
            .filter(|k| k.rank() <= which.rank())
            .find_map(Kernel::of)
            .unwrap_or(Kernel::Scalar)
    }

    /// The fastest vector kernel (within the cap), or `None` where there is none: the engine
    /// then values heaps by its other methods, faster than the scalar kernel.
    pub fn vector() -> Option<Kernel> {
        Some(Kernel::best()).filter(|&k| k != Kernel::Scalar)
    }

    /// Whether passes over two heaps at once ([`pass_two`](super::filter)) pay with this
    /// kernel: with AVX-512, which reads their shared side once for both. The AVX2 kernel is
    /// bound by its lookups, not by reading: on .007 to 2^17 (AMD EPYC) it took as much CPU time
    /// per heap one heap at a time, and single heaps wait less for each other's values in the
    /// [`pipeline`](super::pipeline) (wall time 5% less, medians of 15 runs alternating). The
    /// NEON kernel looks up as the AVX2 one does (not measured on an ARM machine: none here).
    pub fn pairs_pay(self) -> bool {
        matches!(self, Kernel::Avx512(_))
    }

    /// The public name of this kernel.
    pub fn name(self) -> PassKernel {
        match self {
            Kernel::Scalar => PassKernel::Scalar,
            Kernel::Avx2(_) => PassKernel::Avx2,
            Kernel::Avx512(_) => PassKernel::Avx512,
            Kernel::Neon(_) => PassKernel::Neon,
        }
    }

    /// The table of the values below `limit` that `seen` does not hold (a byte per value, 0 for
    /// not held), a bit per value (bit `v % 64` of word `v / 64`); every word from `16 * pairs`
    /// on is 0.
    ///
    /// Contract: `pairs` is 1, 2 or 4, `seen.len() == 1024 * pairs` and `limit <= seen.len()`
    /// (it panics otherwise).
    pub fn unseen(self, pairs: usize, seen: &[u8], limit: usize) -> [u64; 64] {
        assert!(matches!(pairs, 1 | 2 | 4) && seen.len() == 1024 * pairs && limit <= seen.len());
        let mut table = [0; 64];
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => {
                // SAFETY: the CPU has the features the kernel enables (an `Avx512` proves it).
                unsafe { avx512::unseen_bits(seen, limit, &mut table[..16 * pairs]) };
            }
            Kernel::Avx2(avx2) => avx2.unseen(seen, limit, &mut table),
            _ => {
                // A word per 64 bytes, a form the compiler vectorises.
                for (w, chunk) in table.iter_mut().zip(seen[..limit].chunks(64)) {
                    for (k, &b) in chunk.iter().enumerate() {
                        *w |= u64::from(b == 0) << k;
                    }
                }
            }
        }
        table
    }

    /// Clears from each of `H` tables (a bit per value as [`Kernel::unseen`] makes them; only
    /// the first `16 * pairs` words may hold any) every value that some `lo[i] ^ hi[h][i]`
    /// takes, and adds to `count` the number of splits found hitting a value still in the table.
    ///
    /// Contract: `pairs` is 1, 2 or 4; `lo` and every `hi[h]` have the same length, their
    /// planes match their values ([`SplitSide::len_ok`]), and every XOR is below 4096. `hits` is
    /// scratch space (resized as needed, its contents unspecified after). The tables come out
    /// exact. `count` counts hits the way the vector kernels find them, which every implementation
    /// follows: the splits go in blocks of 256, 512, ..., then 2048 splits, each looked up in the
    /// table as it was at the start of its block (so a value hit twice in a block counts twice),
    /// the full runs of 64 splits of a block modulo `1024 * pairs` (an XOR beyond the table may
    /// hit falsely, and its own bit, outside the table, stays clear), the rest of the block
    /// exactly; the pass ends after the first block that leaves every table empty.
    pub fn mark_options<const H: usize>(
        self,
        pairs: usize,
        lo: &SplitSide,
        hi: &[SplitSide; H],
        tables: &mut [[u64; 64]; H],
        hits: &mut Vec<u8>,
        count: &mut u64,
    ) {
        assert!(matches!(pairs, 1 | 2 | 4));
        // Scratch space for the AVX-512 kernel's compressed hits only.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hits;
        if tables.iter().all(|t| t.iter().all(|&w| w == 0)) {
            return;
        }
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => {
                hits.resize(H * 2 * (MAX_BLOCK + 64), 0);
                // SAFETY: the CPU has the features the kernels enable (an `Avx512` proves it).
                unsafe {
                    match pairs {
                        1 => avx512::mark::<1, H>(lo, hi, tables, hits, count),
                        2 => avx512::mark::<2, H>(lo, hi, tables, hits, count),
                        _ => avx512::mark::<4, H>(lo, hi, tables, hits, count),
                    }
                }
            }
            Kernel::Avx2(avx2) => avx2.mark(pairs, lo, hi, tables, count),
            Kernel::Neon(neon) => neon.mark(pairs, lo, hi, tables, count),
            _ => mark_scalar(pairs, lo, hi, tables, count),
        }
    }
}

/// [`Kernel::mark_options`] in plain Rust.
fn mark_scalar<const H: usize>(
    pairs: usize,
    lo: &SplitSide,
    hi: &[SplitSide; H],
    tables: &mut [[u64; 64]; H],
    count: &mut u64,
) {
    let len = lo.values.len();
    assert!(hi.iter().all(|h| h.values.len() == len && h.len_ok()) && lo.len_ok());
    let (words, size) = (16 * pairs, 1024 * pairs);
    let (mut i, mut block) = (0, FIRST_BLOCK);
    while i < len {
        let end = (i + block).min(len);
        block = (2 * block).min(MAX_BLOCK);
        // The vector kernels look up whole runs of 64 splits modulo the table, the rest exactly.
        let vectors = i + (end - i) / 64 * 64;
        for (table, hi) in tables.iter_mut().zip(hi) {
            let before = *table;
            for j in i..end {
                let v = usize::from(lo.values[j] ^ hi.values[j]);
                assert!(v < 4096, "an XOR beyond the kernel's tables");
                let at = if j < vectors { v % size } else { v };
                if before[at / 64] >> (at % 64) & 1 != 0 {
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
