//! Sparse-space classifications of heaps (see [`engine`](super::engine) for how the engine uses
//! them): the masks, and the search for the mask under which the fewest heaps are rare (a
//! Walsh-Hadamard transform of the values' counts).

use super::types::Grundy;

/// Largest value bit-length for which a mask is searched (the search is `O(b 2^b)`).
const MASK_SEARCH_BITS: u32 = 22;

/// A sparse-space classification of heaps: heap `x` with value `v` has the key
/// `popcount(v & mask) + (x if domain) (mod 2)`, and is *rare* when its key is not `common_key`.
///
/// ```
/// use xo_core::solve::grundy::SparseMask;
/// let m = SparseMask { mask: 0b11, domain: false, common_key: true };
/// assert!(m.is_rare(7, 0b11)); // two masked bits: even
/// assert!(!m.is_rare(7, 0b01));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SparseMask {
    /// The bits of a value whose parity counts.
    pub mask: Grundy,
    /// Whether the heap's own parity counts too (sparse space in the domain).
    pub domain: bool,
    /// The key of common heaps.
    pub common_key: bool,
}

impl SparseMask {
    /// Whether heap `heap` of value `value` is rare.
    pub fn is_rare(&self, heap: usize, value: Grundy) -> bool {
        self.key(heap, value) != self.common_key
    }

    /// The heap's key: the parity of its value's masked bits, and of the heap with the domain.
    pub(crate) fn key(&self, heap: usize, value: Grundy) -> bool {
        ((value & self.mask).count_ones() % 2 == 1) ^ (self.domain && heap % 2 == 1)
    }
}

/// The classification under which the fewest heaps `1..values.len()` are rare, with that number
/// of rare heaps; every value must be below `1 << bits`. `split_parity` is the parity of the counts
/// removed by every splitting move, if they share one (the domain may count only then). `None`
/// when there is no heap to classify or the values are too wide to search.
pub(crate) fn best_mask(
    values: &[Grundy],
    bits: u32,
    split_parity: Option<usize>,
) -> Option<(SparseMask, usize)> {
    if values.len() < 2 || bits > MASK_SEARCH_BITS {
        return None;
    }
    let size = 1usize << bits;
    let mut plain = vec![0i64; size];
    let mut signed = vec![0i64; size];
    for (x, &v) in values.iter().enumerate().skip(1) {
        plain[v as usize] += 1;
        signed[v as usize] += if x % 2 == 0 { 1 } else { -1 };
    }
    walsh_hadamard(&mut plain);
    let total = (values.len() - 1) as i64;
    // f[m] = sum over heaps of (-1)^key.
    let mut best: Option<(SparseMask, i64)> = None;
    let mut consider = |f: &[i64], domain: bool, common_key: bool| {
        // A common heap's value should lie in the sparse class of its own heap: odd masked parity
        // in the range, and key 1 ^ (k mod 2) with the domain. Key 1 counts -1 in f.
        let sign = if common_key { 1 } else { -1 };
        // Mask 0 without the domain classifies nothing: skip it.
        for (m, &fm) in f.iter().enumerate().skip(usize::from(!domain)) {
            let rare = (total + sign * fm) / 2;
            if best.is_none_or(|(_, b)| rare < b) {
                best = Some((SparseMask { mask: m as Grundy, domain, common_key }, rare));
            }
        }
    };
    consider(&plain, false, true);
    if split_parity.is_some() {
        walsh_hadamard(&mut signed);
        consider(&signed, true, split_parity == Some(0));
    }
    best.map(|(s, rare)| (s, rare as usize))
}

/// In place: `f[m]` becomes the sum over `v` of `f[v] * (-1)^popcount(v & m)`.
fn walsh_hadamard(f: &mut [i64]) {
    let mut h = 1;
    while h < f.len() {
        for block in f.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, b) = (*x, *y);
                *x = a + b;
                *y = a - b;
            }
        }
        h *= 2;
    }
}

/// Every value's bit length, at least 6 (one word of options).
pub(crate) fn bits_for(values: &[Grundy]) -> u32 {
    let max = values.iter().copied().max().unwrap_or(0);
    (32 - max.leading_zeros()).max(6)
}
