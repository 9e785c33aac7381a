//! The NEON kernel of the filtered pass (every aarch64 CPU): 16 splits per vector. A split's
//! table byte is looked up with `tbl` of four registers, which picks from 64 bytes and gives 0
//! for an index beyond them: one lookup per 64-byte quarter of the table that still holds a
//! value, the index lowered by 64 for each (wrapping, so that every other quarter gives 0), the
//! results ORed. A one-register `tbl` turns the low plane into the bit within the byte. See
//! [`blocks`](super::blocks) for the walk and the hits.

use super::super::scan::SplitSide;
#[cfg(target_arch = "aarch64")]
use super::blocks::{self, Lookup};

/// Proof that the running CPU has NEON (every aarch64 CPU does): only [`Neon::detect`] makes
/// one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Neon(());

impl Neon {
    /// The proof, on aarch64.
    pub fn detect() -> Option<Neon> {
        super::choice::PassKernel::Neon.is_available().then_some(Neon(()))
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
        #[cfg(target_arch = "aarch64")]
        // SAFETY: aarch64 CPUs have NEON (a `Neon` is only made there).
        unsafe {
            arm::mark(pairs, lo, hi, tables, count)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            let _ = (pairs, lo, hi, tables, count);
            unreachable!("a Neon is only made on aarch64")
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod arm {
    use super::*;
    use std::arch::aarch64::*;

    /// See [`Neon::mark`].
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn mark<const H: usize>(
        pairs: usize,
        lo: &SplitSide,
        hi: &[SplitSide; H],
        tables: &mut [[u64; 64]; H],
        count: &mut u64,
    ) {
        // SAFETY: this function has NEON, which the caller guarantees the CPU has.
        unsafe {
            match pairs {
                1 => blocks::mark::<Quarters<1>, H>(pairs, lo, hi, tables, count),
                2 => blocks::mark::<Quarters<2>, H>(pairs, lo, hi, tables, count),
                _ => blocks::mark::<Quarters<4>, H>(pairs, lo, hi, tables, count),
            }
        }
    }

    /// A table of `1024 P` bits as 64-byte quarters of four registers each. For `P = 4` the
    /// table is two halves of 256 bytes (bit 11 of the value chooses), each with its own.
    pub(super) struct Quarters<const P: usize> {
        quarters: [[uint8x16x4_t; 4]; 2],
        used: [usize; 2],
        /// Below 4096 bits, the byte the quarters start at (the table's first with a set bit);
        /// the index is made relative to it (wrapping, so that bytes before it give 0).
        base: u8,
    }

    impl<const P: usize> Lookup for Quarters<P> {
        #[inline(always)]
        unsafe fn new(table: &[u64; 64], _pairs: usize) -> Self {
            let bytes = blocks::table_bytes(table);
            let half = if P == 4 { 256 } else { 128 * P };
            let halves = if P == 4 { 2 } else { 1 };
            // SAFETY: NEON is there (the caller guarantees it).
            let zero = unsafe { vdupq_n_u8(0) };
            let mut quarters = [[uint8x16x4_t(zero, zero, zero, zero); 4]; 2];
            let mut used = [0; 2];
            let mut base = 0;
            for h in 0..halves {
                let words = &table[32 * h..32 * h + half / 8];
                // Below 4096 bits, the quarters start at the first byte that holds a set bit.
                let (first, last) = match blocks::band(words) {
                    Some((low, high)) if P < 4 => (low, high + 1),
                    Some(_) => (0, 8 * blocks::pieces_in_use(words, 8)),
                    None => (0, 0),
                };
                base = first;
                used[h] = (last - first).div_ceil(64);
                for (j, quarter) in quarters[h].iter_mut().enumerate().take(used[h]) {
                    let at = 256 * h + first + 64 * j;
                    // SAFETY: `at + 64 <= 512` bytes (below 4096 bits `first < 256` and at most
                    // four quarters); NEON is there.
                    *quarter = unsafe { vld1q_u8_x4(bytes[at..].as_ptr()) };
                }
            }
            Quarters { quarters, used, base: base as u8 }
        }

        #[inline(always)]
        unsafe fn hits(&self, lo: &[&[u8]; 2], hi: &[&[u8]; 2], at: usize) -> u64 {
            // SAFETY: the caller guarantees 64 bytes from `at` in every plane, and NEON.
            unsafe {
                let mut hit = [vdupq_n_u8(0); 4];
                for (k, hit) in hit.iter_mut().enumerate() {
                    let load = |p: &[u8]| vld1q_u8(p.as_ptr().add(at + 16 * k));
                    let high = veorq_u8(load(lo[0]), load(hi[0]));
                    let low = veorq_u8(load(lo[1]), load(hi[1]));
                    *hit = self.hits16(high, low);
                }
                let any = vorrq_u8(vorrq_u8(hit[0], hit[1]), vorrq_u8(hit[2], hit[3]));
                if vmaxvq_u8(any) == 0 {
                    return 0;
                }
                // A bit per lane: each lane's weight, summed per half.
                let weights: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
                let weights = vld1q_u8(weights.as_ptr());
                let mut mask = 0u64;
                for (k, &hit) in hit.iter().enumerate() {
                    let w = vandq_u8(hit, weights);
                    let bits = u64::from(vaddv_u8(vget_low_u8(w)))
                        | u64::from(vaddv_u8(vget_high_u8(w))) << 8;
                    mask |= bits << (16 * k);
                }
                mask
            }
        }
    }

    impl<const P: usize> Quarters<P> {
        /// 0xff in the lanes of the 16 splits whose XORs (planes `high` and `low`) hit.
        #[inline(always)]
        unsafe fn hits16(&self, high: uint8x16_t, low: uint8x16_t) -> uint8x16_t {
            // SAFETY: NEON is there (the caller guarantees it).
            unsafe {
                // The table's byte index: bits 3-9 of the XOR for 1024 bits, 3-10 for more.
                let index = if P == 1 { vandq_u8(high, vdupq_n_u8(0x7f)) } else { high };
                let index = if P < 4 { vsubq_u8(index, vdupq_n_u8(self.base)) } else { index };
                let mut byte = lookup(&self.quarters[0][..self.used[0]], index);
                if P == 4 {
                    let upper = lookup(&self.quarters[1][..self.used[1]], index);
                    // Bit 6 of the low plane is bit 11 of the XOR.
                    let choose = vtstq_u8(low, vdupq_n_u8(0x40));
                    byte = vbslq_u8(choose, upper, byte);
                }
                let bits: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];
                let bit = vqtbl1q_u8(vld1q_u8(bits.as_ptr()), vandq_u8(low, vdupq_n_u8(7)));
                vtstq_u8(byte, bit)
            }
        }
    }

    /// Byte `index` of the table whose 64-byte quarters are `quarters` (0 beyond them).
    #[inline(always)]
    unsafe fn lookup(quarters: &[uint8x16x4_t], index: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is there (the caller guarantees it).
        unsafe {
            let mut byte = vdupq_n_u8(0);
            for (j, &quarter) in quarters.iter().enumerate() {
                // `index - 64 j` (wrapping) is below 64 in quarter j only; `tbl` gives 0 beyond.
                let own = vsubq_u8(index, vdupq_n_u8((64 * j) as u8));
                byte = vorrq_u8(byte, vqtbl4q_u8(quarter, own));
            }
            byte
        }
    }
}
