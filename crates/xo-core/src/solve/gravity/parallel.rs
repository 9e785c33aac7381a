//! The gravity solver on several threads sharing one table.
//!
//! - A position's score, once a search alone has not found it within a few milliseconds
//!   ([`GravitySolver::set_alone_nodes`]; most positions of a batch need less, and starting a
//!   thread costs more than their search): every thread narrows the same score range by null-window searches, each probing a different score
//!   first (the calling thread the next probe of one-thread narrowing; while the sign is
//!   unknown, the first helper whether it is a loss, the others points spread over
//!   the range), and every thread's finding narrows the range for all (a probe it answers
//!   stops at once). Every table entry any thread writes is a true bound, so the answer is
//!   exactly the one-thread answer; the threads only save each other work. The calling
//!   thread's search decides; helpers stop when it ends.
//! - Every move's score: the moves are dealt out one at a time to the threads (a thread that
//!   finishes takes the next), all reading and writing the same table.
//!
//! Nothing ever waits for another thread except at the end (the join): a busy core only makes
//! its thread slower, and the others take its share of the moves.
//!
//! Measured on 2 cores (`benches/gravity_threads.rs`): helpers that probe the same window as the
//! calling thread gained nothing on empty boards (0.96-1.01x; with their first two columns
//! swapped, 1.08-1.69x), against 1.29-1.49x for probes spread over the range; a table of its
//! own per thread for every move's score was no faster than the shared one.

use super::solver::GravitySolver;
use crate::budget::Meter;
use crate::games::gravity::Bits;
use crate::games::gravity::GravityPosition;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// A score range that several threads narrow together, and each thread's probe in progress.
struct SharedRange {
    min: AtomicI32,
    max: AtomicI32,
    /// By thread: the window `[k, k + 1]` it is searching and the meter that stops that search
    /// (once another thread's finding answers its question).
    probes: Vec<Mutex<Option<(i32, Meter)>>>,
    /// What the threads' finished probes proved of the (unclamped) score: at least, at most.
    proven: (AtomicI32, AtomicI32),
}

impl SharedRange {
    /// Narrows the range by a probe's finding `r` at `[k, k + 1]` (and keeps what it proved of
    /// the score), and stops every probe the new range has answered.
    fn learn(&self, k: i32, r: i32) {
        if r <= k {
            self.max.fetch_min(r, Relaxed);
            self.proven.1.fetch_min(r, Relaxed);
        } else {
            self.min.fetch_max(r, Relaxed);
            self.proven.0.fetch_max(r, Relaxed);
        }
        for slot in &self.probes {
            if let Some((k, probe)) = &*lock(slot)
                && self.answers(*k)
            {
                probe.cancel();
            }
        }
    }

    /// Whether a thread other than `thread` is probing `[k, k + 1]`.
    fn asked_elsewhere(&self, k: i32, thread: usize) -> bool {
        self.probes
            .iter()
            .enumerate()
            .any(|(t, slot)| t != thread && lock(slot).as_ref().is_some_and(|(p, _)| *p == k))
    }

    /// Whether the range already tells on which side of `[k, k + 1]` the score lies.
    fn answers(&self, k: i32) -> bool {
        self.max.load(Relaxed) <= k || self.min.load(Relaxed) > k
    }
}

/// The slot, even if a thread panicked while holding it (a slot is always whole).
fn lock<T>(slot: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<B: Bits> GravitySolver<B> {
    /// Lets queries use up to `threads` threads (1 by default; at least 1). Answers are the same
    /// with any number; only tables of one-word entries are shared (every board of the 64-bit
    /// layout, and the 128-bit ones whose entries fit 64 bits), others search on one thread.
    /// Every thread's positions count against the one meter of the query (helpers spend it
    /// through [`Meter::helper`]), so a job visits no more positions on many threads than its
    /// node budget allows on one.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(5, 4, 4).unwrap();
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// solver.set_threads(2);
    /// assert_eq!(solver.score(&b.start(), &Meter::default()), Ok(0)); // 5x4 is a draw
    /// ```
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Lets a query on several threads search alone for its first `nodes` positions before it
    /// starts its helpers (0: at once). By default 65,536, a few milliseconds: most positions
    /// of a batch are answered sooner than a thread starts (on Pons' begin-easy and
    /// middle-easy sets, helpers from the first position took twice as long), and what the try
    /// learned stays in the table.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(5, 4, 4).unwrap();
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// solver.set_threads(2);
    /// solver.set_alone_nodes(0);
    /// assert_eq!(solver.score(&b.start(), &Meter::default()), Ok(0)); // 5x4 is a draw
    /// ```
    pub fn set_alone_nodes(&mut self, nodes: u64) {
        self.alone_nodes = nodes;
    }

    /// Whether this query runs on several threads.
    pub(super) fn parallel(&self) -> bool {
        self.threads > 1 && self.table.as_ref().is_some_and(|t| t.shareable())
    }

    /// A solver for another thread: the same board, book and settings, the same table.
    fn helper(&self) -> GravitySolver<B> {
        GravitySolver {
            board: self.board.clone(),
            table_bytes: self.table_bytes,
            table: self.table.clone(),
            reserved: None,
            order: self.order.clone(),
            max_at: self.max_at.clone(),
            min_at: self.min_at.clone(),
            no_lines: self.no_lines,
            claimed_rows: self.claimed_rows,
            claim_parity: self.claim_parity,
            bound_bits: self.bound_bits,
            bound_mask: self.bound_mask,
            claimeven_floor: self.claimeven_floor,
            sooner_floor: self.sooner_floor,
            symmetric_below: self.symmetric_below,
            etc_below: self.etc_below,
            nodes: 0,
            ticker: Default::default(),
            book: self.book.clone(),
            book_depth: self.book_depth,
            threads: 1,
            reuse_table: false,
            alone_nodes: self.alone_nodes,
            proven: self.proven,
        }
    }

    /// [`GravitySolver::narrow`] on every thread: the score of `pos` known to lie in
    /// `[min, max]`.
    pub(super) fn narrow_together(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
        min: i32,
        max: i32,
    ) -> i32 {
        let threads = self.threads;
        let range = SharedRange {
            min: AtomicI32::new(min),
            max: AtomicI32::new(max),
            probes: (0..threads).map(|_| Mutex::new(None)).collect(),
            proven: (AtomicI32::new(self.proven.0), AtomicI32::new(self.proven.1)),
        };
        let mut helpers: Vec<GravitySolver<B>> = (1..threads).map(|_| self.helper()).collect();
        // Helpers spend the job's meter (their positions count against its one node budget),
        // through a helper's meter that this thread cancels when its search ends, for whatever
        // reason.
        let helpers_meter = meter.helper();
        let score = std::thread::scope(|s| {
            for (i, helper) in helpers.iter_mut().enumerate() {
                let (range, hm) = (&range, &helpers_meter);
                // A helper the system cannot start is simply missing: the others do its share.
                let _ = std::thread::Builder::new()
                    .spawn_scoped(s, move || helper.narrow_shared(pos, hm, range, i + 1, threads));
            }
            let score = self.narrow_shared(pos, meter, &range, 0, threads);
            helpers_meter.cancel();
            score
        });
        for helper in &mut helpers {
            self.nodes += helper.nodes;
            helper.ticker.flush(&helpers_meter);
        }
        // What every thread's finished probes proved.
        self.proven = (range.proven.0.load(Relaxed), range.proven.1.load(Relaxed));
        score
    }

    /// One thread's part of [`GravitySolver::narrow_together`]: probes until the shared range
    /// closes (or the budget stops it), publishing what it learns.
    fn narrow_shared(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
        range: &SharedRange,
        thread: usize,
        threads: usize,
    ) -> i32 {
        loop {
            let (min, max) = (range.min.load(Relaxed), range.max.load(Relaxed));
            if min >= max {
                return min;
            }
            let med = if thread == 0 {
                let quick = self.quick_score();
                let k = super::search::probe_point(min, max, quick);
                // Another thread asks this already: the next question outward, as if its answer
                // were the farther one (after "not a win", while a helper asks "a loss?": "a
                // loss worth -2?", which a loss of -1 needs too).
                let (lo, hi) = if k < 0 { (min, k) } else { (k + 1, max) };
                if lo < hi && range.asked_elsewhere(k, thread) {
                    super::search::probe_point(lo, hi, quick)
                } else {
                    k
                }
            } else if min < 0 && max > 0 {
                // The other side of the calling thread's question (is it a win?): is it a loss?
                (-(thread as i32)).max(min)
            } else {
                // Spread over [min, max - 1]: with two threads, the middle.
                min + ((max - 1 - min) as i64 * thread as i64 / threads as i64) as i32
            };
            // The probe stops early if another thread's finding answers it first.
            let probe = meter.helper();
            *lock(&range.probes[thread]) = Some((med, probe.clone()));
            if range.answers(med) {
                *lock(&range.probes[thread]) = None;
                continue;
            }
            let r = self.negamax(pos, &probe, med, med + 1);
            *lock(&range.probes[thread]) = None;
            if self.ticker.is_stopped() {
                if let Err(stopped) = meter.check() {
                    // The job's stop (a limit, or the helpers' end), which the probe's own may
                    // have hidden: report the job's.
                    self.ticker.resume();
                    self.ticker.stop(stopped);
                    return 0;
                }
                // Answered elsewhere: on to the next question.
                self.ticker.resume();
                continue;
            }
            range.learn(med, r);
        }
    }

    /// Every child's score (for the parent: negated), clamped to `[lo, hi]`, the children dealt
    /// out to the threads, each searched from its floor ([`GravitySolver::solve_above`]); `(column, score)` for each child searched before any stop.
    pub(super) fn children_together(
        &mut self,
        children: &[(u32, GravityPosition<B>, Option<i32>)],
        meter: &Meter,
        lo: i32,
        hi: i32,
    ) -> Vec<(u32, i32)> {
        let next = AtomicUsize::new(0);
        let work = |solver: &mut GravitySolver<B>| {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(&(col, child, floor)) = children.get(i) else { break };
                let s = -solver.solve_above(&child, meter, -hi, -lo, floor);
                if solver.ticker.is_stopped() {
                    break;
                }
                done.push((col, s));
            }
            done
        };
        let helpers = self.threads.min(children.len()) - 1;
        let mut helpers: Vec<GravitySolver<B>> = (0..helpers).map(|_| self.helper()).collect();
        let mut scores = std::thread::scope(|s| {
            let work = &work;
            // A helper the system cannot start is simply missing: the others take its moves.
            let handles: Vec<_> = helpers
                .iter_mut()
                .filter_map(|h| std::thread::Builder::new().spawn_scoped(s, move || work(h)).ok())
                .collect();
            let mut scores = work(self);
            for handle in handles {
                match handle.join() {
                    Ok(done) => scores.extend(done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            scores
        });
        for helper in &mut helpers {
            self.nodes += helper.nodes;
            if let Err(stopped) = helper.ticker.finish(meter, ()) {
                self.ticker.stop(stopped);
            }
        }
        scores.sort_unstable();
        scores
    }
}
