//! Any placement game of at most 64 cells as two bitboards, compiled once from its [`Rules`].
//!
//! Every goal becomes a list of patterns `(cells, cells needing mark 1, cells needing mark 2)`, so
//! k-in-a-row, words in either direction, shared and own marks all share one fast path; the
//! board's symmetries (reflections and rotations; only the mirror under gravity) become byte
//! lookup tables for canonical keys.

use crate::game::{GameTree, Retrograde};
use crate::rules::{ForeignPosition, Marks, Position, Rules};
use crate::Value;

/// The most cells a [`Board`] holds.
pub const MAX_BOARD_CELLS: usize = 64;

/// A position as two bitboards: cells holding mark 1 and cells holding mark 2 (bit = cell index in
/// reading order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BoardPosition {
    /// Cells holding mark 1 (X, or the first letter).
    pub a: u64,
    /// Cells holding mark 2 (O, or the second letter).
    pub b: u64,
}

impl BoardPosition {
    /// Filled cells.
    pub fn filled(&self) -> u64 {
        self.a | self.b
    }

    /// Moves made so far.
    pub fn plies(&self) -> u32 {
        self.filled().count_ones()
    }
}

/// A move: put mark 1 or 2 in a cell (defined with the rules, which name moves).
pub use crate::rules::BoardMove;

/// A pattern whose completion ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pattern {
    mask: u64,
    a: u64,
    b: u64,
    /// The marks it needs: bit 0 for mark 1, bit 1 for mark 2.
    needs: u8,
}

/// What one pass over the patterns tells about a position, for the player to move ("mover") and
/// the other player ("opponent").
#[derive(Debug, Clone, Copy)]
pub struct Scan {
    /// Playable cells where the mover completes a pattern at once.
    pub mover_wins: u64,
    /// Playable cells where the opponent would complete a pattern at once.
    pub opponent_wins: u64,
    /// Whether some pattern can still be completed by the mover.
    pub mover_live: bool,
    /// Whether some pattern can still be completed by the opponent.
    pub opponent_live: bool,
    /// Per cell, a weight growing with the live patterns through it and how full they are.
    pub weights: [u32; 64],
}

/// A compiled placement game.
#[derive(Debug, Clone)]
pub struct Board {
    rules: Rules,
    cells: usize,
    full: u64,
    bottom: u64,
    patterns: Vec<Pattern>,
    /// For each cell, the patterns through it.
    through: Vec<Vec<u16>>,
    /// Cells in the order moves are tried: most patterns through them first.
    order: Vec<u8>,
    /// For each symmetry other than the identity, per byte of a mask, the permuted bits.
    symmetries: Vec<Vec<[u64; 256]>>,
}

/// Why a game cannot be compiled into a [`Board`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the board has {0} cells; this solver handles at most 64")]
pub struct TooLarge(pub usize);

impl Board {
    /// Compiles validated rules.
    ///
    /// ```
    /// use xo_core::games::board::Board;
    /// use xo_core::rules::parse_game;
    /// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// assert_eq!(board.symmetry_count(), 8);
    /// assert!(Board::new(&parse_game("lol:65").unwrap()).is_err());
    /// ```
    pub fn new(rules: &Rules) -> Result<Board, TooLarge> {
        let cells = rules.cells();
        if cells > MAX_BOARD_CELLS {
            return Err(TooLarge(cells));
        }
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let w = rules.width() as usize;
        let bottom = (0..w).fold(0u64, |m, c| m | 1 << (cells - w + c));
        let patterns: Vec<Pattern> = rules
            .patterns()
            .iter()
            .map(|reqs| {
                let mut p = Pattern { mask: 0, a: 0, b: 0, needs: 0 };
                for &(cell, mark) in reqs {
                    p.mask |= 1 << cell;
                    if mark == 1 {
                        p.a |= 1 << cell;
                    } else {
                        p.b |= 1 << cell;
                    }
                }
                p.needs = u8::from(p.a != 0) | u8::from(p.b != 0) << 1;
                p
            })
            .collect();
        let mut through = vec![Vec::new(); cells];
        for (i, p) in patterns.iter().enumerate() {
            for (cell, list) in through.iter_mut().enumerate() {
                if p.mask >> cell & 1 == 1 {
                    list.push(i as u16);
                }
            }
        }
        let mut order: Vec<u8> = (0..cells as u8).collect();
        let centre = |c: u8| {
            let (r, col) = ((c as usize / w) as f64, (c as usize % w) as f64);
            let (cr, cc) = ((rules.height() as f64 - 1.0) / 2.0, (w as f64 - 1.0) / 2.0);
            (r - cr).abs() + (col - cc).abs()
        };
        order.sort_by(|&x, &y| {
            through[y as usize]
                .len()
                .cmp(&through[x as usize].len())
                .then(centre(x).total_cmp(&centre(y)))
        });
        let symmetries = symmetry_maps(rules)
            .into_iter()
            .skip(1)
            .map(|map| {
                (0..cells.div_ceil(8))
                    .map(|byte| {
                        // The values with bit `bit` as their highest are those below it with
                        // the bit's image joined: eight doublings, one independent step a value.
                        let mut table = [0u64; 256];
                        for bit in 0..8 {
                            let cell = byte * 8 + bit;
                            let image = if cell < cells { 1 << map[cell] } else { 0 };
                            let (low, high) = table.split_at_mut(1 << bit);
                            for (h, l) in high[..1 << bit].iter_mut().zip(low.iter()) {
                                *h = l | image;
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        Ok(Board {
            rules: rules.clone(),
            cells,
            full,
            bottom,
            patterns,
            through,
            order,
            symmetries,
        })
    }

    /// The rules this board was compiled from.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Number of symmetries used for canonical keys (the identity included).
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len() + 1
    }

    /// The bitboard of a validated position of this board's game; a position of another game is
    /// refused.
    ///
    /// ```
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::{parse_game, Position};
    /// let c4 = parse_game("connect4").unwrap();
    /// let pos = Position::from_columns(&c4, "4").unwrap();
    /// assert_eq!(Board::new(&c4).unwrap().encode(&pos), Ok(BoardPosition { a: 1 << 38, b: 0 }));
    /// let other = Board::new(&parse_game("connect:7,6,5").unwrap()).unwrap();
    /// assert!(other.encode(&pos).is_err());
    /// ```
    pub fn encode(&self, pos: &Position) -> Result<BoardPosition, ForeignPosition> {
        Ok(self.encode_cells(pos.of(&self.rules)?.cells()))
    }

    /// The bitboard of cells in reading order (0 empty, 1 and 2 the marks), checked or not.
    ///
    /// ```
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::parse_game;
    /// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// assert_eq!(ttt.encode_cells(&[2, 2, 0, 1, 0, 0, 0, 0, 0]), BoardPosition { a: 0b1000, b: 0b11 });
    /// ```
    pub fn encode_cells(&self, cells: &[u8]) -> BoardPosition {
        let mut p = BoardPosition::default();
        for (i, &c) in cells.iter().enumerate() {
            match c {
                1 => p.a |= 1 << i,
                2 => p.b |= 1 << i,
                _ => {}
            }
        }
        p
    }

    /// The position after a game written as its columns, the way Connect 4 games are, in the
    /// one grammar of [`parse_columns`](crate::rules::parse_columns) (`4453`; `10,11,3` past 9
    /// columns): each move drops the mover's mark into that column. `None` when the text is not
    /// columns of the board or a column is full.
    ///
    /// ```
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::parse_game;
    /// let c4 = Board::new(&parse_game("connect4").unwrap()).unwrap();
    /// // X drops into column 4 (bottom row, cell 38), O on top of it (cell 31).
    /// assert_eq!(c4.play_columns("44"), Some(BoardPosition { a: 1 << 38, b: 1 << 31 }));
    /// assert_eq!(c4.play_columns("8"), None);
    /// assert_eq!(c4.play_columns("4444444"), None);
    /// ```
    pub fn play_columns(&self, columns: &str) -> Option<BoardPosition> {
        let w = self.rules.width();
        let mut pos = BoardPosition::default();
        for col in crate::rules::parse_columns(w, columns).ok()? {
            let playable = self.playable(&pos);
            let cell =
                (0..self.cells as u32).rev().find(|&c| c % w == col && playable >> c & 1 == 1)?;
            let mark = self.marks_to_move(&pos).trailing_zeros() as u8 + 1;
            pos = self.play(&pos, BoardMove { cell: cell as u8, mark });
        }
        Some(pos)
    }

    /// Cells where a mark may be placed now.
    pub fn playable(&self, pos: &BoardPosition) -> u64 {
        let empty = self.full & !pos.filled();
        if self.rules.gravity() {
            // A board of one row 64 wide has nothing above its bottom row.
            empty & (self.bottom | pos.filled().checked_shr(self.rules.width()).unwrap_or(0))
        } else {
            empty
        }
    }

    /// The marks the player to move may place: bit 0 for mark 1, bit 1 for mark 2.
    pub fn marks_to_move(&self, pos: &BoardPosition) -> u8 {
        match self.rules.marks() {
            Marks::Own => {
                if pos.plies().is_multiple_of(2) {
                    0b01
                } else {
                    0b10
                }
            }
            Marks::Shared(letters) if letters.len() == 2 => 0b11,
            _ => 0b01,
        }
    }

    /// The marks the player not to move may place (bit 0 for mark 1, bit 1 for mark 2).
    pub fn marks_of_opponent(&self, pos: &BoardPosition) -> u8 {
        match self.rules.marks() {
            Marks::Own => !self.marks_to_move(pos) & 0b11,
            _ => self.marks_to_move(pos),
        }
    }

    /// One pass over the patterns: immediate completions and live patterns for both players, and
    /// move-ordering weights.
    pub fn scan(&self, pos: &BoardPosition) -> Scan {
        let (mine, theirs) = (self.marks_to_move(pos), self.marks_of_opponent(pos));
        let filled = pos.filled();
        let playable = self.playable(pos);
        let mut scan = Scan {
            mover_wins: 0,
            opponent_wins: 0,
            mover_live: false,
            opponent_live: false,
            weights: [0; 64],
        };
        for p in &self.patterns {
            if pos.a & p.b != 0 || pos.b & p.a != 0 {
                continue;
            }
            let (for_me, for_them) = (p.needs & !mine == 0, p.needs & !theirs == 0);
            if !for_me && !for_them {
                continue;
            }
            scan.mover_live |= for_me;
            scan.opponent_live |= for_them;
            let mut missing = p.mask & !filled;
            let count = missing.count_ones();
            if count == 1 && missing & playable != 0 {
                if for_me {
                    scan.mover_wins |= missing;
                }
                if for_them {
                    scan.opponent_wins |= missing;
                }
            }
            let weight = 1u32 << (2 * (p.mask.count_ones() - count)).min(24);
            while missing != 0 {
                scan.weights[missing.trailing_zeros() as usize] += weight;
                missing &= missing - 1;
            }
        }
        scan
    }

    /// Whether `misère` play (completing a pattern loses).
    pub fn misere(&self) -> bool {
        self.rules.misere()
    }

    /// The position after a move.
    pub fn play(&self, pos: &BoardPosition, mv: BoardMove) -> BoardPosition {
        let bit = 1u64 << mv.cell;
        if mv.mark == 1 {
            BoardPosition { a: pos.a | bit, b: pos.b }
        } else {
            BoardPosition { a: pos.a, b: pos.b | bit }
        }
    }

    fn satisfied(p: &Pattern, pos: &BoardPosition) -> bool {
        pos.a & p.a == p.a && pos.b & p.b == p.b
    }

    /// Whether some pattern stands on the board.
    pub fn has_pattern(&self, pos: &BoardPosition) -> bool {
        self.patterns.iter().any(|p| Self::satisfied(p, pos))
    }

    /// Whether a pattern through `cell` stands (the move just made there completed one).
    pub fn completes(&self, pos: &BoardPosition, cell: u8) -> bool {
        self.through[cell as usize]
            .iter()
            .any(|&i| Self::satisfied(&self.patterns[i as usize], pos))
    }

    /// Moves that complete a pattern at once, each cell at most once, as a mask of cells and, for
    /// each, the mark that does it. `marks` limits the marks considered (bit 0: mark 1).
    pub fn completing_cells(&self, pos: &BoardPosition, marks: u8) -> u64 {
        let playable = self.playable(pos);
        let mut cells = 0u64;
        for p in &self.patterns {
            // No conflicting mark, exactly one cell missing, playable, and a mark we may place.
            if pos.a & p.b != 0 || pos.b & p.a != 0 {
                continue;
            }
            let missing = p.mask & !pos.filled();
            if missing.count_ones() != 1 || missing & playable == 0 {
                continue;
            }
            let needs = if p.a & missing != 0 { 0b01 } else { 0b10 };
            if marks & needs != 0 {
                cells |= missing;
            }
        }
        cells
    }

    /// The legal moves in search order (cells most patterns pass through first).
    pub fn moves_ordered(&self, pos: &BoardPosition, out: &mut Vec<BoardMove>) {
        let playable = self.playable(pos);
        let marks = self.marks_to_move(pos);
        for &cell in &self.order {
            if playable >> cell & 1 == 1 {
                for mark in [1u8, 2] {
                    if marks >> (mark - 1) & 1 == 1 {
                        out.push(BoardMove { cell, mark });
                    }
                }
            }
        }
    }

    /// The position's canonical key: the smallest encoding over the board's symmetries, so
    /// symmetric positions share a table entry.
    pub fn canonical_key(&self, pos: &BoardPosition) -> u128 {
        let key = |a: u64, b: u64| (a as u128) << 64 | b as u128;
        let mut best = key(pos.a, pos.b);
        for sym in &self.symmetries {
            let map = |m: u64| {
                sym.iter()
                    .enumerate()
                    .fold(0u64, |acc, (byte, t)| acc | t[(m >> (8 * byte) & 0xff) as usize])
            };
            best = best.min(key(map(pos.a), map(pos.b)));
        }
        best
    }

    /// The position's rank in base 3: cell 0 is the least significant digit, an empty cell 0,
    /// mark 1 (X) 1, mark 2 (O) 2. Dense tables index positions by it.
    ///
    /// ```
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::parse_game;
    /// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// let p = BoardPosition { a: 0b1, b: 0b10 };
    /// assert_eq!(ttt.rank(&p), 1 + 2 * 3);
    /// assert_eq!(ttt.unrank(7), p);
    /// ```
    pub fn rank(&self, pos: &BoardPosition) -> u128 {
        (0..self.cells).rev().fold(0u128, |acc, c| {
            acc * 3 + u128::from(pos.a >> c & 1) + 2 * u128::from(pos.b >> c & 1)
        })
    }

    /// The inverse of [`Board::rank`].
    pub fn unrank(&self, mut rank: u128) -> BoardPosition {
        let mut pos = BoardPosition::default();
        for c in 0..self.cells {
            match rank % 3 {
                1 => pos.a |= 1 << c,
                2 => pos.b |= 1 << c,
                _ => {}
            }
            rank /= 3;
        }
        pos
    }

    /// The position's images under every symmetry of the board, the identity first, always in the
    /// same order.
    ///
    /// ```
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::parse_game;
    /// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// let corner = BoardPosition { a: 1, b: 0 };
    /// let images = board.images(&corner);
    /// assert_eq!(images.len(), 8);
    /// assert_eq!(images[0], corner);
    /// ```
    pub fn images(&self, pos: &BoardPosition) -> Vec<BoardPosition> {
        let mut out = Vec::with_capacity(self.symmetries.len() + 1);
        out.push(*pos);
        for sym in &self.symmetries {
            let map = |m: u64| {
                sym.iter()
                    .enumerate()
                    .fold(0u64, |acc, (byte, t)| acc | t[(m >> (8 * byte) & 0xff) as usize])
            };
            out.push(BoardPosition { a: map(pos.a), b: map(pos.b) });
        }
        out
    }

    /// The position under symmetry number `sym` (0 is the identity; see [`Board::images`]).
    pub fn image(&self, pos: &BoardPosition, sym: usize) -> BoardPosition {
        if sym == 0 {
            return *pos;
        }
        let table = &self.symmetries[sym - 1];
        let map = |m: u64| {
            table
                .iter()
                .enumerate()
                .fold(0u64, |acc, (byte, t)| acc | t[(m >> (8 * byte) & 0xff) as usize])
        };
        BoardPosition { a: map(pos.a), b: map(pos.b) }
    }

    /// Whether the position is finished, and its value for the player to move if so.
    pub fn outcome(&self, pos: &BoardPosition) -> Option<Value> {
        if self.has_pattern(pos) {
            Some(if self.rules.misere() { Value::Win } else { Value::Loss })
        } else if self.playable(pos) == 0 {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

/// The cell permutations that map the board onto itself, the identity first.
fn symmetry_maps(rules: &Rules) -> Vec<Vec<usize>> {
    let (w, h) = (rules.width() as usize, rules.height() as usize);
    let at = |r: usize, c: usize| r * w + c;
    let mut maps: Vec<Vec<usize>> = Vec::new();
    let mut add = |f: &dyn Fn(usize, usize) -> usize| {
        let map: Vec<usize> = (0..w * h).map(|i| f(i / w, i % w)).collect();
        if !maps.contains(&map) {
            maps.push(map);
        }
    };
    add(&|r, c| at(r, c));
    add(&|r, c| at(r, w - 1 - c));
    if !rules.gravity() {
        add(&|r, c| at(h - 1 - r, c));
        add(&|r, c| at(h - 1 - r, w - 1 - c));
        if w == h {
            add(&|r, c| at(c, r));
            add(&|r, c| at(w - 1 - c, r));
            add(&|r, c| at(c, h - 1 - r));
            add(&|r, c| at(w - 1 - c, h - 1 - r));
        }
    }
    maps
}

impl GameTree for Board {
    type Position = BoardPosition;
    type Move = BoardMove;

    fn start(&self) -> BoardPosition {
        BoardPosition::default()
    }

    fn moves(&self, pos: &BoardPosition, out: &mut Vec<BoardMove>) {
        if self.outcome(pos).is_none() {
            self.moves_ordered(pos, out);
        }
    }

    fn play(&self, pos: &BoardPosition, mv: BoardMove) -> BoardPosition {
        Board::play(self, pos, mv)
    }

    fn outcome(&self, pos: &BoardPosition) -> Option<Value> {
        Board::outcome(self, pos)
    }

    fn plies(&self, pos: &BoardPosition) -> u32 {
        pos.plies()
    }
}

impl Retrograde for Board {
    /// Takes back one mark of the player who moved last: with own marks that player's mark, with
    /// shared or same marks any mark; under gravity only the top mark of a column, and only where
    /// it could have been played (on a filled cell or the bottom row).
    fn unmoves(&self, pos: &BoardPosition, out: &mut Vec<BoardPosition>) {
        let plies = pos.plies();
        if plies == 0 {
            return;
        }
        let removable = match self.rules.marks() {
            Marks::Own => {
                let (x, o) = (pos.a.count_ones(), pos.b.count_ones());
                if x == o + 1 {
                    pos.a
                } else if x == o {
                    pos.b
                } else {
                    return;
                }
            }
            _ => pos.filled(),
        };
        let w = self.rules.width();
        let mut cells = removable;
        while cells != 0 {
            let cell = cells.trailing_zeros();
            cells &= cells - 1;
            let bit = 1u64 << cell;
            if self.rules.gravity() && cell >= w && pos.filled() >> (cell - w) & 1 == 1 {
                continue; // a mark sits on top of it
            }
            let before = BoardPosition { a: pos.a & !bit, b: pos.b & !bit };
            if self.playable(&before) & bit != 0 {
                out.push(before);
            }
        }
    }
}
