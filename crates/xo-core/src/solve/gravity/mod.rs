//! The dedicated solver of gravity games (Connect Four and every `connect:W,H,K` that fits the
//! [`GravityBoard`] layout), after Pascal Pons' design ("Solving Connect 4: how to build a perfect
//! AI", blog.gamesolver.org).
//!
//! # Scores
//!
//! A score tells, for the player to move, who wins and when. With `N = W*H` cells, a game won by
//! the stone played at ply `p` (counted from the empty board, the first stone is ply 1) scores
//! `(N + 2 - p) / 2` (integer division) for the winner and its negative for the loser; a draw
//! scores 0. For an even `N` this is Pons' `N/2 + 1 - s`, where `s` is the number of stones the
//! winner has played when the game ends (Connect Four: `22 - s`); for an odd `N` it keeps every
//! win at least 1. Being a function of the final ply only, a score means the same at every depth,
//! so negamax is just `-child`; a winner prefers an early end, a loser a late one, exactly as
//! xo's remoteness does (see [`to_scored`]).
//!
//! # Search
//!
//! Negamax with alpha-beta over null windows: [`GravitySolver::score`] narrows `[min, max]` by
//! repeated searches of `[med, med + 1]`: quick wins and losses first, then the sign (`[0, 1]`,
//! then `[-1, 0]`), then thresholds doubling outward from the draw (most opening scores are
//! next to a draw, where every probe is long; on the empty 7x6 board with one thread, 157M
//! positions against 205M for Pons' middle pulled outward). Each node generates only the moves
//! that do not hand the opponent an immediate win (blocking a single threat is forced, two
//! threats lose, and no stone goes under a cell
//! where the opponent would win), bounds its score by the earliest either side can still win
//! (the mover cannot win at once, the opponent not on their next stone, nobody before their
//! `k`-th stone) and, when the empty cells are even, by what the player not to move gets by
//! answering every stone right above it ([`GravitySolver`]'s claimeven bound: the second player
//! on boards of an even number of cells, the first on boards of odd width and height;
//! at best a draw when no line fits the cells left to the mover). A position whose only move
//! blocks the opponent's threat plays it at once, with no table entry of its own (on the empty
//! 7x6 board, 8% more positions but about 9% less time on two threads). Other positions keep
//! upper and lower bounds in a transposition table (on 2 MiB pages where the system has them),
//! with the move that proved each lower bound, and try that move first, then the others in the
//! order of the useful threats they create (winning cells after the move that are not right
//! above one of the opponent's; those right above a playable cell count more), centre columns
//! first among equals. Before searching any child a node reads the children's table entries
//! (requested together, so that their memory latencies overlap), which sometimes prove it at
//! once (enhanced transposition cut-off) and otherwise rule out the children whose stored bound
//! shows they cannot raise alpha (those are not searched); for a move that forces the
//! opponent's block, the entry read is the position after the block, whose score is the
//! move's. On the empty 7x6 board with one thread those two visit 14% fewer positions
//! (205.0M against 239.7M) in about 5% less time. Mirror images share table entries in the
//! opening.
//!
//! With an opening book, a position one stone past it is searched from the floor the book
//! gives: every position it can come from (less one top stone of the player who just moved) is
//! in the book and scores at least its move into it, so the score is at least the least of
//! those negated, and the probes walk up from there. Every move's score of a position the book
//! holds searches the moves that cannot be its best first, and leaves the last one unsearched
//! when every other is worse than the book's score (on 60 random 7x6 positions of 10 stones,
//! one thread: 45.2M positions against 70.7M without the floors).
//!
//! The same code runs on boards of 64-bit and 128-bit words ([`Bits`]), and on several threads
//! sharing one table ([`GravitySolver::set_threads`], the `parallel` module).
//!
//! # From a validated xo position
//!
//! ```
//! use xo_core::budget::Meter;
//! use xo_core::games::gravity::GravityBoard;
//! use xo_core::rules::{parse_game, Setup};
//! use xo_core::solve::gravity::GravitySolver;
//! use xo_core::Value;
//!
//! let rules = parse_game("connect:4,4,3").unwrap();
//! let board = GravityBoard::from_rules(&rules).unwrap(); // refuses sizes that do not fit
//! let pos = Setup::parse(&rules, ".... .... .... XO..").unwrap().validate(&rules).unwrap();
//! let pos = board.from_position(&pos).unwrap();
//! let meter = Meter::default(); // the job's budget
//! let mut solver = GravitySolver::new(&board, 1 << 20); // the table is reserved on the meter
//! let s = solver.scored(&pos, &meter).unwrap(); // value and remoteness
//! assert_eq!(s.value, Value::Win);
//! // Every column (0-based), with its value and remoteness for the mover, None when full.
//! let moves = solver.move_scored(&pos, &meter).unwrap();
//! assert_eq!(moves.len(), 4);
//! assert!(moves.iter().any(|&(_, m)| m == Some(s)));
//! ```

use crate::budget::{Meter, Ticker};
use crate::games::gravity::{Bits, GravityBoard, GravityPosition};
use crate::value::Scored;
use crate::Value;
use policy::{bound_bits, ETC_BELOW, SYMMETRIC_BELOW};
use score::sign_value;
use solver::Search;
use std::sync::Arc;

mod heuristics;
mod pages;
mod parallel;
mod policy;
mod score;
mod search;
mod solver;
mod spare;
mod table;

pub use score::to_scored;
pub(crate) use score::win_at;
pub use solver::{GravitySolver, KnownScores};

impl<B: Bits> GravitySolver<B> {
    /// A solver for `board` with a transposition table of about `table_bytes` bytes (at least a
    /// few KiB), allocated at the first query.
    pub fn new(board: &GravityBoard<B>, table_bytes: usize) -> GravitySolver<B> {
        let (w, h, k) = (board.width(), board.height(), board.k());
        let n = board.cells() as i32;
        let order = (0..w)
            .map(|i| (w / 2) as i32 + (1 - 2 * (i as i32 % 2)) * (i as i32 + 1) / 2)
            .collect();
        let order = fix_order(order, w);
        let k = k as i32;
        let mut max_at = Vec::new();
        let mut min_at = Vec::new();
        for m in 0..=n {
            // The mover has m/2 stones and cannot win with the next: at best with stone
            // max(k, m/2 + 2), played at ply m + 1 + 2 * (that - (m/2 + 1)).
            let mine = m / 2;
            let stone = k.max(mine + 2);
            let p = m + 1 + 2 * (stone - mine - 1);
            max_at.push(if p > n { 0 } else { win_at(n, p) });
            // The opponent has (m+1)/2 stones and cannot win with the next (ply m + 2).
            let theirs = (m + 1) / 2;
            let stone = k.max(theirs + 2);
            let p = m + 2 + 2 * (stone - theirs - 1);
            min_at.push(if p > n { 0 } else { -win_at(n, p) });
        }
        GravitySolver {
            board: board.clone(),
            table_bytes,
            table: None,
            reserved: None,
            order,
            max_at,
            min_at,
            no_lines: (k as u32) > w.max(h),
            claim_parity: (n % 2) as u32,
            bound_bits: bound_bits(board),
            claimeven_floor: claimeven_floor(n, h as i32),
            sooner_floor: -win_at(n, n - heuristics::MAX_EMPTY_AT_THE_END as i32),
            bound_mask: (1 << bound_bits(board)) - 1,
            claimed_rows: (0..h)
                .filter(|r| (h - 1 - r) % 2 == 0)
                .fold(B::ZERO, |acc, r| acc | board.bottom() << r),
            symmetric_below: SYMMETRIC_BELOW,
            nodes: 0,
            ticker: Ticker::default(),
            etc_below: ETC_BELOW,
            book: None,
            book_depth: None,
            threads: 1,
            reuse_table: false,
            alone_nodes: 1 << 16,
            proven: (-n, n),
        }
    }

    /// Consults `book` (when it is of this board) for the positions it holds.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(5, 4, 4).unwrap();
    /// let book = Arc::new(Book::build(&b, 4, 1 << 20, &Meter::default()).unwrap());
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// solver.set_book(book);
    /// assert_eq!(solver.score(&b.start(), &Meter::default()), Ok(0));
    /// assert_eq!(solver.nodes(), 0); // read from the book
    /// ```
    pub fn set_book(&mut self, book: Arc<dyn KnownScores<B>>) {
        if book.fits(&self.board) {
            self.book_depth = Some(book.depth());
            self.book = Some(book);
        }
    }

    /// The book's score of `pos`, if it has one.
    #[inline]
    fn book_score(&self, pos: &GravityPosition<B>) -> Option<i32> {
        match (&self.book, self.book_depth) {
            (Some(book), Some(depth)) if pos.moves <= depth => book.score(&self.board, pos),
            _ => None,
        }
    }

    /// The board.
    pub fn board(&self) -> &GravityBoard<B> {
        &self.board
    }

    /// Mirror images share table entries in positions of fewer than `stones` stones (10 by
    /// default: deeper, mirror pairs are rare and the mirror key costs more than it saves).
    pub fn set_symmetric_below(&mut self, stones: u32) {
        self.symmetric_below = stones;
    }

    /// Reads the children's table entries before searching any child (a cut-off without
    /// search when one already proves the node) in positions of fewer than `stones` stones
    /// (everywhere by default; 0 turns it off).
    pub fn set_etc_below(&mut self, stones: u32) {
        self.etc_below = stones;
    }

    /// Positions visited by the last query.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// What the last score or value query proved of its score ([`GravitySolver::score`],
    /// [`GravitySolver::scored`], [`GravitySolver::value`]): the exact score at both ends once
    /// found, and, when a budget stopped it, the range its finished searches had narrowed the
    /// score to (each is a proof: the range holds the score).
    ///
    /// ```
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(6, 5, 4).unwrap();
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// let meter = Meter::new(Budget::default().with_max_nodes(1_000));
    /// assert!(solver.score(&b.start(), &meter).is_err());
    /// let bounds = solver.proven_score();
    /// assert!(bounds.at_least <= 0 && 0 <= bounds.at_most); // 6x5 is a draw
    /// assert_eq!(solver.score(&b.start(), &Meter::default()), Ok(0));
    /// assert_eq!((solver.proven_score().at_least, solver.proven_score().at_most), (0, 0));
    /// ```
    pub fn proven_score(&self) -> crate::value::ScoreBounds {
        crate::value::ScoreBounds { at_least: self.proven.0, at_most: self.proven.1 }
    }

    fn begin(&mut self, meter: &Meter) -> Search<()> {
        self.nodes = 0;
        self.ticker.reset();
        // A meter that has stopped already stops this query before its first position (the
        // ticker would notice only after a batch: a book build's many short searches add up).
        meter.tick(0)?;
        self.allocate(meter, false)
    }

    fn finish<T>(&mut self, meter: &Meter, result: T) -> Search<T> {
        self.ticker.finish(meter, result)
    }

    /// The exact score of `pos` for the player to move (Pons' convention, see the module).
    /// A finished position scores its result: the player who just completed a line won at this
    /// ply; a full board is a draw.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(5, 4, 4).unwrap();
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// assert_eq!(solver.score(&b.start(), &Meter::default()), Ok(0)); // 5x4 is a draw
    /// ```
    pub fn score(&mut self, pos: &GravityPosition<B>, meter: &Meter) -> Search<i32> {
        self.begin(meter)?;
        let n = self.board.cells() as i32;
        let s = self.solve_on_threads(pos, meter, -n, n);
        self.finish(meter, s)
    }

    /// The value of `pos` for the player to move: the score's sign, by the narrowest search.
    pub fn value(&mut self, pos: &GravityPosition<B>, meter: &Meter) -> Search<Value> {
        self.begin(meter)?;
        let s = self.solve_on_threads(pos, meter, -1, 1);
        self.finish(meter, sign_value(s))
    }

    /// The exact score, from the mover's point of view, of every column in order (0-based
    /// index = column - 1): `None` for a full column (and for every column once the game is
    /// over). One table serves all of them.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// let b = GravityBoard::new(4, 4, 3).unwrap();
    /// let mut solver = GravitySolver::new(&b, 1 << 20);
    /// let scores = solver.move_scores(&b.from_moves("1111").unwrap(), &Meter::default()).unwrap();
    /// assert_eq!(scores[0], (0, None));
    /// assert_eq!(scores.len(), 4);
    /// ```
    pub fn move_scores(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
    ) -> Search<Vec<(u32, Option<i32>)>> {
        let n = self.board.cells() as i32;
        self.moves_clamped(pos, meter, -n, n)
    }

    /// The value of every column for the mover, in order (`None` for a full column): the
    /// fastest way to name the winning (or drawing) moves.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// use xo_core::Value;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// let mut solver = GravitySolver::new(&c4, 1 << 22);
    /// let pos = c4.from_moves("2252576253462244111563365343671351441").unwrap();
    /// let values = solver.move_values(&pos, &Meter::default()).unwrap();
    /// assert!(values.iter().all(|&(_, v)| v != Some(Value::Win)));
    /// ```
    pub fn move_values(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
    ) -> Search<Vec<(u32, Option<Value>)>> {
        let values = self.moves_clamped(pos, meter, -1, 1)?;
        Ok(values.into_iter().map(|(col, s)| (col, s.map(sign_value))).collect())
    }

    /// Every column's score for the mover, clamped to `[lo, hi]`.
    fn moves_clamped(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
        lo: i32,
        hi: i32,
    ) -> Search<Vec<(u32, Option<i32>)>> {
        self.begin(meter)?;
        let w = self.board.width();
        let n = self.board.cells() as i32;
        let m = pos.moves as i32;
        let over = self.board.outcome(pos).is_some();
        let symmetric = self.board.mirror_key(pos) == self.board.key(pos);
        // The columns to search, as (column, child); a mirror image's twin and an immediate win
        // need none.
        let mut out: Vec<(u32, Option<i32>)> = Vec::with_capacity(w as usize);
        let mut children = Vec::new();
        for col in 0..w {
            // A full column, the end of the game, or a mirror twin (filled in below) need none.
            let twin = symmetric && col > w - 1 - col;
            let score = if over || !self.board.can_play(pos, col) || twin {
                None
            } else if self.board.is_winning_move(pos, col) {
                Some(win_at(n, m + 1).clamp(lo, hi))
            } else {
                let mut child = *pos;
                self.board.play(&mut child, col);
                children.push((col, child));
                None
            };
            out.push((col, score));
        }
        let scores = if self.parallel() && children.len() > 1 {
            let children: Vec<_> = children
                .iter()
                .map(|&(col, child)| (col, child, self.book_floor(&child)))
                .collect();
            self.children_together(&children, meter, lo, hi)
        } else {
            self.children_in_turn(pos, &out, &children, meter, lo, hi)
        };
        for (col, s) in scores {
            out[col as usize].1 = Some(s);
        }
        if symmetric && !over {
            for col in 0..w {
                if col > w - 1 - col && self.board.can_play(pos, col) {
                    out[col as usize].1 = out[(w - 1 - col) as usize].1;
                }
            }
        }
        self.finish(meter, out)
    }

    /// Every child's score (for the parent: negated), clamped to `[lo, hi]`, one after another;
    /// `known`: the moves scored without search (immediate wins). When the book holds the
    /// positions each child may come from, their scores bound the move's from above
    /// ([`GravitySolver::book_floor`]), and the child's search starts there. When it holds
    /// `pos` too, a move whose bound is below the score of `pos` is not its best, and is
    /// searched first; once every other move is known to be worse than `pos`, the last one
    /// left is worth the score of `pos`, with no search.
    fn children_in_turn(
        &mut self,
        pos: &GravityPosition<B>,
        known: &[(u32, Option<i32>)],
        children: &[(u32, GravityPosition<B>)],
        meter: &Meter,
        lo: i32,
        hi: i32,
    ) -> Vec<(u32, i32)> {
        let own = self.book_score(pos).map(|s| s.clamp(lo, hi));
        // Whether a move of this floor may be the best: whether its bound reaches `own`.
        let may_be_best =
            |floor: Option<i32>, own: i32| floor.is_none_or(|f| (-f).clamp(lo, hi) >= own);
        // (the child's floor, column, child), the moves that cannot be the best first.
        let (mut order, last): (Vec<_>, Vec<_>) = children
            .iter()
            .map(|&(col, child)| (self.book_floor(&child), col, child))
            .partition(|&(floor, _, _)| own.is_some_and(|own| !may_be_best(floor, own)));
        order.extend(last);
        let mut best = known.iter().filter_map(|&(_, s)| s).max();
        let mut scores = Vec::with_capacity(children.len());
        for (i, &(floor, col, child)) in order.iter().enumerate() {
            if let Some(own) = own
                && i + 1 == order.len()
                && may_be_best(floor, own)
                && best.is_none_or(|b| b < own)
            {
                scores.push((col, own));
                break;
            }
            let s = -self.solve_above(&child, meter, -hi, -lo, floor);
            if self.ticker.is_stopped() {
                break;
            }
            best = best.max(Some(s));
            scores.push((col, s));
        }
        scores
    }

    /// The value and remoteness of `pos` (its exact score through [`to_scored`]), as xo's
    /// reports give them.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::gravity::GravitySolver;
    /// use xo_core::Value;
    /// let b = GravityBoard::new(4, 4, 3).unwrap();
    /// let s = GravitySolver::new(&b, 1 << 20).scored(&b.start(), &Meter::default()).unwrap();
    /// assert_eq!(s.value, Value::Win);
    /// ```
    pub fn scored(&mut self, pos: &GravityPosition<B>, meter: &Meter) -> Search<Scored> {
        let s = self.score(pos, meter)?;
        Ok(to_scored(&self.board, pos.plies(), s))
    }

    /// [`GravitySolver::move_scores`] as values and remoteness for the mover (the remoteness
    /// counts the move itself): `(column, None)` for a full column.
    pub fn move_scored(
        &mut self,
        pos: &GravityPosition<B>,
        meter: &Meter,
    ) -> Search<Vec<(u32, Option<Scored>)>> {
        let scores = self.move_scores(pos, meter)?;
        Ok(scores
            .into_iter()
            .map(|(col, s)| (col, s.map(|s| to_scored(&self.board, pos.plies(), s))))
            .collect())
    }
}

/// The least score [`GravitySolver::claimeven_bound`] gives on a board of `n` cells and
/// `h` rows: the other player's line completed in the lowest claimed row above the bottom one
/// (0-based row 1 on even heights, 2 on odd ones), its column's cells above it still empty.
fn claimeven_floor(n: i32, h: i32) -> i32 {
    let lowest = if h % 2 == 0 { 1 } else { 2 };
    -win_at(n, n - (h - 1 - lowest).max(0))
}

/// Centre-first column order, as 0-based columns (every column once).
fn fix_order(order: Vec<i32>, w: u32) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(w as usize);
    for c in order {
        if (0..w as i32).contains(&c) && !out.contains(&(c as u32)) {
            out.push(c as u32);
        }
    }
    for c in 0..w {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
