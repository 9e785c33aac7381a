//! Treblecross: both players put an X on a strip; whoever first makes three X's in a row wins.
//!
//! Once no move wins at once, a move within two cells of an X hands the opponent the win, so only
//! cells at distance three or more from every X are worth playing. Those cells form free runs, and a
//! move in a run of L cells leaves runs of `i - 2` and `L - 3 - i` cells: a run of L is a heap of
//! L + 2 in the octal game .007, and the strip is won exactly when the XOR of its runs' values is
//! not zero. Analysis is linear in the strip's length once the values exist.

use crate::solve::grundy::{Grundy, NimSequence};
use std::time::Instant;

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

/// Why [`TreblecrossStrip::analyse_within`] gave up: the strip needs .007 values up to heap
/// `needed` (a free run of `needed - 2` cells), and the deadline passed with values up to heap
/// `reached - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unfinished {
    /// The largest heap the strip needs.
    pub needed: usize,
    /// How many values were computed when time ran out.
    pub reached: usize,
}

/// The outcome of a strip for the player to move, and every winning move (0-based cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Whether the player to move wins with perfect play.
    pub winning: bool,
    /// Every cell where an X keeps the win, increasing; empty when losing.
    pub winning_moves: Vec<usize>,
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
        for (i, _) in self.cells.iter().enumerate().filter(|(_, &x)| x) {
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

    /// Solves the strip for the player to move. `seq` must be the .007 nim-sequence; it is extended
    /// as far as this strip needs.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// let a = TreblecrossStrip::parse(b".....").unwrap().analyse(&mut seq);
    /// assert!(a.winning);
    /// assert_eq!(a.winning_moves, vec![2]);
    /// ```
    pub fn analyse(&self, seq: &mut NimSequence) -> Analysis {
        self.analyse_within(seq, None).expect("no deadline")
    }

    /// Like [`TreblecrossStrip::analyse`], but giving up once `deadline` has passed while
    /// extending `seq` (see [`NimSequence::extend_within`]; strips needing no more than a few
    /// thousand values always finish).
    ///
    /// ```
    /// use std::time::Instant;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// let now = Some(Instant::now());
    /// assert!(TreblecrossStrip::parse(b".....").unwrap().analyse_within(&mut seq, now).is_ok());
    /// let long = TreblecrossStrip::parse(&vec![b'.'; 1_000_000]).unwrap();
    /// assert_eq!(long.analyse_within(&mut seq, now).unwrap_err().needed, 1_000_002);
    /// ```
    pub fn analyse_within(
        &self,
        seq: &mut NimSequence,
        deadline: Option<Instant>,
    ) -> Result<Analysis, Unfinished> {
        if self.is_won() {
            return Ok(Analysis { winning: false, winning_moves: Vec::new() });
        }
        let immediate = self.immediate_wins();
        if !immediate.is_empty() {
            return Ok(Analysis { winning: true, winning_moves: immediate });
        }
        let runs = self.free_runs();
        // A free run of `len` cells is a .007 heap of `len + 2`.
        let needed = runs.iter().map(|&(_, len)| len).max().unwrap_or(0) + 2;
        let g007 = seq
            .extend_within(needed, deadline)
            .map_err(|reached| Unfinished { needed, reached })?;
        let run_value = |len: usize| -> Grundy { g007[len + 2] };
        let total = runs.iter().fold(0, |acc, &(_, len)| acc ^ run_value(len));
        if total == 0 {
            return Ok(Analysis { winning: false, winning_moves: Vec::new() });
        }
        let mut winning_moves = Vec::new();
        for &(start, len) in &runs {
            let target = total ^ run_value(len);
            for i in 0..len {
                let left = run_value(i.saturating_sub(2));
                let right = run_value((len - 1 - i).saturating_sub(2));
                if left ^ right == target {
                    winning_moves.push(start + i);
                }
            }
        }
        Ok(Analysis { winning: true, winning_moves })
    }
}
