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
            progress,
            last_report: Mutex::new(None),
            done: Mutex::new(None),
        };
        Meter { inner: Arc::new(inner) }
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
    /// user pressed Ctrl-C). A job already stopped at a limit keeps that limit.
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
        self.inner.cancelled.store(true, Ordering::Relaxed);
        self.halt(Limit::Cancelled);
    }

    /// Whether a limit has been reached.
    pub fn is_stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed) != 0
    }

    /// Counts `n` more positions; fails once any limit is reached. Reads the clock every few
    /// thousand positions, so calling it once per position is cheap.
    pub fn tick(&self, n: u64) -> Result<(), Stopped> {
        let nodes = self.inner.nodes.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if let Some(limit) = Limit::from_code(self.inner.stop.load(Ordering::Relaxed)) {
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
        if let Some(limit) = Limit::from_code(self.inner.stop.load(Ordering::Relaxed)) {
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

    /// Checks, before allocating, that a job may hold `bytes` of tables in all; fails with the
    /// memory limit when it may not.
    pub fn reserve(&self, bytes: u64) -> Result<(), Stopped> {
        if bytes > self.inner.budget.memory_bytes {
            return Err(self.halt(Limit::Memory));
        }
        Ok(())
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

/// An engine's side of a [`Meter`]: positions are counted locally and handed to the meter in
/// batches (an atomic add per position would slow the hottest loops), and the first stop is kept
/// so the search can unwind and report it.
///
/// ```
/// use xo_core::budget::{Budget, Limit, Meter, Ticker};
/// let meter = Meter::new(Budget::default().with_max_nodes(100));
/// let mut ticker = Ticker::default();
/// let visited = (0..).take_while(|_| !ticker.tick(Some(&meter))).count();
/// assert_eq!(visited as u64, Ticker::BATCH - 1);
/// assert_eq!(ticker.finish(Some(&meter), ()).unwrap_err().limit, Limit::Nodes);
/// ```
#[derive(Debug, Default)]
pub struct Ticker {
    unreported: u64,
    stopped: Option<Stopped>,
}

impl Ticker {
    /// Positions counted between reports to the meter.
    pub const BATCH: u64 = 1 << 12;

    /// Forgets the counts and the stop of an earlier query.
    pub fn reset(&mut self) {
        *self = Ticker::default();
    }

    /// Counts one position; reports a batch to `meter` when one is full. True once stopped.
    #[inline]
    pub fn tick(&mut self, meter: Option<&Meter>) -> bool {
        self.unreported += 1;
        if self.unreported >= Self::BATCH {
            if let Some(meter) = meter {
                if let Err(stopped) = meter.tick(self.unreported) {
                    self.stopped.get_or_insert(stopped);
                }
            }
            self.unreported = 0;
        }
        self.stopped.is_some()
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

    /// Ends a query: reports the last positions and gives `result`, or the stop.
    pub fn finish<T>(&mut self, meter: Option<&Meter>, result: T) -> Result<T, Stopped> {
        if let Some(meter) = meter {
            if let Err(stopped) = meter.tick(std::mem::take(&mut self.unreported)) {
                self.stopped.get_or_insert(stopped);
            }
        }
        self.unreported = 0;
        match self.stopped.take() {
            Some(stopped) => Err(stopped),
            None => Ok(result),
        }
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
