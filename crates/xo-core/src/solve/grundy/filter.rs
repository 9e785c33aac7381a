//! The filtered pass: the value of a heap from one vectorised pass over all its two-heap splits.
//!
//! Scattering the XOR of every split into a table costs a random store per split, and no vector
//! instruction does that. Testing one *candidate* per pass vectorises, but .007 has dozens of
//! values below the mex with only a handful of witnesses each, so candidates are rejected one
//! after another at the cost of a pass each. The filtered pass tests every split against *all*
//! the values not yet seen at once: they form a bit table of `P * 1024` bits (P = 1, 2 or 4, so
//! that every option fits) held in `2 P` vector registers. The values are kept as two byte planes
//! (see [`Mirror::byte_pairs`]): bits 3-10, which name the table's byte, and bits 0-2, which name
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
//! tracks the rest. The kernel needs AVX-512 (BW, VBMI for the byte permute, BITALG for the bit
//! pick, VBMI2 for the compress); [`available`] checks the running CPU, and the engine uses its
//! other methods where the check fails.
//!
//! Heaps whose moves cannot interfere (heap `n` needs no heap above `n - window`) are spread over
//! threads by [`extend`]: worker `t` of `T` values heaps `t, t + T, ...`, each with its own copy of
//! the values, and the workers hand values to each other through atomics.
//!
//! On .007 to 2^17 the pass looks at a split in about 0.11 ns on one core of the development
//! machine, about 40% of it spent on the hits. The permutes alone (one port) would allow 0.03 ns
//! a split; reading the four planes from L2 holds the pass at about 0.045 ns.

// The AVX-512 kernel calls `target_feature` functions and reads vectors through raw pointers;
// every `unsafe` block below states why it is sound.
#![allow(unsafe_code)]

use super::engine::Rules;
use super::scan::Mirror;
use super::Grundy;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Splits per heap up to which every split is simply scattered.
const SMALL: usize = 1024;
/// Splits sampled (in runs spread evenly) and scattered before the pass.
const SAMPLE: usize = 512;
/// Consecutive splits in a run of the sample.
const SAMPLE_RUN: usize = 64;
/// Splits in the first block of the pass; blocks double up to [`MAX_BLOCK`].
const FIRST_BLOCK: usize = 256;
/// Most splits between two refreshes of the table.
const MAX_BLOCK: usize = 2048;
/// Values at or above `1 << MAX_BITS` switch the filtered pass off (the table then has 4096 bits).
pub(crate) const MAX_BITS: u32 = 12;
/// Values looked back at by [`guess`].
const GUESS_FROM: usize = 64;
/// How far above the largest recent value [`guess`] goes.
const GUESS_MARGIN: usize = 65;
/// Busy-wait rounds for another worker's value before yielding the core.
const SPINS: u32 = 1 << 12;
/// A result slot not yet written.
const PENDING: u32 = u32::MAX;

/// Whether the running CPU has the instructions of the kernel (see
/// [`filtered_pass_available`](super::filtered_pass_available) for the public face).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Scratch space of one thread, and its work counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    seen: Vec<u8>,
    out: Vec<u8>,
    /// Heaps valued by a filtered pass.
    pub heaps: u64,
    /// Filtered passes (more than one per heap when the guess was too low).
    pub passes: u64,
    /// Splits the pass found hitting an unseen value (written out and marked).
    pub hits: u64,
    /// Splits looked at.
    pub splits: u64,
}

impl Scratch {
    /// Adds `other`'s work counters to these.
    pub fn add(&mut self, other: &Scratch) {
        self.heaps += other.heaps;
        self.passes += other.passes;
        self.hits += other.hits;
        self.splits += other.splits;
    }
}

/// The value of heap `n`, with every value of a heap below `n` in `m` (or at least every heap
/// that `n` can reach) and every value below `1 << bits` (`bits <= MAX_BITS`). The CPU must pass
/// [`available`] and the rules must not split into three heaps.
///
/// `guess` should be a little above the value: the first pass tracks only the values below it,
/// which saves marking options above the mex; if every one of them turns out to be an option, a
/// second pass tracks the rest. The result is exact whatever the guess.
pub(crate) fn heap_value(
    m: &Mirror,
    rules: &Rules,
    n: usize,
    bits: u32,
    guess: usize,
    s: &mut Scratch,
) -> Grundy {
    debug_assert!(bits <= MAX_BITS && rules.split3.is_empty());
    // Tables of 1024, 2048 or 4096 bits: every option is below 1 << bits <= size.
    let pairs = (1usize << bits.max(10)) / 1024;
    let size = 1024 * pairs;
    let g = m.values();
    s.seen.clear();
    s.seen.resize(size, 0);
    s.heaps += 1;
    for &k in &rules.take_all {
        if n == k {
            s.seen[0] = 1;
        }
    }
    for &k in &rules.take_some {
        if n > k {
            s.seen[g[n - k] as usize] = 1;
        }
    }
    let stretches: Vec<Stretch> = rules
        .split2
        .iter()
        .filter(|&&k| n >= k + 2)
        .map(|&k| {
            let rest = n - k;
            let (lo, hi) = m.pairs(rest, 1, rest / 2 + 1);
            Stretch { lo, hi, planes: m.byte_pairs(rest, 1, rest / 2 + 1) }
        })
        .collect();
    let total: usize = stretches.iter().map(|st| st.lo.len()).sum();
    s.splits += total as u64;
    if total <= SMALL {
        for Stretch { lo, hi, .. } in &stretches {
            for (&x, &y) in lo.iter().zip(hi.iter()) {
                s.seen[(x ^ y) as usize] = 1;
            }
        }
        return mex(&s.seen);
    }
    // The sample: runs of consecutive splits (cheaper to read than single ones) spread evenly.
    let runs = SAMPLE / SAMPLE_RUN;
    for Stretch { lo, hi, .. } in &stretches {
        let step = (lo.len() / runs).max(SAMPLE_RUN);
        for start in (0..lo.len().saturating_sub(SAMPLE_RUN)).step_by(step) {
            let end = start + SAMPLE_RUN;
            for (&x, &y) in lo[start..end].iter().zip(&hi[start..end]) {
                s.seen[(x ^ y) as usize] = 1;
            }
        }
    }
    s.out.resize(2 * (MAX_BLOCK + 64), 0);
    let mut limit = guess.clamp(64, size);
    loop {
        s.passes += 1;
        // The values below the limit not seen yet; the pass clears those it finds.
        let mut table = unseen(pairs, &s.seen, limit);
        // The kernel's table need only cover the tracked values: a larger XOR then reads the
        // bit of one 1024 lower, a false hit that costs a little time and clears nothing.
        let kernel = limit.div_ceil(1024).next_power_of_two();
        let open = table.iter().any(|&w| w != 0)
            && stretches
                .iter()
                .all(|st| mark_options(kernel, st, &mut table, &mut s.out, &mut s.hits));
        if open {
            // The least value still in the table is the least that is not an option.
            let w = table.iter().position(|&w| w != 0).expect("a value is left");
            return (64 * w) as Grundy + table[w].trailing_zeros();
        }
        if limit == size {
            // Every value below `size` is an option, and none is `size` or more.
            return size as Grundy;
        }
        // Every value below the limit is an option: look at the ones above.
        s.seen[..limit].fill(1);
        limit = size;
    }
}

/// The table of the values below `limit` that `seen` does not hold, a bit per value, in the
/// first `16 * pairs` words.
fn unseen(pairs: usize, seen: &[u8], limit: usize) -> [u64; 64] {
    assert!(available() && seen.len() == 1024 * pairs && limit <= seen.len());
    let mut table = [0; 64];
    // SAFETY: the CPU has the features the kernel enables (checked just above).
    unsafe { avx512::unseen_bits(seen, limit, &mut table[..16 * pairs]) };
    table
}

/// Clears from `table` (a bit per value; only its first `16 * pairs` words may hold any) every
/// value that some `lo[i] ^ hi[i]` takes, counting the splits that did so in `count`. `false`
/// when the table ends empty. An XOR at or above `1024 * pairs` is looked up 1024 (or 2048) lower
/// and may hit falsely; its own bit, the one cleared, is outside the table, so that is harmless.
fn mark_options(
    pairs: usize,
    stretch: &Stretch,
    table: &mut [u64; 64],
    hits: &mut [u8],
    count: &mut u64,
) -> bool {
    let Stretch { lo, hi, planes } = stretch;
    let len = lo.len();
    assert!(available() && hits.len() >= 2 * (MAX_BLOCK + 64));
    assert!(hi.len() == len && planes.iter().all(|p| p.len() == len));
    // SAFETY: the CPU has the features the kernels enable (checked just above).
    unsafe {
        match pairs {
            1 => avx512::mark::<1>(lo, hi, planes, table, hits, count),
            2 => avx512::mark::<2>(lo, hi, planes, table, hits, count),
            _ => avx512::mark::<4>(lo, hi, planes, table, hits, count),
        }
    }
}

/// The splits of one splitting move: `lo[i] ^ hi[i]` for each, and the same as byte planes (see
/// [`Mirror::byte_pairs`]).
struct Stretch<'a> {
    lo: &'a [u16],
    hi: &'a [u16],
    planes: [&'a [u8]; 4],
}

fn mex(seen: &[u8]) -> Grundy {
    seen.iter().position(|&b| b == 0).unwrap_or(seen.len()) as Grundy
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::scan::{high_byte, low_byte};
    use super::MAX_BLOCK;
    /// Splits ahead of the pass that [`prefetch`] asks for (0: none).
    const PREFETCH: usize = 512;
    use std::arch::x86_64::*;

    /// The table of the values below `limit` not yet marked in `seen`, a bit per value, as
    /// `u64` words.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn unseen_bits(seen: &[u8], limit: usize, table: &mut [u64]) -> bool {
        let zero = _mm512_setzero_si512();
        let mut any = 0;
        for (i, (w, chunk)) in table.iter_mut().zip(seen.chunks_exact(64)).enumerate() {
            // SAFETY: `chunk` holds exactly 64 bytes.
            let bytes = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
            let below = match limit.saturating_sub(64 * i) {
                0 => 0,
                k if k >= 64 => u64::MAX,
                k => (1 << k) - 1,
            };
            *w = _mm512_cmpeq_epi8_mask(bytes, zero) & below;
            any |= *w;
        }
        any != 0
    }

    /// Loads the table as `2 P` vectors of 32 words.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn load<const P: usize>(table: &[u64; 64], t: &mut [__m512i; 8]) {
        for (j, v) in t.iter_mut().enumerate().take(2 * P) {
            // SAFETY: 8 words from 8 * j, with j < 8, lie inside the 64 words of the table.
            *v = unsafe { _mm512_loadu_si512(table.as_ptr().add(8 * j).cast()) };
        }
    }

    /// For the 64 splits from `at`: the mask of those whose XOR (below `1024 P`) is set in the
    /// table `t`. The XOR's [`high_byte`](super::super::scan::high_byte) picks the table's byte
    /// (`vpermi2b`, 128 bytes per pair of registers, bit 7 choosing the pair), and its low byte
    /// the bit within it (`vpshufbitqmb` picks a bit of each 64-bit lane, so the low byte is
    /// offset to its own byte of the lane).
    ///
    /// # Safety
    /// Each of the four planes must hold at least `at + 64` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    #[inline]
    unsafe fn lookup<const P: usize>(
        planes: &[&[u8]; 4],
        at: usize,
        t: &[__m512i; 8],
    ) -> (u64, __m512i, __m512i) {
        debug_assert!(planes.iter().all(|p| at + 64 <= p.len()));
        // Byte j of a 64-bit lane sits at bits 8 (j % 8) of it.
        let offsets = _mm512_set1_epi64(0x3830_2820_1810_0800);
        // SAFETY: the caller guarantees 64 bytes from `at` in every plane.
        let [hl, hh, ll, lh] =
            unsafe { planes.map(|p| _mm512_loadu_si512(p.as_ptr().add(at).cast::<__m512i>())) };
        let high = _mm512_xor_si512(hl, hh);
        // (ll ^ lh) | offsets: the bit of the XOR within its byte, placed in the byte's lane.
        let low = _mm512_ternarylogic_epi32::<0xBE>(ll, lh, offsets);
        let mut w = _mm512_permutex2var_epi8(t[0], high, t[1]);
        if P >= 2 {
            let bit10 = _mm512_movepi8_mask(high);
            let w1 = _mm512_permutex2var_epi8(t[2], high, t[3]);
            w = _mm512_mask_blend_epi8(bit10, w, w1);
            if P == 4 {
                let w2 = _mm512_permutex2var_epi8(t[4], high, t[5]);
                let w3 = _mm512_permutex2var_epi8(t[6], high, t[7]);
                let upper = _mm512_mask_blend_epi8(bit10, w2, w3);
                let bit11 = _mm512_test_epi8_mask(low, _mm512_set1_epi8(0x40));
                w = _mm512_mask_blend_epi8(bit11, w, upper);
            }
        }
        (bit_select(w, low), high, low)
    }

    /// For each byte `j`, the bit of the 64-bit lane of `bits` holding it that `index[j] & 63`
    /// names (`vpshufbitqmb`).
    ///
    /// Written out rather than `_mm512_bitshuffle_epi64_mask` for the reason given at
    /// [`compress_bytes`]: that intrinsic enables only BITALG, not the BW its 64-bit mask needs.
    #[target_feature(enable = "avx512f,avx512bw,avx512bitalg")]
    #[inline]
    fn bit_select(bits: __m512i, index: __m512i) -> u64 {
        let m: u64;
        // SAFETY: the instruction only reads the two registers and writes the mask; the CPU has
        // BITALG (this function enables it and is only called from kernels that check for it).
        unsafe {
            std::arch::asm!(
                "vpshufbitqmb {m}, {bits}, {index}",
                m = lateout(kreg) m,
                bits = in(zmm_reg) bits,
                index = in(zmm_reg) index,
                options(pure, nomem, nostack),
            );
        }
        m
    }

    /// Asks for the 256 bytes of every plane from `at` to be brought into L1: the hardware
    /// prefetcher alone keeps the pass waiting on L2.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn prefetch(planes: &[&[u8]; 4], at: usize) {
        for p in planes {
            for k in 0..4 {
                // `wrapping_add` keeps the address well defined past the end; a prefetch never
                // faults.
                _mm_prefetch::<_MM_HINT_T0>(p.as_ptr().wrapping_add(at + 64 * k).cast());
            }
        }
    }

    /// Writes the bytes of `high` and `low` selected by `m`, packed, to `hits` from `fill` (high
    /// bytes in the first half, low bytes in the second); returns the new fill.
    ///
    /// # Safety
    /// Each half of `hits` must hold at least `fill + 64` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
    #[inline]
    unsafe fn compress_at(
        hits: &mut [u8],
        fill: usize,
        m: u64,
        high: __m512i,
        low: __m512i,
    ) -> usize {
        let half = hits.len() / 2;
        debug_assert!(fill + 64 <= half);
        // SAFETY: the caller guarantees room for 64 bytes from `fill` in each half.
        unsafe {
            let p = hits.as_mut_ptr().add(fill);
            _mm512_storeu_si512(p.cast(), compress_bytes(m, high));
            _mm512_storeu_si512(p.add(half).cast(), compress_bytes(m, low));
        }
        fill + m.count_ones() as usize
    }

    /// The bytes of `a` selected by `m`, packed at the start (`vpcompressb`, zeroing the rest).
    ///
    /// Written out rather than `_mm512_maskz_compress_epi8`: that intrinsic enables only VBMI2,
    /// and where it is not inlined LLVM cannot move its 64-bit mask (which needs BW) and aborts
    /// ("Cannot emit physreg copy instruction", seen in release doctests).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
    #[inline]
    fn compress_bytes(m: u64, a: __m512i) -> __m512i {
        let packed: __m512i;
        // SAFETY: the instruction only reads the two registers and writes the third; the CPU has
        // VBMI2 (this function enables it and is only called from kernels that check for it).
        unsafe {
            std::arch::asm!(
                "vpcompressb {packed}{{{m}}}{{z}}, {a}",
                packed = lateout(zmm_reg) packed,
                m = in(kreg) m,
                a = in(zmm_reg) a,
                options(pure, nomem, nostack),
            );
        }
        packed
    }

    /// See [`super::mark_options`]; `lo`, `hi` and the planes have one length.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx512bitalg,popcnt")]
    pub(super) fn mark<const P: usize>(
        lo: &[u16],
        hi: &[u16],
        planes: &[&[u8]; 4],
        table: &mut [u64; 64],
        hits: &mut [u8],
        count: &mut u64,
    ) -> bool {
        let half = hits.len() / 2;
        assert!(half >= MAX_BLOCK + 64);
        let len = lo.len();
        debug_assert!(hi.len() == len && planes.iter().all(|p| p.len() == len));
        let words = 16 * P;
        let mut t = [_mm512_setzero_si512(); 8];
        load::<P>(table, &mut t);
        let (mut i, mut block) = (0, super::FIRST_BLOCK);
        while i < len {
            let end = (i + block).min(len);
            block = (2 * block).min(MAX_BLOCK);
            let mut fill = 0;
            // SAFETY (every `unsafe` block of this loop): every plane has `len` bytes and every
            // lookup of 64 splits starts at most at `end - 64 <= len - 64`. Every write of 64
            // bytes into a half of `hits` starts at `fill`, at most the number of splits looked
            // at so far in this block (at most `MAX_BLOCK`), and each half holds `MAX_BLOCK + 64`.
            while i + 256 <= end {
                if PREFETCH > 0 {
                    prefetch(planes, i + PREFETCH);
                }
                let r = unsafe {
                    [
                        lookup::<P>(planes, i, &t),
                        lookup::<P>(planes, i + 64, &t),
                        lookup::<P>(planes, i + 128, &t),
                        lookup::<P>(planes, i + 192, &t),
                    ]
                };
                if (r[0].0 | r[1].0 | r[2].0 | r[3].0) != 0 {
                    for (m, high, low) in r {
                        fill = unsafe { compress_at(hits, fill, m, high, low) };
                    }
                }
                i += 256;
            }
            while i + 64 <= end {
                let (m, high, low) = unsafe { lookup::<P>(planes, i, &t) };
                fill = unsafe { compress_at(hits, fill, m, high, low) };
                i += 64;
            }
            while i < end {
                let v = lo[i] ^ hi[i];
                if table[(v >> 6) as usize] >> (v & 63) & 1 != 0 {
                    hits[fill] = high_byte(v);
                    hits[half + fill] = low_byte(v);
                    fill += 1;
                }
                i += 1;
            }
            if fill > 0 {
                *count += fill as u64;
                for (&h, &l) in hits[..fill].iter().zip(&hits[half..half + fill]) {
                    let v = (h as usize) << 3 | (l & 7) as usize | ((l & 0x40) as usize) << 5;
                    table[v >> 6] &= !(1u64 << (v & 63));
                }
                if table[..words].iter().all(|&w| w == 0) {
                    return false;
                }
                load::<P>(table, &mut t);
            }
        }
        true
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod avx512 {
    /// Never called: [`super::available`] is false off x86_64.
    pub(super) unsafe fn mark<const P: usize>(
        _: &[u16],
        _: &[u16],
        _: &[&[u8]; 4],
        _: &mut [u64; 64],
        _: &mut [u8],
        _: &mut u64,
    ) -> bool {
        unreachable!("the filtered pass needs x86_64")
    }

    /// Never called: [`super::available`] is false off x86_64.
    pub(super) unsafe fn unseen_bits(_: &[u8], _: usize, _: &mut [u64]) -> bool {
        unreachable!("the filtered pass needs x86_64")
    }
}

/// A guess a little above the next value: the largest of the last [`GUESS_FROM`] values, plus a
/// margin. Recent values bound the next one well in the sequences seen (for .007 up to 2^17 the
/// guess is too low for about one heap in 400).
pub(crate) fn guess(values: &[u16]) -> usize {
    let recent = &values[values.len().saturating_sub(GUESS_FROM)..];
    recent.iter().copied().max().unwrap_or(0) as usize + GUESS_MARGIN
}

/// Worker threads' copies of the values, kept between calls of [`extend`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Workers {
    mirrors: Vec<Mirror>,
    scratch: Vec<Scratch>,
}

impl Workers {
    /// Work counters of every worker so far, added up.
    pub fn counts(&self) -> Scratch {
        let mut sum = Scratch::default();
        for s in &self.scratch {
            sum.add(s);
        }
        sum
    }
}

/// The values of heaps `values.len()..=upto` on `threads` threads (at most `rules.window()`, at
/// least 2), given every value of the heaps below. Stops early, returning the values found so far
/// (in order), at the first heap whose options reach `1 << MAX_BITS`.
pub(crate) fn extend(
    values: &[Grundy],
    rules: &Rules,
    upto: usize,
    threads: usize,
    workers: &mut Workers,
) -> Vec<Grundy> {
    let from = values.len();
    let window = rules.window();
    debug_assert!(threads >= 2 && threads <= window && from >= window);
    workers.mirrors.resize_with(threads, Mirror::default);
    workers.scratch.resize_with(threads, Scratch::default);
    let results: Vec<AtomicU32> = (from..=upto).map(|_| AtomicU32::new(PENDING)).collect();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let jobs = workers.mirrors.iter_mut().zip(workers.scratch.iter_mut()).enumerate();
        for (t, (mirror, scratch)) in jobs {
            while mirror.len() < from {
                mirror.push(values[mirror.len()]);
            }
            let (results, stop) = (&results, &stop);
            let mut job = move || work(t, threads, from, rules, mirror, scratch, results, stop);
            if t + 1 == threads {
                job();
            } else if std::thread::Builder::new().spawn_scoped(scope, job).is_err() {
                // No thread to be had: the others stop at the first value they would wait
                // for, and the engine carries on from the values found so far.
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    results.iter().map(|r| r.load(Ordering::Acquire)).take_while(|&v| v != PENDING).collect()
}

/// Worker `t`: values heaps `from + t`, `from + t + threads`, ... into `results`, reading the
/// others' values from there as they arrive.
#[allow(clippy::too_many_arguments)]
fn work(
    t: usize,
    threads: usize,
    from: usize,
    rules: &Rules,
    mirror: &mut Mirror,
    scratch: &mut Scratch,
    results: &[AtomicU32],
    stop: &AtomicBool,
) {
    let window = rules.window();
    let mut bits = mirror.values().iter().map(|&v| 16 - v.leading_zeros()).max().unwrap_or(0);
    let mut n = from + t;
    while n < from + results.len() {
        // Heap n needs every heap up to n - window.
        while mirror.len() + window <= n {
            let slot = &results[mirror.len() - from];
            let mut spins = 0u32;
            let v = loop {
                let v = slot.load(Ordering::Acquire);
                if v != PENDING {
                    break v;
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                // The other worker is normally a split's scan away; if it is not running (more
                // threads than free cores), give the core up instead of spinning.
                spins += 1;
                if spins < SPINS {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            };
            bits = bits.max(32 - v.leading_zeros());
            mirror.push(v);
        }
        if bits > MAX_BITS {
            stop.store(true, Ordering::Relaxed);
            return;
        }
        let v = heap_value(mirror, rules, n, bits.max(6), guess(mirror.values()), scratch);
        results[n - from].store(v, Ordering::Release);
        n += threads;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::OctalGame;
    use rand::{Rng, SeedableRng};

    /// Heap `n`'s value by scattering every option: the plain definition over arbitrary values.
    fn plain_value(g: &[u16], rules: &Rules, n: usize) -> Grundy {
        let mut seen = vec![false; 1 << 13];
        for &k in &rules.take_all {
            seen[0] |= n == k;
        }
        for &k in &rules.take_some {
            if n > k {
                seen[g[n - k] as usize] = true;
            }
        }
        for &k in &rules.split2 {
            if n >= k + 2 {
                let rest = n - k;
                for a in 1..=rest / 2 {
                    seen[(g[a] ^ g[rest - a]) as usize] = true;
                }
            }
        }
        seen.iter().position(|&s| !s).unwrap() as Grundy
    }

    #[test]
    fn kernel_matches_scatter_on_random_values() {
        if !available() {
            eprintln!("note: no AVX-512 here; the filtered pass is not used on this CPU");
            return;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = [0usize; 3];
        for code in ["0.007", "0.77", "0.137", "4.07", "0.0037"] {
            let rules = Rules::new(&code.parse::<OctalGame>().unwrap());
            for bits in [6, 9, 10, 11, 12] {
                for _ in 0..6 {
                    // Values skewed to small ones, as in real sequences, so the mex varies.
                    let len = rng.random_range(3000..40_000);
                    let top = 1u32 << bits;
                    let values: Vec<u16> = (0..len)
                        .map(|_| {
                            let v = rng.random_range(0..top);
                            (v >> rng.random_range(0..bits)) as u16
                        })
                        .collect();
                    let mut m = Mirror::default();
                    for &v in &values {
                        m.push(v as Grundy);
                    }
                    let mut s = Scratch::default();
                    for n in [len - 1, len / 2, 2000, 1500] {
                        // Guesses far too low, about right, and the whole table.
                        let guess = [1, 100, 1 << bits][n % 3];
                        let got = heap_value(&m, &rules, n, bits, guess, &mut s);
                        assert_eq!(
                            got,
                            plain_value(&values, &rules, n),
                            "{code} bits {bits} n {n}"
                        );
                        checked[(bits.max(10) - 10) as usize] += 1;
                    }
                }
            }
        }
        // Every table size (1024, 2048 and 4096 bits) was exercised.
        assert!(checked.iter().all(|&c| c > 0));
    }

    #[test]
    fn every_value_an_option_gives_the_table_size() {
        if !available() {
            return;
        }
        // Random values below 1024: the 10^4 splits of a large heap reach every XOR below 1024.
        let rules = Rules::new(&OctalGame::dot007());
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut m = Mirror::default();
        for _ in 0..20_000 {
            m.push(rng.random_range(0..1024));
        }
        let mut s = Scratch::default();
        let n = 19_999;
        let expected = plain_value(m.values(), &rules, n);
        assert_eq!(expected, 1024);
        assert_eq!(heap_value(&m, &rules, n, 10, 200, &mut s), 1024);
        assert_eq!(heap_value(&m, &rules, n, 10, 5000, &mut s), 1024);
    }
}
