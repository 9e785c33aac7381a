//! The LOL letter game on a strip: on a turn a player writes `L` or `O` into any empty cell, and
//! whoever first makes three consecutive cells read `LOL` wins. A full strip without it is a draw.
//!
//! A strip is a row of [`Cell`]s of any length. Three consecutive cells form a *window*; a window
//! is *live* while it can still become `LOL` (no O at its ends, no L in its middle). Engines only
//! ever look at windows, so everything here is phrased in them.

/// One cell of a LOL strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Cell {
    /// Not yet written.
    Empty,
    /// An L.
    L,
    /// An O.
    O,
}

/// What is wrong with a LOL strip's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LolError {
    /// No cells.
    #[error("a strip needs at least 1 cell")]
    Empty,
    /// A character outside the alphabet.
    #[error("character {ch:?} at column {column} is not one of '*LO'")]
    BadChar {
        /// The offending character.
        ch: char,
        /// 1-based column.
        column: usize,
    },
}

/// A validated LOL strip of at least one cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LolStrip {
    cells: Vec<Cell>,
}

const LOL: [Cell; 3] = [Cell::L, Cell::O, Cell::L];

/// Whether a window can still become `LOL`.
pub fn is_live(w: &[Cell]) -> bool {
    w.iter().zip(LOL).all(|(&c, want)| c == Cell::Empty || c == want)
}

/// Whether a window is one letter short of `LOL` (the player to move completes it).
pub fn is_threat(w: &[Cell]) -> bool {
    is_live(w) && w.iter().filter(|&&c| c == Cell::Empty).count() == 1
}

impl LolStrip {
    /// Reads a strip over `*` or `.` (empty), `L` and `O`.
    ///
    /// ```
    /// use xo_core::games::lol::LolStrip;
    /// assert_eq!(LolStrip::parse(b"L*O").unwrap().len(), 3);
    /// assert!(LolStrip::parse(b"").is_err());
    /// assert!(LolStrip::parse(b"LxO").is_err());
    /// ```
    pub fn parse(text: &[u8]) -> Result<Self, LolError> {
        if text.is_empty() {
            return Err(LolError::Empty);
        }
        let cells = text
            .iter()
            .enumerate()
            .map(|(i, &b)| match b {
                b'L' => Ok(Cell::L),
                b'O' => Ok(Cell::O),
                b'*' | b'.' => Ok(Cell::Empty),
                _ => Err(LolError::BadChar { ch: b as char, column: i + 1 }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LolStrip { cells })
    }

    /// A strip of the given cells (at least one).
    ///
    /// ```
    /// use xo_core::games::lol::{Cell, LolStrip};
    /// assert_eq!(LolStrip::from_cells(vec![Cell::L, Cell::Empty]).unwrap().to_text(), "L*");
    /// ```
    pub fn from_cells(cells: Vec<Cell>) -> Result<Self, LolError> {
        if cells.is_empty() {
            return Err(LolError::Empty);
        }
        Ok(LolStrip { cells })
    }

    /// The empty strip of `len` cells.
    ///
    /// ```
    /// use xo_core::games::lol::LolStrip;
    /// assert_eq!(LolStrip::empty(5).unwrap().to_text(), "*****");
    /// ```
    pub fn empty(len: usize) -> Result<Self, LolError> {
        if len == 0 {
            return Err(LolError::Empty);
        }
        Ok(LolStrip { cells: vec![Cell::Empty; len] })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a strip has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells, left to right.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Whether `LOL` already stands somewhere (the previous player made it).
    ///
    /// ```
    /// use xo_core::games::lol::LolStrip;
    /// assert!(LolStrip::parse(b"*LOL").unwrap().has_lol());
    /// assert!(!LolStrip::parse(b"LO*L").unwrap().has_lol());
    /// ```
    pub fn has_lol(&self) -> bool {
        self.cells.windows(3).any(|w| w == LOL)
    }

    /// Whether the player to move can complete `LOL` at once.
    ///
    /// ```
    /// use xo_core::games::lol::LolStrip;
    /// assert!(LolStrip::parse(b"L*L").unwrap().has_immediate_win());
    /// assert!(!LolStrip::parse(b"L**L").unwrap().has_immediate_win());
    /// ```
    pub fn has_immediate_win(&self) -> bool {
        self.cells.windows(3).any(is_threat)
    }

    /// The strip after writing `letter` (`Cell::L` or `Cell::O`) in empty cell `cell`.
    ///
    /// ```
    /// use xo_core::games::lol::{Cell, LolStrip};
    /// let s = LolStrip::parse(b"L**").unwrap().play(1, Cell::O);
    /// assert_eq!(s.to_text(), "LO*");
    /// ```
    pub fn play(&self, cell: usize, letter: Cell) -> LolStrip {
        let mut next = self.clone();
        next.cells[cell] = letter;
        next
    }

    /// The strip as text over `*LO`.
    pub fn to_text(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Cell::Empty => '*',
                Cell::L => 'L',
                Cell::O => 'O',
            })
            .collect()
    }
}
