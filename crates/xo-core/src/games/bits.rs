//! The words a gravity bitboard is made of: `u64` for boards whose layout fits 64 bits
//! (Connect Four and every board up to 8x7), `u128` for every other board of up to 64 cells
//! (8x8, 9x7, 10x6, 16x4, ...). The engine is written once over [`Bits`] and compiled for both,
//! so the common boards pay nothing for the wide ones.
//!
//! ```
//! use xo_core::games::bits::Bits;
//! fn lowest_two<B: Bits>() -> B {
//!     B::ONE | B::ONE << 1
//! }
//! assert_eq!(lowest_two::<u64>(), 3);
//! assert_eq!(lowest_two::<u128>().count_ones(), 2);
//! ```

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// An unsigned machine word used as a set of board cells.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Bits in the word.
    const BITS: u32;
    /// No cell.
    const ZERO: Self;
    /// The first cell.
    const ONE: Self;
    /// Every cell.
    const ALL: Self;
    /// Two odd constants for mixing keys (see the gravity solver's table).
    const MIX: [Self; 2];
    /// Cells set.
    fn count_ones(self) -> u32;
    /// `self << n`, zero when `n` is the width or more.
    fn shl_or_zero(self, n: u32) -> Self;
    /// `self >> n`, zero when `n` is the width or more.
    fn shr_or_zero(self, n: u32) -> Self;
    /// Multiplication modulo `2^BITS`.
    fn wrapping_mul(self, other: Self) -> Self;
    /// The low bits of `x` (all of them when they fit).
    fn from_u128(x: u128) -> Self;
    /// The word as a `u128` (exact).
    fn to_u128(self) -> u128;
}

macro_rules! bits {
    ($t:ty, $mix:expr) => {
        impl Bits for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const ALL: $t = <$t>::MAX;
            const MIX: [$t; 2] = $mix;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn shl_or_zero(self, n: u32) -> $t {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shr_or_zero(self, n: u32) -> $t {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: $t) -> $t {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn from_u128(x: u128) -> $t {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

bits!(u64, [0x9E37_79B9_7F4A_7C15, 0xD6E8_FEB8_6659_FD93]);
bits!(u128, [0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835, 0xD6E8_FEB8_6659_FD93_2545_F491_4F6C_DD1D]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_past_the_width_are_zero() {
        assert_eq!(1u64.shl_or_zero(64), 0);
        assert_eq!(1u128.shl_or_zero(64), 1 << 64);
        assert_eq!(Bits::shr_or_zero(u128::MAX, 128), 0);
        assert!(u64::MIX.iter().chain(&[]).all(|m| m % 2 == 1));
        assert!(u128::MIX.iter().all(|m| m % 2 == 1));
        assert_eq!(<u128 as Bits>::from_u128(u128::MAX).to_u128(), u128::MAX);
        assert_eq!(<u64 as Bits>::from_u128(1 << 64 | 5), 5);
    }
}
