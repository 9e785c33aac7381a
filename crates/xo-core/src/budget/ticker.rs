//! The batcher between an engine's hot loops and its meter.
//!
//! Engines count units of work locally in a [`Ticker`] and hand them to the shared [`Meter`] in
//! batches, so the hottest loops pay for no atomic operation per unit, yet still stop promptly.

use super::limits::Stopped;
use super::meter::Meter;

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

    /// Forgets a stop (keeping the counts): for a search that was stopped on purpose (a helper's
    /// probe another thread made pointless) and goes on with another.
    pub fn resume(&mut self) {
        self.stopped = None;
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
