//! The filtered pass on several threads: heaps (in pairs with AVX-512, see
//! [`pass_two`](super::filter) and [`Kernel::pairs_pay`]; one at a time with the others) are
//! dealt out in order to workers, each with its own copy of the values; the workers hand values
//! to each other through atomics ([`Handoff`]), and one that must wait for another's value
//! blocks, after a few microseconds' spin, until it is published. A pass needs only the values
//! its splits reach; the moves that leave one heap reach closer (heap `n - 3` for .007) and are
//! counted after the pass. When one such move is left and the pass leaves two values unhit, the
//! worker publishes both ([`Outcome::Either`]) and goes on: whoever reads the value picks one
//! from the values before it, so no worker waits for the pass another is running (before, the
//! two workers of .007 waited for each other at the end of nearly every pass, a spin and often a
//! sleep, about 15% of their time). A worker
//! that waits more than it works (more busy threads than cores) rests, leaving its units to the
//! others.

use super::filter::{guess, unit_values, Outcome, Scratch, MAX_BITS};
use super::kernel::Kernel;
use super::scan::{self, Mirror};
use super::types::Grundy;
use crate::budget::{Meter, Stopped, Ticker};
use crate::games::octal::OctalMoves;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

/// Rounds of a short busy wait (a few microseconds) for another worker's value before the
/// worker blocks: most waits end within a pass's tail, and blocking and waking cost more.
const SPINS: u32 = 1 << 9;
/// A result slot not yet written.
const PENDING: u32 = u32::MAX;
/// The mark of an [`Outcome::Either`] in a result slot (its values below 4096 in bits 0-11 and
/// 12-23; a value is below 2^16, and [`PENDING`] has bits 24-30 set).
const EITHER: u32 = 1 << 31;

/// An outcome as a result slot holds it.
fn encode(outcome: Outcome) -> u32 {
    match outcome {
        Outcome::Value(v) => {
            assert!(v < 1 << 16, "a value beyond the engine's 16 bits");
            v
        }
        Outcome::Either { first, second } => {
            assert!(first < 4096 && second < 4096, "an outcome beyond the tables");
            EITHER | first | second << 12
        }
    }
}

/// The outcome in a written result slot.
fn decode(slot: u32) -> Outcome {
    if slot & EITHER != 0 {
        Outcome::Either { first: slot & 0xfff, second: slot >> 12 & 0xfff }
    } else {
        Outcome::Value(slot)
    }
}
/// Heaps between two readings of the meter's clock, whatever their estimated work (about one
/// unit per split looked at; the clock is read after [`Ticker::WORK`] of it too). Work of
/// fewer heaps, and less work, always finishes.
pub(crate) const CHECK_HEAPS: u64 = 64;

/// How the workers value their heaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Valuer {
    /// The filtered pass with this kernel (pairs of heaps in one pass where the rules allow).
    Filter(Kernel),
    /// Candidate testing after scattering `prefix` splits per splitting move (see
    /// [`scan::heap_value`]), a heap at a time: for CPUs without a vector kernel.
    Candidates {
        /// Splits scattered first (`usize::MAX`: all of them).
        prefix: usize,
    },
}

impl Valuer {
    /// Values at or above `1 << bits` stop the workers (the engine carries on without them).
    fn max_bits(self) -> u32 {
        match self {
            Valuer::Filter(_) => MAX_BITS,
            // The scan works on `u16` values below 2^15.
            Valuer::Candidates { .. } => scan::VALUE_BOUND.trailing_zeros(),
        }
    }
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
/// least 2) by `valuer`, given every value of the heaps below, spending `meter` (each worker
/// ticks it and reads its clock every few milliseconds). Stops early, returning the values found
/// so far (in order), at the first heap whose options reach `1 << valuer.max_bits()`, or when
/// the meter stops (returned too).
pub(crate) fn extend(
    values: &[Grundy],
    rules: &OctalMoves,
    upto: usize,
    threads: usize,
    valuer: Valuer,
    workers: &mut Workers,
    meter: &Meter,
) -> (Vec<Grundy>, Option<Stopped>) {
    let from = values.len();
    let window = rules.window();
    debug_assert!(threads >= 2 && threads <= window && from >= window);
    workers.mirrors.resize_with(threads, Mirror::default);
    let kernel = match valuer {
        Valuer::Filter(kernel) => kernel,
        Valuer::Candidates { .. } => Kernel::Scalar,
    };
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
                let mut pace = Ticker::every(CHECK_HEAPS);
                work(from, rules, valuer, mirror, scratch, handoff, meter, &mut pace);
                // Done, or stopped: the last heaps are counted, and a limit reached now stops
                // nothing more.
                pace.flush(meter);
            };
            if t + 1 == threads {
                job();
            } else if std::thread::Builder::new().spawn_scoped(scope, job).is_err() {
                // No thread to be had: the others take its units.
                handoff.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    });
    handoff.into_values(values, rules)
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

    /// Publishes the outcome of heap `n`, waking the workers waiting for it.
    fn publish(&self, n: usize, outcome: Outcome) {
        // SeqCst on both sides: either a sleeper sees the value before it sleeps, or this sees
        // the sleeper and wakes it.
        self.results[n - self.from].store(encode(outcome), Ordering::SeqCst);
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

    /// The outcome of heap `n` once published, or `None` if the workers are told to stop first.
    /// Adds the time it blocked to `waited`.
    fn wait_for(&self, n: usize, waited: &mut Duration) -> Option<Outcome> {
        let slot = &self.results[n - self.from];
        let ready = || Some(slot.load(Ordering::Acquire)).filter(|&v| v != PENDING);
        for _ in 0..SPINS {
            if let Some(v) = ready() {
                return Some(decode(v));
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
        v.map(decode)
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

    /// The values published, in order, up to the first heap left pending (`before`: the values
    /// of the heaps before the first); and why the meter stopped the workers, if it did.
    fn into_values(self, before: &[Grundy], rules: &OctalMoves) -> (Vec<Grundy>, Option<Stopped>) {
        let mut values: Vec<Grundy> = Vec::new();
        let slots = self.results.into_iter().map(AtomicU32::into_inner);
        for slot in slots.take_while(|&v| v != PENDING) {
            let n = before.len() + values.len();
            let value =
                |h: usize| if h < before.len() { before[h] } else { values[h - before.len()] };
            let v = decode(slot).resolve(rules, n, value);
            values.push(v);
        }
        let stopped = self.stopped.into_inner().unwrap_or_else(PoisonError::into_inner);
        (values, stopped)
    }
}

/// A worker: claims units of heaps (see below) in order and publishes their values in `handoff`,
/// reading the others' values from there as they arrive; rests while it would mostly wait.
///
/// A pair of heaps `n`, `n + 1` is valued in one pass ([`pass_two`], with AVX-512), which needs
/// every value up to `n + 1 - reach` (the splits of heap `n` reach no heap above `n - reach`);
/// the moves that leave one heap, which reach up to `n + 1 - window`, are counted after the
/// pass, or left to the reader ([`Outcome::Either`]). With two threads on .007 (`reach` 4,
/// `window` 3) a worker thus needs only values of the other worker's previous pair, long
/// published. With one heap a unit (the other kernels) the workers take heaps in turn: the
/// splits of heap `n` reach the other worker's heaps up to `n - 5`, and its move leaving one heap
/// `n - 3`, the other worker's heap before its last.
#[allow(clippy::too_many_arguments)]
fn work(
    from: usize,
    rules: &OctalMoves,
    valuer: Valuer,
    mirror: &mut Mirror,
    s: &mut Scratch,
    handoff: &Handoff,
    meter: &Meter,
    pace: &mut Ticker,
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
    // Otherwise (.07: `reach` 3, where a pair would wait for the pair before it, or a kernel
    // for which pairs do not pay) unit `u` is heap `from + u` alone.
    let pairs = reach >= 4 && matches!(valuer, Valuer::Filter(kernel) if kernel.pairs_pay());
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
        // A filtered pass starts with the values its splits reach; candidate testing needs
        // every value the heap reaches.
        let first_need = if matches!(valuer, Valuer::Filter(_)) { reach } else { window };
        let need = (last + 1).saturating_sub(first_need).max(from);
        if !catch_up(mirror, rules, need, handoff, &mut bits, &mut watch.waited) {
            return;
        }
        let used = bits.max(6);
        if used > valuer.max_bits() {
            handoff.halt();
            return;
        }
        let values = match valuer {
            Valuer::Filter(_) => {
                let guess = guess(mirror.values());
                let waited = &mut watch.waited;
                let wait = |mirror: &mut Mirror| {
                    let need = (last + 1).saturating_sub(window).max(from);
                    // A value the pass did not allow for stops the pipeline too: the engine
                    // carries on from the values found.
                    catch_up(mirror, rules, need, handoff, &mut bits, waited) && bits <= used
                };
                unit_values(mirror, rules, n..=last, used, guess, wait, s)
            }
            Valuer::Candidates { prefix } => {
                Some(vec![Outcome::Value(s.candidates(mirror, rules, n, used, prefix))])
            }
        };
        let Some(values) = values else {
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

/// Pushes onto `mirror` the values of the heaps below `upto` (those before the handoff's first
/// are there) as the workers publish them (resolving each [`Outcome`] from the values before
/// it), widening `bits` to them; `false` if told to stop first. Adds the time it blocked to
/// `waited`.
fn catch_up(
    mirror: &mut Mirror,
    rules: &OctalMoves,
    upto: usize,
    handoff: &Handoff,
    bits: &mut u32,
    waited: &mut Duration,
) -> bool {
    while mirror.len() < upto {
        let n = mirror.len();
        let Some(outcome) = handoff.wait_for(n, waited) else {
            return false;
        };
        let g = mirror.values();
        let v = outcome.resolve(rules, n, |h| Grundy::from(g[h]));
        *bits = (*bits).max(32 - v.leading_zeros());
        mirror.push(v);
    }
    true
}
