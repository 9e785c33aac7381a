//! m,n,k games (tic-tac-toe and its larger cousins) on a bitboard of at most 64 cells.
//!
//! X moves first; a player wins by completing `k` of their own marks in a row, column or diagonal;
//! a full board without a line is a draw.

use crate::game::{Game, Retrograde};
use crate::Value;

/// A grid position: one bit per cell for each player, cell `row * width + col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct GridPosition {
    /// Cells holding an X.
    pub x: u64,
    /// Cells holding an O.
    pub o: u64,
}

impl GridPosition {
    /// Whether X is to move (X moves first, players alternate).
    ///
    /// ```
    /// use xo_core::games::grid::GridPosition;
    /// assert!(GridPosition::default().x_to_move());
    /// ```
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }
}

/// The m,n,k game: `width` columns, `height` rows, `k` in a row wins.
#[derive(Debug, Clone)]
pub struct MnkGame {
    width: u32,
    height: u32,
    k: u32,
    full: u64,
    lines: Vec<u64>,
}

/// Why an m,n,k game cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The board has no cells or more than 64.
    #[error("a grid of {width}x{height} cells is not supported (1 to 64 cells)")]
    Size {
        /// Columns asked for.
        width: u32,
        /// Rows asked for.
        height: u32,
    },
    /// `k` is zero or longer than any line of the board.
    #[error("k = {k} does not fit a {width}x{height} grid")]
    K {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// Line length asked for.
        k: u32,
    },
}

impl MnkGame {
    /// The m,n,k game with `width` columns, `height` rows and lines of `k`.
    ///
    /// ```
    /// use xo_core::games::grid::MnkGame;
    /// assert_eq!(MnkGame::new(3, 3, 3).unwrap().lines().len(), 8);
    /// assert!(MnkGame::new(9, 9, 3).is_err());
    /// ```
    pub fn new(width: u32, height: u32, k: u32) -> Result<Self, GridError> {
        let cells = width as u64 * height as u64;
        if width == 0 || height == 0 || cells > 64 {
            return Err(GridError::Size { width, height });
        }
        if k == 0 || k > width.max(height) {
            return Err(GridError::K { width, height, k });
        }
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let mut lines = Vec::new();
        let (w, h, k) = (width as i32, height as i32, k as i32);
        for row in 0..h {
            for col in 0..w {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (end_r, end_c) = (row + dr * (k - 1), col + dc * (k - 1));
                    if end_r < 0 || end_r >= h || end_c < 0 || end_c >= w {
                        continue;
                    }
                    let mask =
                        (0..k).fold(0u64, |m, i| m | 1u64 << ((row + dr * i) * w + col + dc * i));
                    lines.push(mask);
                }
            }
        }
        Ok(MnkGame { width, height, k: k as u32, full, lines })
    }

    /// Tic-tac-toe: the 3,3,3 game.
    ///
    /// ```
    /// use xo_core::games::grid::MnkGame;
    /// assert_eq!(MnkGame::tic_tac_toe().cells(), 9);
    /// ```
    pub fn tic_tac_toe() -> Self {
        Self::new(3, 3, 3).expect("3x3 with k = 3 is valid")
    }

    /// Number of cells on the board.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// Columns, rows and line length.
    pub fn dims(&self) -> (u32, u32, u32) {
        (self.width, self.height, self.k)
    }

    /// Every winning line as a cell mask.
    pub fn lines(&self) -> &[u64] {
        &self.lines
    }

    /// Whether `marks` contain a complete line.
    ///
    /// ```
    /// use xo_core::games::grid::MnkGame;
    /// let ttt = MnkGame::tic_tac_toe();
    /// assert!(ttt.has_line(0b111));
    /// assert!(!ttt.has_line(0b101_000_010));
    /// ```
    pub fn has_line(&self, marks: u64) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    /// The mask of every cell.
    pub fn full_mask(&self) -> u64 {
        self.full
    }

    /// The position's rank in base 3 (cell 0 is the least significant digit; empty 0, X 1, O 2).
    /// Dense tables index positions by it.
    ///
    /// ```
    /// use xo_core::games::grid::{GridPosition, MnkGame};
    /// let ttt = MnkGame::tic_tac_toe();
    /// let p = GridPosition { x: 0b1, o: 0b10 };
    /// assert_eq!(ttt.rank(&p), 1 + 2 * 3);
    /// assert_eq!(ttt.unrank(7), p);
    /// ```
    pub fn rank(&self, pos: &GridPosition) -> u64 {
        (0..self.cells())
            .rev()
            .fold(0u64, |acc, c| acc * 3 + (pos.x >> c & 1) + 2 * (pos.o >> c & 1))
    }

    /// The inverse of [`MnkGame::rank`].
    pub fn unrank(&self, mut rank: u64) -> GridPosition {
        let mut pos = GridPosition::default();
        for c in 0..self.cells() {
            match rank % 3 {
                1 => pos.x |= 1 << c,
                2 => pos.o |= 1 << c,
                _ => {}
            }
            rank /= 3;
        }
        pos
    }
}

impl Game for MnkGame {
    type Position = GridPosition;
    type Move = u32;

    fn start(&self) -> GridPosition {
        GridPosition::default()
    }

    fn moves(&self, pos: &GridPosition, out: &mut Vec<u32>) {
        if self.outcome(pos).is_some() {
            return;
        }
        let mut empty = !(pos.x | pos.o) & self.full;
        while empty != 0 {
            out.push(empty.trailing_zeros());
            empty &= empty - 1;
        }
    }

    fn play(&self, pos: &GridPosition, cell: u32) -> GridPosition {
        let bit = 1u64 << cell;
        if pos.x_to_move() {
            GridPosition { x: pos.x | bit, o: pos.o }
        } else {
            GridPosition { x: pos.x, o: pos.o | bit }
        }
    }

    fn outcome(&self, pos: &GridPosition) -> Option<Value> {
        let (mover, last) = if pos.x_to_move() { (pos.x, pos.o) } else { (pos.o, pos.x) };
        if self.has_line(last) {
            Some(Value::Loss)
        } else if self.has_line(mover) {
            Some(Value::Win)
        } else if (pos.x | pos.o) == self.full {
            Some(Value::Draw)
        } else {
            None
        }
    }

    fn plies(&self, pos: &GridPosition) -> u32 {
        (pos.x | pos.o).count_ones()
    }
}

impl Retrograde for MnkGame {
    fn unmoves(&self, pos: &GridPosition, out: &mut Vec<GridPosition>) {
        let (nx, no) = (pos.x.count_ones(), pos.o.count_ones());
        // X moved last when X has one more mark; O when the counts are equal and non-zero.
        let mut last = if nx == no + 1 {
            pos.x
        } else if nx == no && no > 0 {
            pos.o
        } else {
            return;
        };
        let x_last = nx == no + 1;
        while last != 0 {
            let bit = last & last.wrapping_neg();
            last &= last - 1;
            out.push(if x_last {
                GridPosition { x: pos.x & !bit, o: pos.o }
            } else {
                GridPosition { x: pos.x, o: pos.o & !bit }
            });
        }
    }
}
