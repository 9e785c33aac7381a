//! The gravity solver's transposition table: one word per entry holding the part of the mixed key
//! that the index does not already determine, above a stored bound, so that a probe is one cache
//! miss and a hit is exact (never a collision). Entries are atomics read and written with relaxed
//! ordering (plain moves on x86), so the threads of one search can share a table: a one-word
//! entry is read whole or not at all, and every entry any thread writes is a true bound.
//!
//! Eight-byte entries with room to spare also keep the position's stones and come in pairs: a
//! key may sit in either entry of its pair, the first keeping the position with fewer stones
//! (the most work below it), the second the latest. On the empty 7x6 board, pairs visit 11%
//! fewer positions than one entry a key in the same 256 MiB (363M against 408M), fewer than one
//! entry a key in twice the memory (357M in 512 MiB).

use super::pages::{prefetch, Zeroed};
use crate::games::gravity::Bits;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// The smallest table: 2^10 entries.
const MIN_INDEX_BITS: u32 = 10;

/// The entries, in the narrowest word that holds a key rest and a bound.
enum Entries {
    /// Key rest and bound fit 32 bits.
    Narrow(Zeroed<AtomicU32>),
    /// Wider (smaller tables, or boards of more key bits such as 8x7).
    Wide(Zeroed<AtomicU64>),
    /// Wider, with room for the stones count, in pairs: a key may sit in either entry of its
    /// pair, the first keeping the position with fewer stones (more work below it), the second
    /// the latest.
    Paired(Zeroed<AtomicU64>),
    /// Wider still (boards of the 128-bit layout with more than 64 bits of key rest and bound):
    /// two words, which a concurrent write could tear, so such a table is never shared
    /// ([`Table::shareable`]).
    Huge(Zeroed<[AtomicU64; 2]>),
}

/// A transposition table of bounds, `2^bits` entries, indexed by a bijective mix of the key.
pub(super) struct BoundTable<B> {
    entries: Entries,
    /// Keys are words of the board's layout.
    word: PhantomData<B>,
    bits: u32,
    /// Key bits: `W*(H+1)`.
    key_bits: u32,
    /// Bits of a stored bound (never 0 for a used entry).
    value_bits: u32,
}

/// Bits of the stones count kept in a paired entry.
const STONES_BITS: u32 = 7;

impl<B: Bits> BoundTable<B> {
    /// The index bits and entry bytes (4, 8 or 16: the narrowest that holds a key rest and a
    /// bound) of a table of at most about `bytes` bytes.
    pub(super) fn shape(bytes: usize, key_bits: u32, value_bits: u32) -> (u32, usize) {
        let fit = |entry: usize| {
            let entries = (bytes / entry).max(1);
            (usize::BITS - 1 - entries.leading_zeros()).max(MIN_INDEX_BITS)
        };
        for entry in [4usize, 8] {
            let bits = fit(entry);
            if key_bits.saturating_sub(bits) + value_bits <= 8 * entry as u32 {
                return (bits, entry);
            }
        }
        (fit(16), 16)
    }

    /// Bytes of a table of `2^bits` entries of `entry` bytes.
    pub(super) fn bytes(bits: u32, entry: usize) -> usize {
        entry << bits
    }

    /// A table of zeros; `touch` writes every page now (instead of at first use: a query then
    /// pays no page faults, but the allocation takes as long as writing the table); `huge` asks
    /// for huge pages (see [`Zeroed::new`]).
    pub(super) fn new(
        bits: u32,
        entry: usize,
        key_bits: u32,
        value_bits: u32,
        touch: bool,
        huge: bool,
    ) -> Self {
        // A table written now is worth its huge pages (a benchmark's, a server's).
        let huge = huge || touch;
        fn zeros<T: bytemuck::Zeroable + Sync>(
            len: usize,
            touch: bool,
            huge: bool,
            clear: impl Fn(&T),
        ) -> Zeroed<T> {
            let v = Zeroed::new(len, huge);
            if touch {
                v.iter().for_each(clear);
            }
            v
        }
        let len = 1usize << bits;
        let paired = key_bits.saturating_sub(bits - 1) + value_bits + STONES_BITS <= 64;
        let (t, h) = (touch, huge);
        let entries = match entry {
            4 => Entries::Narrow(zeros(len, t, h, |e: &AtomicU32| e.store(0, Relaxed))),
            8 if paired => Entries::Paired(zeros(len, t, h, |e: &AtomicU64| e.store(0, Relaxed))),
            8 => Entries::Wide(zeros(len, t, h, |e: &AtomicU64| e.store(0, Relaxed))),
            _ => Entries::Huge(zeros(len, t, h, |e: &[AtomicU64; 2]| e[0].store(0, Relaxed))),
        };
        BoundTable { entries, word: PhantomData, bits, key_bits, value_bits }
    }

    /// Whether the table's memory asked for huge pages.
    #[cfg(test)]
    pub(super) fn huge_pages(&self) -> bool {
        match &self.entries {
            Entries::Narrow(e) => e.huge_pages(),
            Entries::Paired(e) | Entries::Wide(e) => e.huge_pages(),
            Entries::Huge(e) => e.huge_pages(),
        }
    }

    /// The table's `(bits, entry)`: `2^bits` entries of `entry` bytes.
    pub(super) fn layout(&self) -> (u32, usize) {
        let entry = match self.entries {
            Entries::Narrow(_) => 4,
            Entries::Paired(_) | Entries::Wide(_) => 8,
            Entries::Huge(_) => 16,
        };
        (self.bits, entry)
    }

    /// Whether threads may share the table (its entries are single words).
    pub(super) fn shareable(&self) -> bool {
        !matches!(self.entries, Entries::Huge(_))
    }

    /// A bijection of `key_bits`-bit keys that spreads every key bit over the index.
    #[inline(always)]
    fn mix(&self, key: B) -> B {
        let kb = self.key_bits;
        let low = B::ALL.shr_or_zero(B::BITS - kb.min(B::BITS));
        let half = kb.div_ceil(2);
        let mut x = key;
        x ^= x >> half;
        x = x.wrapping_mul(B::MIX[0]) & low;
        x ^= x >> half;
        x = x.wrapping_mul(B::MIX[1]) & low;
        x ^= x >> half;
        x
    }

    /// The index of a mixed key, and the rest of it (what the entry keeps).
    #[inline(always)]
    fn split(&self, x: B) -> (usize, B) {
        let index = (x & ((B::ONE << self.bits) - B::ONE)).to_u128() as usize;
        (index, x >> self.bits)
    }

    /// Starts bringing in the entry of `key` (see [`prefetch`]), to be read soon by
    /// [`Table::get_mixed`] with the mixed key returned here.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: B) -> B {
        let mixed = self.mix(key);
        let (i, _) = self.split(mixed);
        match &self.entries {
            Entries::Narrow(t) => prefetch(&t[i]),
            Entries::Wide(t) => prefetch(&t[i]),
            // A pair's first entry: in a mapped (page-aligned) table, the pair shares its line.
            Entries::Paired(t) => prefetch(&t[i & !1]),
            Entries::Huge(t) => prefetch(&t[i]),
        }
        mixed
    }

    /// The stored bound of `key` (0: none).
    #[inline(always)]
    pub(super) fn get(&self, key: B) -> u32 {
        self.get_mixed(self.mix(key))
    }

    /// The stored bound of the key whose mix is `x` (0: none).
    #[inline(always)]
    pub(super) fn get_mixed(&self, x: B) -> u32 {
        if let Entries::Paired(t) = &self.entries {
            return self.get_paired(t, x);
        }
        let (i, rest) = self.split(x);
        // An entry's rest and bound fit the word (at most 118 + 8 bits in 128, 54 + 8 in 64).
        let e = B::from_u128(match &self.entries {
            Entries::Narrow(t) => t[i].load(Relaxed) as u128,
            Entries::Wide(t) | Entries::Paired(t) => t[i].load(Relaxed) as u128,
            Entries::Huge(t) => {
                (t[i][1].load(Relaxed) as u128) << 64 | t[i][0].load(Relaxed) as u128
            }
        });
        if e >> self.value_bits == rest {
            (e & ((B::ONE << self.value_bits) - B::ONE)).to_u128() as u32
        } else {
            0
        }
    }

    /// Stores bound `value` (never 0) for `key`, a position of `stones` stones, replacing
    /// whatever the slot held (in a paired table: the key's own entry, else the first entry if
    /// it holds no fewer stones, else the second).
    #[inline(always)]
    pub(super) fn put(&self, key: B, value: u32, stones: u32) {
        if let Entries::Paired(t) = &self.entries {
            return self.put_paired(t, key, value, stones);
        }
        let (i, rest) = self.split(self.mix(key));
        let e = (rest << self.value_bits | B::from_u128(value as u128)).to_u128();
        match &self.entries {
            Entries::Narrow(t) => t[i].store(e as u32, Relaxed),
            Entries::Wide(t) | Entries::Paired(t) => t[i].store(e as u64, Relaxed),
            Entries::Huge(t) => {
                t[i][0].store(e as u64, Relaxed);
                t[i][1].store((e >> 64) as u64, Relaxed);
            }
        }
    }

    /// The pair of a mixed key (its first entry's index) and the rest of the key (one bit more
    /// than [`Table::split`]'s: the pair's two entries share the index's lowest bit).
    #[inline(always)]
    fn split_paired(&self, x: B) -> (usize, u64) {
        let index = (x & ((B::ONE << self.bits) - B::ONE)).to_u128() as usize & !1;
        (index, (x >> (self.bits - 1)).to_u128() as u64)
    }

    #[inline(always)]
    fn get_paired(&self, t: &[AtomicU64], x: B) -> u32 {
        let (i, rest) = self.split_paired(x);
        let shift = self.value_bits + STONES_BITS;
        let value = (1u64 << self.value_bits) - 1;
        for e in [t[i].load(Relaxed), t[i + 1].load(Relaxed)] {
            if e >> shift == rest && e & value != 0 {
                return (e & value) as u32;
            }
        }
        0
    }

    #[inline(always)]
    fn put_paired(&self, t: &[AtomicU64], key: B, value: u32, stones: u32) {
        let (i, rest) = self.split_paired(self.mix(key));
        let shift = self.value_bits + STONES_BITS;
        let stones = stones.min((1 << STONES_BITS) - 1) as u64;
        let e = rest << shift | stones << self.value_bits | value as u64;
        let first = t[i].load(Relaxed);
        let slot = if first >> shift == rest {
            i
        } else if t[i + 1].load(Relaxed) >> shift == rest {
            i + 1
        } else if first == 0 || (first >> self.value_bits) & ((1 << STONES_BITS) - 1) >= stones {
            i
        } else {
            i + 1
        };
        t[slot].store(e, Relaxed);
    }
}
