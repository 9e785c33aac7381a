//! One budget for every job, and one way to say a job stopped at it.
//!
//! Every engine in xo can run for longer than anyone wants to wait, or ask for more memory than the
//! machine has. Rather than each engine inventing its own limits, they all take a [`Budget`]
//! (positions visited, wall time, memory) and report [`Stopped`] when they reach it, naming which
//! limit and how far they got. A [`Meter`] is the running side of a budget: engines tick it as they
//! visit positions, ask it before they allocate, and it tells them when to stop. It is `Sync`, so
//! parallel engines share one meter and all stop together.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
// std's clock panics on wasm32-unknown-unknown; web-time is std's clock elsewhere and the
// browser's `performance.now()` there.
use web_time::Instant;

/// The bounds a job must stay within. Every field has a default that keeps a job within minutes
/// and a few GiB.
///
/// ```
/// use std::time::Duration;
/// use xo_core::budget::Budget;
/// let b = Budget::default().with_timeout(Duration::from_secs(5));
/// assert_eq!(b.timeout, Duration::from_secs(5));
/// assert_eq!(b.memory_bytes, 2 << 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most positions (search nodes, Grundy values, enumerated positions) to visit.
    pub max_nodes: u64,
    /// The most wall time to spend.
    pub timeout: Duration,
    /// The most memory the job's tables may take, in bytes.
    pub memory_bytes: u64,
}

impl Budget {
    /// The default time budget: five minutes.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
    /// The default memory budget: 2 GiB.
    pub const DEFAULT_MEMORY: u64 = 2 << 30;
    /// The default node budget: 10^11 positions (more than five minutes of any engine).
    pub const DEFAULT_NODES: u64 = 100_000_000_000;

    /// This budget with another time limit.
    pub fn with_timeout(self, timeout: Duration) -> Budget {
        Budget { timeout, ..self }
    }

    /// This budget with another node limit.
    pub fn with_max_nodes(self, max_nodes: u64) -> Budget {
        Budget { max_nodes, ..self }
    }

    /// This budget with another memory limit.
    pub fn with_memory(self, memory_bytes: u64) -> Budget {
        Budget { memory_bytes, ..self }
    }

    /// The memory limit as a `usize`, for sizing tables.
    pub fn memory_usize(&self) -> usize {
        usize::try_from(self.memory_bytes).unwrap_or(usize::MAX)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_nodes: Self::DEFAULT_NODES,
            timeout: Self::DEFAULT_TIMEOUT,
            memory_bytes: Self::DEFAULT_MEMORY,
        }
    }
}

/// Which limit of a [`Budget`] a job reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Limit {
    /// [`Budget::max_nodes`].
    Nodes,
    /// [`Budget::timeout`].
    Time,
    /// [`Budget::memory_bytes`].
    Memory,
    /// No budget: the job was cancelled from outside ([`Meter::cancel`]: a client went away,
    /// a search that no longer needs its helpers).
    Cancelled,
}

impl Limit {
    fn code(self) -> u8 {
        match self {
            Limit::Nodes => 1,
            Limit::Time => 2,
            Limit::Memory => 3,
            Limit::Cancelled => 4,
        }
    }

    fn from_code(code: u8) -> Option<Limit> {
        match code {
            1 => Some(Limit::Nodes),
            2 => Some(Limit::Time),
            3 => Some(Limit::Memory),
            4 => Some(Limit::Cancelled),
            _ => None,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node",
            Limit::Time => "time",
            Limit::Memory => "memory",
            Limit::Cancelled => "cancelled",
        })
    }
}

/// A job stopped at its budget before it had an answer: which limit, and how far it got.
///
/// ```
/// use std::time::Duration;
/// use xo_core::budget::{Budget, Limit, Meter};
/// let meter = Meter::new(Budget::default().with_max_nodes(10));
/// let stopped = meter.tick(11).unwrap_err();
/// assert_eq!(stopped.limit, Limit::Nodes);
/// assert!(stopped.to_string().starts_with("stopped at the node budget (10 positions)"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stopped {
    /// The limit reached.
    pub limit: Limit,
    /// The limit's value: positions, milliseconds or bytes.
    pub budget: u64,
    /// Positions visited before stopping.
    pub nodes: u64,
    /// Wall time spent, in milliseconds.
    pub elapsed_ms: u64,
    /// How far the job got, in words (empty when there is nothing more to say).
    pub reached: String,
}

impl Stopped {
    /// The same stop, with what the engine reached in words.
    pub fn reaching(mut self, reached: impl Into<String>) -> Stopped {
        self.reached = reached.into();
        self
    }
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget = match self.limit {
            Limit::Nodes => format!("{} positions", self.budget),
            Limit::Time => format!("{} s", self.budget as f64 / 1000.0),
            Limit::Memory => format!("{} MiB", self.budget.div_ceil(1 << 20)),
            Limit::Cancelled => String::new(),
        };
        let (nodes, secs) = (self.nodes, self.elapsed_ms as f64 / 1000.0);
        if self.limit == Limit::Cancelled {
            write!(f, "cancelled after {nodes} positions in {secs:.1} s")?;
        } else {
            write!(
                f,
                "stopped at the {} budget ({budget}) after {nodes} positions in {secs:.1} s",
                self.limit
            )?;
        }
        if !self.reached.is_empty() {
            write!(f, ", {}", self.reached)?;
        }
        write!(f, "; the value is unknown")
    }
}

impl std::error::Error for Stopped {}

/// What a job reports while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the job started.
    pub elapsed: Duration,
    /// Work done and work in all, where the job knows it (depths, heaps, tiers).
    pub done: Option<(u64, u64)>,
}

type ProgressFn = Box<dyn Fn(Progress) + Send + Sync>;

/// A budget being spent: counts positions, watches the clock, checks allocations, and reports
/// progress. Clones share one count, so the threads of a job (and whoever may cancel it) hold
/// clones; once any limit is reached every later check fails, so all of them stop.
///
/// ```
/// use xo_core::budget::{Budget, Limit, Meter};
/// let meter = Meter::new(Budget::default().with_memory(1 << 20));
/// assert!(meter.reserve(1 << 10).is_ok());
/// assert_eq!(meter.reserve(1 << 30).unwrap_err().limit, Limit::Memory);
/// assert!(meter.is_stopped());
/// ```
#[derive(Clone)]
pub struct Meter {
    inner: Arc<Inner>,
    /// For a helper's meter ([`Meter::helper`]): set when the helpers must stop, without
    /// stopping the job.
    helpers_stop: Option<Arc<AtomicBool>>,
}

struct Inner {
    budget: Budget,
    started: Instant,
    nodes: AtomicU64,
    /// Nodes at which the clock is next read.
    next_check: AtomicU64,
    /// The limit reached (its code), or 0.
    stop: AtomicU8,
    /// A stop asked for from outside (a cancelled request).
    cancelled: AtomicBool,
    /// Bytes of tables held now by every [`Reservation`] of the job.
    reserved: AtomicU64,
    progress: Option<ProgressFn>,
    last_report: Mutex<Option<Instant>>,
    done: Mutex<Option<(u64, u64)>>,
}

/// Nodes between readings of the clock.
const CHECK_EVERY: u64 = 1 << 12;

/// Time between progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(200);

impl Meter {
    /// A meter for `budget`, started now.
    pub fn new(budget: Budget) -> Meter {
        Meter::build(budget, None, Instant::now())
    }

    /// A meter for `budget` whose clock started at `started`: a job asked again from the start
    /// (Python tries a question on its own thread before handing it to a watched worker) keeps
    /// the time already spent, and reports the whole budget.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let earlier = Instant::now() - Duration::from_millis(50);
    /// let meter = Meter::started_at(Budget::default().with_timeout(Duration::from_millis(20)), earlier);
    /// let stopped = meter.check().unwrap_err();
    /// assert_eq!((stopped.limit, stopped.budget), (Limit::Time, 20));
    /// assert!(stopped.elapsed_ms >= 50);
    /// ```
    pub fn started_at(budget: Budget, started: Instant) -> Meter {
        Meter::build(budget, None, started)
    }

    fn build(budget: Budget, progress: Option<ProgressFn>, started: Instant) -> Meter {
        let inner = Inner {
            budget,
            started,
            nodes: AtomicU64::new(0),
            next_check: AtomicU64::new(0),
            stop: AtomicU8::new(0),
            cancelled: AtomicBool::new(false),
            reserved: AtomicU64::new(0),
            progress,
            last_report: Mutex::new(None),
            done: Mutex::new(None),
        };
        Meter { inner: Arc::new(inner), helpers_stop: None }
    }

    /// A meter without limits, for callers that really want none (tests, tools that stop by
    /// other means). Every engine takes a meter; this is the one that never stops it unless
    /// [cancelled](Meter::cancel).
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// let meter = Meter::unlimited();
    /// assert!(meter.tick(u64::MAX).is_ok());
    /// assert!(meter.reserve(u64::MAX).is_ok());
    /// ```
    pub fn unlimited() -> Meter {
        Meter::new(Budget { max_nodes: u64::MAX, timeout: Duration::MAX, memory_bytes: u64::MAX })
    }

    /// A meter for a job's helper threads: it shares the job's counts, clock, reservations and
    /// stops (a helper's positions count against the job's node budget, so a job on N threads
    /// visits no more positions than on one), but [`Meter::cancel`] on it stops only the
    /// helpers, not the job: the thread that started them cancels it when it no longer needs
    /// them.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let job = Meter::new(Budget::default().with_max_nodes(100));
    /// let helpers = job.helper();
    /// helpers.tick(60).unwrap();
    /// assert_eq!(job.nodes(), 60);
    /// helpers.cancel();
    /// assert_eq!(helpers.check().unwrap_err().limit, Limit::Cancelled);
    /// assert!(job.check().is_ok());
    /// // The helpers' positions and the job's add up to the one budget.
    /// assert_eq!(job.tick(41).unwrap_err().limit, Limit::Nodes);
    /// ```
    pub fn helper(&self) -> Meter {
        Meter { inner: self.inner.clone(), helpers_stop: Some(Arc::new(AtomicBool::new(false))) }
    }

    /// A meter for `budget`, started now, calling `f` with the job's progress about five times a
    /// second.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// use xo_core::budget::{Budget, Meter};
    /// use std::sync::Arc;
    /// let seen = Arc::new(AtomicU64::new(0));
    /// let shown = seen.clone();
    /// let meter = Meter::with_progress(Budget::default(), move |p| shown.store(p.nodes, Ordering::Relaxed));
    /// meter.tick(5000).unwrap();
    /// assert_eq!(seen.load(Ordering::Relaxed), 5000);
    /// ```
    pub fn with_progress(budget: Budget, f: impl Fn(Progress) + Send + Sync + 'static) -> Meter {
        Meter::build(budget, Some(Box::new(f)), Instant::now())
    }

    /// The budget being spent.
    pub fn budget(&self) -> &Budget {
        &self.inner.budget
    }

    /// Positions counted so far.
    pub fn nodes(&self) -> u64 {
        self.inner.nodes.load(Ordering::Relaxed)
    }

    /// Time since the meter started.
    pub fn elapsed(&self) -> Duration {
        self.inner.started.elapsed()
    }

    /// Asks every later check to fail, reporting [`Limit::Cancelled`] (a client went away, a
    /// user pressed Ctrl-C). A job already stopped at a limit keeps that limit. On a helper's
    /// meter ([`Meter::helper`]), stops the helpers only.
    ///
    /// ```
    /// use xo_core::budget::{Limit, Meter};
    /// let meter = Meter::default();
    /// meter.cancel();
    /// let stopped = meter.check().unwrap_err();
    /// assert_eq!(stopped.limit, Limit::Cancelled);
    /// assert!(stopped.to_string().starts_with("cancelled after 0 positions"));
    /// ```
    pub fn cancel(&self) {
        if let Some(helpers) = &self.helpers_stop {
            helpers.store(true, Ordering::Relaxed);
            return;
        }
        self.inner.cancelled.store(true, Ordering::Relaxed);
        self.halt(Limit::Cancelled);
    }

    /// Whether a limit has been reached (or, on a helper's meter, the helpers were stopped).
    pub fn is_stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed) != 0 || self.helpers_stopped()
    }

    #[inline]
    fn helpers_stopped(&self) -> bool {
        self.helpers_stop.as_ref().is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// The limit this meter has stopped at, if any.
    #[inline]
    fn stop_reached(&self) -> Option<Limit> {
        match Limit::from_code(self.inner.stop.load(Ordering::Relaxed)) {
            Some(limit) => Some(limit),
            None if self.helpers_stopped() => Some(Limit::Cancelled),
            None => None,
        }
    }

    /// Counts `n` more positions; fails once any limit is reached. Reads the clock every few
    /// thousand positions, so calling it once per position is cheap.
    pub fn tick(&self, n: u64) -> Result<(), Stopped> {
        let nodes = self.inner.nodes.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if let Some(limit) = self.stop_reached() {
            return Err(self.stopped(limit));
        }
        if nodes > self.inner.budget.max_nodes {
            return Err(self.halt(Limit::Nodes));
        }
        if nodes >= self.inner.next_check.load(Ordering::Relaxed) {
            self.inner.next_check.store(nodes.saturating_add(CHECK_EVERY), Ordering::Relaxed);
            self.check()?;
        }
        Ok(())
    }

    /// Reads the clock now (for jobs whose units of work are large); fails once any limit is
    /// reached. Also reports progress when it is due.
    pub fn check(&self) -> Result<(), Stopped> {
        if let Some(limit) = self.stop_reached() {
            return Err(self.stopped(limit));
        }
        let elapsed = self.inner.started.elapsed();
        if elapsed >= self.inner.budget.timeout {
            return Err(self.halt(Limit::Time));
        }
        if let Some(report) = &self.inner.progress {
            let mut last = self.inner.last_report.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            if last.is_none_or(|t| now.duration_since(t) >= REPORT_EVERY) {
                *last = Some(now);
                drop(last);
                let done = *self.inner.done.lock().unwrap_or_else(|e| e.into_inner());
                report(Progress { nodes: self.nodes(), elapsed, done });
            }
        }
        Ok(())
    }

    /// Records how much of a job of known size is done, for progress reports; reads the clock.
    pub fn set_done(&self, done: u64, total: u64) -> Result<(), Stopped> {
        *self.inner.done.lock().unwrap_or_else(|e| e.into_inner()) = Some((done, total));
        self.check()
    }

    /// Reserves `bytes` for a table about to be allocated, held until the [`Reservation`] is
    /// dropped. The reservations of a job add up, across its tables and threads (clones and
    /// helpers of one meter share them): fails with the memory limit when they would pass the
    /// budget.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let meter = Meter::new(Budget::default().with_memory(100));
    /// let first = meter.reserve(60).unwrap();
    /// // Each fits alone; both do not.
    /// assert_eq!(meter.clone().reserve(60).unwrap_err().limit, Limit::Memory);
    /// assert_eq!(meter.reserved(), 60);
    /// drop(first);
    /// assert_eq!(meter.reserved(), 0);
    /// ```
    pub fn reserve(&self, bytes: u64) -> Result<Reservation, Stopped> {
        let mut held = Reservation { meter: self.clone(), bytes: 0 };
        held.grow_to(bytes)?;
        Ok(held)
    }

    /// Bytes held now by the job's reservations.
    pub fn reserved(&self) -> u64 {
        self.inner.reserved.load(Ordering::Relaxed)
    }

    /// The stop for `limit`, with the current counts, recorded so that every later check fails
    /// too.
    pub fn halt(&self, limit: Limit) -> Stopped {
        let _ =
            self.inner.stop.compare_exchange(0, limit.code(), Ordering::Relaxed, Ordering::Relaxed);
        self.stopped(limit)
    }

    fn stopped(&self, limit: Limit) -> Stopped {
        let budget = match limit {
            Limit::Nodes => self.inner.budget.max_nodes,
            Limit::Time => u64::try_from(self.inner.budget.timeout.as_millis()).unwrap_or(u64::MAX),
            Limit::Memory => self.inner.budget.memory_bytes,
            Limit::Cancelled => 0,
        };
        Stopped {
            limit,
            budget,
            nodes: self.nodes(),
            elapsed_ms: u64::try_from(self.inner.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            reached: String::new(),
        }
    }
}

/// Memory a job holds for a table, reserved on its [`Meter`] ([`Meter::reserve`]) and given
/// back when dropped. A table that grows asks for more with [`Reservation::grow_to`].
///
/// ```
/// use xo_core::budget::{Budget, Limit, Meter};
/// let meter = Meter::new(Budget::default().with_memory(100));
/// let mut table = meter.reserve(10).unwrap();
/// table.grow_to(90).unwrap();
/// assert_eq!((table.bytes(), meter.reserved()), (90, 90));
/// assert_eq!(table.grow_to(101).unwrap_err().limit, Limit::Memory);
/// assert_eq!(table.bytes(), 90);
/// ```
#[must_use = "a reservation is given back when dropped"]
#[derive(Debug)]
pub struct Reservation {
    meter: Meter,
    bytes: u64,
}

impl Reservation {
    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Holds `bytes` in all (more than before, or the same): fails with the memory limit, holding
    /// what it held, when the job's reservations would pass the budget.
    pub fn grow_to(&mut self, bytes: u64) -> Result<(), Stopped> {
        let Some(more) = bytes.checked_sub(self.bytes).filter(|&m| m > 0) else {
            return Ok(());
        };
        let inner = &self.meter.inner;
        let limit = inner.budget.memory_bytes;
        let grown = inner.reserved.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
            let total = held.saturating_add(more);
            (total <= limit).then_some(total)
        });
        if grown.is_err() {
            return Err(self.meter.halt(Limit::Memory));
        }
        self.bytes = bytes;
        Ok(())
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let bytes = self.bytes;
        let _ =
            self.meter.inner.reserved.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |h| {
                Some(h.saturating_sub(bytes))
            });
    }
}

/// The one batcher between an engine's loops and its [`Meter`]: units of work (positions, heaps,
/// lines) are counted locally and handed to the meter in batches (an atomic add per unit would
/// slow the hottest loops), the meter's clock is read with each batch, and the first stop is
/// kept so the search can unwind and report it. A batch is [`Ticker::BATCH`] units by default
/// ([`Ticker::every`] for large units), or [`Ticker::WORK`] of work for engines that estimate
/// their units' cost ([`Ticker::step`]).
///
/// ```
/// use xo_core::budget::{Budget, Limit, Meter, Ticker};
/// let meter = Meter::new(Budget::default().with_max_nodes(100));
/// let mut ticker = Ticker::default();
/// let visited = (0..).take_while(|_| !ticker.tick(&meter)).count();
/// assert_eq!(visited as u64, Ticker::BATCH - 1);
/// assert_eq!(ticker.finish(&meter, ()).unwrap_err().limit, Limit::Nodes);
/// ```
#[derive(Debug)]
pub struct Ticker {
    unreported: u64,
    work: u64,
    every: u64,
    stopped: Option<Stopped>,
}

impl Default for Ticker {
    fn default() -> Self {
        Ticker::every(Ticker::BATCH)
    }
}

impl Ticker {
    /// Units counted between reports to the meter, by default.
    pub const BATCH: u64 = 1 << 12;
    /// Work (in the engine's estimate, about one unit per elementary step) between reports, for
    /// [`Ticker::step`]: a few milliseconds at most.
    pub const WORK: u64 = 1 << 22;

    /// A ticker reporting every `units` units (at least 1).
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_core::budget::{Budget, Meter, Ticker};
    /// let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    /// let mut ticker = Ticker::every(64);
    /// // Units are counted, and the clock read, only with a full batch: 63 always finish.
    /// assert!((0..63).all(|_| !ticker.tick(&meter)));
    /// assert!(ticker.tick(&meter));
    /// ```
    pub fn every(units: u64) -> Ticker {
        Ticker { unreported: 0, work: 0, every: units.max(1), stopped: None }
    }

    /// Forgets the counts and the stop of an earlier query.
    pub fn reset(&mut self) {
        *self = Ticker::every(self.every);
    }

    /// Counts one unit; reports a batch to `meter` when one is full. True once stopped.
    #[inline]
    pub fn tick(&mut self, meter: &Meter) -> bool {
        self.unreported += 1;
        if self.unreported >= self.every {
            self.report(meter);
        }
        self.stopped.is_some()
    }

    /// Counts `units` more units that took `work` (the engine's estimate: the clock is read after
    /// [`Ticker::WORK`] of it, or a batch of units, whichever comes first); fails once stopped.
    /// `Ok(true)` when it reported a batch (and read the clock).
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_core::budget::{Budget, Limit, Meter, Ticker};
    /// let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    /// let mut ticker = Ticker::every(64);
    /// assert_eq!(ticker.step(&meter, 1, 1000), Ok(false));
    /// assert_eq!(ticker.step(&meter, 1, Ticker::WORK).unwrap_err().limit, Limit::Time);
    /// ```
    pub fn step(&mut self, meter: &Meter, units: u64, work: u64) -> Result<bool, Stopped> {
        self.unreported += units;
        self.work = self.work.saturating_add(work).saturating_add(1);
        if self.work < Self::WORK && self.unreported < self.every {
            return match &self.stopped {
                Some(stopped) => Err(stopped.clone()),
                None => Ok(false),
            };
        }
        self.report(meter);
        match &self.stopped {
            Some(stopped) => Err(stopped.clone()),
            None => Ok(true),
        }
    }

    #[cold]
    fn report(&mut self, meter: &Meter) {
        let units = std::mem::take(&mut self.unreported);
        self.work = 0;
        if let Err(stopped) = meter.tick(units).and_then(|()| meter.check()) {
            self.stopped.get_or_insert(stopped);
        }
    }

    /// Whether the query has stopped.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Stops the query (the first stop is the one reported).
    pub fn stop(&mut self, stopped: Stopped) {
        self.stopped.get_or_insert(stopped);
    }

    /// Ends a query: reports the last units and gives `result`, or the stop (one reached by
    /// these last units too).
    pub fn finish<T>(&mut self, meter: &Meter, result: T) -> Result<T, Stopped> {
        if let Err(stopped) = meter.tick(std::mem::take(&mut self.unreported)) {
            self.stopped.get_or_insert(stopped);
        }
        self.work = 0;
        match self.stopped.take() {
            Some(stopped) => Err(stopped),
            None => Ok(result),
        }
    }

    /// Reports the last units to `meter`, whatever limit they reach: for a query that has its
    /// answer.
    pub fn flush(&mut self, meter: &Meter) {
        let _ = meter.tick(std::mem::take(&mut self.unreported));
        self.work = 0;
    }
}

impl Default for Meter {
    /// A meter for the default budget.
    fn default() -> Self {
        Meter::new(Budget::default())
    }
}

impl fmt::Debug for Meter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Meter")
            .field("budget", &self.inner.budget)
            .field("reserved", &self.reserved())
            .field("nodes", &self.nodes())
            .field("elapsed", &self.elapsed())
            .field("stopped", &self.is_stopped())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_timeout_stops_at_the_first_check() {
        let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
        let stopped = meter.tick(1).unwrap_err();
        assert_eq!(stopped.limit, Limit::Time);
        // Every later check fails too, with the same limit.
        assert_eq!(meter.check().unwrap_err().limit, Limit::Time);
    }

    #[test]
    fn nodes_are_counted_across_threads() {
        let meter = Meter::new(Budget::default().with_max_nodes(10_000));
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| while meter.tick(1).is_ok() {});
            }
        });
        assert_eq!(meter.check().unwrap_err().limit, Limit::Nodes);
        assert!(meter.nodes() > 10_000);
    }

    #[test]
    fn the_first_limit_reached_is_the_one_reported() {
        let meter = Meter::new(Budget::default().with_memory(100));
        assert_eq!(meter.reserve(101).unwrap_err().limit, Limit::Memory);
        meter.cancel();
        assert_eq!(meter.tick(1).unwrap_err().limit, Limit::Memory);
    }

    #[test]
    fn reservations_add_up_across_threads_and_are_given_back() {
        let meter = Meter::new(Budget::default().with_memory(1000));
        // Two tables of 400 fit; a third does not, from whichever thread asks.
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| meter.reserve(400).unwrap());
            let helper = meter.helper();
            let b = s.spawn(move || helper.reserve(400).unwrap());
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(meter.reserved(), 800);
        assert_eq!(meter.reserve(400).unwrap_err().limit, Limit::Memory);
        drop((a, b));
        assert_eq!(meter.reserved(), 0);
    }

    #[test]
    fn a_cancelled_job_says_it_was_cancelled() {
        let meter = Meter::new(Budget::default().with_max_nodes(1000));
        let mut ticker = Ticker::default();
        meter.clone().cancel();
        while !ticker.tick(&meter) {}
        let stopped = ticker.finish(&meter, ()).unwrap_err();
        assert_eq!(stopped.limit, Limit::Cancelled);
        assert!(stopped.to_string().starts_with("cancelled after"), "{stopped}");
        assert!(!stopped.to_string().contains("budget"), "{stopped}");
    }

    #[test]
    fn a_helper_stop_does_not_stop_the_job_but_a_job_stop_stops_the_helpers() {
        let job = Meter::default();
        let helpers = job.helper();
        helpers.cancel();
        assert!(helpers.is_stopped() && !job.is_stopped());
        let more = job.helper();
        job.cancel();
        assert_eq!(more.check().unwrap_err().limit, Limit::Cancelled);
        assert!(job.is_stopped());
    }

    #[test]
    fn huge_budgets_do_not_overflow() {
        let meter = Meter::new(Budget {
            max_nodes: u64::MAX,
            timeout: Duration::MAX,
            memory_bytes: u64::MAX,
        });
        assert!(meter.tick(u64::MAX).is_ok());
        assert!(meter.tick(u64::MAX).is_ok());
        assert!(meter.reserve(u64::MAX).is_ok());
    }
}
