//! The rules played directly, cell by cell, with no cleverness: the move generator every fast
//! representation is tested against.

use super::checked::Position;
use super::parts::{Goal, Marks};
use super::setup::Rules;
use crate::game::GameTree;
use crate::Value;

/// A requirement of a pattern: this cell holds this mark.
pub type Requirement = (usize, u8);

impl Rules {
    /// Every run of `len` consecutive cells along a row, a column or a diagonal (strips: along
    /// the strip), as cell indices in reading order along the run.
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// assert_eq!(parse_game("tictactoe").unwrap().lines(3).len(), 8);
    /// assert_eq!(parse_game("lol:5").unwrap().lines(3).len(), 3);
    /// ```
    pub fn lines(&self, len: u32) -> Vec<Vec<usize>> {
        let (w, h, k) = (self.width() as i64, self.height() as i64, len as i64);
        let mut lines = Vec::new();
        for row in 0..h {
            for col in 0..w {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (row + dr * (k - 1), col + dc * (k - 1));
                    if (dr, dc) != (0, 1) && k == 1 {
                        continue; // a single cell is one line, not four
                    }
                    if er < 0 || er >= h || ec < 0 || ec >= w {
                        continue;
                    }
                    lines.push(
                        (0..k).map(|i| ((row + dr * i) * w + col + dc * i) as usize).collect(),
                    );
                }
            }
        }
        lines
    }

    /// Every winning pattern as the marks it requires (marks numbered from 1, as in [`Position`]).
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// // Eight lines for each of the two players.
    /// assert_eq!(parse_game("tictactoe").unwrap().patterns().len(), 16);
    /// // LOL reads the same both ways: one pattern per window.
    /// assert_eq!(parse_game("lol:5").unwrap().patterns().len(), 3);
    /// ```
    pub fn patterns(&self) -> Vec<Vec<Requirement>> {
        let lines = self.lines(self.pattern_len());
        let mut patterns: Vec<Vec<Requirement>> = Vec::new();
        for line in &lines {
            match self.goal() {
                Goal::InRow(_) => {
                    for mark in 1..=self.alphabet().len() as u8 {
                        patterns.push(line.iter().map(|&c| (c, mark)).collect());
                    }
                }
                Goal::Word(word) => {
                    let alphabet = self.alphabet();
                    let marks: Vec<u8> = word
                        .iter()
                        .map(|ch| alphabet.iter().position(|a| a == ch).unwrap_or(0) as u8 + 1)
                        .collect();
                    let forward: Vec<Requirement> =
                        line.iter().copied().zip(marks.iter().copied()).collect();
                    let backward: Vec<Requirement> =
                        line.iter().copied().zip(marks.iter().rev().copied()).collect();
                    let same = forward == backward;
                    patterns.push(forward);
                    if !same {
                        patterns.push(backward);
                    }
                }
            }
        }
        patterns
    }

    /// Whether some pattern made only of `mark` stands on `cells`.
    pub fn has_pattern_of(&self, cells: &[u8], mark: u8) -> bool {
        self.patterns().iter().any(|p| p.iter().all(|&(c, m)| m == mark && cells[c] == mark))
    }

    /// Whether any pattern stands on `cells`.
    pub fn has_pattern(&self, cells: &[u8]) -> bool {
        self.patterns().iter().any(|p| p.iter().all(|&(c, m)| cells[c] == m))
    }

    /// The marks the player to move may place after `plies` moves.
    pub fn marks_to_place(&self, plies: u32) -> Vec<u8> {
        match self.marks() {
            Marks::Own => vec![if plies.is_multiple_of(2) { 1 } else { 2 }],
            Marks::Shared(letters) => (1..=letters.len() as u8).collect(),
            Marks::Same(_) => vec![1],
        }
    }

    /// Whether a mark may be placed in empty `cell` (with gravity: the lowest empty cell of its
    /// column).
    pub fn is_playable(&self, cells: &[u8], cell: usize) -> bool {
        let w = self.width() as usize;
        cells[cell] == 0 && (!self.gravity() || cell + w >= cells.len() || cells[cell + w] != 0)
    }
}

/// The rules as a [`GameTree`], one plain cell vector per position. The trait's methods cannot
/// refuse, so a position of other rules is a caller's bug, caught in debug builds (use
/// [`Position::of`] to check one from elsewhere).
impl GameTree for Rules {
    type Position = Position;
    type Move = (usize, u8);

    fn start(&self) -> Position {
        super::position::Setup::empty(self).validate(self).expect("the empty board is valid")
    }

    fn moves(&self, pos: &Position, out: &mut Vec<(usize, u8)>) {
        debug_assert!(pos.of(self).is_ok(), "{pos:?} is not a position of {}", self.name());
        if self.outcome(pos).is_some() {
            return;
        }
        let marks = self.marks_to_place(pos.plies());
        for cell in 0..pos.cells().len() {
            if self.is_playable(pos.cells(), cell) {
                out.extend(marks.iter().map(|&m| (cell, m)));
            }
        }
    }

    fn play(&self, pos: &Position, (cell, mark): (usize, u8)) -> Position {
        debug_assert!(pos.of(self).is_ok(), "{pos:?} is not a position of {}", self.name());
        let mut cells = pos.cells().to_vec();
        cells[cell] = mark;
        Position::from_cells_unchecked(self, cells)
    }

    fn outcome(&self, pos: &Position) -> Option<Value> {
        debug_assert!(pos.of(self).is_ok(), "{pos:?} is not a position of {}", self.name());
        if self.has_pattern(pos.cells()) {
            // The player who just moved completed it.
            Some(if self.misere() { Value::Win } else { Value::Loss })
        } else if pos.cells().iter().all(|&c| c != 0) {
            Some(Value::Draw)
        } else {
            None
        }
    }

    fn plies(&self, pos: &Position) -> u32 {
        pos.plies()
    }
}
