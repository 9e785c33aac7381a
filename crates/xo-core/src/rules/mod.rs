//! The placement-game model: one [`Rules`] type describes every game of the family, and the
//! built-in names (`tictactoe`, `mnk:M,N,K`, `connect4`, `lol:16`, ...) are just instances of it.
//!
//! A game is a board (a strip or an m x n grid, optionally with gravity), a way of choosing marks
//! (each player their own, a shared alphabet, or one mark for both), a winning pattern (k in a
//! line, or a word read along a line in either direction) and whether completing it wins or loses.
//! Rules text is parsed into [`Rules`], then checked by [`Rules::validate`] before any engine
//! sees it.

mod builtin;
mod columns;
mod file;
mod naive;
mod notation;
mod position;

pub use builtin::parse_game;
pub use columns::{columns_text, parse_columns};
pub use naive::Requirement;
pub use notation::{move_name, move_order, parse_move, player_to_move};
pub use position::{BoardMove, Position, PositionError, Setup};

/// How players choose the mark they place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Marks {
    /// Each player places their own mark: X (moving first) and O.
    Own,
    /// On each turn the mover chooses any mark of the alphabet (`L`/`O` in LOL, `S`/`O` in SOS).
    Shared(Vec<char>),
    /// Both players place the same mark (`X` in Treblecross).
    Same(char),
}

/// The pattern whose completion ends the game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Goal {
    /// `k` equal marks in a line: the mover's own marks with [`Marks::Own`], otherwise `k` of the
    /// same mark.
    InRow(u32),
    /// A word read along a line in either direction.
    Word(Vec<char>),
}

/// A game of the placement family.
///
/// ```
/// use xo_core::rules::{parse_game, Goal, Marks};
/// let ttt = parse_game("tictactoe").unwrap();
/// assert_eq!((ttt.width, ttt.height, ttt.goal.clone()), (3, 3, Goal::InRow(3)));
/// assert_eq!(parse_game("lol:7").unwrap().marks, Marks::Shared(vec!['L', 'O']));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rules {
    /// A display name, such as `mnk:5,5,4`.
    pub name: String,
    /// Columns (the cells of a strip).
    pub width: u32,
    /// Rows (1 for a strip).
    pub height: u32,
    /// Whether a mark drops to the lowest empty cell of its column.
    pub gravity: bool,
    /// How marks are chosen.
    pub marks: Marks,
    /// The winning (or, in misère play, losing) pattern.
    pub goal: Goal,
    /// Whether completing the pattern loses instead of winning.
    pub misere: bool,
}

/// Why rules cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// An unknown game name or a malformed size.
    #[error("unknown game {0:?}: try tictactoe, mnk:M,N,K, connect:M,N,K, connect4, treblecross:N, lol:N, sos:N, or a rules file")]
    UnknownGame(String),
    /// A size or parameter that does not make sense.
    #[error("{0}")]
    Invalid(String),
}

/// The most cells any board may have (engines may support fewer).
pub const MAX_CELLS: u64 = 1 << 24;

impl Rules {
    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The marks that may appear on the board, in the order their indices are used
    /// (mark 1, mark 2).
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// assert_eq!(parse_game("tictactoe").unwrap().alphabet(), vec!['X', 'O']);
    /// assert_eq!(parse_game("treblecross:5").unwrap().alphabet(), vec!['X']);
    /// ```
    pub fn alphabet(&self) -> Vec<char> {
        match &self.marks {
            Marks::Own => vec!['X', 'O'],
            Marks::Shared(letters) => letters.clone(),
            Marks::Same(mark) => vec![*mark],
        }
    }

    /// The pattern's length.
    pub fn pattern_len(&self) -> u32 {
        match &self.goal {
            Goal::InRow(k) => *k,
            Goal::Word(w) => w.len() as u32,
        }
    }

    /// Checks that the rules describe a playable game.
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// let mut r = parse_game("mnk:3,3,3").unwrap();
    /// r.goal = xo_core::rules::Goal::InRow(0);
    /// assert!(r.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), RulesError> {
        let bad = |m: String| Err(RulesError::Invalid(m));
        if self.width == 0 || self.height == 0 {
            return bad(format!(
                "a board needs at least one cell, not {}x{}",
                self.width, self.height
            ));
        }
        if self.width as u64 * self.height as u64 > MAX_CELLS {
            return bad(format!(
                "a board of {}x{} cells is too large: at most {MAX_CELLS} cells",
                self.width, self.height
            ));
        }
        // A pattern longer than the board is allowed (such a game is a draw), an empty one is not.
        let k = self.pattern_len();
        if k == 0 || k > 64 {
            return bad(format!("a pattern needs 1 to 64 cells, not {k}"));
        }
        let alphabet = self.alphabet();
        if alphabet.is_empty() || alphabet.len() > 2 {
            return bad("a game needs one or two kinds of marks".into());
        }
        for (i, c) in alphabet.iter().enumerate() {
            if !c.is_ascii_alphabetic() || alphabet[..i].contains(c) {
                return bad(format!("mark {c:?} must be a distinct ASCII letter"));
            }
        }
        if let Goal::Word(word) = &self.goal {
            if self.marks == Marks::Own {
                return bad("a word goal needs shared or same marks".into());
            }
            if let Some(c) = word.iter().find(|c| !alphabet.contains(c)) {
                return bad(format!("the word uses {c:?}, which is not a mark of the game"));
            }
        }
        Ok(())
    }
}
