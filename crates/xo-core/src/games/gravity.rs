//! Gravity games with own marks and `k` in a row (Connect Four and every `connect:W,H,K` that
//! fits), as two bitboards in Pascal Pons' layout.
//!
//! Column `c` occupies bits `c*(H+1) .. c*(H+1)+H`: `H` playable cells from the bottom up, then
//! one *sentinel* bit that is never set, so that shifting a bitboard by `1` (vertical), `H+1`
//! (horizontal), `H` and `H+2` (the diagonals) never joins cells of different columns or rows.
//! A position is `current` (the stones of the player to move) and `mask` (every stone); the
//! stones of the other player are `current ^ mask`.
//!
//! The layout takes `W*(H+1)` bits, in a word of [`Bits`]: a `u64` for 7x6 (Connect Four, 49
//! bits), 8x7 (64), 9x6 (63), 6x9 (60), 10x5, 12x4, 16x3, 21x2, 32x1, 5x11, 4x15, 3x20, 2x31,
//! 1x63 and everything smaller ([`GravityBoard::new`]); a `u128` for larger boards of up to 128
//! bits and at most [`MAX_COLUMNS`] columns (8x8 takes 72 bits, 9x7 72, 10x6 70, 16x4 80, 32x3
//! 128, 10x11 120: [`GravityBoard::sized`] with `u128`). [`fits_gravity`] tells which.
//!
//! ```
//! use xo_core::games::gravity::{fits_gravity, GravityBoard};
//! let c4 = GravityBoard::new(7, 6, 4).unwrap();
//! let pos = c4.from_moves("445566").unwrap(); // X to move, three in the bottom row
//! assert!(c4.is_winning_move(&pos, 2) && c4.is_winning_move(&pos, 6));
//! assert!(!c4.is_winning_move(&pos, 3));
//! assert!(GravityBoard::new(8, 8, 4).is_err()); // 72 bits: the u128 layout
//! let big = GravityBoard::<u128>::sized(8, 8, 4).unwrap();
//! assert!(big.is_winning_move(&big.from_moves("445566").unwrap(), 2));
//! assert_eq!(fits_gravity(8, 8), Some(128));
//! assert_eq!(fits_gravity(7, 6), Some(64));
//! assert_eq!(fits_gravity(11, 11), None);
//! ```

pub use crate::games::bits::Bits;
use crate::rules::{ForeignPosition, Goal, Marks, Position, PositionError, Rules};
use crate::Value;

/// The most columns a gravity board may have (moves are ordered in a small array).
pub const MAX_COLUMNS: u32 = 32;

/// The word width of the layout a `width` x `height` board takes (64 or 128 bits), `None` when
/// it needs more than 128 bits or more than [`MAX_COLUMNS`] columns.
pub fn fits_gravity(width: u32, height: u32) -> Option<u32> {
    if GravityBoard::<u64>::fits_layout(width, height) {
        Some(64)
    } else if GravityBoard::<u128>::fits_layout(width, height) {
        Some(128)
    } else {
        None
    }
}

/// Why a gravity board or position cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GravityError {
    /// The board does not fit the layout's word (or has more than [`MAX_COLUMNS`] columns).
    #[error("a {width}x{height} board does not fit a {word}-bit gravity bitboard ({width}*({height}+1) = {bits} bits, at most {word}, and at most 32 columns)")]
    TooLarge {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// Bits the layout would need.
        bits: u32,
        /// Bits of the word.
        word: u32,
    },
    /// A size or `k` of zero.
    #[error("a gravity board needs at least one column, one row and k >= 1 (got {width}x{height}, k = {k})")]
    Empty {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// Stones in a row.
        k: u32,
    },
    /// The rules are not a gravity game with own marks and `k` in a row.
    #[error("the gravity engine plays only gravity games with own marks and k in a row (not misere): {0}")]
    NotGravity(String),
    /// A position of another game.
    #[error(transparent)]
    Foreign(#[from] ForeignPosition),
    /// A cell vector is not a position of this board.
    #[error("not a position of this board: {0}")]
    BadCells(String),
}

/// A position: the stones of the player to move, every stone, and how many moves were made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GravityPosition<B = u64> {
    /// Stones of the player to move.
    pub current: B,
    /// Every stone.
    pub mask: B,
    /// Moves made so far.
    pub moves: u32,
}

impl<B: Bits> GravityPosition<B> {
    /// Moves made so far.
    pub fn plies(&self) -> u32 {
        self.moves
    }

    /// Stones of the player who just moved.
    pub fn opponent(&self) -> B {
        self.current ^ self.mask
    }
}

/// The rules of one gravity game: `width` columns, `height` rows, `k` in a row wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GravityBoard<B = u64> {
    width: u32,
    height: u32,
    k: u32,
    /// The bottom cell of every column.
    bottom: B,
    /// Every playable cell.
    board: B,
    /// Shifts of the four directions: vertical, horizontal, the two diagonals.
    dirs: [u32; 4],
    /// `k = 4` and every shift of [`GravityBoard::winning4`] below the word's width.
    fast4: bool,
}

/// The boards of the 64-bit layout, the engine's common case.
impl GravityBoard {
    /// The board of `width` columns, `height` rows and `k` in a row in the 64-bit layout;
    /// refused when it does not fit 64 bits (`width*(height+1) > 64`) or a number is zero.
    pub fn new(width: u32, height: u32, k: u32) -> Result<GravityBoard, GravityError> {
        GravityBoard::sized(width, height, k)
    }

    /// Whether a `width` x `height` board fits the 64-bit layout (`width*(height+1) <= 64`).
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// assert!(GravityBoard::fits(7, 6) && GravityBoard::fits(8, 7) && GravityBoard::fits(9, 6));
    /// assert!(!GravityBoard::fits(8, 8) && !GravityBoard::fits(10, 6));
    /// ```
    pub fn fits(width: u32, height: u32) -> bool {
        GravityBoard::<u64>::fits_layout(width, height)
    }

    /// The board for `rules` in the 64-bit layout: a gravity game with own marks, `k` in a row,
    /// not misère, that fits.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::rules::parse_game;
    /// let b = GravityBoard::from_rules(&parse_game("connect4").unwrap()).unwrap();
    /// assert_eq!((b.width(), b.height(), b.k()), (7, 6, 4));
    /// assert!(GravityBoard::from_rules(&parse_game("tictactoe").unwrap()).is_err());
    /// ```
    pub fn from_rules(rules: &Rules) -> Result<GravityBoard, GravityError> {
        GravityBoard::for_rules(rules)
    }
}

impl<B: Bits> GravityBoard<B> {
    /// The board of `width` columns, `height` rows and `k` in a row in the layout of words `B`;
    /// refused when it does not fit (`width*(height+1) > B::BITS`, more than 32 columns) or a
    /// number is zero.
    pub fn sized(width: u32, height: u32, k: u32) -> Result<GravityBoard<B>, GravityError> {
        if width == 0 || height == 0 || k == 0 {
            return Err(GravityError::Empty { width, height, k });
        }
        if !GravityBoard::<B>::fits_layout(width, height) {
            let bits = width.saturating_mul(height.saturating_add(1));
            return Err(GravityError::TooLarge { width, height, bits, word: B::BITS });
        }
        let h1 = height + 1;
        let mut bottom = B::ZERO;
        let mut board = B::ZERO;
        for c in 0..width {
            bottom |= B::ONE << (c * h1);
            board |= ((B::ONE << height) - B::ONE) << (c * h1);
        }
        let fast4 = k == 4 && 3 * (h1 + 1) < B::BITS;
        Ok(GravityBoard { width, height, k, bottom, board, dirs: [1, h1, height, h1 + 1], fast4 })
    }

    /// Whether a `width` x `height` board fits the layout of words `B` (`width*(height+1) <=
    /// B::BITS`, at most [`MAX_COLUMNS`] columns).
    pub fn fits_layout(width: u32, height: u32) -> bool {
        width >= 1
            && height >= 1
            && width <= MAX_COLUMNS
            && (width as u64) * (height as u64 + 1) <= B::BITS as u64
    }

    /// The board for `rules` in the layout of words `B` (see [`GravityBoard::from_rules`]).
    pub fn for_rules(rules: &Rules) -> Result<GravityBoard<B>, GravityError> {
        let k = match (rules.marks(), rules.goal()) {
            (Marks::Own, Goal::InRow(k)) if rules.gravity() && !rules.misere() => *k,
            _ => return Err(GravityError::NotGravity(rules.name().to_string())),
        };
        GravityBoard::sized(rules.width(), rules.height(), k)
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Stones in a row that win.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Cells on the board.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// Every playable cell, as a bitboard.
    pub fn board_mask(&self) -> B {
        self.board
    }

    /// The bottom cell of every column, as a bitboard.
    #[inline]
    pub fn bottom(&self) -> B {
        self.bottom
    }

    /// The empty board.
    pub fn start(&self) -> GravityPosition<B> {
        GravityPosition::default()
    }

    /// The cells of column `col` (0-based).
    #[inline]
    pub fn column_mask(&self, col: u32) -> B {
        ((B::ONE << self.height) - B::ONE) << (col * (self.height + 1))
    }

    #[inline]
    fn top_mask(&self, col: u32) -> B {
        B::ONE << (self.height - 1 + col * (self.height + 1))
    }

    #[inline]
    fn bottom_mask(&self, col: u32) -> B {
        B::ONE << (col * (self.height + 1))
    }

    /// Whether column `col` (0-based) has room.
    #[inline]
    pub fn can_play(&self, pos: &GravityPosition<B>, col: u32) -> bool {
        col < self.width && pos.mask & self.top_mask(col) == B::ZERO
    }

    /// Drops a stone of the player to move in column `col` (0-based); the column must have room.
    #[inline]
    pub fn play(&self, pos: &mut GravityPosition<B>, col: u32) {
        self.play_cell(pos, (pos.mask + self.bottom_mask(col)) & self.column_mask(col));
    }

    /// Plays the stone `cell` (one bit, a playable cell).
    #[inline]
    pub fn play_cell(&self, pos: &mut GravityPosition<B>, cell: B) {
        pos.current ^= pos.mask;
        pos.mask |= cell;
        pos.moves += 1;
    }

    /// The cell a stone dropped in every column would take (one bit per column with room).
    #[inline]
    pub fn possible(&self, pos: &GravityPosition<B>) -> B {
        (pos.mask + self.bottom) & self.board
    }

    /// Whether playing column `col` (0-based, with room) makes `k` in a row for the player to move.
    #[inline]
    pub fn is_winning_move(&self, pos: &GravityPosition<B>, col: u32) -> bool {
        self.can_play(pos, col)
            && self.winning_cells(pos.current, pos.mask)
                & self.possible(pos)
                & self.column_mask(col)
                != B::ZERO
    }

    /// Whether the player to move can win at once.
    #[inline]
    pub fn can_win_next(&self, pos: &GravityPosition<B>) -> bool {
        self.winning_cells(pos.current, pos.mask) & self.possible(pos) != B::ZERO
    }

    /// The empty cells where one more stone of `stones` completes `k` in a row (whether or not
    /// they can be played yet).
    #[inline(always)]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let r = if self.fast4 { self.winning4(stones) } else { self.winning_k(stones) };
        r & (self.board ^ mask)
    }

    /// [`GravityBoard::winning_cells`] for `k = 4`, by shifts of 1, 2 and 3 steps (every shift
    /// below the word's width: boards up to 19 rows in 64 bits).
    #[inline(always)]
    fn winning4(&self, p: B) -> B {
        debug_assert!(self.fast4);
        let top = B::BITS - 1;
        // Vertical: three stones below.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        for &s in &self.dirs[1..] {
            let s = s & top;
            let s2 = (2 * s) & top;
            let s3 = (3 * s) & top;
            let left = (p << s) & (p << s2);
            r |= left & (p << s3);
            r |= left & (p >> s);
            let right = (p >> s) & (p >> s2);
            r |= right & (p << s);
            r |= right & (p >> s3);
        }
        r
    }

    /// [`GravityBoard::winning_cells`] for any `k`: a cell wins when, along some direction, `a`
    /// stones lie on one side of it and `k - 1 - a` on the other.
    #[inline(never)]
    fn winning_k(&self, p: B) -> B {
        let k = self.k;
        if k > B::BITS {
            return B::ZERO;
        }
        let mut r = B::ZERO;
        for &s in &self.dirs {
            if k <= 16 {
                // before[i]: the i cells before are stones; after[i]: the i cells after.
                let mut before = [B::ALL; 16];
                let mut after = [B::ALL; 16];
                for i in 1..k as usize {
                    let d = (i as u32).saturating_mul(s);
                    before[i] = before[i - 1] & p.shl_or_zero(d);
                    after[i] = after[i - 1] & p.shr_or_zero(d);
                }
                for a in 0..k as usize {
                    r |= before[a] & after[k as usize - 1 - a];
                }
            } else {
                for a in 0..k {
                    let mut run = B::ALL;
                    for i in 1..=a {
                        run &= p.shl_or_zero(i.saturating_mul(s));
                    }
                    for i in 1..k - a {
                        run &= p.shr_or_zero(i.saturating_mul(s));
                    }
                    r |= run;
                }
            }
        }
        r
    }

    /// Whether `stones` hold `k` in a row.
    #[inline]
    pub fn has_line(&self, stones: B) -> bool {
        if self.fast4 {
            // Pairs, then pairs of pairs, along each direction.
            let top = B::BITS - 1;
            return self.dirs.iter().any(|&s| {
                let pairs = stones & (stones >> (s & top));
                pairs & (pairs >> ((2 * s) & top)) != B::ZERO
            });
        }
        self.dirs.iter().any(|&s| {
            let mut run = stones;
            for i in 1..self.k {
                run &= stones.shr_or_zero(i.saturating_mul(s));
                if run == B::ZERO {
                    break;
                }
            }
            run != B::ZERO
        })
    }

    /// The first cell (the lowest bit) of every line of `k` cells of `stones` along direction
    /// `dir` (0 vertical, 1 horizontal, 2 and 3 the diagonals); [`GravityBoard::line_at`] gives
    /// a line's cells. Panics when `dir` is more than 3.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// let b = GravityBoard::new(7, 6, 4).unwrap();
    /// let pos = b.from_moves("1122334").unwrap(); // the first player's bottom row, columns 1-4
    /// let starts = b.line_starts(pos.opponent(), 1);
    /// assert_eq!(starts, 1); // the line from column 1's bottom cell
    /// assert_eq!(b.line_at(starts, 1).count_ones(), 4);
    /// assert_eq!(b.line_starts(pos.opponent(), 0), 0); // no vertical line
    /// ```
    #[inline]
    pub fn line_starts(&self, stones: B, dir: usize) -> B {
        let s = self.dirs[dir];
        let mut run = stones;
        for i in 1..self.k {
            run &= stones.shr_or_zero(i.saturating_mul(s));
            if run == B::ZERO {
                break;
            }
        }
        run
    }

    /// The `k` cells of the line along `dir` whose first cell is `start` (one cell). Panics when
    /// `dir` is more than 3.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// let b = GravityBoard::new(7, 6, 4).unwrap();
    /// assert_eq!(b.line_at(1, 0), 0b1111); // column 1's four lowest cells
    /// ```
    #[inline]
    pub fn line_at(&self, start: B, dir: usize) -> B {
        let s = self.dirs[dir];
        (0..self.k).fold(B::ZERO, |line, i| line | start.shl_or_zero(i.saturating_mul(s)))
    }

    /// `cells` and every cell below one of them in its column.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// let b = GravityBoard::new(7, 6, 4).unwrap();
    /// // Column 1's third cell and column 2's second (bit 7 + 1: each column has 7 bits).
    /// assert_eq!(b.with_cells_below(1 << 2 | 1 << 8), 0b111 | 0b11 << 7);
    /// ```
    #[inline]
    pub fn with_cells_below(&self, cells: B) -> B {
        let mut x = cells;
        for _ in 1..self.height {
            x |= (x >> 1) & self.board;
        }
        x
    }

    /// `cells` and every cell above one of them in its column, up to the top row.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// let b = GravityBoard::new(7, 6, 4).unwrap();
    /// // Column 1's fifth cell and column 2's second (bit 7 + 1: each column has 7 bits).
    /// assert_eq!(b.with_cells_above(1 << 4 | 1 << 8), 0b11 << 4 | 0b11111 << 8);
    /// ```
    #[inline]
    pub fn with_cells_above(&self, cells: B) -> B {
        let mut x = cells;
        for _ in 1..self.height {
            x |= (x << 1) & self.board;
        }
        x
    }

    /// The result for the player to move when the game is over (the player who just moved made
    /// `k` in a row: a loss; the board is full: a draw), `None` while it goes on.
    pub fn outcome(&self, pos: &GravityPosition<B>) -> Option<Value> {
        if self.has_line(pos.opponent()) {
            Some(Value::Loss)
        } else if pos.mask == self.board {
            Some(Value::Draw)
        } else {
            None
        }
    }

    /// A key unique to the position (for this board): `current + mask` (the stones of the player
    /// to move plus every stone; adding sets the first empty bit of each column as a marker).
    #[inline]
    pub fn key(&self, pos: &GravityPosition<B>) -> B {
        pos.current + pos.mask
    }

    /// The key of the position mirrored left to right.
    pub fn mirror_key(&self, pos: &GravityPosition<B>) -> B {
        self.mirror(pos.current) + self.mirror(pos.mask)
    }

    /// The smaller of the key and the mirror key: equal for mirror images.
    #[inline]
    pub fn symmetric_key(&self, pos: &GravityPosition<B>) -> B {
        self.key(pos).min(self.mirror_key(pos))
    }

    /// `bits` with the columns in reverse order.
    #[inline]
    pub fn mirror(&self, bits: B) -> B {
        let h1 = self.height + 1;
        let col = (B::ONE << self.height) - B::ONE;
        let mut out = B::ZERO;
        for c in 0..self.width {
            out |= ((bits >> (c * h1)) & col) << ((self.width - 1 - c) * h1);
        }
        out
    }

    /// The position after `moves`: 1-based columns in the one grammar of
    /// [`parse_columns`](crate::rules::parse_columns) (`"4453"`, one digit each; numbers separated
    /// by commas or spaces, `"10,3,3"`, on boards wider than nine). Refused, naming the move, with
    /// the same error and message as [`Position::from_columns`], when a column does not exist, is
    /// full, or the game has already ended.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::rules::PositionError;
    /// let c4 = GravityBoard::new(7, 6, 4).unwrap();
    /// assert_eq!(c4.from_moves("4453").unwrap().plies(), 4);
    /// let err = c4.from_moves("44448").unwrap_err();
    /// assert!(matches!(err, PositionError::IllegalMove { index: 5, .. }));
    /// assert!(c4.from_moves("4444444").is_err()); // column 4 is full after six
    /// assert!(c4.from_moves("1212121").is_ok()); // the last move may win...
    /// assert!(c4.from_moves("12121213").is_err()); // ...but nothing may follow it
    /// ```
    pub fn from_moves(&self, moves: &str) -> Result<GravityPosition<B>, PositionError> {
        let mut pos = self.start();
        for (i, col) in crate::rules::parse_columns(self.width, moves)?.into_iter().enumerate() {
            let illegal = |why: &str| PositionError::IllegalMove {
                index: i + 1,
                column: (col + 1).to_string(),
                why: why.to_string(),
            };
            if self.has_line(pos.opponent()) {
                return Err(illegal("the game has already ended"));
            }
            if !self.can_play(&pos, col) {
                return Err(illegal("the column is full"));
            }
            self.play(&mut pos, col);
        }
        Ok(pos)
    }

    /// The position of `cells` in xo's reading order (row 0 is the top row, cell `row*W + col`;
    /// 0 empty, 1 X who moves first, 2 O). Refused unless every stone rests on another or on the
    /// bottom and X has as many stones as O or one more.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// let b = GravityBoard::new(3, 2, 3).unwrap();
    /// // . . .
    /// // X O .   (X played column 1, O column 2; X to move)
    /// let pos = b.from_cells(&[0, 0, 0, 1, 2, 0]).unwrap();
    /// assert_eq!(pos, b.from_moves("12").unwrap());
    /// assert!(b.from_cells(&[1, 0, 0, 0, 0, 0]).is_err()); // floating
    /// ```
    pub fn from_cells(&self, cells: &[u8]) -> Result<GravityPosition<B>, GravityError> {
        let (w, h) = (self.width as usize, self.height as usize);
        if cells.len() != w * h {
            return Err(GravityError::BadCells(format!(
                "{} cells for a {}x{} board",
                cells.len(),
                w,
                h
            )));
        }
        let (mut x, mut o) = (B::ZERO, B::ZERO);
        for col in 0..w {
            for row_up in 0..h {
                let cell = cells[(h - 1 - row_up) * w + col];
                let bit = B::ONE << (col * (h + 1) + row_up) as u32;
                match cell {
                    0 => {}
                    1 => x |= bit,
                    2 => o |= bit,
                    other => {
                        return Err(GravityError::BadCells(format!("cell value {other}")));
                    }
                }
                if cell != 0 && row_up > 0 && (x | o) & (bit >> 1) == B::ZERO {
                    return Err(GravityError::BadCells(format!(
                        "a stone floats in column {}",
                        col + 1
                    )));
                }
            }
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(GravityError::BadCells(format!("{nx} X and {no} O")));
        }
        let current = if nx == no { x } else { o };
        if self.has_line(current) {
            return Err(GravityError::BadCells("the player to move already has a line".into()));
        }
        Ok(GravityPosition { current, mask: x | o, moves: nx + no })
    }

    /// The position of a validated xo position of these rules (see [`GravityBoard::from_cells`]);
    /// a position of another game is refused.
    ///
    /// ```
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::rules::{parse_game, Position};
    /// let board = GravityBoard::new(7, 6, 4).unwrap();
    /// let pos = Position::from_columns(&parse_game("connect4").unwrap(), "44").unwrap();
    /// assert_eq!(board.from_position(&pos).unwrap().plies(), 2);
    /// let other = Position::from_columns(&parse_game("connect:7,6,5").unwrap(), "44").unwrap();
    /// assert!(board.from_position(&other).is_err());
    /// ```
    pub fn from_position(&self, pos: &Position) -> Result<GravityPosition<B>, GravityError> {
        let (w, h, k) = (self.width, self.height, self.k);
        match GravityBoard::<B>::for_rules(pos.rules()) {
            Ok(other) if (other.width, other.height, other.k) == (w, h, k) => {
                self.from_cells(pos.cells())
            }
            _ => Err(GravityError::Foreign(ForeignPosition {
                expected: format!("connect:{w},{h},{k}"),
                found: pos.rules().name().to_string(),
            })),
        }
    }

    /// The cells of `pos` in xo's reading order (the inverse of [`GravityBoard::from_cells`]).
    pub fn to_cells(&self, pos: &GravityPosition<B>) -> Vec<u8> {
        let (w, h) = (self.width as usize, self.height as usize);
        let first_to_move = pos.moves.is_multiple_of(2);
        let mut cells = vec![0u8; w * h];
        for col in 0..w {
            for row_up in 0..h {
                let bit = B::ONE << (col * (h + 1) + row_up) as u32;
                if pos.mask & bit != B::ZERO {
                    let mine = pos.current & bit != B::ZERO;
                    cells[(h - 1 - row_up) * w + col] = if mine == first_to_move { 1 } else { 2 };
                }
            }
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_refuses_what_does_not_fit() {
        assert!(GravityBoard::new(8, 7, 4).is_ok());
        assert!(GravityBoard::new(6, 9, 4).is_ok());
        assert!(GravityBoard::new(1, 63, 4).is_ok());
        assert!(matches!(GravityBoard::new(8, 8, 4), Err(GravityError::TooLarge { bits: 72, .. })));
        assert!(GravityBoard::new(0, 6, 4).is_err());
        assert!(GravityBoard::new(u32::MAX, u32::MAX, 4).is_err());
    }

    #[test]
    fn general_k_agrees_with_the_k4_shifts() {
        let b = GravityBoard::new(7, 6, 4).unwrap();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2_000 {
            let mut pos = b.start();
            while b.outcome(&pos).is_none() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let col = (state % 7) as u32;
                if !b.can_play(&pos, col) {
                    continue;
                }
                for stones in [pos.current, pos.opponent()] {
                    let empty = b.board ^ pos.mask;
                    assert_eq!(b.winning4(stones) & empty, b.winning_k(stones) & empty);
                }
                b.play(&mut pos, col);
            }
        }
    }

    #[test]
    fn cells_round_trip() {
        let b = GravityBoard::new(7, 6, 4).unwrap();
        let pos = b.from_moves("4453221").unwrap();
        assert_eq!(b.from_cells(&b.to_cells(&pos)).unwrap(), pos);
        assert_eq!(b.mirror(b.mirror(pos.mask)), pos.mask);
        assert_eq!(b.mirror_key(&pos), b.key(&b.from_moves("4435667").unwrap()));
    }
}
