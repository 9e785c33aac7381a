//! The table policy: how large a table a query gets, how an entry is laid out, when the table is
//! allocated, and in which positions mirror images share entries and children are probed first.

use super::solver::{GravitySolver, Search};
use super::spare;
use super::table::BoundTable;
use crate::budget::Meter;
use crate::games::gravity::{Bits, GravityBoard};
use std::sync::Arc;

/// Mirror images share table entries below this many stones.
pub(super) const SYMMETRIC_BELOW: u32 = 10;

/// Enhanced transposition cut-offs below this many stones: everywhere (about a fifth fewer
/// positions on the hard opening sets, no slower on the easy ones).
pub(super) const ETC_BELOW: u32 = u32::MAX;

impl<B: Bits> GravitySolver<B> {
    /// A table size for solving a position with `plies` stones within `budget_bytes`, calibrated on
    /// Connect Four: 4 MiB while at most 90% of the cells are empty (such a table stays in cache,
    /// and a larger one makes every probe slower: on Pons' sets from 1 to 27 stones, 2^23 bytes is
    /// 1.2 to 1.7 times slower than 2^22 on the middle and begin-medium sets and no faster on
    /// begin-hard, 2^26 bytes 1.5 to 2.5 times slower than 2^23). For the first few stones: 64 MiB
    /// on boards of at most 42 cells (searches of seconds, where a larger table costs more to map
    /// than it saves: right after another process freed 1 GiB, on 2 threads, one run each, the
    /// empty 7x6 board took 17.8-23.1 s with 64 MiB and 22.3-23.0 s with 256 MiB, whose 2 MiB pages
    /// the system first had to gather, 2 s of system time; 6x6 1.4-1.7 s against 2.9-4.0 s, 8x4 0.9
    /// s against 2.2 s, 9x4 7.6 s against 10.2 s), but 256 MiB on those of 40 to 42 cells and more
    /// than 7 columns (minutes: the empty 10x4 board 163 s with 256 MiB, 177 s with 64), and half
    /// the budget on boards of more cells (their searches run for hours, and a table that holds
    /// them is worth its slower probes).
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_table_bytes(&c4, 5, 2 << 30), 4 << 20);
    /// assert_eq!(GravitySolver::suggested_table_bytes(&c4, 0, 2 << 30), 64 << 20);
    /// assert_eq!(GravitySolver::suggested_table_bytes(&c4, 0, 1 << 20), 1 << 20);
    /// let wide = GravityBoard::new(10, 4, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_table_bytes(&wide, 0, 2 << 30), 256 << 20);
    /// let short = GravityBoard::new(8, 4, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_table_bytes(&short, 0, 2 << 30), 64 << 20);
    /// let big = GravityBoard::new(7, 7, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_table_bytes(&big, 0, 8 << 30), 4 << 30);
    /// assert_eq!(GravitySolver::suggested_table_bytes(&big, 0, 256 << 20), 256 << 20);
    /// ```
    pub fn suggested_table_bytes(board: &GravityBoard<B>, plies: u32, budget_bytes: u64) -> usize {
        let want: u64 = if !opening(board, plies) {
            4 << 20
        } else if board.cells() > 42 {
            (budget_bytes / 2).max(LONG_SEARCH_TABLE_BYTES)
        } else if board.width() > 7 && board.cells() >= 40 {
            LONG_SEARCH_TABLE_BYTES
        } else {
            64 << 20
        };
        usize::try_from(want.min(budget_bytes)).unwrap_or(usize::MAX)
    }

    /// The table of each worker of an opening book of `depth` moves, within `budget_bytes`: a
    /// worker solves thousands of positions in turn with one table, which keeps what neighbours
    /// share, so while those positions are long searches (at least 24
    /// empty cells) it takes the opening's table rather than a late position's. Measured on
    /// 7x6 to depth 10, 150 s on both cores from the first position: 3,518 positions solved
    /// with 4 MiB tables, 3,941 with 64 MiB, 4,396 with 256 MiB, 3,099 with 1 GiB.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_book_table_bytes(&c4, 10, 1 << 30), 256 << 20);
    /// assert_eq!(GravitySolver::suggested_book_table_bytes(&c4, 20, 1 << 30), 4 << 20);
    /// let small = GravityBoard::new(5, 4, 4).unwrap();
    /// assert_eq!(GravitySolver::suggested_book_table_bytes(&small, 5, 1 << 30), 4 << 20);
    /// ```
    pub fn suggested_book_table_bytes(
        board: &GravityBoard<B>,
        depth: u32,
        budget_bytes: u64,
    ) -> usize {
        let long = board.cells().saturating_sub(depth) >= BOOK_BIG_TABLE_EMPTY;
        let bytes = Self::suggested_table_bytes(board, if long { 0 } else { depth }, budget_bytes);
        if long {
            // A worker's table serves thousands of searches: worth mapping once.
            bytes.max(usize::try_from(LONG_SEARCH_TABLE_BYTES.min(budget_bytes)).unwrap_or(0))
        } else {
            bytes
        }
    }

    /// The bytes the table takes once allocated.
    pub fn table_bytes(&self) -> usize {
        let (bits, entry) =
            BoundTable::<B>::shape(self.table_bytes, self.key_bits(), self.value_bits());
        BoundTable::<B>::bytes(bits, entry)
    }

    /// Forgets everything the table learned.
    pub fn clear(&mut self) {
        self.table = None;
        self.reserved = None;
    }

    pub(super) fn key_bits(&self) -> u32 {
        self.board.width() * (self.board.height() + 1)
    }

    /// Bits of a table entry's value: an encoded bound (1 ..= 2 * range) in the low
    /// [`bound_bits`] bits, above it the best move's column + 1 (0: none).
    pub(super) fn value_bits(&self) -> u32 {
        bound_bits(&self.board) + u32::BITS - self.board.width().leading_zeros()
    }

    /// The lowest score and how many scores there are (table entries: 0 empty, `1..=range` an
    /// upper bound, `range+1..=2*range` a lower bound).
    #[inline(always)]
    fn encoding(&self) -> (i32, i32) {
        let n = self.board.cells() as i32;
        (-(n / 2 + 2), 2 * (n / 2 + 2) + 1)
    }

    /// The bound a table entry's bound bits `code` (never 0) give on its position's score.
    #[inline(always)]
    pub(super) fn decode(&self, code: i32) -> Stored {
        let (low, range) = self.encoding();
        if code > range {
            Stored::AtLeast(code - range + low - 1)
        } else {
            Stored::AtMost(code + low - 1)
        }
    }

    /// The bound bits that store `bound` ([`GravitySolver::decode`] inverts it).
    #[inline(always)]
    pub(super) fn encode(&self, bound: Stored) -> i32 {
        let (low, range) = self.encoding();
        match bound {
            Stored::AtLeast(score) => score - low + 1 + range,
            Stored::AtMost(score) => score - low + 1,
        }
    }

    /// Allocates the table now (after asking `meter`), writing every page so that later
    /// queries pay no page faults: for a solver that will answer many queries (a benchmark, a
    /// server). Without it, the first query allocates the table lazily.
    pub fn prepare(&mut self, meter: &Meter) -> Search<()> {
        self.allocate(meter, true)
    }

    pub(super) fn allocate(&mut self, meter: &Meter, touch: bool) -> Search<()> {
        /// The least time left for which a lazily written table asks for huge pages (see
        /// `pages::Zeroed::new`): a fault on one can stall for milliseconds, and a search of
        /// under a few seconds gains too little from them to pay that.
        const HUGE_PAGES_FROM: std::time::Duration = std::time::Duration::from_secs(5);
        if self.table.is_none() {
            let (kb, vb) = (self.key_bits(), self.value_bits());
            let (bits, entry) = BoundTable::<B>::shape(self.table_bytes, kb, vb);
            self.reserved = Some(meter.reserve(BoundTable::<B>::bytes(bits, entry) as u64)?);
            let kept = if self.reuse_table { spare::take(&self.board, bits, entry) } else { None };
            // Huge pages only for a job with the time to amortise their faults' stalls.
            let left = meter.budget().timeout.saturating_sub(meter.elapsed());
            let huge = left >= HUGE_PAGES_FROM;
            let table = kept.unwrap_or_else(|| BoundTable::new(bits, entry, kb, vb, touch, huge));
            self.table = Some(Arc::new(table));
        }
        Ok(())
    }

    /// Lets this solver take the table a finished solver of the same board left, and leave its
    /// own for the next one when it is dropped (only tables of at most 16 MiB are kept, one in
    /// the process): for a front end that answers many short queries one after another (a
    /// batch), where a fresh table costs more than the search. The entries are true bounds of
    /// the board's positions, so answers are the same; only the counts of positions differ.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// // A middle-game position of Pons' test sets: a draw.
    /// let pos = c4.from_moves("274552224131661").unwrap();
    /// let solve = || {
    ///     let mut solver = GravitySolver::new(&c4, 1 << 22);
    ///     solver.reuse_tables();
    ///     (solver.score(&pos, &Meter::default()), solver.nodes())
    /// };
    /// let (first, second) = (solve(), solve());
    /// assert_eq!((first.0, second.0), (Ok(0), Ok(0)));
    /// assert!(second.1 < first.1); // the second query starts from what the first learned
    /// ```
    pub fn reuse_tables(&mut self) {
        self.reuse_table = true;
    }
}

impl<B: Bits> Drop for GravitySolver<B> {
    fn drop(&mut self) {
        if let (true, Some(table)) = (self.reuse_table, self.table.take()) {
            spare::keep(&self.board, table);
        }
    }
}

/// A bound on a position's score kept in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stored {
    /// The score is at least this.
    AtLeast(i32),
    /// The score is at most this.
    AtMost(i32),
}

/// Bits of an encoded bound in a table entry (see [`GravitySolver::encoding`]).
pub(super) fn bound_bits<B: Bits>(board: &GravityBoard<B>) -> u32 {
    let n = board.cells() as i32;
    let range = 2 * (n / 2 + 2) + 1;
    u32::BITS - (2 * range as u32).leading_zeros()
}

/// The table of long searches (minutes): an opening of a wide board, a book worker's.
const LONG_SEARCH_TABLE_BYTES: u64 = 256 << 20;

/// The empty cells from which a book's positions are long searches, whose workers take a large
/// table ([`GravitySolver::suggested_book_table_bytes`]).
const BOOK_BIG_TABLE_EMPTY: u32 = 24;

/// Whether a position of `plies` stones is in the opening: more than 90% of the cells empty,
/// where searches are long (the empty 7x6 board, four stones in) and get a large table.
pub(super) fn opening<B: Bits>(board: &GravityBoard<B>, plies: u32) -> bool {
    board.cells().saturating_sub(plies) * 10 > board.cells() * 9
}
