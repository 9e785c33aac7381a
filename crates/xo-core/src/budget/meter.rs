//! The meter: a budget being spent by a running job.
//!
//! It counts positions, reads the clock, records the first limit reached (or a cancellation from
//! outside) so that every thread of the job stops, and reports progress. Memory reservations,
//! which also live on the meter, are in the `reservation` module; the batching of ticks from
//! hot loops is in `ticker`.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
// std's clock panics on wasm32-unknown-unknown; web-time is std's clock elsewhere and the
// browser's `performance.now()` there.
use web_time::Instant;

use super::limits::{Budget, Limit, Stopped};

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
    pub(super) inner: Arc<MeterState>,
    /// For a helper's meter ([`Meter::helper`]): set when the helpers must stop, without
    /// stopping the job; one flag for each level of helpers (a helper's own helpers stop with
    /// it), the last this meter's own.
    helpers_stop: Vec<Arc<AtomicBool>>,
    /// The job's count of positions past which this meter stops (a trial's: [`Meter::trial`]).
    until: u64,
}

pub(super) struct MeterState {
    pub(super) budget: Budget,
    started: Instant,
    nodes: AtomicU64,
    /// Nodes at which the clock is next read.
    next_check: AtomicU64,
    /// The limit reached (its code), or 0.
    stop: AtomicU8,
    /// A stop asked for from outside (a cancelled request).
    cancelled: AtomicBool,
    /// Bytes of tables held now by every [`Reservation`](super::Reservation) of the job.
    pub(super) reserved: AtomicU64,
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
        let inner = MeterState {
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
        Meter { inner: Arc::new(inner), helpers_stop: Vec::new(), until: u64::MAX }
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
    /// them. A helper's own helper stops with it, or alone.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let job = Meter::new(Budget::default().with_max_nodes(100));
    /// let helpers = job.helper();
    /// helpers.tick(60).unwrap();
    /// assert_eq!(job.nodes(), 60);
    /// let (inner, other) = (helpers.helper(), helpers.helper());
    /// other.cancel();
    /// assert!(other.is_stopped() && !inner.is_stopped() && !helpers.is_stopped());
    /// helpers.cancel();
    /// assert_eq!(helpers.check().unwrap_err().limit, Limit::Cancelled);
    /// assert_eq!(inner.check().unwrap_err().limit, Limit::Cancelled);
    /// assert!(job.check().is_ok());
    /// // The helpers' positions and the job's add up to the one budget.
    /// assert_eq!(job.tick(41).unwrap_err().limit, Limit::Nodes);
    /// ```
    pub fn helper(&self) -> Meter {
        let mut helpers_stop = self.helpers_stop.clone();
        helpers_stop.push(Arc::new(AtomicBool::new(false)));
        Meter { inner: self.inner.clone(), helpers_stop, until: self.until }
    }

    /// A helper's meter ([`Meter::helper`]) that also stops, as cancelled, once the job has
    /// counted `nodes` more positions: for a short try before a costlier way (a search alone
    /// before starting threads, which most short searches never need).
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// let job = Meter::new(Budget::default());
    /// job.tick(10).unwrap();
    /// let trial = job.trial(100);
    /// assert!(trial.tick(100).is_ok());
    /// assert_eq!(trial.tick(1).unwrap_err().limit, Limit::Cancelled);
    /// assert!(job.tick(1).is_ok()); // the job goes on
    /// ```
    pub fn trial(&self, nodes: u64) -> Meter {
        let mut trial = self.helper();
        trial.until = self.nodes().saturating_add(nodes).min(self.until);
        trial
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
        if let Some(helpers) = self.helpers_stop.last() {
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
        self.helpers_stop.iter().any(|h| h.load(Ordering::Relaxed))
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
        if nodes > self.until {
            return Err(self.stopped(Limit::Cancelled));
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
            proven: None,
            raised_by: String::new(),
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
            .field("reserved", &self.reserved())
            .field("nodes", &self.nodes())
            .field("elapsed", &self.elapsed())
            .field("stopped", &self.is_stopped())
            .finish()
    }
}
