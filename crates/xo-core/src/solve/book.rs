//! Opening books for gravity games: the exact score of every position of the first `depth`
//! moves, built by xo itself, so that the searches that pass through those positions (the
//! empty board, the first moves of a game on the web page, Pons' begin sets) stop there.
//!
//! The book is built from the deepest level up: every distinct position (mirror images
//! merged) after `depth` moves is solved by the gravity engine, on every core, each worker with
//! its own table; each shallower position is then the best of its children, with no search.
//! So the cost of a book is the cost of its deepest level. A book is one checked file: a
//! versioned header naming the board and depth, the entries sorted by key (the position's
//! mirror-symmetric key and its score), and a CRC-32 of everything.

use crate::budget::{Limit, Meter, Stopped};
use crate::games::gravity::{Bits, GravityBoard, GravityPosition};
use crate::solve::gravity::{win_at, GravitySolver};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// The first bytes of every book file.
const MAGIC: &[u8; 8] = b"XOBOOK\0\0";
/// The format version.
const VERSION: u32 = 1;
/// Bytes of the header: magic, version, width, height, k, depth, entries.
const HEADER: usize = 8 + 4 * 5 + 8;

/// The exact scores of every position of a gravity game's first `depth` moves.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::gravity::GravityBoard;
/// use xo_core::solve::book::Book;
/// let board = GravityBoard::new(4, 4, 3).unwrap();
/// let book = Book::build(&board, 3, 1 << 20, &Meter::default()).unwrap();
/// assert_eq!(book.get(&board, &board.start()), Some(4)); // 4x4, three in a row: a first-player win
/// let again = Book::decode(&book.encode()).unwrap();
/// assert_eq!(again, book);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    width: u32,
    height: u32,
    k: u32,
    depth: u32,
    /// Sorted symmetric keys.
    keys: Vec<u64>,
    /// Scores, by the keys' order (Pons' convention, for the player to move).
    scores: Vec<i8>,
}

/// Why a book file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// It does not start like a book file.
    #[error("not an xo opening book")]
    NotABook,
    /// It was written by another version of the format.
    #[error("an opening book of format version {0}; this xo reads version {VERSION}")]
    Version(u32),
    /// It is shorter or longer than its header says, or its checksum fails.
    #[error("the opening book is damaged ({0})")]
    Damaged(&'static str),
}

impl Book {
    /// Builds the book of `board`'s first `depth` moves (at most the cells less one), each
    /// worker with a table of `table_bytes`, within `meter`.
    pub fn build(
        board: &GravityBoard,
        depth: u32,
        table_bytes: usize,
        meter: &Meter,
    ) -> Result<Book, Stopped> {
        Book::build_resuming(board, depth, table_bytes, meter, &FxHashMap::default(), &|_, _| {})
    }

    /// [`Book::build`], taking the scores of deepest-level positions already solved (by their
    /// symmetric key: `known`, from an earlier, interrupted build) and reporting each newly
    /// solved one to `solved` as it is found (to keep it, so a stopped build loses nothing).
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
    /// assert!(Book::build_resuming(&board, 5, 1 << 16, &small, &none, &keep).is_err());
    /// let known = kept.lock().unwrap().iter().copied().collect();
    /// let resumed = Book::build_resuming(&board, 5, 1 << 16, &Meter::default(), &known, &keep).unwrap();
    /// assert_eq!(resumed, Book::build(&board, 5, 1 << 16, &Meter::default()).unwrap());
    /// ```
    pub fn build_resuming(
        board: &GravityBoard,
        depth: u32,
        table_bytes: usize,
        meter: &Meter,
        known: &FxHashMap<u64, i8>,
        solved: &(dyn Fn(u64, i8) + Sync),
    ) -> Result<Book, Stopped> {
        let depth = depth.min(board.cells().saturating_sub(1));
        let levels = levels(board, depth, meter)?;
        let workers = rayon::current_num_threads().max(1) as u64;
        meter.reserve(table_bytes as u64 * workers)?;
        // The deepest level by search, on every core.
        let deepest = levels.last().expect("level 0 at least");
        meter.set_done(0, deepest.len() as u64)?;
        let done = std::sync::atomic::AtomicU64::new(0);
        let solved: Vec<(u64, i8)> = deepest
            .par_iter()
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
                    let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    meter.set_done(d, deepest.len() as u64)?;
                    Ok((key, score))
                },
            )
            .collect::<Result<_, Stopped>>()?;
        let mut below: FxHashMap<u64, i8> = solved.iter().copied().collect();
        let mut all = solved;
        // Shallower levels: each the best of its children.
        let n = board.cells() as i32;
        for level in levels.iter().rev().skip(1) {
            let mut here = FxHashMap::default();
            for pos in level {
                meter.tick(1)?;
                let score = if let Some(result) = board.outcome(pos) {
                    // Finished: the player who just moved won at this ply, or the board is full.
                    match result {
                        crate::Value::Draw => 0,
                        _ => -win_at(n, pos.moves as i32),
                    }
                } else {
                    (0..board.width())
                        .filter(|&c| board.can_play(pos, c))
                        .map(|c| {
                            if board.is_winning_move(pos, c) {
                                win_at(n, pos.moves as i32 + 1)
                            } else {
                                let mut child = *pos;
                                board.play(&mut child, c);
                                -i32::from(below[&board.symmetric_key(&child)])
                            }
                        })
                        .max()
                        .expect("an unfinished position has a move")
                };
                here.insert(board.symmetric_key(pos), score as i8);
            }
            all.extend(here.iter().map(|(&k, &s)| (k, s)));
            below = here;
        }
        all.sort_unstable_by_key(|&(k, _)| k);
        all.dedup_by_key(|&mut (k, _)| k);
        Ok(Book {
            width: board.width(),
            height: board.height(),
            k: board.k(),
            depth,
            keys: all.iter().map(|&(k, _)| k).collect(),
            scores: all.iter().map(|&(_, s)| s).collect(),
        })
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
        Ok(levels(board, depth, meter)?.iter().map(Vec::len).collect())
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

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.keys.len() * 9 + 4);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, self.width, self.height, self.k, self.depth] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.keys.len() as u64).to_le_bytes());
        for (k, s) in self.keys.iter().zip(&self.scores) {
            out.extend_from_slice(&k.to_le_bytes());
            out.push(*s as u8);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Bytes of a book file's header: what [`Book::file_len`] needs.
    pub const HEAD: usize = HEADER;

    /// The length of the book file that starts with `head` (at least [`Book::HEAD`] bytes),
    /// from its header: a reader checks it against the file's before reading the rest.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::solve::book::Book;
    /// let board = GravityBoard::new(4, 4, 3).unwrap();
    /// let bytes = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap().encode();
    /// assert_eq!(Book::file_len(&bytes[..Book::HEAD]), Ok(bytes.len() as u64));
    /// assert!(Book::file_len(b"XOBOOK").is_err());
    /// ```
    pub fn file_len(head: &[u8]) -> Result<u64, BookError> {
        if head.len() < HEADER || &head[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u64::from_le_bytes(head[28..36].try_into().expect("8 bytes"));
        count
            .checked_mul(9)
            .and_then(|b| b.checked_add(HEADER as u64 + 4))
            .ok_or(BookError::Damaged("its length disagrees with its header"))
    }

    /// Reads a book file, checking everything.
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER + 4 || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        if word(0) != VERSION {
            return Err(BookError::Version(word(0)));
        }
        let (width, height, k, depth) = (word(1), word(2), word(3), word(4));
        let count = u64::from_le_bytes(bytes[28..36].try_into().unwrap());
        let want = count.checked_mul(9).and_then(|b| b.checked_add(HEADER as u64 + 4));
        if want != Some(bytes.len() as u64) {
            return Err(BookError::Damaged("its length disagrees with its header"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(BookError::Damaged("checksum"));
        }
        let entries = &body[HEADER..];
        let keys: Vec<u64> = entries
            .chunks_exact(9)
            .map(|e| u64::from_le_bytes(e[..8].try_into().unwrap()))
            .collect();
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BookError::Damaged("its keys are out of order"));
        }
        let scores = entries.chunks_exact(9).map(|e| e[8] as i8).collect();
        Ok(Book { width, height, k, depth, keys, scores })
    }
}

/// The distinct positions (mirror images merged) after 0..=depth moves; finished positions are
/// kept but not extended.
fn levels(
    board: &GravityBoard,
    depth: u32,
    meter: &Meter,
) -> Result<Vec<Vec<GravityPosition>>, Stopped> {
    // Bytes a position takes: kept in a level, and while its level is being built (key and
    // position in a hash map, which may hold twice its entries' room while it grows).
    const KEPT: u64 = 24;
    const BUILDING: u64 = 128;
    let mut levels = vec![vec![board.start()]];
    let mut kept = 1u64;
    for _ in 0..depth {
        let mut seen = FxHashMap::default();
        let parents = levels.last().expect("level 0");
        for (i, pos) in parents.iter().enumerate() {
            if i % 1024 == 1023 {
                meter.tick(1024)?;
                let bytes = kept * KEPT + seen.len() as u64 * BUILDING;
                if bytes > meter.budget().memory_bytes {
                    return Err(meter.halt(Limit::Memory));
                }
            }
            if board.outcome(pos).is_some() {
                continue;
            }
            for c in 0..board.width() {
                if board.can_play(pos, c) {
                    let mut child = *pos;
                    board.play(&mut child, c);
                    seen.entry(board.symmetric_key(&child)).or_insert(child);
                }
            }
        }
        meter.tick(parents.len() as u64 % 1024)?;
        kept += seen.len() as u64;
        let mut next: Vec<(u64, GravityPosition)> = seen.into_iter().collect();
        next.sort_unstable_by_key(|&(k, _)| k);
        levels.push(next.into_iter().map(|(_, p)| p).collect());
    }
    Ok(levels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_the_engine_score() {
        // 4x4 with three in a row has finished games within six moves: their entries too.
        for (board, depth) in
            [(GravityBoard::new(5, 4, 4).unwrap(), 4), (GravityBoard::new(4, 4, 3).unwrap(), 6)]
        {
            let meter = Meter::default();
            let book = Book::build(&board, depth, 1 << 20, &meter).unwrap();
            let mut solver = GravitySolver::new(&board, 1 << 20);
            let levels = levels(&board, depth, &meter).unwrap();
            let positions: usize = levels.iter().map(Vec::len).sum();
            assert_eq!(book.len(), positions);
            let finished = levels.iter().flatten().filter(|p| board.outcome(p).is_some()).count();
            assert!(depth == 4 || finished > 0);
            for pos in levels.iter().flatten() {
                assert_eq!(book.get(&board, pos), Some(solver.score(pos, &meter).unwrap()));
            }
        }
        let board = GravityBoard::new(5, 4, 4).unwrap();
        let book = Book::build(&board, 4, 1 << 20, &Meter::default()).unwrap();
        // Mirror images share their entry; deeper positions are not in the book.
        let a = board.from_moves("1").unwrap();
        let b = board.from_moves("5").unwrap();
        assert_eq!(book.get(&board, &a), book.get(&board, &b));
        assert_eq!(book.get(&board, &board.from_moves("12345").unwrap()), None);
    }

    #[test]
    fn damaged_files_are_refused() {
        let board = GravityBoard::new(4, 4, 3).unwrap();
        let bytes = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap().encode();
        assert_eq!(Book::decode(b"hello"), Err(BookError::NotABook));
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        assert_eq!(Book::decode(&flipped), Err(BookError::Damaged("checksum")));
        assert!(matches!(Book::decode(&bytes[..bytes.len() - 1]), Err(BookError::Damaged(_))));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(Book::decode(&version), Err(BookError::Version(9)));
    }

    #[test]
    fn a_budget_stops_the_build() {
        let board = GravityBoard::new(6, 5, 4).unwrap();
        let meter = Meter::new(crate::budget::Budget::default().with_max_nodes(10_000));
        assert_eq!(Book::build(&board, 6, 1 << 20, &meter).unwrap_err().limit, Limit::Nodes);
    }
}
