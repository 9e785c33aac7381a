//! The AVX2 kernel of the filtered pass (x86_64 CPUs since Haswell and Zen): 32 splits per
//! vector. A split's table byte is looked up with `vpshufb`, which picks from 16 bytes by the low
//! nibble of the index: one shuffle per 16-byte piece of the table, the results chosen by the
//! index's higher bits (see `lookup` below). A second `vpshufb` turns the
//! low plane into the bit within the byte. Tables shrink as the pass goes, so later blocks need
//! fewer pieces beyond the first eight. See [`blocks`](super::blocks) for the walk and the hits.

use super::super::scan::SplitSide;
#[cfg(target_arch = "x86_64")]
use super::blocks::{self, Lookup};

/// Proof that the running CPU has AVX2: only [`Avx2::detect`] makes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The proof, if the running CPU has AVX2.
    pub fn detect() -> Option<Avx2> {
        super::choice::PassKernel::Avx2.is_available().then_some(Avx2(()))
    }

    /// [`Kernel::unseen`](super::Kernel::unseen): sets in `table` the bit of each value below
    /// `limit` whose byte in `seen` is 0 (32 bytes a compare, their bits by `vpmovmskb`).
    /// `limit <= seen.len()`, which is a multiple of 32 (of at most 4096 bytes).
    pub fn unseen(self, seen: &[u8], limit: usize, table: &mut [u64; 64]) {
        assert!(limit <= seen.len() && seen.len().is_multiple_of(32) && seen.len() <= 64 * 64);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2 (an `Avx2` proves it).
        unsafe {
            x86::unseen(seen, limit, table)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (seen, limit, table);
            unreachable!("an Avx2 is only made on x86_64")
        }
    }

    /// [`Kernel::mark_options`](super::Kernel::mark_options) (less its scratch space).
    pub fn mark<const H: usize>(
        self,
        pairs: usize,
        lo: &SplitSide,
        hi: &[SplitSide; H],
        tables: &mut [[u64; 64]; H],
        count: &mut u64,
    ) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2 (an `Avx2` proves it).
        unsafe {
            x86::mark(pairs, lo, hi, tables, count)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (pairs, lo, hi, tables, count);
            unreachable!("an Avx2 is only made on x86_64")
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// See [`Avx2::mark`].
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn mark<const H: usize>(
        pairs: usize,
        lo: &SplitSide,
        hi: &[SplitSide; H],
        tables: &mut [[u64; 64]; H],
        count: &mut u64,
    ) {
        // SAFETY: this function has AVX2, which the caller guarantees the CPU has.
        unsafe {
            match pairs {
                1 => blocks::mark::<Pieces<1>, H>(pairs, lo, hi, tables, count),
                2 => blocks::mark::<Pieces<2>, H>(pairs, lo, hi, tables, count),
                _ => blocks::mark::<Pieces<4>, H>(pairs, lo, hi, tables, count),
            }
        }
    }

    /// See [`Avx2::unseen`].
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn unseen(seen: &[u8], limit: usize, table: &mut [u64; 64]) {
        for at in (0..limit).step_by(32) {
            // SAFETY: `at + 32 <= seen.len()` (`at < limit <= seen.len()`, all multiples of
            // 32); this function has AVX2.
            let zero = unsafe {
                let bytes = _mm256_loadu_si256(seen.as_ptr().add(at).cast());
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, _mm256_setzero_si256())) as u32
            };
            let keep = if limit - at >= 32 { u32::MAX } else { (1u32 << (limit - at)) - 1 };
            table[at / 64] |= u64::from(zero & keep) << (at % 64);
        }
    }

    /// A table of `1024 P` bits as 16-byte pieces, each in both lanes of a register. For
    /// `P = 4` the table is two halves of 256 bytes (bit 11 of the value chooses), each with its
    /// own pieces.
    pub(super) struct Pieces<const P: usize> {
        pieces: [[__m256i; 16]; 2],
        used: [usize; 2],
        /// When every set bit lies in 2, 4 or 8 pieces from the byte `base` on (tables
        /// below 2048 bits): that many, loaded from `base`, and looked up alone. Else 0.
        window: usize,
        base: u8,
    }

    impl<const P: usize> Lookup for Pieces<P> {
        #[inline(always)]
        unsafe fn new(table: &[u64; 64], _pairs: usize) -> Self {
            let bytes = blocks::table_bytes(table);
            // SAFETY: the caller guarantees AVX2.
            let mut pieces = [[unsafe { _mm256_setzero_si256() }; 16]; 2];
            // A window of eight pieces over a table of 128 bytes is the whole table, which
            // the tree below looks up without moving the index.
            if P < 4
                && let Some((base, window)) = window_of(&table[..16 * P])
                && (P > 1 || window < 8)
            {
                for (j, piece) in pieces[0].iter_mut().enumerate().take(window) {
                    let at = base + 16 * j;
                    // SAFETY: `at + 16 <= 255 + 128 < 512` bytes; the caller guarantees
                    // AVX2.
                    *piece = unsafe {
                        _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes[at..].as_ptr().cast()))
                    };
                }
                return Pieces { pieces, used: [window; 2], window, base: base as u8 };
            }
            let mut used = [8; 2];
            let halves = if P == 4 { 2 } else { 1 };
            for (h, (pieces, used)) in pieces.iter_mut().zip(&mut used).enumerate().take(halves) {
                // The tree always reads the first eight pieces; later ones only where in use.
                if P > 1 {
                    *used = blocks::pieces_in_use(&table[32 * h..32 * h + 32], 16).max(8);
                }
                for (j, piece) in pieces.iter_mut().enumerate().take(*used) {
                    let at = h * 256 + 16 * j;
                    // SAFETY: `at + 16 <= 512` bytes; the caller guarantees AVX2.
                    *piece = unsafe {
                        _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes[at..].as_ptr().cast()))
                    };
                }
            }
            Pieces { pieces, used, window: 0, base: 0 }
        }

        #[inline(always)]
        unsafe fn hits(&self, lo: &[&[u8]; 2], hi: &[&[u8]; 2], at: usize) -> u64 {
            // SAFETY: the caller guarantees 64 bytes from `at` in every plane, and AVX2.
            unsafe { self.hits64::<0>(lo, hi, at) }
        }

        #[inline(always)]
        unsafe fn hits_by<const W: usize>(
            &self,
            lo: &[&[u8]; 2],
            hi: &[&[u8]; 2],
            at: usize,
        ) -> u64 {
            // SAFETY: the caller guarantees 64 bytes from `at` in every plane, AVX2, and that
            // `W` is 0 or this lookup's window.
            unsafe { self.hits64::<W>(lo, hi, at) }
        }

        #[inline(always)]
        unsafe fn scan(
            &self,
            lo: &[&[u8]; 2],
            hi: &[&[u8]; 2],
            start: usize,
            end: usize,
            notes: &mut [(u32, u64)],
        ) -> usize {
            // One loop per lookup, chosen once for the block: the loop then holds no branch
            // but its own.
            // SAFETY: the caller guarantees `scan`'s conditions; each `W` is the window.
            unsafe {
                match self.window {
                    2 => blocks::scan_runs::<Self, 2>(self, lo, hi, start, end, notes),
                    4 => blocks::scan_runs::<Self, 4>(self, lo, hi, start, end, notes),
                    8 => blocks::scan_runs::<Self, 8>(self, lo, hi, start, end, notes),
                    _ => blocks::scan_runs::<Self, 0>(self, lo, hi, start, end, notes),
                }
            }
        }
    }

    impl<const P: usize> Pieces<P> {
        /// The hit mask of the 64 splits from `at`, by the window of `W` pieces (2, 4 or 8), or
        /// for `W = 0` by the window this lookup has (or the whole table).
        ///
        /// # Safety
        /// Every plane holds 64 bytes from `at`; the CPU has AVX2.
        #[inline(always)]
        unsafe fn hits64<const W: usize>(
            &self,
            lo: &[&[u8]; 2],
            hi: &[&[u8]; 2],
            at: usize,
        ) -> u64 {
            let mut mask = 0u64;
            for k in 0..2 {
                // SAFETY: the caller guarantees 64 bytes from `at` in every plane, and AVX2.
                let m = unsafe {
                    let load = |p: &[u8]| _mm256_loadu_si256(p.as_ptr().add(at + 32 * k).cast());
                    let high = _mm256_xor_si256(load(lo[0]), load(hi[0]));
                    let low = _mm256_xor_si256(load(lo[1]), load(hi[1]));
                    self.hits32::<W>(high, low)
                };
                mask |= u64::from(m) << (32 * k);
            }
            mask
        }

        /// The hit mask of 32 splits whose XORs have the planes `high` and `low` (`W` as for
        /// [`Pieces::hits64`]).
        #[inline(always)]
        unsafe fn hits32<const W: usize>(&self, high: __m256i, low: __m256i) -> u32 {
            // SAFETY: the caller guarantees AVX2.
            unsafe {
                // The table's byte index: bits 3-9 of the XOR for 1024 bits, 3-10 for more.
                let index =
                    if P == 1 { _mm256_and_si256(high, _mm256_set1_epi8(0x7f)) } else { high };
                let window = if W == 0 { self.window } else { W };
                let mut byte = match window {
                    2 => windowed::<2>(&self.pieces[0], index, self.base),
                    4 => windowed::<4>(&self.pieces[0], index, self.base),
                    8 => windowed::<8>(&self.pieces[0], index, self.base),
                    _ => lookup(&self.pieces[0], self.used[0], index),
                };
                if P == 4 {
                    let upper = lookup(&self.pieces[1], self.used[1], index);
                    // Bit 6 of the low plane (bit 11 of the XOR) moved to bit 7 chooses.
                    let choose = _mm256_slli_epi16::<1>(low);
                    byte = _mm256_blendv_epi8(byte, upper, choose);
                }
                // 1 << (low & 7): `vpshufb` reads bits 0-3 (bit 3 is 0) and bit 7 (0).
                let bits = _mm256_setr_epi8(
                    1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64,
                    -128, 0, 0, 0, 0, 0, 0, 0, 0,
                );
                let bit = _mm256_shuffle_epi8(bits, low);
                let hit = _mm256_cmpeq_epi8(_mm256_and_si256(byte, bit), bit);
                _mm256_movemask_epi8(hit) as u32
            }
        }
    }

    /// The first byte and the number of pieces (2, 4 or 8) of the narrowest window holding every
    /// set bit of `words`, if one does.
    fn window_of(words: &[u64]) -> Option<(usize, usize)> {
        let Some((low, high)) = blocks::band(words) else {
            return Some((0, 2));
        };
        [2, 4, 8].into_iter().find(|&w| high - low < 16 * w).map(|w| (low, w))
    }

    /// Byte `index` of a table all of whose set bits lie in the `W` pieces `pieces`, which
    /// start at its byte `base`: the index made relative to the base (wrapping), then for
    /// `W < 8` raised by `128 - 16 W` (saturating), which sets bit 7, and so gives 0, beyond
    /// the window, and leaves the bits that choose a piece; then the tree of [`lookup`] over the
    /// window.
    #[inline(always)]
    unsafe fn windowed<const W: usize>(
        pieces: &[__m256i; 16],
        index: __m256i,
        base: u8,
    ) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let relative = _mm256_sub_epi8(index, _mm256_set1_epi8(base as i8));
            let index = if W == 8 {
                relative
            } else {
                _mm256_adds_epu8(relative, _mm256_set1_epi8((128 - 16 * W) as u8 as i8))
            };
            let leaf = |j: usize| _mm256_shuffle_epi8(pieces[j], index);
            let pick = |a, b, mask| blend(a, b, mask);
            let bit6 = _mm256_add_epi8(index, index);
            let bit5 = _mm256_add_epi8(bit6, bit6);
            let bit4 = _mm256_add_epi8(bit5, bit5);
            let two = |j: usize| pick(leaf(j), leaf(j + 1), bit4);
            match W {
                2 => two(0),
                4 => pick(two(0), two(2), bit5),
                _ => pick(pick(two(0), two(2), bit5), pick(two(4), two(6), bit5), bit6),
            }
        }
    }

    /// `vpblendvb`: the bytes of `b` where bit 7 of `mask`'s byte is set, else those of `a`.
    /// Written in `asm!` so that it stays one instruction: the compiler turns a blend by a
    /// doubled index into a test of the bit and a compare, two instructions more per blend.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn blend(a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
        let out: __m256i;
        // SAFETY: the CPU has AVX2 (this function's feature); the instruction touches
        // registers only.
        unsafe {
            std::arch::asm!(
                "vpblendvb {out}, {a}, {b}, {mask}",
                out = lateout(ymm_reg) out,
                a = in(ymm_reg) a,
                b = in(ymm_reg) b,
                mask = in(ymm_reg) mask,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        out
    }

    /// Byte `index` of the table of up to 256 bytes whose first `used` 16-byte pieces are
    /// `pieces` (the rest 0; the first eight are always looked up).
    ///
    /// The first eight pieces (bytes 0-127) go through a tree: each piece is looked up by the
    /// index's low nibble (`vpshufb` gives 0 where bit 7 of the index is set, that is from byte
    /// 128 on), and bits 4, 5, 6 choose among the results (`vpblendvb` reads bit 7 of each
    /// byte, where doubling brings them). Each later piece is looked up alone, its index
    /// steered to it: bits 4-7 of `index - 16 j` (wrapping) are 0 only in piece j, and adding
    /// 0x70 (saturating) sets bit 7, and so gives 0, everywhere else.
    #[inline(always)]
    unsafe fn lookup(pieces: &[__m256i; 16], used: usize, index: __m256i) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let leaf = |j: usize| _mm256_shuffle_epi8(pieces[j], index);
            let pick = |a, b, mask| blend(a, b, mask);
            // Bits 6, 5, 4 of each byte moved to bit 7 by doubling (adds run on more ports
            // than shifts and shuffles).
            let bit6 = _mm256_add_epi8(index, index);
            let bit5 = _mm256_add_epi8(bit6, bit6);
            let bit4 = _mm256_add_epi8(bit5, bit5);
            let low = pick(pick(leaf(0), leaf(1), bit4), pick(leaf(2), leaf(3), bit4), bit5);
            let high = pick(pick(leaf(4), leaf(5), bit4), pick(leaf(6), leaf(7), bit4), bit5);
            let mut byte = pick(low, high, bit6);
            if used <= 8 {
                return byte;
            }
            let steer = _mm256_set1_epi8(0x70);
            for (j, &piece) in pieces.iter().enumerate().take(used).skip(8) {
                let own = _mm256_sub_epi8(index, _mm256_set1_epi8((16 * j) as u8 as i8));
                let select = _mm256_adds_epu8(own, steer);
                byte = _mm256_or_si256(byte, _mm256_shuffle_epi8(piece, select));
            }
            byte
        }
    }
}
