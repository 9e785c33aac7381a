//! The solver's state and the words its parts share (the trait of known scores, the search's
//! result, the best move's promise), in a file of their own so that the parts (`policy`,
//! `search`, `heuristics`, `parallel`) take them from here rather than from the module that
//! declares them and uses them.

use super::table::BoundTable;
use crate::budget::{Reservation, Stopped, Ticker};
use crate::games::gravity::{Bits, GravityBoard, GravityPosition};
use std::sync::Arc;

/// Exact scores the solver reads instead of searching, for positions of a game's first moves:
/// what it needs of an opening book ([`Book`](crate::solve::book::Book) is one). Defined here
/// so that the solver does not depend on the books it is given (books are built with it).
pub trait KnownScores<B: Bits>: Send + Sync {
    /// Whether these are scores of `board`'s game.
    fn fits(&self, board: &GravityBoard<B>) -> bool;
    /// Moves up to which positions may have a score.
    fn depth(&self) -> u32;
    /// The exact score of `pos` (Pons' convention, for the player to move), if known.
    fn score(&self, board: &GravityBoard<B>, pos: &GravityPosition<B>) -> Option<i32>;
}

/// The promise of the move a table entry names: before every other.
pub(super) const BEST_MOVE_PROMISE: u32 = 1 << 22;

/// Where a search stands when its budget runs out.
pub(super) type Search<T> = Result<T, Stopped>;

/// The solver: a board, a transposition table kept across queries (allocated at the first query,
/// after the meter allowed it), and the counts of the last query.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::gravity::GravityBoard;
/// use xo_core::solve::gravity::GravitySolver;
/// let c4 = GravityBoard::new(7, 6, 4).unwrap();
/// let mut solver = GravitySolver::new(&c4, 1 << 22);
/// let meter = Meter::default();
/// // Pons' first end-game test position: the player to move loses with their 21st stone.
/// let pos = c4.from_moves("2252576253462244111563365343671351441").unwrap();
/// assert_eq!(solver.score(&pos, &meter), Ok(-1));
/// ```
pub struct GravitySolver<B: Bits = u64> {
    pub(super) board: GravityBoard<B>,
    pub(super) table_bytes: usize,
    pub(super) table: Option<Arc<BoundTable<B>>>,
    /// The table's memory, reserved on the meter of the query that allocated it (none for a
    /// helper, which shares its solver's table).
    pub(super) reserved: Option<Reservation>,
    /// Columns, centre first.
    pub(super) order: Vec<u32>,
    /// Upper bound of the score after `m` stones when the mover cannot win at once.
    pub(super) max_at: Vec<i32>,
    /// Lower bound of the score after `m` stones when the opponent cannot win on their next stone.
    pub(super) min_at: Vec<i32>,
    /// Whether no line of k fits the board at all.
    pub(super) no_lines: bool,
    /// The cells of the top row and of every second row below it: those the player not to move
    /// can claim when the empty cells are even ([`GravitySolver::claimeven_bound`]); the even
    /// rows counted from the bottom on a board of even height, the odd ones on odd height.
    pub(super) claimed_rows: B,
    /// Bits of a table entry that hold the bound, and their mask.
    pub(super) bound_bits: u32,
    pub(super) bound_mask: u32,
    /// The least [`GravitySolver::claimeven_bound`] can be (a line in the lowest claimed row
    /// above the bottom one).
    pub(super) claimeven_floor: i32,
    /// The least bound the claimeven bound's search for a sooner win can give (a win with
    /// [`MAX_EMPTY_AT_THE_END`](super::heuristics::MAX_EMPTY_AT_THE_END) cells still empty).
    pub(super) sooner_floor: i32,
    /// The parity of the stones played in the positions where [`GravitySolver::claimeven_bound`]
    /// holds: those with an even number of empty cells.
    pub(super) claim_parity: u32,
    /// Mirror images share table entries below this many stones (where they are common).
    pub(super) symmetric_below: u32,
    /// Below this many stones, the children's table entries are read before any child is
    /// searched (enhanced transposition cutoff).
    pub(super) etc_below: u32,
    pub(super) nodes: u64,
    pub(super) ticker: Ticker,
    /// An opening book: exact scores of the first moves' positions.
    pub(super) book: Option<Arc<dyn KnownScores<B>>>,
    /// Stones up to which the book is consulted (none without a book).
    pub(super) book_depth: Option<u32>,
    /// Threads a query may use (1: this one only).
    pub(super) threads: usize,
    /// Whether the table comes from, and goes back to, the process's spare (the `spare` module).
    pub(super) reuse_table: bool,
    /// Positions a query on several threads searches alone before starting its helpers.
    pub(super) alone_nodes: u64,
    /// The range the last score or value query had narrowed its score to (both ends the score
    /// once found; what was proven when a budget stopped it).
    pub(super) proven: (i32, i32),
}
