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
//! ([`pass_two`]). [`extend`] spreads such pairs over threads, each with its own copy of the
//! values; the workers hand values to each other through atomics, and one that must wait for
//! another's value blocks (see [`Handoff`]). A pass needs only the values
//! its splits reach; the moves that leave one heap reach closer (heap `n - 3` for .007) and are
//! counted after the pass, so a worker waits, if at all, only at the end of a pass.
//!
//! On .007 to 2^17 (heaps in pairs, one core of the development machine) a split costs about
//! 0.08 ns: 0.03 ns for the lookup itself (the byte permute, two cycles on one port, bounds it),
//! the rest for the hits (written out, cleared a byte at a time, the table reloaded) and for the
//! sample.

use super::engine::Pace;
use super::kernel::Kernel;
use super::scan::{Mirror, Side};
use super::Grundy;
use crate::budget::{Meter, Stopped};
use crate::games::octal::OctalMoves;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

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
/// Rounds of a short busy wait (a few microseconds) for another worker's value before the
/// worker blocks: most waits end within a pass's tail, and blocking and waking cost more.
const SPINS: u32 = 1 << 9;
/// A result slot not yet written.
const PENDING: u32 = u32::MAX;

/// Scratch space of one thread, the kernel it runs, and its work counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// The kernel of the passes.
    pub kernel: Kernel,
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
}

impl Scratch {
    /// Empty scratch space for passes by `kernel`.
    pub fn new(kernel: Kernel) -> Self {
        Scratch { kernel, ..Scratch::default() }
    }

    /// Adds `other`'s work counters to these.
    pub fn add(&mut self, other: &Scratch) {
        self.heaps += other.heaps;
        self.passes += other.passes;
        self.hits += other.hits;
        self.splits += other.splits;
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
) -> impl Iterator<Item = [Side<'a>; 2]> + Clone + 'a {
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
/// least 2) with `kernel`, given every value of the heaps below, spending `meter` (each worker
/// ticks it and reads its clock every few milliseconds). Stops early, returning the values found
/// so far (in order), at the first heap whose options reach `1 << MAX_BITS`, or when the meter
/// stops (returned too).
pub(crate) fn extend(
    values: &[Grundy],
    rules: &OctalMoves,
    upto: usize,
    threads: usize,
    kernel: Kernel,
    workers: &mut Workers,
    meter: &Meter,
) -> (Vec<Grundy>, Option<Stopped>) {
    let from = values.len();
    let window = rules.window();
    debug_assert!(threads >= 2 && threads <= window && from >= window);
    workers.mirrors.resize_with(threads, Mirror::default);
    workers.scratch.resize_with(threads, || Scratch::new(kernel));
    for s in &mut workers.scratch {
        s.kernel = kernel;
    }
    let handoff = Handoff::new(from, upto, threads);
    std::thread::scope(|scope| {
        let jobs = workers.mirrors.iter_mut().zip(workers.scratch.iter_mut()).enumerate();
        for (t, (mirror, scratch)) in jobs {
            while mirror.len() < from {
                mirror.push(values[mirror.len()]);
            }
            let handoff = &handoff;
            let mut job = move || {
                let mut pace = Pace::default();
                work(from, rules, mirror, scratch, handoff, meter, &mut pace);
                // Done, or stopped: the last heaps are counted, and a limit reached now stops
                // nothing more.
                let _ = pace.flush(meter);
            };
            if t + 1 == threads {
                job();
            } else if std::thread::Builder::new().spawn_scoped(scope, job).is_err() {
                // No thread to be had: the others take its units.
                handoff.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    });
    handoff.into_values()
}

/// The values the workers hand each other: a slot per heap, and a way to sleep until one is
/// filled. A worker waiting for a value spins briefly, then blocks until the worker owing it
/// publishes it (or some worker stops them all), so that a waiting worker never holds a core
/// that the worker it waits for could use (as when another process keeps a core busy).
struct Handoff {
    from: usize,
    /// The value of heap `from + i`, or [`PENDING`].
    results: Vec<AtomicU32>,
    /// Set when the workers must stop (one found a value too wide for its passes, panicked, or
    /// could not be started).
    stop: AtomicBool,
    /// Why the meter stopped the workers, if it did.
    stopped: Mutex<Option<Stopped>>,
    /// Workers asleep (or about to be) on `wake`; publishers lock and notify only when some are.
    sleepers: AtomicU32,
    lock: Mutex<()>,
    wake: Condvar,
    /// The next unit to claim.
    next_unit: AtomicUsize,
    /// Workers not resting.
    active: AtomicUsize,
    /// Workers resting (or about to) on `rested`, woken when the units run out or all stop.
    resting: AtomicU32,
    rested: Condvar,
    /// Set when some worker found the units run out.
    done: AtomicBool,
}

impl Handoff {
    fn new(from: usize, upto: usize, threads: usize) -> Self {
        Handoff {
            from,
            results: (from..=upto).map(|_| AtomicU32::new(PENDING)).collect(),
            stop: AtomicBool::new(false),
            stopped: Mutex::new(None),
            sleepers: AtomicU32::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            next_unit: AtomicUsize::new(0),
            active: AtomicUsize::new(threads),
            resting: AtomicU32::new(0),
            rested: Condvar::new(),
            done: AtomicBool::new(false),
        }
    }

    /// One past the last heap.
    fn end(&self) -> usize {
        self.from + self.results.len()
    }

    /// Publishes the value `v` of heap `n`, waking the workers waiting for it.
    fn publish(&self, n: usize, v: Grundy) {
        // SeqCst on both sides: either a sleeper sees the value before it sleeps, or this sees
        // the sleeper and wakes it.
        self.results[n - self.from].store(v, Ordering::SeqCst);
        self.wake_all();
    }

    /// Tells every worker to stop because the meter did, keeping the first such stop.
    fn fail(&self, stopped: Stopped) {
        let mut first = self.stopped.lock().unwrap_or_else(PoisonError::into_inner);
        first.get_or_insert(stopped);
        drop(first);
        self.halt();
    }

    /// Tells every worker to stop, waking those that wait or rest.
    fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake_all();
        self.wake_resting();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn wake_all(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            // Taking the lock orders this after a sleeper's last look at its slot.
            drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
            self.wake.notify_all();
        }
    }

    /// The value of heap `n` once published, or `None` if the workers are told to stop first.
    /// Adds the time it blocked to `waited`.
    fn wait_for(&self, n: usize, waited: &mut Duration) -> Option<Grundy> {
        let slot = &self.results[n - self.from];
        let ready = || Some(slot.load(Ordering::Acquire)).filter(|&v| v != PENDING);
        for _ in 0..SPINS {
            if let Some(v) = ready() {
                return Some(v);
            }
            if self.stopped() {
                return None;
            }
            std::hint::spin_loop();
        }
        let blocked = Instant::now();
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let v = loop {
            if let Some(v) = Some(slot.load(Ordering::SeqCst)).filter(|&v| v != PENDING) {
                break Some(v);
            }
            if self.stop.load(Ordering::SeqCst) {
                break None;
            }
            guard = self.wake.wait(guard).unwrap_or_else(PoisonError::into_inner);
        };
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        drop(guard);
        *waited += blocked.elapsed();
        v
    }

    /// The next unit of work.
    fn claim(&self) -> usize {
        self.next_unit.fetch_add(1, Ordering::Relaxed)
    }

    /// Rests for `time` (or until the work runs out or the workers stop), unless this is the
    /// only worker still working; the others go on claiming units meanwhile.
    fn rest(&self, time: Duration) {
        let leave = |a: usize| (a > 1).then(|| a - 1);
        if self.active.fetch_update(Ordering::SeqCst, Ordering::SeqCst, leave).is_err() {
            return;
        }
        let until = Instant::now() + time;
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.resting.fetch_add(1, Ordering::SeqCst);
        loop {
            let now = Instant::now();
            if now >= until || self.stop.load(Ordering::SeqCst) || self.done.load(Ordering::SeqCst)
            {
                break;
            }
            guard = self
                .rested
                .wait_timeout(guard, until - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        self.resting.fetch_sub(1, Ordering::SeqCst);
        self.active.fetch_add(1, Ordering::SeqCst);
    }

    /// Says that the units have run out, waking the resting workers.
    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        self.wake_resting();
    }

    fn wake_resting(&self) {
        if self.resting.load(Ordering::SeqCst) > 0 {
            drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
            self.rested.notify_all();
        }
    }

    /// The values published, in order, up to the first heap left pending; and why the meter
    /// stopped the workers, if it did.
    fn into_values(self) -> (Vec<Grundy>, Option<Stopped>) {
        let values = self.results.into_iter().map(AtomicU32::into_inner);
        let stopped = self.stopped.into_inner().unwrap_or_else(PoisonError::into_inner);
        (values.take_while(|&v| v != PENDING).collect(), stopped)
    }
}

/// A worker: claims units of heaps (see below) in order and publishes their values in `handoff`,
/// reading the others' values from there as they arrive; rests while it would mostly wait.
///
/// A pair of heaps `n`, `n + 1` is valued in one pass ([`pass_two`]), which needs every value up
/// to `n + 1 - reach` (the splits of heap `n` reach no heap above `n - reach`); the moves that
/// leave one heap, which reach up to `n + 1 - window`, are counted after the pass. With two
/// threads on .007 (`reach` 4, `window` 3) a worker thus waits only at the end of a pass, for
/// the first value of the other worker's pair.
#[allow(clippy::too_many_arguments)]
fn work(
    from: usize,
    rules: &OctalMoves,
    mirror: &mut Mirror,
    s: &mut Scratch,
    handoff: &Handoff,
    meter: &Meter,
    pace: &mut Pace,
) {
    // A worker that panics stops the others, which would otherwise wait for its values forever
    // (and the scope would never end to pass the panic on).
    struct StopOnPanic<'a>(&'a Handoff);
    impl Drop for StopOnPanic<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.halt();
            }
        }
    }
    let _guard = StopOnPanic(handoff);
    let window = rules.window();
    let reach = rules.split2.iter().map(|&k| k + 1).min().unwrap_or(window).max(window);
    let mut bits = mirror.values().iter().map(|&v| 16 - v.leading_zeros()).max().unwrap_or(0);
    let end = handoff.end();
    // Workers claim units in order. When the splits of a pair of heaps reach no heap of the
    // pair before it (`reach` of 4 or more), unit 0 is heap `from` alone and unit `u > 0` heaps
    // `from + 2u - 1` and `from + 2u`: the short first unit puts its worker half a pair ahead,
    // so that each worker's values are due about half a pass before the other needs them.
    // Otherwise (.07: `reach` 3) a pair would wait for the pair before it, and unit `u` is heap
    // `from + u` alone.
    let pairs = reach >= 4;
    let mut watch = Watch::new();
    loop {
        let unit = handoff.claim();
        let n = match (pairs, unit) {
            (true, 0) | (false, _) => from + unit,
            (true, _) => from + 2 * unit - 1,
        };
        if n >= end {
            break;
        }
        let last = if pairs && unit > 0 { (n + 1).min(end - 1) } else { n };
        let need = (last + 1).saturating_sub(reach).max(from);
        if !catch_up(mirror, need, handoff, &mut bits, &mut watch.waited) {
            return;
        }
        let used = bits.max(6);
        if used > MAX_BITS {
            handoff.halt();
            return;
        }
        let guess = guess(mirror.values());
        let waited = &mut watch.waited;
        let wait = |mirror: &mut Mirror| {
            let need = (last + 1).saturating_sub(window).max(from);
            // A value the pass did not allow for stops the pipeline too: the engine carries on
            // from the values found.
            catch_up(mirror, need, handoff, &mut bits, waited) && bits <= used
        };
        let Some(values) = unit_values(mirror, rules, n..=last, used, guess, wait, s) else {
            handoff.halt();
            return;
        };
        for (h, v) in (n..=last).zip(values) {
            handoff.publish(h, v);
        }
        let heaps = (last + 1 - n) as u64;
        if let Err(stopped) = pace.step(meter, heaps, heaps * n as u64) {
            handoff.fail(stopped);
            return;
        }
        if watch.starved(heaps * n as u64) {
            // Waiting more than working: the worker this one waits for is not running (more
            // busy threads than cores). Rest a while, leaving the units to the others.
            let rest = watch.rest_for();
            handoff.rest(rest);
            watch.restart();
        }
    }
    // Out of units: a resting worker need not wait for its time to end.
    handoff.finish();
}

/// Minimum work (about one unit per split) between two looks at how long a worker waited.
const WATCH_WORK: u64 = 1 << 20;
/// Least time over which a worker's waiting is judged.
const WATCH_TIME: Duration = Duration::from_millis(10);
/// A worker that waited more than this share of the time rests.
const STARVED: f64 = 0.3;
/// The first rest of a starved worker; each rest in a row doubles it, up to [`MAX_REST`].
const FIRST_REST: Duration = Duration::from_millis(20);
/// The longest rest.
const MAX_REST: Duration = Duration::from_millis(640);

/// How long a worker waited for others' values lately, to tell when it should rest.
struct Watch {
    since: Instant,
    work: u64,
    /// Time blocked waiting since `since`.
    waited: Duration,
    /// Rests in a row.
    rests: u32,
}

impl Watch {
    fn new() -> Self {
        Watch { since: Instant::now(), work: 0, waited: Duration::ZERO, rests: 0 }
    }

    /// Counts `work` more; whether the worker waited for more than [`STARVED`] of the time of
    /// the last [`WATCH_TIME`] or more (the clock is read every [`WATCH_WORK`] of work).
    fn starved(&mut self, work: u64) -> bool {
        self.work += work + 1;
        if self.work < WATCH_WORK {
            return false;
        }
        self.work = 0;
        let elapsed = self.since.elapsed();
        if elapsed < WATCH_TIME {
            return false;
        }
        let starved = self.waited.as_secs_f64() > STARVED * elapsed.as_secs_f64();
        if !starved {
            self.rests = 0;
        }
        self.since = Instant::now();
        self.waited = Duration::ZERO;
        starved
    }

    /// How long to rest now: longer for each rest in a row.
    fn rest_for(&mut self) -> Duration {
        let rest = FIRST_REST.saturating_mul(1 << self.rests.min(5)).min(MAX_REST);
        self.rests += 1;
        rest
    }

    fn restart(&mut self) {
        (self.since, self.work, self.waited) = (Instant::now(), 0, Duration::ZERO);
    }
}

/// The values of `heaps` (one heap, or two in a row), `bits` and `guess` as for [`heap_value`].
/// `m` must hold every value the splits of the heaps reach; after the pass, `wait` must add
/// those that the moves leaving one heap reach, or give up (`false`, and so `None` here).
fn unit_values(
    m: &mut Mirror,
    rules: &OctalMoves,
    heaps: std::ops::RangeInclusive<usize>,
    bits: u32,
    guess: usize,
    wait: impl FnOnce(&mut Mirror) -> bool,
    s: &mut Scratch,
) -> Option<Vec<Grundy>> {
    let known = m.len();
    let mut heaps: Vec<Heap> = heaps.map(|n| prepare(m, rules, n, bits, guess, known, s)).collect();
    let tables: Vec<[u64; 64]> = match <&mut [Heap; 2]>::try_from(heaps.as_mut_slice()) {
        Ok(pair) if !pair[0].scattered && !pair[1].scattered => {
            pass_two(m, rules, pair, s).to_vec()
        }
        _ => heaps.iter().map(|h| pass_one(m, rules, h, s)).collect(),
    };
    if !wait(m) {
        return None;
    }
    let values = heaps.into_iter().zip(tables).map(|(heap, table)| {
        let n = heap.n;
        let g = m.values();
        let late = rules.take_some.iter().filter(|&&k| n > k && n - k >= known);
        finish(m, rules, heap, table, late.map(|&k| g[n - k] as Grundy), s)
    });
    Some(values.collect())
}

/// Pushes onto `mirror` the values of the heaps below `upto` (those before the handoff's first
/// are there) as the workers publish them, widening `bits` to them; `false` if told to stop
/// first. Adds the time it blocked to `waited`.
fn catch_up(
    mirror: &mut Mirror,
    upto: usize,
    handoff: &Handoff,
    bits: &mut u32,
    waited: &mut Duration,
) -> bool {
    while mirror.len() < upto {
        let Some(v) = handoff.wait_for(mirror.len(), waited) else {
            return false;
        };
        *bits = (*bits).max(32 - v.leading_zeros());
        mirror.push(v);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::OctalGame;
    use crate::solve::grundy::kernel::unavailable_reason;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The kernels every test runs on: the scalar one always, the AVX-512 one where the CPU has
    /// it; where it does not, a line in the test output says that half was skipped, and why.
    fn kernels(test: &str) -> Vec<Kernel> {
        match Kernel::avx512() {
            Some(avx512) => vec![Kernel::Scalar, avx512],
            None => {
                let why = unavailable_reason().unwrap_or_default();
                eprintln!("note: {test}: AVX-512 half skipped ({why}); scalar kernel only");
                vec![Kernel::Scalar]
            }
        }
    }

    /// The work counters of a scratch space.
    fn counters(s: &Scratch) -> [u64; 4] {
        [s.heaps, s.passes, s.hits, s.splits]
    }

    #[test]
    fn avx512_kernel_available_or_reported() {
        match (Kernel::avx512(), unavailable_reason()) {
            (Some(_), None) => eprintln!("note: the AVX-512 kernel runs here; tests check both"),
            (None, Some(why)) => {
                eprintln!("note: AVX-512 kernel tests skipped: {why}; only the scalar kernel runs")
            }
            (k, why) => panic!("detection disagrees: {k:?} against {why:?}"),
        }
        assert_eq!(Kernel::avx512().is_some(), crate::solve::grundy::filtered_pass_available());
        assert_eq!(Kernel::best(), Kernel::avx512().unwrap_or(Kernel::Scalar));
    }

    /// Heap `n`'s value by scattering every option: the plain definition over arbitrary values.
    fn plain_value(g: &[u16], rules: &OctalMoves, n: usize) -> Grundy {
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

    /// Both planes of `values`, as [`Mirror::sides`] gives them.
    fn planes(values: &[u16]) -> [Vec<u8>; 2] {
        use crate::solve::grundy::scan::{high_byte, low_byte};
        [
            values.iter().map(|&v| high_byte(v)).collect(),
            values.iter().map(|&v| low_byte(v)).collect(),
        ]
    }

    #[test]
    fn kernels_agree_with_the_definition_on_random_tables() {
        // The contract itself: `unseen` makes the table of unseen values below the limit, and
        // `mark_options` clears exactly the XORs of the splits; both kernels give the same
        // tables and the same count of hits.
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let kernels = kernels("kernels_agree_with_the_definition_on_random_tables");
        for round in 0..300 {
            let pairs: usize = [1, 2, 4][round % 3];
            let size = 1024 * pairs;
            let len = [0, 1, 63, 64, 65, 255, 256, 257, 1000, 5000, 20_000][round % 11];
            // XORs mostly inside the table, some (for 1 and 2 pairs) beyond it, up to 4095.
            let top = [size, 4096][round % 2];
            let value = |rng: &mut rand::rngs::StdRng| {
                let bits = 12 - (4096 / top).trailing_zeros();
                (rng.random_range(0..top as u32) >> rng.random_range(0..bits)) as u16
            };
            let lo: Vec<u16> = (0..len).map(|_| value(&mut rng)).collect();
            let his: [Vec<u16>; 2] = std::array::from_fn(|_| {
                lo.iter().map(|&x| x ^ value(&mut rng)).map(|v| v & 4095).collect()
            });
            let seen: [Vec<u8>; 2] = std::array::from_fn(|_| {
                let dense = rng.random_range(0..100);
                (0..size).map(|_| u8::from(rng.random_range(0..100) < dense)).collect()
            });
            let limits = [rng.random_range(0..=size), size];
            let lo_planes = planes(&lo);
            let lo_side = Side { values: &lo, planes: [&lo_planes[0], &lo_planes[1]] };
            let hi_planes = his.each_ref().map(|h| planes(h));
            let hi_sides: [Side; 2] = std::array::from_fn(|h| Side {
                values: &his[h],
                planes: [&hi_planes[h][0], &hi_planes[h][1]],
            });
            let mut outcomes = Vec::new();
            for &kernel in &kernels {
                let tables = [0, 1].map(|h| kernel.unseen(pairs, &seen[h], limits[h]));
                for (h, table) in tables.iter().enumerate() {
                    for v in 0..4096 {
                        let unseen = v < limits[h] && seen[h][v] == 0;
                        assert_eq!(table[v / 64] >> (v % 64) & 1 == 1, unseen, "{kernel:?} {v}");
                    }
                }
                let (mut one, mut two) = ([tables[0]], tables);
                let (mut count_one, mut count_two, mut hits) = (0, 0, Vec::new());
                kernel.mark_options(
                    pairs,
                    &lo_side,
                    &[hi_sides[0]],
                    &mut one,
                    &mut hits,
                    &mut count_one,
                );
                kernel.mark_options(
                    pairs,
                    &lo_side,
                    &hi_sides,
                    &mut two,
                    &mut hits,
                    &mut count_two,
                );
                assert_eq!(one[0], two[0], "{kernel:?}: a heap alone and in a pair");
                for (h, table) in two.iter().enumerate() {
                    let mut expected = tables[h];
                    for (&x, &y) in lo.iter().zip(&his[h]) {
                        let v = usize::from(x ^ y);
                        expected[v / 64] &= !(1 << (v % 64));
                    }
                    assert_eq!(table, &expected, "{kernel:?} round {round} heap {h}");
                }
                outcomes.push((two, count_one, count_two));
            }
            if let [scalar, avx512] = &outcomes[..] {
                assert_eq!(scalar, avx512, "round {round}: pairs {pairs}, {len} splits");
            }
        }
    }

    #[test]
    fn kernel_matches_scatter_on_random_values() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let kernels = kernels("kernel_matches_scatter_on_random_values");
        let mut checked = [0usize; 3];
        for code in ["0.007", "0.77", "0.137", "4.07", "0.0037"] {
            let rules = OctalMoves::new(&code.parse::<OctalGame>().unwrap());
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
                    let mut work = Vec::new();
                    for &kernel in &kernels {
                        let mut s = Scratch::new(kernel);
                        for n in [len - 1, len / 2, 2000, 1500] {
                            // Guesses far too low, about right, and the whole table.
                            let guess = [1, 100, 1 << bits][n % 3];
                            let got = heap_value(&m, &rules, n, bits, guess, &mut s);
                            assert_eq!(
                                got,
                                plain_value(&values, &rules, n),
                                "{kernel:?} {code} bits {bits} n {n}"
                            );
                            checked[(bits.max(10) - 10) as usize] += 1;
                        }
                        work.push(counters(&s));
                    }
                    // Both kernels did the same work.
                    assert!(work.windows(2).all(|w| w[0] == w[1]), "{code} bits {bits}: {work:?}");
                }
            }
        }
        // Every table size (1024, 2048 and 4096 bits) was exercised.
        assert!(checked.iter().all(|&c| c > 0));
    }

    #[test]
    fn pairs_with_late_values_match_scatter() {
        // Heaps n and n + 1 valued in one pass, as the worker threads do: the mirror holds only
        // the values the splits reach, and the rest (for the moves leaving one heap) arrive
        // after the pass. Games whose heap n + 1 does not need heap n (window of 2 or more).
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        let kernels = kernels("pairs_with_late_values_match_scatter");
        let mut joint = 0;
        for code in ["0.007", "0.137", "0.0037"] {
            let rules = OctalMoves::new(&code.parse::<OctalGame>().unwrap());
            let window = rules.window();
            let reach = rules.split2.iter().map(|&k| k + 1).min().unwrap();
            assert!(window >= 2);
            for bits in [6, 10, 11, 12] {
                for round in 0..4 {
                    let len = rng.random_range(3000..30_000);
                    let top = 1u32 << bits;
                    let mut values: Vec<u16> = (0..len)
                        .map(|_| (rng.random_range(0..top) >> rng.random_range(0..bits)) as u16)
                        .collect();
                    if round == 0 && bits == 12 {
                        // Distinct values: the only split with XOR 0 is into two equal heaps,
                        // which heap n + 1 has and heap n lacks (so the pair pass must see it).
                        values = (0..4096).collect();
                        values.shuffle(&mut rng);
                    }
                    let len = values.len();
                    let mut work = Vec::new();
                    for &kernel in &kernels {
                        let mut s = Scratch::new(kernel);
                        for n in [len - 2, len / 2, 2001, 1200] {
                            let mut m = Mirror::default();
                            for &v in &values[..n + 2 - reach] {
                                m.push(v as Grundy);
                            }
                            let guess = [1, 100, 1 << bits][n % 3];
                            let late = |m: &mut Mirror| {
                                while m.len() < n + 2 - window {
                                    m.push(values[m.len()] as Grundy);
                                }
                                true
                            };
                            let got =
                                unit_values(&mut m, &rules, n..=n + 1, bits, guess, late, &mut s);
                            let expected = [n, n + 1].map(|h| plain_value(&values, &rules, h));
                            assert_eq!(
                                got.as_deref(),
                                Some(&expected[..]),
                                "{kernel:?} {code} bits {bits} n {n}"
                            );
                            joint += usize::from(n > 2100);
                        }
                        work.push(counters(&s));
                    }
                    assert!(work.windows(2).all(|w| w[0] == w[1]), "{code} bits {bits}: {work:?}");
                }
            }
        }
        assert!(joint > 0);
    }

    #[test]
    fn every_value_an_option_gives_the_table_size() {
        // Random values below 1024: the 10^4 splits of a large heap reach every XOR below 1024.
        let rules = OctalMoves::new(&OctalGame::dot007());
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut m = Mirror::default();
        for _ in 0..20_000 {
            m.push(rng.random_range(0..1024));
        }
        let n = 19_999;
        let expected = plain_value(m.values(), &rules, n);
        assert_eq!(expected, 1024);
        for kernel in kernels("every_value_an_option_gives_the_table_size") {
            let mut s = Scratch::new(kernel);
            assert_eq!(heap_value(&m, &rules, n, 10, 200, &mut s), 1024, "{kernel:?}");
            assert_eq!(heap_value(&m, &rules, n, 10, 5000, &mut s), 1024, "{kernel:?}");
        }
    }
}
