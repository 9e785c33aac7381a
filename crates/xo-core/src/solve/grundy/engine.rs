//! The fast engine behind [`NimSequence`](super::NimSequence): the filtered pass (see
//! [`filter`](super::filter)) on CPUs with a vector kernel for it (AVX-512, AVX2, NEON), candidate testing (see [`scan`](super::scan))
//! or a bitset mex over every option elsewhere, and the sparse-space method
//! (Berlekamp; Gangolli & Plambeck; Flammenkamp) once the data show a mask under which few heaps
//! are "rare".
//!
//! For a mask `m`, give each heap `x` the key `popcount(g(x) & m) + d * x (mod 2)`, where `d` is 0
//! (Flammenkamp's sparse space in the range) or 1 (in range and domain, for games whose splitting
//! digits all remove counts of one parity). Parity is linear over XOR, so a split of `rest` tokens
//! into heaps `a + b` has an option whose masked parity is `key(a) ^ key(b) ^ d * rest`. Most heaps
//! share one key (they are *common*); the few others are *rare*. Splits into two common heaps (or
//! two rare ones) therefore all land in one parity class, the *dense* class of heap `n`, and every
//! option in the other, *sparse* class comes from a split leaving a rare heap. Those are found
//! exactly in `O(#rare)` steps, giving `c`, the least sparse-class value that is not an option.
//! The value of `n` is `c` unless some dense-class value below `c` is missing among the options;
//! dense options are plentiful, so scanning the splits usually sees every dense value below `c`
//! after a few hundred splits, which proves the answer. When it does not, the scan runs to the end
//! and the least missing value is the answer, so the result is exact for every mask; the mask only
//! decides the speed.

use super::filter;
use super::kernel::Kernel;
use super::mask::{best_mask, SparseMask};
use super::method::{EngineStats, Method};
use super::pipeline::{self, Valuer, CHECK_HEAPS};
use super::scan::{self, Mirror, ScanStats};
use super::types::Grundy;
use crate::budget::{Meter, Stopped, Ticker};
use crate::games::octal::{OctalGame, OctalMoves};

/// Heaps computed before the first choice of a mask, with the default method.
pub(crate) const DEFAULT_REVIEW_FROM: usize = 1024;
/// Splits of one heap above which the full scan is shared between two threads.
const PARALLEL_SPLITS: usize = 1 << 15;
/// Heaps from which candidate testing values heaps on worker threads (without the filtered
/// pass).
const PARALLEL_HEAPS: usize = 1 << 15;
/// Heaps valued by candidate testing on worker threads between two probes.
const CANDIDATE_SEGMENT: usize = 4096;
/// Heaps between two probes of candidate testing, with the default method.
const PROBE_EVERY: usize = 64;
/// Heaps from which the filtered pass spreads heaps over threads.
const PIPELINE_HEAPS: usize = 1 << 12;
/// Most threads the filtered pass uses.
const MAX_THREADS: usize = 4;
/// Bytes per heap of each `u16` mirror of the values (forward and reversed, with their byte
/// planes, and room to grow).
const MIRROR_BYTES: u64 = 12;

/// The incremental engine of a nim-sequence: values so far plus the sparse-space bookkeeping
/// (not to be confused with [`query::Engine`](crate::query::Engine), which names the engine that
/// answered a query).
#[derive(Debug, Clone)]
pub(crate) struct SequenceEngine {
    rules: OctalMoves,
    method: Method,
    values: Vec<Grundy>,
    /// Every value so far is below `1 << bits`; at least 6.
    bits: u32,
    /// The sparse-space classification in use.
    sparse: Option<SparseMask>,
    /// Heaps of at least one token that are rare under `sparse`, increasing.
    rare: Vec<usize>,
    /// Bit `v` set when `popcount(v & mask)` is odd, for `v < 1 << bits`.
    odd: Vec<u64>,
    /// Options seen for the heap being valued, as bits; covers `0..=1 << bits`.
    seen: Vec<u64>,
    /// Options seen in a full scan, one byte per value (stores without loads are faster).
    bytes: Vec<u8>,
    /// The second core's bytes in a parallel full scan.
    bytes2: Vec<u8>,
    /// The values as `u16`, forward and mirrored, while candidate testing is on.
    mirror: Option<Mirror>,
    /// Splits sampled before candidate testing; 0 to choose between candidate testing and
    /// scattering every split by probes.
    prefix: usize,
    /// Whether probes found candidate testing cheaper (with `prefix` 0).
    auto_candidates: bool,
    /// The next heap is a probe, valued on this thread (after a segment on worker threads).
    probe_due: bool,
    /// The parity of every splitting move's count, if they share one (the domain may count).
    split_parity: Option<usize>,
    /// The heap count at which the mask is next reviewed.
    next_review: usize,
    /// The kernel of the filtered pass, if it is on (it also needs the mirror and values below
    /// 2^12).
    kernel: Option<Kernel>,
    /// Threads for the filtered pass.
    threads: usize,
    /// The filtered pass's scratch on this thread, and its workers.
    scratch: filter::Scratch,
    workers: pipeline::Workers,
    stats: EngineStats,
}

impl SequenceEngine {
    pub fn new(game: &OctalGame, method: Method) -> Self {
        let rules = OctalMoves::new(game);
        let next_review = match method {
            Method::Auto => DEFAULT_REVIEW_FROM,
            Method::Bitset
            | Method::Candidates { .. }
            | Method::Filtered
            | Method::FilteredOn(_) => usize::MAX,
            Method::Sparse { review_from, .. } => review_from.max(2),
        };
        let (mirror, prefix) = match method {
            Method::Auto | Method::Filtered | Method::FilteredOn(_) | Method::Sparse { .. }
                if rules.max_parts() == 2 =>
            {
                (Some(Mirror::default()), 0)
            }
            Method::Candidates { prefix } if rules.max_parts() == 2 => {
                (Some(Mirror::default()), prefix.max(1))
            }
            _ => (None, 0),
        };
        let next_review = if rules.split3.is_empty() && !rules.split2.is_empty() {
            next_review
        } else {
            usize::MAX
        };
        let split_parity = rules.split_parity();
        let bits = 6;
        let kernel = match method {
            _ if rules.max_parts() != 2 => None,
            Method::Auto | Method::Filtered | Method::Sparse { .. } => Kernel::vector(),
            Method::FilteredOn(which) => Some(Kernel::at_most(which)),
            _ => None,
        };
        // The one thread policy's default (every core this process may use), as the engine's
        // window allows; `set_threads` asks for fewer.
        let threads =
            SequenceEngine::usable_threads(&rules, crate::threads::Runner::Alone.default_threads());
        SequenceEngine {
            rules,
            method,
            values: Vec::new(),
            bits,
            sparse: None,
            rare: Vec::new(),
            odd: Vec::new(),
            seen: vec![0; words_for(bits)],
            bytes: Vec::new(),
            bytes2: Vec::new(),
            mirror,
            prefix,
            auto_candidates: true,
            probe_due: false,
            split_parity,
            next_review,
            kernel,
            threads,
            scratch: filter::Scratch::new(kernel.unwrap_or_default()),
            workers: pipeline::Workers::default(),
            stats: EngineStats::default(),
        }
    }

    pub fn values(&self) -> &[Grundy] {
        &self.values
    }

    pub fn into_values(self) -> Vec<Grundy> {
        self.values
    }

    pub fn rules(&self) -> &OctalMoves {
        &self.rules
    }

    pub fn sparse(&self) -> Option<SparseMask> {
        self.sparse
    }

    pub fn stats(&self) -> EngineStats {
        let mut work = self.workers.counts();
        work.add(&self.scratch);
        let mut stats = self.stats;
        stats.filtered_passes = work.passes;
        stats.filtered_hits = work.hits;
        stats.splits_scanned += work.splits + work.candidate_splits;
        stats.candidate_heaps += work.candidate_heaps;
        stats.candidates_rejected += work.candidates_rejected;
        stats
    }

    /// The threads the engine uses when allowed `threads` (by [`crate::threads::allowed`]): no
    /// more than the rules' window lets work at once, nor than [`MAX_THREADS`].
    fn usable_threads(rules: &OctalMoves, threads: usize) -> usize {
        threads.min(rules.window()).min(MAX_THREADS)
    }

    /// Lets the engine use up to `threads` threads (the values are the same with any number).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = SequenceEngine::usable_threads(&self.rules, threads.max(1));
    }

    /// Whether the next heaps can be valued by the filtered pass.
    fn filtering(&self) -> bool {
        self.kernel.is_some()
            && self.sparse.is_none()
            && self.mirror.is_some()
            && self.bits <= filter::MAX_BITS
    }

    /// The bytes the tables sized by the heap count take for `heaps` heaps, about: 4 per value,
    /// [`MIRROR_BYTES`] for each copy of the values as `u16` (the engine's, and one per worker
    /// thread), 4 per value handed between workers, and 8 per rare heap of the
    /// sparse-space method (at worst every heap).
    pub fn bytes_for(&self, heaps: usize) -> u64 {
        // The engine's mirror, and with threads (the filtered pass, or candidate testing
        // without it) one per worker and the values handed between them.
        let threaded = self.mirror.is_some() && self.threads >= 2;
        let mirrors = match &self.mirror {
            None => 0,
            Some(_) => 1 + if threaded { self.threads as u64 } else { 0 },
        };
        let handed = if threaded { 4 } else { 0 };
        let rare = if self.next_review == usize::MAX { 0 } else { 8 };
        (heaps as u64).saturating_mul(4 + MIRROR_BYTES * mirrors + handed + rare)
    }

    /// Computes heaps up to `upto` inclusive, spending `meter`: asks it for the memory first
    /// ([`SequenceEngine::bytes_for`]), ticks it once per heap valued, and reads its clock every
    /// few milliseconds of work (on every thread). Stops when the meter does, keeping every value
    /// found so far; fails at once if the meter has already stopped. Work too small to reach a
    /// reading of the clock always finishes.
    pub fn extend(&mut self, upto: usize, meter: &Meter) -> Result<(), Stopped> {
        if self.values.len() > upto {
            return Ok(());
        }
        if meter.is_stopped() {
            // A meter stopped before (by this job or another sharing it) stops this at once.
            meter.check()?;
        }
        let _tables = meter.reserve(self.bytes_for(upto + 1))?;
        self.values.reserve(upto + 1 - self.values.len());
        let mut pace = Ticker::every(CHECK_HEAPS);
        let total = upto as u64 + 1;
        while self.values.len() <= upto {
            let n = self.values.len();
            if n == self.next_review {
                self.review_mask();
                self.next_review = n.saturating_mul(2);
            }
            let last = upto.min(self.next_review.saturating_sub(1));
            if let Some((valuer, last)) = self.threaded(n, last) {
                // The heaps valued here so far are counted before the workers' (a stop among
                // theirs ends this call).
                pace.flush(meter);
                let (found, stopped) = pipeline::extend(
                    &self.values,
                    &self.rules,
                    last,
                    self.threads,
                    valuer,
                    &mut self.workers,
                    meter,
                );
                // The pipeline may stop early (a value needing more bits than its passes
                // allowed): carry on from the first heap it left, with `n` read afresh.
                let progressed = !found.is_empty();
                if let Valuer::Filter(_) = valuer {
                    // Counted here, not by the workers, which may value heaps past the first
                    // one left when they stop (their values then go unused).
                    self.stats.filtered_heaps += found.len() as u64;
                }
                for v in found {
                    self.push(v);
                }
                if let Some(stopped) = stopped {
                    return Err(stopped);
                }
                meter.set_done(self.values.len() as u64, total)?;
                if progressed {
                    // The heap after a segment of candidate testing is valued on this thread,
                    // a probe (see `prefix_for`) that decides the next segment's way.
                    self.probe_due = matches!(valuer, Valuer::Candidates { .. });
                    continue;
                }
            }
            let v = self.value_of(n);
            self.push(v);
            self.probe_due = false;
            if pace.step(meter, 1, n as u64)? {
                meter.set_done(self.values.len() as u64, total)?;
            }
        }
        // Done: the last heaps are counted, but a limit reached now stops nothing.
        pace.flush(meter);
        Ok(())
    }

    /// Appends `values`, the game's values of the heaps after those known (trusted: from a
    /// [`StoredSequence`](super::StoredSequence)), as if they had been computed, with the
    /// bookkeeping the next heaps need (the mask reviewed at the same heaps as [`Self::extend`]).
    pub fn adopt(&mut self, values: &[Grundy]) {
        self.values.reserve(values.len());
        for &v in values {
            if self.values.len() == self.next_review {
                self.review_mask();
                self.next_review = self.values.len().saturating_mul(2);
            }
            self.push(v);
        }
    }

    fn push(&mut self, v: Grundy) {
        let n = self.values.len();
        self.values.push(v);
        if v >> self.bits != 0 {
            self.bits = 32 - v.leading_zeros();
            self.seen = vec![0; words_for(self.bits)];
            if let Some(s) = self.sparse {
                self.odd = odd_words(s.mask, self.bits);
            }
        }
        if let Some(s) = self.sparse
            && n > 0
            && s.is_rare(n, v)
        {
            self.rare.push(n);
        }
        if let Some(m) = &mut self.mirror {
            if v < scan::VALUE_BOUND {
                m.push(v);
            } else {
                self.mirror = None;
            }
        }
    }

    /// Splits sampled before candidate testing for heap `n` (`usize::MAX`: scatter them all).
    /// By default every [`PROBE_EVERY`]-th heap tries candidate testing, and the heaps up to the
    /// next probe use it if it cost less than scattering every split.
    fn prefix_for(&self, n: usize) -> usize {
        match self.prefix {
            0 if n.is_multiple_of(PROBE_EVERY) || self.auto_candidates => scan::SAMPLE,
            0 => usize::MAX,
            p => p,
        }
    }

    /// Counts the work of heap `n` and, if it was a probe, decides how the next heaps are valued.
    fn learn(&mut self, n: usize, s: &ScanStats) {
        self.stats.candidate_heaps += 1;
        self.stats.splits_scanned += s.splits;
        self.stats.candidates_rejected += s.rejected;
        if self.prefix == 0 && n.is_multiple_of(PROBE_EVERY) {
            let tests = s.splits - s.stores;
            let cost = s.stores + tests / scan::TEST_PER_STORE;
            self.auto_candidates = cost < s.splits.min((n / 2) as u64);
        }
    }

    /// Whether heaps from `n` to `last` go to worker threads, how, and up to where: the
    /// filtered pass from [`PIPELINE_HEAPS`] on where it runs; else, from [`PARALLEL_HEAPS`] on,
    /// candidate testing (or scattering every split, as the last probe chose) in segments of
    /// [`CANDIDATE_SEGMENT`] heaps, each followed by a probe; `None` on one thread, or when the
    /// rules or the values allow neither.
    fn threaded(&self, n: usize, last: usize) -> Option<(Valuer, usize)> {
        if self.threads < 2 || last <= n || self.probe_due {
            return None;
        }
        if self.filtering() {
            return (n >= PIPELINE_HEAPS).then_some((Valuer::Filter(self.scratch.kernel), last));
        }
        let candidates = n >= PARALLEL_HEAPS
            && self.sparse.is_none()
            && self.mirror.is_some()
            && self.rules.split3.is_empty()
            && self.rules.window() >= 2;
        if !candidates {
            return None;
        }
        let prefix = match self.prefix {
            0 if self.auto_candidates => scan::SAMPLE,
            0 => usize::MAX,
            p => p,
        };
        // The segment ends just before a multiple of the probe period: the next heap probes.
        let end = (n + CANDIDATE_SEGMENT) / PROBE_EVERY * PROBE_EVERY - 1;
        Some((Valuer::Candidates { prefix }, last.min(end)))
    }

    /// Chooses the mask with the fewest rare heaps so far, keeping it only if it pays.
    fn review_mask(&mut self) {
        self.sparse = None;
        self.rare.clear();
        self.odd.clear();
        let Some((s, rare)) = best_mask(&self.values, self.bits, self.split_parity) else {
            return;
        };
        let force = matches!(self.method, Method::Sparse { force: true, .. });
        // The sparse method costs about (rare heaps) per heap against (heap / 2) for a full scan,
        // a vectorised one (several times cheaper per split) with candidate testing.
        let ratio = if self.mirror.is_some() { 32 } else { 8 };
        if !force && rare * ratio > self.values.len() {
            return;
        }
        self.sparse = Some(s);
        self.odd = odd_words(s.mask, self.bits);
        self.rare = (1..self.values.len()).filter(|&i| s.is_rare(i, self.values[i])).collect();
    }

    fn value_of(&mut self, n: usize) -> Grundy {
        if self.filtering() {
            // The filtered pass marks the moves that leave one heap itself.
            let m = self.mirror.as_ref().expect("the filtered pass reads the mirror");
            let guess = filter::guess(m.values());
            self.stats.filtered_heaps += 1;
            return filter::heap_value(m, &self.rules, n, self.bits, guess, &mut self.scratch);
        }
        self.seen.fill(0);
        let g = &self.values;
        let seen = &mut self.seen;
        for &k in &self.rules.take_all {
            if n == k {
                mark(seen, 0);
            }
        }
        for &k in &self.rules.take_some {
            if n > k {
                mark(seen, g[n - k]);
            }
        }
        for &k in &self.rules.split3 {
            if n >= k + 3 {
                let rest = n - k;
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        mark(seen, g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
        match self.sparse {
            Some(s) => self.sparse_value(n, s),
            None => self.full_value(n),
        }
    }

    /// Marks every two-heap split (plus what `seen` holds) and takes the mex; or, with candidate
    /// testing on, the value from scratch by candidate testing.
    fn full_value(&mut self, n: usize) -> Grundy {
        if let Some(m) = &self.mirror {
            let prefix = self.prefix_for(n);
            let mut s = ScanStats::default();
            let v = scan::heap_value(m, &self.rules, n, self.bits, prefix, &mut self.bytes, &mut s);
            self.learn(n, &s);
            return v;
        }
        self.stats.bitset_heaps += 1;
        let size = 64 * self.seen.len();
        self.bytes.clear();
        self.bytes.resize(size, 0);
        for (w, &s) in self.seen.iter().enumerate() {
            let mut s = s;
            while s != 0 {
                self.bytes[64 * w + s.trailing_zeros() as usize] = 1;
                s &= s - 1;
            }
        }
        for &k in &self.rules.split2 {
            if n >= k + 2 {
                let rest = n - k;
                let half = rest / 2;
                self.stats.splits_scanned += half as u64;
                let g = &self.values;
                if half < PARALLEL_SPLITS || self.threads < 2 {
                    mark_bytes(&mut self.bytes, g, rest, 1, half + 1);
                } else {
                    let mid = 1 + half / 2;
                    self.bytes2.clear();
                    self.bytes2.resize(size, 0);
                    let (b1, b2) = (&mut self.bytes, &mut self.bytes2);
                    rayon::join(
                        || mark_bytes(b1, g, rest, 1, mid),
                        || mark_bytes(b2, g, rest, mid, half + 1),
                    );
                    for (x, y) in self.bytes.iter_mut().zip(&self.bytes2) {
                        *x |= y;
                    }
                }
            }
        }
        self.bytes.iter().position(|&b| b == 0).unwrap_or(size) as Grundy
    }

    fn sparse_value(&mut self, n: usize, s: SparseMask) -> Grundy {
        if self.mirror.is_some() && self.kernel.is_some() && self.bits <= filter::MAX_BITS {
            self.sparse_value_vector(n, s)
        } else {
            self.sparse_value_scalar(n, s)
        }
    }

    /// The sparse-space method where the filtered pass's kernel runs: the splits leaving a rare
    /// heap read the values as `u16` (half the memory of the `u32` ones, which these scattered
    /// reads miss the caches on) into a byte per value (stores, no loads), and the dense values
    /// below the candidate that are still missing are sought by the vectorised pass, which stops
    /// once it has found them all ([`filter::least_unhit`]).
    fn sparse_value_vector(&mut self, n: usize, s: SparseMask) -> Grundy {
        let m = self.mirror.as_ref().expect("the caller checked the mirror");
        let g = m.values();
        let size = 1usize << self.bits;
        let mut bytes = std::mem::take(&mut self.bytes);
        bytes.clear();
        bytes.resize(size + 1, 0);
        // The options `value_of` marked (the moves leaving one heap).
        for (v, b) in bytes[..size].iter_mut().enumerate() {
            *b = (self.seen[v / 64] >> (v % 64) & 1) as u8;
        }
        rare_splits(&self.rules, &self.rare, n, g, |v| bytes[v as usize] = 1);
        let dense_odd = s.domain && (n - self.rules.split2[0]) % 2 == 1;
        let sparse_class = |v: usize| ((self.odd[v / 64] >> (v % 64) & 1) == 1) != dense_odd;
        let Some(c) = (0..size).find(|&v| bytes[v] == 0 && sparse_class(v)) else {
            // Every sparse-class value below 1 << bits is an option: only a full scan decides.
            self.bytes = bytes;
            return self.full_value(n);
        };
        let value = if bytes[..c].contains(&0) {
            // Some dense value below c is not among the rare heaps' options: the splits decide.
            let unhit =
                filter::least_unhit(m, &self.rules, n, self.bits, &bytes, c, &mut self.scratch);
            unhit.map_or(c, |v| v as usize)
        } else {
            c
        };
        self.bytes = bytes;
        if value == c {
            self.stats.sparse_heaps += 1;
        } else {
            self.stats.bitset_heaps += 1;
        }
        value as Grundy
    }

    /// The sparse-space method with a bitset and a scalar scan of the splits (where the
    /// vectorised pass is not at hand: see [`Self::sparse_value_vector`]).
    fn sparse_value_scalar(&mut self, n: usize, s: SparseMask) -> Grundy {
        let g = &self.values;
        // Every split leaving a rare heap: all the sparse-class options are among these.
        rare_splits(&self.rules, &self.rare, n, g, |v| mark(&mut self.seen, v));
        // Splits into two heaps of equal key have masked parity d * rest: the dense class. All
        // splitting digits remove counts of one parity when d = 1, so the class is the same for all.
        let dense_odd = s.domain && (n - self.rules.split2[0]) % 2 == 1;
        let flip = if dense_odd { u64::MAX } else { 0 };
        let below = 1usize << (self.bits - 6);
        let candidate =
            self.odd[..below].iter().zip(&self.seen).enumerate().find_map(|(w, (&odd, &seen))| {
                let free = (odd ^ flip) & !seen;
                (free != 0).then(|| (w * 64) as Grundy + free.trailing_zeros())
            });
        let Some(c) = candidate else {
            // Every sparse-class value below 1 << bits is an option: only a full scan decides.
            return self.full_value(n);
        };
        // Unseen values below c, all of the dense class.
        let cw = (c / 64) as usize;
        let mut missing: u32 = self.seen[..cw].iter().map(|w| (!w).count_ones()).sum();
        missing += (!self.seen[cw] & ((1u64 << (c % 64)) - 1)).count_ones();
        if missing == 0 {
            self.stats.sparse_heaps += 1;
            return c;
        }
        for &k in &self.rules.split2 {
            if n < k + 2 {
                continue;
            }
            let rest = n - k;
            let half = rest / 2;
            let lo = &g[1..=half];
            let hi = &g[rest - half..rest];
            for (i, (&x, &y)) in lo.iter().zip(hi.iter().rev()).enumerate() {
                let v = x ^ y;
                if v < c {
                    let (w, bit) = ((v / 64) as usize, 1u64 << (v % 64));
                    if self.seen[w] & bit == 0 {
                        self.seen[w] |= bit;
                        missing -= 1;
                        if missing == 0 {
                            self.stats.splits_scanned += i as u64 + 1;
                            self.stats.sparse_heaps += 1;
                            return c;
                        }
                    }
                }
            }
            self.stats.splits_scanned += half as u64;
        }
        // Every option has been seen: the least value missing, of the dense class, below c.
        self.stats.bitset_heaps += 1;
        mex(&self.seen)
    }
}

/// Calls `f` with the option of every split of heap `n` that leaves a rare heap (`rare`,
/// increasing), the values read from `g`.
fn rare_splits<T: Copy + Into<u32>>(
    rules: &OctalMoves,
    rare: &[usize],
    n: usize,
    g: &[T],
    mut f: impl FnMut(Grundy),
) {
    for &k in &rules.split2 {
        if n >= k + 2 {
            let rest = n - k;
            for &r in rare.iter().take_while(|&&r| r < rest) {
                f(g[r].into() ^ g[rest - r].into());
            }
        }
    }
}

fn words_for(bits: u32) -> usize {
    (1usize << bits) / 64 + 1
}

fn odd_words(m: Grundy, bits: u32) -> Vec<u64> {
    let mut words = vec![0u64; words_for(bits)];
    for v in 0..(1u32 << bits) {
        if (v & m).count_ones() % 2 == 1 {
            words[(v / 64) as usize] |= 1 << (v % 64);
        }
    }
    words
}

#[inline]
fn mark(seen: &mut [u64], v: Grundy) {
    seen[(v / 64) as usize] |= 1 << (v % 64);
}

fn mex(seen: &[u64]) -> Grundy {
    for (w, &s) in seen.iter().enumerate() {
        if s != u64::MAX {
            return (w * 64) as Grundy + (!s).trailing_zeros();
        }
    }
    (seen.len() * 64) as Grundy
}

/// Marks the options of the splits `(a, rest - a)` for `a` in `from..to`, a byte per value.
fn mark_bytes(bytes: &mut [u8], g: &[Grundy], rest: usize, from: usize, to: usize) {
    let lo = &g[from..to];
    let hi = &g[rest + 1 - to..=rest - from];
    for (&x, &y) in lo.iter().zip(hi.iter().rev()) {
        bytes[(x ^ y) as usize] = 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::grundy::plain::nim_sequence_plain;

    /// The sparse-space method's two ways of proving its candidate (the vectorised pass where a
    /// kernel runs, the scalar scan elsewhere) against the plain definition, on games with and
    /// without sparse space; both outcomes of the proof (the candidate, a dense value below it)
    /// must occur.
    #[test]
    fn sparse_space_by_the_vector_pass_and_the_scalar_scan() {
        let (mut by_candidate, mut below) = (0, 0);
        for code in ["0.007", "0.137", "0.07", "0.77", "0.165", "0.344", "0.156", "0.6"] {
            let game: OctalGame = code.parse().unwrap();
            let n = 3000;
            let plain = nim_sequence_plain(&game, n);
            for vector in [true, false] {
                let method = Method::Sparse { review_from: 64, force: true };
                let mut engine = SequenceEngine::new(&game, method);
                engine.set_threads(1);
                if !vector {
                    engine.kernel = None;
                } else if engine.kernel.is_none() {
                    // No vector kernel on this CPU: the scalar kernel runs the same pass.
                    engine.kernel = Some(Kernel::Scalar);
                    engine.scratch = filter::Scratch::new(Kernel::Scalar);
                }
                engine.extend(n, &Meter::unlimited()).unwrap();
                assert_eq!(engine.values(), &plain[..], "{code}, vector pass {vector}");
                if vector && engine.mirror.is_some() {
                    by_candidate += engine.stats.sparse_heaps;
                    below += engine.stats.bitset_heaps;
                }
            }
        }
        assert!(by_candidate > 1000 && below > 0, "{by_candidate} by the candidate, {below} below");
    }
}
