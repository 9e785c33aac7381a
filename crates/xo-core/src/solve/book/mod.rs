//! Opening books for gravity games: the exact score of positions of the first `depth` moves,
//! built by xo itself, so that the searches that pass through those positions (the empty board,
//! the first moves of a game on the web page, Pons' begin sets) stop there.
//!
//! A book is built from the deepest level up: every distinct position (mirror images merged)
//! after `depth` moves is solved by the gravity engine, on every core, each worker with its own
//! table; each shallower position is then the best of its children, with no search. So the
//! cost of a book is the cost of its deepest level. A build can stop (its budget) and resume
//! from the scores it kept; what it has so far is already a book: the deepest-level positions
//! solved, and every shallower position all of whose children are known ([`Book::is_complete`]
//! says whether that is all of them). The deepest level is solved in the order of the move
//! sequences, centre first, so whole subtrees (the centre openings first) fill in early.
//! The file format is in [`file`].

mod file;
mod levels;
#[cfg(test)]
mod tests;
mod types;

pub use types::{Book, BookError};

use crate::budget::{Meter, Stopped};
use crate::games::gravity::{Bits, GravityBoard, GravityPosition};
use crate::solve::gravity::{GravitySolver, KnownScores};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// The books xo ships, by file name and board (width, height, k): built into `xo-store`, and
/// written beside the static web page (`xo page`), whose WebAssembly core loads the one its game
/// consults ([`board_of`]).
pub const SHIPPED: [(&str, (u32, u32, u32)); 1] = [("connect4.book", (7, 6, 4))];

/// The board (width, height, k) of the books a game of `rules` consults: a gravity game of own
/// marks, not misère, whose goal is k in a row; `None` for any other game. The one rule by which
/// every front end picks a book for a game.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::book::board_of;
/// assert_eq!(board_of(&parse_game("connect4").unwrap()), Some((7, 6, 4)));
/// assert_eq!(board_of(&parse_game("connect:5,4,3").unwrap()), Some((5, 4, 3)));
/// assert_eq!(board_of(&parse_game("tictactoe").unwrap()), None);
/// ```
pub fn board_of(rules: &crate::rules::Rules) -> Option<(u32, u32, u32)> {
    use crate::rules::{Goal, Marks};
    match rules.goal() {
        Goal::InRow(k) if rules.gravity() && !rules.misere() && *rules.marks() == Marks::Own => {
            Some((rules.width(), rules.height(), *k))
        }
        _ => None,
    }
}

/// The file name of the book xo ships for a game of `rules` ([`SHIPPED`]), if there is one.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::book::shipped_name;
/// assert_eq!(shipped_name(&parse_game("connect4").unwrap()), Some("connect4.book"));
/// assert_eq!(shipped_name(&parse_game("connect:7,6,3").unwrap()), None);
/// ```
pub fn shipped_name(rules: &crate::rules::Rules) -> Option<&'static str> {
    let board = board_of(rules)?;
    SHIPPED.iter().find(|(_, b)| *b == board).map(|(name, _)| *name)
}

/// What a build made: the book (complete, or what was solved before it stopped) and why it
/// stopped, if it did.
#[derive(Debug)]
pub struct Build {
    /// The book so far.
    pub book: Book,
    /// The budget that stopped the build before its deepest level was solved.
    pub stopped: Option<Stopped>,
}

impl Book {
    /// Builds the book of `board`'s first `depth` moves (at most the cells less one), each
    /// worker with a table of `table_bytes`, within `meter`; fails if it stops before the end.
    pub fn build(
        board: &GravityBoard,
        depth: u32,
        table_bytes: usize,
        meter: &Meter,
    ) -> Result<Book, Stopped> {
        let build = Book::build_resuming(
            board,
            depth,
            table_bytes,
            meter,
            &FxHashMap::default(),
            &|_, _| {},
        )?;
        match build.stopped {
            None => Ok(build.book),
            Some(stopped) => Err(stopped),
        }
    }

    /// [`Book::build`], taking the scores of deepest-level positions already solved (by their
    /// symmetric key: `known`, from an earlier, interrupted build) and reporting each newly
    /// solved one to `solved` as it is found (to keep it, so a stopped build loses nothing).
    /// Stopped by its budget once the levels are listed, it returns the book so far; before,
    /// it fails.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// let board = GravityBoard::new(5, 4, 4).unwrap();
    /// let kept = Mutex::new(Vec::new());
    /// let keep = |key: u64, score: i8| kept.lock().unwrap().push((key, score));
    /// // Stopped early, then resumed from what was kept: the same book as in one go.
    /// let small = Meter::new(Budget::default().with_max_nodes(20_000));
    /// let none = Default::default();
    /// let part = Book::build_resuming(&board, 5, 1 << 16, &small, &none, &keep).unwrap();
    /// assert!(part.stopped.is_some() && !part.book.is_complete());
    /// let known = kept.lock().unwrap().iter().copied().collect();
    /// let resumed = Book::build_resuming(&board, 5, 1 << 16, &Meter::default(), &known, &keep).unwrap();
    /// assert!(resumed.stopped.is_none() && resumed.book.is_complete());
    /// assert_eq!(resumed.book, Book::build(&board, 5, 1 << 16, &Meter::default()).unwrap());
    /// ```
    pub fn build_resuming(
        board: &GravityBoard,
        depth: u32,
        table_bytes: usize,
        meter: &Meter,
        known: &FxHashMap<u64, i8>,
        solved: &(dyn Fn(u64, i8) + Sync),
    ) -> Result<Build, Stopped> {
        let depth = depth.min(board.cells().saturating_sub(1));
        // The levels stay reserved while the workers' tables (each reserved by its solver as
        // it allocates it) add to them.
        let (levels, _levels_memory) = levels::levels(board, depth, meter)?;
        // Fails at once when the workers' tables cannot all fit beside the levels.
        let workers = rayon::current_num_threads().max(1) as u64;
        drop(meter.reserve(table_bytes as u64 * workers)?);
        // The deepest level by search, on every core, in order (neighbours share searches).
        let deepest = levels.last().expect("level 0 at least");
        let done = AtomicU64::new(0);
        let _ = meter.set_done(0, deepest.len() as u64);
        let found: Vec<Result<(u64, i8), Stopped>> = deepest
            .par_iter()
            .with_min_len(64)
            .map_init(
                || GravitySolver::new(board, table_bytes),
                |solver, pos| {
                    let key = board.symmetric_key(pos);
                    let score = match known.get(&key) {
                        Some(&score) => score,
                        None => {
                            let score = solver.score(pos, meter)? as i8;
                            solved(key, score);
                            score
                        }
                    };
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    let _ = meter.set_done(d, deepest.len() as u64);
                    Ok((key, score))
                },
            )
            .collect();
        let mut stopped = None;
        let mut scores: FxHashMap<u64, i8> = known.clone();
        for result in found {
            match result {
                Ok((key, score)) => {
                    scores.insert(key, score);
                }
                Err(stop) => stopped = stopped.or(Some(stop)),
            }
        }
        // Deriving the shallower levels is bounded by the levels already listed: it runs
        // after a stop too, under a meter of its own.
        let derive_meter = Meter::new(
            meter.budget().with_timeout(std::time::Duration::MAX).with_max_nodes(u64::MAX),
        );
        let all = levels::derive(board, &levels, &scores, &derive_meter)?;
        let solved =
            deepest.iter().filter(|p| scores.contains_key(&board.symmetric_key(p))).count();
        let book = Book {
            width: board.width(),
            height: board.height(),
            k: board.k(),
            depth,
            solved: solved as u64,
            deepest: deepest.len() as u64,
            keys: all.iter().map(|&(k, _)| k).collect(),
            scores: all.iter().map(|&(_, s)| s).collect(),
        };
        Ok(Build { book, stopped })
    }

    /// The number of distinct positions (mirror images merged) after 0, 1, ..., `depth` moves:
    /// what a book of that depth holds, level by level (its cost is the last level's searches).
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// // 49 two-stone positions, 1 its own mirror image: (49 + 1) / 2 = 25.
    /// assert_eq!(Book::level_sizes(&c4, 2, &Meter::default()).unwrap(), vec![1, 4, 25]);
    /// ```
    pub fn level_sizes(
        board: &GravityBoard,
        depth: u32,
        meter: &Meter,
    ) -> Result<Vec<usize>, Stopped> {
        Ok(levels::levels(board, depth, meter)?.0.iter().map(Vec::len).collect())
    }

    /// The scores of the deepest-level positions this book holds, by symmetric key: what a
    /// build of the same board and depth resumes from.
    pub fn deepest_scores(
        &self,
        board: &GravityBoard,
        meter: &Meter,
    ) -> Result<FxHashMap<u64, i8>, Stopped> {
        let (levels, _memory) = levels::levels(board, self.depth, meter)?;
        let deepest = levels.last().expect("level 0 at least");
        Ok(deepest
            .iter()
            .filter_map(|p| {
                let key = board.symmetric_key(p);
                self.keys.binary_search(&key).ok().map(|i| (key, self.scores[i]))
            })
            .collect())
    }

    /// The book's entries in key order: each position's symmetric key and its score (Pons'
    /// convention, for the player to move); [`Book::position_of`] turns a key back into a
    /// position.
    pub fn entries(&self) -> impl Iterator<Item = (u64, i8)> + '_ {
        self.keys.iter().copied().zip(self.scores.iter().copied())
    }

    /// The position whose key (as [`GravityBoard::key`] makes it, `current + mask`) is `key`,
    /// if `key` is one of `board`'s: of mirror images, the one whose key it is.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// let pos = c4.from_moves("4453").unwrap();
    /// assert_eq!(Book::position_of(&c4, c4.key(&pos)), Some(pos));
    /// assert_eq!(Book::position_of(&c4, 0), Some(c4.start()));
    /// assert_eq!(Book::position_of(&c4, 1 << 60), None); // past the board's columns
    /// assert_eq!(Book::position_of(&c4, 2), None); // one stone, the mover's: not a turn order
    /// ```
    pub fn position_of(board: &GravityBoard, key: u64) -> Option<GravityPosition> {
        let h1 = board.height() + 1;
        if u64::from(board.width() * h1) > 64 {
            return None;
        }
        let (mut current, mut mask) = (0u64, 0u64);
        for c in 0..board.width() {
            // A column's bits are its stones of the player to move plus the stones below a
            // marker: current + (2^stones - 1), so stones = log2(bits + 1), rounded down.
            let column = (key >> (c * h1)) & ((1u64 << h1) - 1);
            let stones = (column + 1).ilog2();
            if stones > board.height() {
                return None;
            }
            let filled = (1u64 << stones) - 1;
            current |= (column - filled) << (c * h1);
            mask |= filled << (c * h1);
        }
        let moves = mask.count_ones();
        if u64::from(board.width() * h1) < 64 && key >> (board.width() * h1) != 0 {
            return None;
        }
        // The player to move has made half the moves, rounded down.
        if current.count_ones() != moves / 2 {
            return None;
        }
        Some(GravityPosition { current, mask, moves })
    }

    /// The exact score of `pos` (a position of `board`), if the book holds it.
    #[inline]
    pub fn get<B: Bits>(&self, board: &GravityBoard<B>, pos: &GravityPosition<B>) -> Option<i32> {
        if pos.moves > self.depth {
            return None;
        }
        let key = u64::try_from(board.symmetric_key(pos).to_u128()).ok()?;
        self.keys.binary_search(&key).ok().map(|i| i32::from(self.scores[i]))
    }

    /// Whether the book is of `board`'s game.
    pub fn fits<B: Bits>(&self, board: &GravityBoard<B>) -> bool {
        (self.width, self.height, self.k) == (board.width(), board.height(), board.k())
    }

    /// Moves the book covers.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether the book holds every position of its first `depth` moves.
    pub fn is_complete(&self) -> bool {
        self.solved == self.deepest
    }

    /// Deepest-level positions solved, and how many that level holds (a complete book of
    /// format 1 says 0 of 0).
    pub fn progress(&self) -> (u64, u64) {
        (self.solved, self.deepest)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The board's width, height and k.
    pub fn game(&self) -> (u32, u32, u32) {
        (self.width, self.height, self.k)
    }

    /// The file's bytes (format 2, in [`file`]).
    pub fn encode(&self) -> Vec<u8> {
        file::encode(self)
    }

    /// Bytes of a book file's header: what [`Book::file_len`] needs (a shorter file is read
    /// whole).
    pub const HEAD: usize = file::HEADER_2;

    /// The length of the book file that starts with `head` (its header, or the whole file if
    /// shorter than [`Book::HEAD`]), from its header: a reader checks it against the file's
    /// before reading the rest.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// let board = GravityBoard::new(4, 4, 3).unwrap();
    /// let bytes = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap().encode();
    /// assert_eq!(Book::file_len(&bytes[..Book::HEAD]), Ok(bytes.len() as u64));
    /// ```
    pub fn file_len(head: &[u8]) -> Result<u64, BookError> {
        file::file_len(head)
    }

    /// Reads a book file (format 1 or 2), checking everything.
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        file::decode(bytes)
    }
}

/// What the gravity solver reads of a book.
impl<B: Bits> KnownScores<B> for Book {
    fn fits(&self, board: &GravityBoard<B>) -> bool {
        Book::fits(self, board)
    }

    fn depth(&self) -> u32 {
        Book::depth(self)
    }

    #[inline]
    fn score(&self, board: &GravityBoard<B>, pos: &GravityPosition<B>) -> Option<i32> {
        self.get(board, pos)
    }
}
