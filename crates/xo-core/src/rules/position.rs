//! Position text: the cells in reading order (rows top to bottom, each left to right), `.` (or
//! `*`) for an empty cell. Text becomes an unchecked [`Setup`], which [`Setup::validate`] turns into
//! a [`Position`] the engines can trust. A position carries its [`Rules`], so a function given a
//! position of another game refuses it ([`ForeignPosition`]) instead of misreading its cells.

use super::checked::cells_text;
use super::checked::{ForeignPosition, Position};
use super::parts::{Goal, Marks};
use super::setup::Rules;

/// Cells as read from text, not yet checked against the rules: 0 empty, `i + 1` for mark `i` of
/// [`Rules::alphabet`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The cells in reading order.
    pub cells: Vec<u8>,
}

/// Why a position cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A character that is neither empty nor a mark of the game.
    #[error("character {ch:?} at cell {cell} is not '.' or one of the game's marks {marks}")]
    BadChar {
        /// The offending character.
        ch: char,
        /// 1-based cell index.
        cell: usize,
        /// The accepted marks.
        marks: String,
    },
    /// The wrong number of cells.
    #[error("expected {expected} cells for a {width}x{height} board, found {found}")]
    Length {
        /// Cells the board has.
        expected: usize,
        /// Cells given.
        found: usize,
        /// Board columns.
        width: u32,
        /// Board rows.
        height: u32,
    },
    /// Mark counts that alternating play cannot produce.
    #[error("{x} X's and {o} O's: X moves first, so X has as many marks as O or one more")]
    Counts {
        /// X's on the board.
        x: usize,
        /// O's on the board.
        o: usize,
    },
    /// A mark over an empty cell in a gravity game.
    #[error(
        "the mark at cell {cell} floats over an empty cell (marks drop to the lowest empty cell)"
    )]
    Floating {
        /// 1-based cell index.
        cell: usize,
    },
    /// Both players have completed a line.
    #[error("both players have completed a line; a game stops at the first")]
    BothWon,
    /// The player who did not complete a line moved after it was completed.
    #[error("{winner} has a line but {mover} moved after it; a game stops at the first line")]
    MovedAfterWin {
        /// Who has the line.
        winner: char,
        /// Who moved afterwards.
        mover: char,
    },
    /// A move of a column sequence that cannot be played.
    #[error("move {index} (column {column}) cannot be played: {why}")]
    IllegalMove {
        /// 1-based index of the move in the sequence.
        index: usize,
        /// The move as written.
        column: String,
        /// Why not.
        why: String,
    },
    /// A position of another game.
    #[error(transparent)]
    Foreign(#[from] ForeignPosition),
    /// Patterns stand that no single last move completed: the game had ended before.
    #[error("no single last move completed every pattern on the board; a game stops at the first")]
    MovedAfterEnd,
}

impl Setup {
    /// Reads position text for `rules`. Whitespace is ignored; marks are case-insensitive.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// assert_eq!(Setup::parse(&ttt, "x.. .o. ...").unwrap().cells, vec![1, 0, 0, 0, 2, 0, 0, 0, 0]);
    /// assert!(Setup::parse(&ttt, "x.. .o. ..?").is_err());
    /// ```
    pub fn parse(rules: &Rules, text: &str) -> Result<Setup, PositionError> {
        let alphabet = rules.alphabet();
        let mut cells = Vec::with_capacity(rules.cells());
        for ch in text.chars().filter(|c| !c.is_whitespace()) {
            let upper = ch.to_ascii_uppercase();
            let cell = match upper {
                '.' | '*' => 0,
                _ => match alphabet.iter().position(|&m| m == upper) {
                    Some(i) => i as u8 + 1,
                    None => {
                        return Err(PositionError::BadChar {
                            ch,
                            cell: cells.len() + 1,
                            marks: alphabet.iter().collect(),
                        })
                    }
                },
            };
            cells.push(cell);
        }
        if cells.len() != rules.cells() {
            return Err(PositionError::Length {
                expected: rules.cells(),
                found: cells.len(),
                width: rules.width(),
                height: rules.height(),
            });
        }
        Ok(Setup { cells })
    }

    /// The setup as text over `.` and the game's marks.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// assert_eq!(Setup::parse(&ttt, "o o x ......").unwrap().to_text(&ttt), "OOX......");
    /// ```
    pub fn to_text(&self, rules: &Rules) -> String {
        cells_text(rules, &self.cells)
    }

    /// The empty board of `rules`.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// assert_eq!(Setup::empty(&parse_game("lol:4").unwrap()).cells, vec![0; 4]);
    /// ```
    pub fn empty(rules: &Rules) -> Setup {
        Setup { cells: vec![0; rules.cells()] }
    }

    /// Checks the setup against the rules: mark counts (own marks), no floating marks (gravity),
    /// and not both players with a line.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// assert!(Setup::parse(&ttt, "OO.......").unwrap().validate(&ttt).is_err());
    /// assert_eq!(Setup::parse(&ttt, "XO.......").unwrap().validate(&ttt).unwrap().plies(), 2);
    /// ```
    pub fn validate(self, rules: &Rules) -> Result<Position, PositionError> {
        if self.cells.len() != rules.cells() {
            return Err(PositionError::Length {
                expected: rules.cells(),
                found: self.cells.len(),
                width: rules.width(),
                height: rules.height(),
            });
        }
        if *rules.marks() == Marks::Own {
            let x = self.cells.iter().filter(|&&c| c == 1).count();
            let o = self.cells.iter().filter(|&&c| c == 2).count();
            if x != o && x != o + 1 {
                return Err(PositionError::Counts { x, o });
            }
        }
        if rules.gravity() {
            let w = rules.width() as usize;
            for (i, &c) in self.cells.iter().enumerate() {
                if c != 0 && i + w < self.cells.len() && self.cells[i + w] == 0 {
                    return Err(PositionError::Floating { cell: i + 1 });
                }
            }
        }
        check_last_move(rules, &self.cells)?;
        Ok(Position::from_cells_unchecked(rules, self.cells))
    }
}

/// Checks that the game was still going before the last move: a game stops at its first
/// pattern, so every completed pattern must contain a cell the last mover could have just filled
/// (their own mark; under gravity the top of its column).
fn check_last_move(rules: &Rules, cells: &[u8]) -> Result<(), PositionError> {
    let plies = cells.iter().filter(|&&c| c != 0).count();
    if plies == 0 {
        return Ok(());
    }
    let alphabet = rules.alphabet();
    let last_mark = (*rules.marks() == Marks::Own).then_some(if plies % 2 == 1 { 1 } else { 2 });
    let w = rules.width() as usize;
    let could_be_last = |c: usize| {
        cells[c] != 0
            && last_mark.is_none_or(|m| cells[c] == m)
            && (!rules.gravity() || c < w || cells[c - w] == 0)
    };
    if *rules.marks() == Marks::Own {
        let mut completed_by = [false; 3];
        for_each_completed(rules, cells, |_, mark| {
            completed_by[mark as usize] = true;
            !(completed_by[1] && completed_by[2])
        });
        if completed_by[1] && completed_by[2] {
            return Err(PositionError::BothWon);
        }
    }
    let mut common: Option<Vec<usize>> = None;
    let mut result = Ok(());
    for_each_completed(rules, cells, |line, mark| {
        if let Some(last) = last_mark.filter(|&m| m != mark) {
            result = Err(PositionError::MovedAfterWin {
                winner: alphabet[mark as usize - 1],
                mover: alphabet[last as usize - 1],
            });
            return false;
        }
        let kept: Vec<usize> = match common.take() {
            None => line.iter().copied().filter(|&c| could_be_last(c)).collect(),
            Some(c) => c.into_iter().filter(|c| line.contains(c)).collect(),
        };
        if kept.is_empty() {
            result = Err(PositionError::MovedAfterEnd);
            return false;
        }
        common = Some(kept);
        true
    });
    result
}

/// Calls `f` with the cells of every completed pattern and its mark (for words, the mark of
/// their first letter), until `f` returns false. Allocates nothing per line, so it runs on strips
/// of millions of cells.
fn for_each_completed(rules: &Rules, cells: &[u8], mut f: impl FnMut(&[usize], u8) -> bool) {
    let (w, h) = (rules.width() as i64, rules.height() as i64);
    let k = rules.pattern_len() as i64;
    let word: Vec<u8> = match rules.goal() {
        Goal::InRow(_) => Vec::new(),
        Goal::Word(word) => {
            let alphabet = rules.alphabet();
            word.iter()
                .map(|ch| alphabet.iter().position(|a| a == ch).map_or(0, |i| i as u8 + 1))
                .collect()
        }
    };
    let mut line = [0usize; 64];
    for row in 0..h {
        for col in 0..w {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                if (dr, dc) != (0, 1) && k == 1 {
                    continue; // a single cell is one line, not four
                }
                let (er, ec) = (row + dr * (k - 1), col + dc * (k - 1));
                if er < 0 || er >= h || ec < 0 || ec >= w {
                    continue;
                }
                for (i, slot) in line.iter_mut().take(k as usize).enumerate() {
                    let i = i as i64;
                    *slot = ((row + dr * i) * w + col + dc * i) as usize;
                }
                let line = &line[..k as usize];
                let first = cells[line[0]];
                let complete = if word.is_empty() {
                    first != 0 && line.iter().all(|&c| cells[c] == first)
                } else {
                    line.iter().zip(&word).all(|(&c, &m)| cells[c] == m)
                        || line.iter().zip(word.iter().rev()).all(|(&c, &m)| cells[c] == m)
                };
                if complete && !f(line, first) {
                    return;
                }
            }
        }
    }
}

/// A move: put mark 1 or 2 in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardMove {
    /// The cell, in reading order from 0.
    pub cell: u8,
    /// The mark, 1 or 2.
    pub mark: u8,
}
