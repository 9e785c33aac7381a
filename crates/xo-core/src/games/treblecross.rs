//! Treblecross: both players put an X on a strip; whoever first makes three X's in a row wins.
//!
//! Once no move wins at once, a move within two cells of an X hands the opponent the win, so only
//! cells at distance three or more from every X are worth playing. Those cells form free runs, and a
//! move in a run of L cells leaves runs of `i - 2` and `L - 3 - i` cells: a run of L is a heap of
//! L + 2 in the octal game .007, and the strip is won exactly when the XOR of its runs' values is
//! not zero. Analysis is linear in the strip's length once the values exist; it lives with the
//! engines, in `solve::treblecross`.

/// A validated Treblecross strip: `true` where an X stands. At least three cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreblecrossStrip {
    cells: Vec<bool>,
}

/// What is wrong with a strip's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StripError {
    /// Fewer than three cells.
    #[error("a strip needs at least 3 cells, found {0}")]
    TooShort(usize),
    /// A character outside the alphabet.
    #[error("character {ch:?} at column {column} is not one of {alphabet}")]
    BadChar {
        /// The offending character.
        ch: char,
        /// 1-based column.
        column: usize,
        /// The accepted characters, for the message.
        alphabet: &'static str,
    },
}

impl TreblecrossStrip {
    /// Reads a strip over `.` (empty) and `X`.
    ///
    /// ```
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// assert_eq!(TreblecrossStrip::parse(b"X..").unwrap().len(), 3);
    /// assert!(TreblecrossStrip::parse(b"X.").is_err());
    /// assert!(TreblecrossStrip::parse(b"X.o").is_err());
    /// ```
    pub fn parse(text: &[u8]) -> Result<Self, StripError> {
        let cells = text
            .iter()
            .enumerate()
            .map(|(i, &b)| match b {
                b'.' => Ok(false),
                b'X' => Ok(true),
                _ => Err(StripError::BadChar { ch: b as char, column: i + 1, alphabet: "'.X'" }),
            })
            .collect::<Result<Vec<bool>, _>>()?;
        if cells.len() < 3 {
            return Err(StripError::TooShort(cells.len()));
        }
        Ok(TreblecrossStrip { cells })
    }

    /// A strip of the given cells, `true` for an X (at least three).
    ///
    /// ```
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// assert_eq!(TreblecrossStrip::from_cells(vec![false, true, false]).unwrap().len(), 3);
    /// assert!(TreblecrossStrip::from_cells(vec![true]).is_err());
    /// ```
    pub fn from_cells(cells: Vec<bool>) -> Result<Self, StripError> {
        if cells.len() < 3 {
            return Err(StripError::TooShort(cells.len()));
        }
        Ok(TreblecrossStrip { cells })
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a strip has at least three cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells, `true` for an X.
    pub fn cells(&self) -> &[bool] {
        &self.cells
    }

    fn x(&self, i: isize) -> bool {
        i >= 0 && (i as usize) < self.cells.len() && self.cells[i as usize]
    }

    /// Whether three X's already stand in a row (the previous player won).
    pub fn is_won(&self) -> bool {
        self.cells.windows(3).any(|w| w == [true, true, true])
    }

    /// Empty cells where an X completes three in a row.
    pub fn immediate_wins(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| {
                let i = i as isize;
                !self.x(i)
                    && ((self.x(i - 2) && self.x(i - 1))
                        || (self.x(i - 1) && self.x(i + 1))
                        || (self.x(i + 1) && self.x(i + 2)))
            })
            .collect()
    }

    /// The free runs `(first cell, length)`: maximal runs of empty cells at distance three or more
    /// from every X.
    pub fn free_runs(&self) -> Vec<(usize, usize)> {
        let n = self.cells.len();
        let mut playable = vec![true; n];
        for (i, _) in self.cells.iter().enumerate().filter(|&(_, &x)| x) {
            for p in playable.iter_mut().take((i + 3).min(n)).skip(i.saturating_sub(2)) {
                *p = false;
            }
        }
        let mut runs = Vec::new();
        let mut i = 0;
        while i < n {
            if playable[i] {
                let start = i;
                while i < n && playable[i] {
                    i += 1;
                }
                runs.push((start, i - start));
            } else {
                i += 1;
            }
        }
        runs
    }
}
