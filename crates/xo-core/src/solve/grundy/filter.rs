//! The filtered pass: the value of a heap from one vectorised pass over all its two-heap splits.
//!
//! Scattering the XOR of every split into a table costs a random store per split, and no vector
//! instruction does that. Testing one *candidate* per pass vectorises, but .007 has dozens of
//! values below the mex with only a handful of witnesses each, so candidates are rejected one
//! after another at the cost of a pass each. The filtered pass tests every split against *all*
//! the values not yet seen at once: they form a bit table of `P * 1024` bits (P = 1, 2 or 4, so
//! that every option fits) held in `2 P` vector registers. The values are kept as two byte planes
//! (see [`Mirror::sides`]): bits 3-10, which name the table's byte, and bits 0-2, which name
//! the bit in it. XOR acts on each plane alone, so 64 splits are looked up at once: `vpermi2b`
//! fetches each split's byte of the table and `vpshufbitqmb` picks its bit. Only the splits that
//! hit a value still in the table (a few hundred per heap, as the table empties fast) are written
//! out, compressed, and cleared from the table, which is reloaded after each block of splits.
//! After the pass every value the table held is known to be an option or not, so the mex is exact.
//!
//! Two things keep the table small. A sample of splits (runs of consecutive splits spread evenly)
//! is scattered first, so that the common values never enter it. And the first pass tracks only
//! the values below a *guess* a little above the recent values, since options above the mex are
//! hits that decide nothing; when every tracked value turns out to be an option, a second pass
//! tracks the rest. The lookups and clears are the [`kernel`](super::kernel)'s: AVX-512 (BW, VBMI
//! for the byte permute, BITALG for the bit pick, VBMI2 for the compress) where the running CPU
//! has it, or a scalar implementation of the same contract; the engine uses its other methods
//! rather than the scalar kernel unless asked to.
//!
//! Heaps `n` and `n + 1` share the first parts of their splits (`g(a)` for `a` from 1) and their
//! second parts lie one apart, so one pass values both, reading each value from memory once
//! ([`pass_two`]): with AVX-512, where reading is a part of the cost; the AVX2 and NEON kernels
//! are bound by their lookups and value one heap per pass ([`Kernel::pairs_pay`]). The
//! [`pipeline`](super::pipeline) spreads the heaps (or pairs) over threads.
//!
//! On .007 to 2^17 (heaps in pairs, one core of the development machine) a split costs about
//! 0.08 ns: 0.03 ns for the lookup itself (the byte permute, two cycles on one port, bounds it),
//! the rest for the hits (written out, cleared a byte at a time, the table reloaded) and for the
//! sample.

use super::kernel::Kernel;
use super::scan::{Mirror, SplitSide};
use super::types::Grundy;
use crate::games::octal::OctalMoves;

/// Splits per heap up to which every split is simply scattered.
const SMALL: usize = 1024;
/// Splits sampled (in runs spread evenly) and scattered before the pass.
const SAMPLE: usize = 512;
/// Consecutive splits in a run of the sample.
const SAMPLE_RUN: usize = 64;
/// Values at or above `1 << MAX_BITS` switch the filtered pass off (the table then has 4096 bits).
pub(crate) const MAX_BITS: u32 = 12;
/// Values looked back at by [`guess`].
const GUESS_FROM: usize = 32;
/// How far above the largest recent value [`guess`] goes.
const GUESS_MARGIN: usize = 32;

/// Scratch space of one thread, the kernel it runs, and its work counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// The kernel of the passes.
    pub kernel: Kernel,
    /// Whether [`unit_values`] values two heaps in one pass ([`pass_two`]) rather than one
    /// after the other: the kernel's [`Kernel::pairs_pay`] unless a test chooses.
    pub pairs: bool,
    /// Tables of seen options, for reuse.
    spare: Vec<Vec<u8>>,
    out: Vec<u8>,
    /// Heaps valued by a filtered pass.
    pub heaps: u64,
    /// Filtered passes (more than one per heap when the guess was too low).
    pub passes: u64,
    /// Splits the pass found hitting an unseen value (written out and marked).
    pub hits: u64,
    /// Splits looked at.
    pub splits: u64,
    /// Candidate testing's table (for workers that value heaps that way).
    scan_table: Vec<u8>,
    /// Heaps valued by candidate testing, their candidates rejected and splits looked at.
    pub candidate_heaps: u64,
    /// Candidates found to be options.
    pub candidates_rejected: u64,
    /// Splits candidate testing looked at.
    pub candidate_splits: u64,
}

impl Scratch {
    /// Empty scratch space for passes by `kernel`.
    pub fn new(kernel: Kernel) -> Self {
        Scratch { kernel, pairs: kernel.pairs_pay(), ..Scratch::default() }
    }

    /// Adds `other`'s work counters to these.
    pub fn add(&mut self, other: &Scratch) {
        self.heaps += other.heaps;
        self.passes += other.passes;
        self.hits += other.hits;
        self.splits += other.splits;
        self.candidate_heaps += other.candidate_heaps;
        self.candidates_rejected += other.candidates_rejected;
        self.candidate_splits += other.candidate_splits;
    }

    /// The value of heap `n` by candidate testing ([`scan::heap_value`]: `m` holds every value
    /// it reaches, all below `1 << bits`), counted.
    pub fn candidates(
        &mut self,
        m: &Mirror,
        rules: &OctalMoves,
        n: usize,
        bits: u32,
        prefix: usize,
    ) -> Grundy {
        let mut stats = super::scan::ScanStats::default();
        let v =
            super::scan::heap_value(m, rules, n, bits, prefix, &mut self.scan_table, &mut stats);
        self.candidate_heaps += 1;
        self.candidates_rejected += stats.rejected;
        self.candidate_splits += stats.splits;
        v
    }
}

/// The value of heap `n`, with every value of a heap below `n` in `m` (or at least every heap
/// that `n` can reach) and every value below `1 << bits` (`bits <= MAX_BITS`). The rules must not
/// split into three heaps. The passes run on `s.kernel`.
///
/// `guess` should be a little above the value: the first pass tracks only the values below it,
/// which saves marking options above the mex; if every one of them turns out to be an option, a
/// second pass tracks the rest. The result is exact whatever the guess.
pub(crate) fn heap_value(
    m: &Mirror,
    rules: &OctalMoves,
    n: usize,
    bits: u32,
    guess: usize,
    s: &mut Scratch,
) -> Grundy {
    let heap = prepare(m, rules, n, bits, guess, n, s);
    let table = pass_one(m, rules, &heap, s);
    finish(m, rules, heap, table, [], s)
}

/// The least value below `limit` that neither `seen` (options of heap `n` found otherwise, a byte
/// per value, 0 for not an option, covering `0..limit`) holds nor any split of `n` hits, or
/// `None` when every such value is an option. The pass stops after the first block of splits that leaves none
/// (see [`Kernel::mark_options`]), so it reads only as far as the last of them is first hit.
/// The sparse-space method proves its candidate with it: `limit` is the candidate and the
/// values sought are the dense class's below it that the rare heaps' splits did not give.
/// `bits <= MAX_BITS`, `limit <= 1 << bits`, and the rules must not split into three heaps.
pub(crate) fn least_unhit(
    m: &Mirror,
    rules: &OctalMoves,
    n: usize,
    bits: u32,
    seen: &[u8],
    limit: usize,
    s: &mut Scratch,
) -> Option<Grundy> {
    debug_assert!(bits <= MAX_BITS && limit <= 1 << bits && rules.split3.is_empty());
    let size = 1usize << bits.max(10);
    let mut bytes = s.spare.pop().unwrap_or_default();
    bytes.clear();
    bytes.extend_from_slice(&seen[..limit]);
    bytes.resize(size, 0);
    let mut tables = [s.kernel.unseen(size / 1024, &bytes, limit)];
    s.spare.push(bytes);
    let pairs = kernel_pairs(limit);
    for [lo, hi] in runs(m, rules, n) {
        if tables[0].iter().all(|&w| w == 0) {
            break;
        }
        s.kernel.mark_options(pairs, &lo, &[hi], &mut tables, &mut s.out, &mut s.hits);
    }
    let table = tables[0];
    table.iter().position(|&w| w != 0).map(|w| (64 * w) as Grundy + table[w].trailing_zeros())
}

/// One heap on its way through the filtered pass.
struct Heap {
    n: usize,
    /// Every option is below `size` (1024, 2048 or 4096).
    size: usize,
    /// Options found by scattering (a sample of the splits, the moves that leave one heap), a
    /// byte per value below `size`.
    seen: Vec<u8>,
    /// The pass tracks the values below `limit` that `seen` lacks.
    limit: usize,
    /// Every split was scattered (a small heap): there is no pass.
    scattered: bool,
}

/// Starts heap `n` (see [`heap_value`] for `bits` and `guess`): marks the options of the moves
/// that leave no heap, or one heap below `known`, and a sample of the splits. `m` must hold
/// every value below `known`, which must include every heap the splits of `n` reach; the moves
/// leaving one heap at `known` or above are [`finish`]'s.
fn prepare(
    m: &Mirror,
    rules: &OctalMoves,
    n: usize,
    bits: u32,
    guess: usize,
    known: usize,
    s: &mut Scratch,
) -> Heap {
    debug_assert!(bits <= MAX_BITS && rules.split3.is_empty() && known <= m.len());
    // Tables of 1024, 2048 or 4096 bits: every option is below 1 << bits <= size.
    let size = 1usize << bits.max(10);
    let mut seen = s.spare.pop().unwrap_or_default();
    seen.clear();
    seen.resize(size, 0);
    s.heaps += 1;
    let g = m.values();
    for &k in &rules.take_all {
        if n == k {
            seen[0] = 1;
        }
    }
    for &k in &rules.take_some {
        if n > k && n - k < known {
            seen[g[n - k] as usize] = 1;
        }
    }
    let runs = runs(m, rules, n);
    let total: usize = runs.clone().map(|[lo, _]| lo.values.len()).sum();
    s.splits += total as u64;
    let scattered = total <= SMALL;
    for [lo, hi] in runs {
        let (lo, hi) = (lo.values, hi.values);
        if scattered {
            scatter(&mut seen, lo, hi);
        } else {
            // The sample: runs of consecutive splits (cheaper to read than single ones) spread
            // evenly.
            let step = (lo.len() / (SAMPLE / SAMPLE_RUN)).max(SAMPLE_RUN);
            for start in (0..lo.len().saturating_sub(SAMPLE_RUN)).step_by(step) {
                let end = start + SAMPLE_RUN;
                scatter(&mut seen, &lo[start..end], &hi[start..end]);
            }
        }
    }
    Heap { n, size, seen, limit: guess.clamp(64, size), scattered }
}

/// Marks in `seen` the XOR of every split `(lo[i], hi[i])`.
fn scatter(seen: &mut [u8], lo: &[u16], hi: &[u16]) {
    for (&x, &y) in lo.iter().zip(hi) {
        seen[(x ^ y) as usize] = 1;
    }
}

/// The splits of heap `n`, a run per splitting move (`(a, n - k - a)` for `a` from 1 to half
/// the rest), as the two sides of each.
fn runs<'a>(
    m: &'a Mirror,
    rules: &'a OctalMoves,
    n: usize,
) -> impl Iterator<Item = [SplitSide<'a>; 2]> + Clone + 'a {
    rules.split2.iter().filter(move |&&k| n >= k + 2).map(move |&k| {
        let rest = n - k;
        m.sides(rest, 1, rest / 2 + 1)
    })
}

/// The pairs of registers the kernel's table needs to track the values below `limit`.
fn kernel_pairs(limit: usize) -> usize {
    limit.div_ceil(1024).next_power_of_two()
}

/// Passes over every split of `heap`: of the values below its limit that it has not seen, those
/// that are not options (a bit each).
fn pass_one(m: &Mirror, rules: &OctalMoves, heap: &Heap, s: &mut Scratch) -> [u64; 64] {
    if heap.scattered {
        // No pass: `finish` takes the mex of `seen`.
        return [0; 64];
    }
    let mut tables = [s.kernel.unseen(heap.size / 1024, &heap.seen, heap.limit)];
    s.passes += 1;
    let pairs = kernel_pairs(heap.limit);
    for [lo, hi] in runs(m, rules, heap.n) {
        s.kernel.mark_options(pairs, &lo, &[hi], &mut tables, &mut s.out, &mut s.hits);
    }
    tables[0]
}

/// [`pass_one`] for heaps `n` and `n + 1` at once, which share the first parts of their splits
/// (`g(a)` for `a` from 1), so each value is read from memory once for both.
fn pass_two(
    m: &Mirror,
    rules: &OctalMoves,
    heaps: &mut [Heap; 2],
    s: &mut Scratch,
) -> [[u64; 64]; 2] {
    let [a, b] = heaps;
    debug_assert!(b.n == a.n + 1 && !a.scattered && !b.scattered);
    // Per splitting move: the splits both heaps have; those of b beyond a's are scattered before
    // the tables are made.
    let shared = |k: usize| if a.n >= k + 2 { (a.n - k) / 2 } else { 0 };
    for &k in &rules.split2 {
        if b.n >= k + 2 {
            let rest = b.n - k;
            let [lo, hi] = m.sides(rest, 1, rest / 2 + 1);
            scatter(&mut b.seen, &lo.values[shared(k)..], &hi.values[shared(k)..]);
        }
    }
    let kernel = s.kernel;
    let mut tables = [
        kernel.unseen(a.size / 1024, &a.seen, a.limit),
        kernel.unseen(b.size / 1024, &b.seen, b.limit),
    ];
    s.passes += 2;
    let pairs = kernel_pairs(a.limit.max(b.limit));
    for &k in &rules.split2 {
        let len = shared(k);
        if len > 0 {
            let [lo, hi_a] = m.sides(a.n - k, 1, len + 1);
            let [_, hi_b] = m.sides(b.n - k, 1, len + 1);
            kernel.mark_options(pairs, &lo, &[hi_a, hi_b], &mut tables, &mut s.out, &mut s.hits);
        }
    }
    tables
}

/// Ends `heap`'s pass, given `table` from it and `late`, the values of the heaps that the moves
/// leaving one heap reach at `known` (see [`prepare`]) or above: the value of the heap. `m` must
/// hold every value the splits reach (a second pass may read them).
fn finish(
    m: &Mirror,
    rules: &OctalMoves,
    mut heap: Heap,
    mut table: [u64; 64],
    late: impl IntoIterator<Item = Grundy>,
    s: &mut Scratch,
) -> Grundy {
    for v in late {
        let v = v as usize;
        assert!(v < heap.size, "a late option beyond the table");
        heap.seen[v] = 1;
        table[v >> 6] &= !(1 << (v & 63));
    }
    let value = loop {
        if heap.scattered {
            break mex(&heap.seen);
        }
        if let Some(w) = table.iter().position(|&w| w != 0) {
            // The least value still in the table is the least that is not an option.
            break (64 * w) as Grundy + table[w].trailing_zeros();
        }
        if heap.limit == heap.size {
            // Every value below `size` is an option, and none is `size` or more.
            break heap.size as Grundy;
        }
        // Every value below the limit is an option: look at the ones above.
        heap.seen[..heap.limit].fill(1);
        heap.limit = heap.size;
        table = pass_one(m, rules, &heap, s);
    };
    s.spare.push(heap.seen);
    value
}

fn mex(seen: &[u8]) -> Grundy {
    seen.iter().position(|&b| b == 0).unwrap_or(seen.len()) as Grundy
}

/// A guess a little above the next value: the largest of the last [`GUESS_FROM`] values, plus a
/// margin. Recent values bound the next one well in the sequences seen (for .007 up to 2^17 the
/// guess is too low for about one heap in 100, which then takes a second pass).
pub(crate) fn guess(values: &[u16]) -> usize {
    let recent = &values[values.len().saturating_sub(GUESS_FROM)..];
    recent.iter().copied().max().unwrap_or(0) as usize + GUESS_MARGIN
}

/// What a pass tells of a heap's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The value.
    Value(Grundy),
    /// The value is `first` unless a move leaving one heap has that value, then `second`. It is
    /// told before the value of the one such move not yet counted is known: `first` and
    /// `second` are the two least values that neither a split nor any other move gives, so that
    /// one more option can only rule out one of them. Told so, a heap's value waits for no other
    /// worker's pass (see [`pipeline`](super::pipeline)).
    Either {
        /// The least value not an option of the moves counted.
        first: Grundy,
        /// The next one.
        second: Grundy,
    },
}

impl Outcome {
    /// The value of heap `n`, given `value(h)` of every heap `h` below it.
    pub fn resolve(self, rules: &OctalMoves, n: usize, value: impl Fn(usize) -> Grundy) -> Grundy {
        match self {
            Outcome::Value(v) => v,
            Outcome::Either { first, second } => {
                // The moves counted already gave neither value, so checking them again changes
                // nothing, and at most one move was not counted.
                let taken = rules.take_some.iter().any(|&k| n > k && value(n - k) == first);
                if taken {
                    second
                } else {
                    first
                }
            }
        }
    }
}

/// The values of `heaps` (one heap, or two in a row), `bits` and `guess` as for [`heap_value`].
/// `m` must hold every value the splits of the heaps reach. A heap whose moves leaving one heap
/// are all counted is valued at once; one with a single such move not yet counted is told as
/// [`Outcome::Either`] when the pass leaves two values unhit; otherwise `wait` must add to `m`
/// the values those moves reach, or give up (`false`, and so `None` here).
pub(crate) fn unit_values(
    m: &mut Mirror,
    rules: &OctalMoves,
    heaps: std::ops::RangeInclusive<usize>,
    bits: u32,
    guess: usize,
    wait: impl FnOnce(&mut Mirror) -> bool,
    s: &mut Scratch,
) -> Option<Vec<Outcome>> {
    let known = m.len();
    let mut heaps: Vec<Heap> = heaps.map(|n| prepare(m, rules, n, bits, guess, known, s)).collect();
    let tables: Vec<[u64; 64]> = match <&mut [Heap; 2]>::try_from(heaps.as_mut_slice()) {
        Ok(pair) if !pair[0].scattered && !pair[1].scattered && s.pairs => {
            pass_two(m, rules, pair, s).to_vec()
        }
        _ => heaps.iter().map(|h| pass_one(m, rules, h, s)).collect(),
    };
    let mut wait = Some(wait);
    let mut outcomes = Vec::with_capacity(heaps.len());
    for (heap, table) in heaps.into_iter().zip(tables) {
        let n = heap.n;
        let late = rules.take_some.iter().filter(|&&k| n > k && n - k >= known);
        let unhit = least_two(&table);
        let outcome = match (late.clone().count(), unhit) {
            (0, _) => Outcome::Value(finish(m, rules, heap, table, [], s)),
            (1, [Some(first), Some(second)]) if !heap.scattered => {
                s.spare.push(heap.seen);
                Outcome::Either { first, second }
            }
            _ => {
                if let Some(wait) = wait.take()
                    && !wait(m)
                {
                    return None;
                }
                let g = m.values();
                let late: Vec<Grundy> = late.map(|&k| Grundy::from(g[n - k])).collect();
                Outcome::Value(finish(m, rules, heap, table, late, s))
            }
        };
        outcomes.push(outcome);
    }
    Some(outcomes)
}

/// The two least values in `table`.
fn least_two(table: &[u64; 64]) -> [Option<Grundy>; 2] {
    let mut bits = table.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let b = word.trailing_zeros();
                word &= word - 1;
                (64 * w) as Grundy + b
            })
        })
    });
    [bits.next(), bits.next()]
}

#[cfg(test)]
mod tests;
