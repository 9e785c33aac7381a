//! Candidate testing: the value of a heap without scattering every two-heap split.
//!
//! The value of heap `n` is the least value that is not an option. Scattering every split's XOR
//! into a table costs a random store per split and does not vectorise. Instead a short prefix of
//! the splits is scattered, which gives a *candidate*: the least value not seen so far. Whether the
//! candidate is an option at all is then decided by a branch-free scan "does any split have
//! `g(a) ^ g(rest - a) == x`", a chunk of splits at a time, which the compiler vectorises. A chunk
//! holding the candidate is scattered too, and the next unseen value becomes the candidate; the
//! scan carries on round the splits (wrapping to the start) until a whole round has passed without
//! meeting the candidate. Every split not scattered has then been compared with it, so it is the
//! least value that is not an option: the result is exact.
//!
//! Both operands are read forward from contiguous memory: next to the values (as `u16`) the engine
//! keeps a mirrored copy `rev[i] = g(cap - 1 - i)`, so `g(rest - a)` for increasing `a` is the
//! forward slice of `rev` from `cap - 1 - rest + a`.

use super::types::Grundy;
use crate::games::octal::OctalMoves;

/// Splits sampled (spread over all of them) and scattered before the candidate scan starts, by
/// default.
pub(crate) const SAMPLE: usize = 512;
/// A vectorised test of a split costs about this fraction of a scattered one (a random store), as
/// measured on .007 with its chunk overheads and misses.
pub(crate) const TEST_PER_STORE: u64 = 3;
/// Splits compared with the candidates between two checks for a hit; a chunk holding one is
/// scattered.
const CHUNK: usize = 512;
/// Candidates tested at once. One is fastest: with more, the compiler's vector code for the scan
/// slows down more than the extra candidates save.
const K: usize = 1;
/// Values at or above this bound switch candidate testing off (the scan works on `u16`, and the
/// XOR of two values below `2^15` and the least value missing among them fit there).
pub(crate) const VALUE_BOUND: Grundy = 1 << 15;

/// The values as `u16`, forward and mirrored; and the same split into two byte planes for the
/// filtered pass (see [`Mirror::sides`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Mirror {
    fwd: Vec<u16>,
    /// `rev[i] = fwd[rev.len() - 1 - i]` for every `i` below `fwd.len()`; its length (the
    /// capacity) is at least `fwd.len()`, and is doubled (and rebuilt) when outgrown.
    rev: Vec<u16>,
    /// [`high_byte`] of each value, forward and mirrored like `fwd` and `rev`.
    fwd_high: AlignedBytes,
    rev_high: Vec<u8>,
    /// [`low_byte`] of each value, forward and mirrored.
    fwd_low: AlignedBytes,
    rev_low: Vec<u8>,
}

/// A growing byte array whose element 1 starts a 64-byte line: the filtered pass reads the
/// forward planes from element 1 in steps of 64, and aligned vector loads are cheaper.
#[derive(Debug, Clone, Default)]
struct AlignedBytes {
    buf: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedBytes {
    fn push(&mut self, b: u8) {
        if self.start + self.len == self.buf.len() {
            // A new buffer, with room for the offset; a clone is merely unaligned.
            let mut buf = vec![0u8; (2 * self.len).max(1024) + 64];
            let start = (64 - (buf.as_ptr() as usize + 1) % 64) % 64;
            buf[start..start + self.len].copy_from_slice(self.as_slice());
            (self.buf, self.start) = (buf, start);
        }
        self.buf[self.start + self.len] = b;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }
}

/// Bits 3 to 10 of a value: the byte of a bit table that holds the value's bit.
pub(crate) fn high_byte(v: u16) -> u8 {
    (v >> 3) as u8
}

/// Bits 0 to 2 of a value (its bit within [`high_byte`]), with bit 11 moved to bit 6.
pub(crate) fn low_byte(v: u16) -> u8 {
    ((v & 7) | ((v >> 11) & 1) << 6) as u8
}

impl Mirror {
    /// Appends a value below [`VALUE_BOUND`].
    pub fn push(&mut self, v: Grundy) {
        let n = self.fwd.len();
        let w = v as u16;
        self.fwd.push(w);
        self.fwd_high.push(high_byte(w));
        self.fwd_low.push(low_byte(w));
        if n < self.rev.len() {
            let at = self.rev.len() - 1 - n;
            self.rev[at] = w;
            self.rev_high[at] = high_byte(w);
            self.rev_low[at] = low_byte(w);
        } else {
            self.rebuild();
        }
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.fwd.len()
    }

    /// The values, forward.
    pub fn values(&self) -> &[u16] {
        &self.fwd
    }

    fn rebuild(&mut self) {
        let cap = (2 * self.fwd.len()).next_power_of_two().max(1024);
        self.rev = vec![0; cap];
        for (r, &v) in self.rev[cap - self.fwd.len()..].iter_mut().rev().zip(&self.fwd) {
            *r = v;
        }
        self.rev_high = self.rev.iter().map(|&v| high_byte(v)).collect();
        self.rev_low = self.rev.iter().map(|&v| low_byte(v)).collect();
    }

    /// `(g(a), g(rest - a))` for `a` in `from..to`, both as forward slices; `1 <= from <= to`,
    /// `rest - from < len` and `to <= rest + 1`.
    #[inline]
    pub fn pairs(&self, rest: usize, from: usize, to: usize) -> (&[u16], &[u16]) {
        // rev[cap - 1 - (rest - a)] = g(rest - a), increasing with a.
        let start = self.rev.len() + from - 1 - rest;
        (&self.fwd[from..to], &self.rev[start..start + (to - from)])
    }

    /// Like [`pairs`](Self::pairs), with the byte planes of each side (see [`SplitSide`]).
    #[inline]
    pub fn sides(&self, rest: usize, from: usize, to: usize) -> [SplitSide<'_>; 2] {
        let (lo, hi) = self.pairs(rest, from, to);
        let start = self.rev.len() + from - 1 - rest;
        let end = start + (to - from);
        [
            SplitSide {
                values: lo,
                planes: [&self.fwd_high.as_slice()[from..to], &self.fwd_low.as_slice()[from..to]],
            },
            SplitSide {
                values: hi,
                planes: [&self.rev_high[start..end], &self.rev_low[start..end]],
            },
        ]
    }
}

/// One side of a run of splits `(a, rest - a)`: the values `g(a)` (or `g(rest - a)`), and their
/// [`high_byte`]s and [`low_byte`]s. Both functions are linear over XOR, so the planes of
/// `g(a) ^ g(rest - a)` are the XORs of the two sides' planes (for values below `2^12`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SplitSide<'a> {
    pub values: &'a [u16],
    pub planes: [&'a [u8]; 2],
}

impl SplitSide<'_> {
    /// Whether both planes are as long as the values.
    pub fn len_ok(&self) -> bool {
        self.planes.iter().all(|p| p.len() == self.values.len())
    }
}

/// A stretch of splits `(a, rest - a)` for `a` in `from..to`.
#[derive(Debug, Clone, Copy)]
struct Stretch {
    rest: usize,
    from: usize,
    to: usize,
}

/// Work counters of one heap.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ScanStats {
    /// Splits compared with a candidate (or scattered).
    pub splits: u64,
    /// Candidates found to be options (each cost a scan up to the hit).
    pub rejected: u64,
    /// Splits scattered into the table (a random store each).
    pub stores: u64,
}

/// The value of heap `n = m.len()` (or of a later heap `n` that needs no value at or above
/// `m.len()`), testing candidates after scattering `prefix` splits per splitting move (spread
/// evenly; all of them when there are no more than `prefix`, which leaves nothing to test). Every value
/// so far must be below `1 << bits` (at most 2^15); `seen` is a scratch table. The rules must not
/// split into three heaps.
pub(crate) fn heap_value(
    m: &Mirror,
    rules: &OctalMoves,
    n: usize,
    bits: u32,
    prefix: usize,
    seen: &mut Vec<u8>,
    stats: &mut ScanStats,
) -> Grundy {
    debug_assert!(rules.split3.is_empty());
    let g = &m.fwd;
    // Options are XORs of two values below 2^bits, or single values: all below 2^bits.
    debug_assert!(bits <= 15);
    seen.clear();
    seen.resize((1 << bits) + K, 0);
    for &k in &rules.take_all {
        if n == k {
            seen[0] = 1;
        }
    }
    for &k in &rules.take_some {
        if n > k {
            seen[g[n - k] as usize] = 1;
        }
    }
    let mut stretches: Vec<Stretch> = Vec::with_capacity(rules.split2.len());
    for &k in &rules.split2 {
        if n < k + 2 {
            continue;
        }
        let rest = n - k;
        let half = rest / 2;
        // A sample spread over all the splits sees more values than the first ones: the values
        // of small heaps are small.
        let stride = half / prefix.max(1);
        let (lo, hi) = m.pairs(rest, 1, half + 1);
        if stride <= 1 {
            for (&x, &y) in lo.iter().zip(hi) {
                seen[(x ^ y) as usize] = 1;
            }
            stats.splits += half as u64;
            stats.stores += half as u64;
            continue;
        }
        for (&x, &y) in lo.iter().step_by(stride).zip(hi.iter().step_by(stride)) {
            seen[(x ^ y) as usize] = 1;
        }
        stats.splits += (half / stride) as u64;
        stats.stores += (half / stride) as u64;
        stretches.push(Stretch { rest, from: 1, to: half + 1 });
    }
    let total: usize = stretches.iter().map(|s| s.to - s.from).sum();
    if total == 0 {
        let x = seen.iter().position(|&s| s == 0).unwrap_or(seen.len());
        return x as Grundy;
    }
    // The K least unseen values, increasing, and how many splits in a row (ending where the scan
    // stands) each is known to be absent from.
    let mut cand = [0u16; K];
    let mut clean = [0usize; K];
    let mut next = 0u16;
    for c in &mut cand {
        next = next_unseen(seen, next);
        *c = next;
        next += 1;
    }
    let (mut si, mut pos) = (0, stretches[0].from);
    loop {
        let s = stretches[si];
        let end = (pos + CHUNK).min(s.to);
        let len = end - pos;
        let (lo, hi) = m.pairs(s.rest, pos, end);
        stats.splits += len as u64;
        let hit = hits(lo, hi, &cand);
        if hit.iter().any(|&h| h) {
            // The whole chunk is scattered: finding the next candidates by scanning costs more.
            stats.stores += len as u64;
            for (&p, &q) in lo.iter().zip(hi) {
                seen[(p ^ q) as usize] = 1;
            }
            let mut j = 0;
            for k in 0..K {
                if hit[k] {
                    stats.rejected += 1;
                    seen[cand[k] as usize] = 1;
                } else if seen[cand[k] as usize] == 0 {
                    cand[j] = cand[k];
                    clean[j] = clean[k] + len;
                    j += 1;
                }
            }
            for k in j..K {
                next = next_unseen(seen, next);
                cand[k] = next;
                next += 1;
                clean[k] = len;
            }
        } else {
            for c in &mut clean {
                *c += len;
            }
        }
        if clean[0] >= total {
            return Grundy::from(cand[0]);
        }
        pos = end;
        if pos == s.to {
            si = (si + 1) % stretches.len();
            pos = stretches[si].from;
        }
    }
}

/// The least value from `from` on that is not seen.
#[inline]
fn next_unseen(seen: &[u8], from: u16) -> u16 {
    let mut x = from;
    while seen[x as usize] != 0 {
        x += 1;
    }
    x
}

/// For each candidate, whether some `i` has `lo[i] ^ hi[i]` equal to it; branch-free, so it
/// vectorises.
#[inline]
fn hits(lo: &[u16], hi: &[u16], cand: &[u16; K]) -> [bool; K] {
    let mut acc = [0u16; K];
    for (&p, &q) in lo.iter().zip(hi) {
        let v = p ^ q;
        for k in 0..K {
            acc[k] |= u16::from(v == cand[k]);
        }
    }
    acc.map(|a| a != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn byte_planes_are_the_pairs_split_and_xor_splits_with_them() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut m = Mirror::default();
        // Values below 2^12 (the filtered pass's range), pushed past two rebuilds of `rev`.
        for _ in 0..5000 {
            m.push(rng.random_range(0..4096));
            let n = m.len();
            if n < 2 {
                continue;
            }
            let rest = rng.random_range(1..n);
            let to = rng.random_range(1..=rest / 2 + 1);
            let (lo, hi) = m.pairs(rest, 1, to);
            let [a, b] = m.sides(rest, 1, to);
            assert!(a.len_ok() && b.len_ok() && a.values == lo && b.values == hi);
            let ([hl, ll], [hh, lh]) = (a.planes, b.planes);
            for i in 0..lo.len() {
                let (x, y) = (lo[i], hi[i]);
                assert_eq!(
                    (hl[i], hh[i], ll[i], lh[i]),
                    (high_byte(x), high_byte(y), low_byte(x), low_byte(y))
                );
                // The planes of the XOR are the XORs of the planes, and give the XOR back.
                let v = x ^ y;
                assert_eq!((high_byte(v), low_byte(v)), (hl[i] ^ hh[i], ll[i] ^ lh[i]));
                let (h, l) = (hl[i] ^ hh[i], ll[i] ^ lh[i]);
                let back = (h as u16) << 3 | (l & 7) as u16 | ((l & 0x40) as u16) << 5;
                assert_eq!(back, v, "value {v}");
            }
        }
    }
}
