//! The checked [`Position`]: cells that [`Setup::validate`](super::Setup::validate) accepted,
//! together with the [`Rules`] they were checked against, so a function given a position of
//! another game refuses it ([`ForeignPosition`]) instead of misreading its cells.

use super::setup::Rules;

/// A position checked against its rules, which it carries (cheaply: [`Rules`] clones share their
/// fields); the player to move follows from the number of marks. Two positions are equal when
/// they are of the same game ([`Rules::same_game`]) with the same cells; hashing reads the cells.
#[derive(Clone)]
pub struct Position {
    rules: Rules,
    cells: Vec<u8>,
}

/// A position given to a function of another game's rules.
///
/// ```
/// use xo_core::games::board::Board;
/// use xo_core::rules::{parse_game, Setup};
/// let ttt = parse_game("tictactoe").unwrap();
/// let pos = Setup::empty(&ttt).validate(&ttt).unwrap();
/// let err = Board::new(&parse_game("mnk:3,3,2").unwrap()).unwrap().encode(&pos).unwrap_err();
/// assert_eq!(err.to_string(), "a position of tictactoe cannot be read as one of mnk:3,3,2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a position of {found} cannot be read as one of {expected}")]
pub struct ForeignPosition {
    /// The name of the rules the position was given to.
    pub expected: String,
    /// The name of the rules the position is of.
    pub found: String,
}

impl Position {
    /// A position from cells that the caller knows to be valid for `rules` (checked by
    /// [`Setup::validate`](super::Setup::validate), or the result of a legal move).
    pub(crate) fn from_cells_unchecked(rules: &Rules, cells: Vec<u8>) -> Position {
        Position { rules: rules.clone(), cells }
    }

    /// The rules the position was checked against.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Position};
    /// let p = Position::from_columns(&parse_game("connect4").unwrap(), "44").unwrap();
    /// assert_eq!(p.rules().name(), "connect4");
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position itself when it is of the same game as `rules`, else why not: the check every
    /// function taking rules and a position makes.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// let pos = Setup::empty(&ttt).validate(&ttt).unwrap();
    /// assert!(pos.of(&parse_game("mnk:3,3,3").unwrap()).is_ok());
    /// assert!(pos.of(&parse_game("connect:3,3,3").unwrap()).is_err());
    /// ```
    pub fn of(&self, rules: &Rules) -> Result<&Position, ForeignPosition> {
        if self.rules.same_game(rules) {
            Ok(self)
        } else {
            Err(ForeignPosition {
                expected: rules.name().to_string(),
                found: self.rules.name().to_string(),
            })
        }
    }

    /// The cells in reading order: 0 empty, `i + 1` for mark `i` of the alphabet.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// let p = Setup::parse(&ttt, "X.. ... ...").unwrap().validate(&ttt).unwrap();
    /// assert_eq!(p.cells()[..3], [1, 0, 0]);
    /// ```
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Moves made so far (filled cells).
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Position};
    /// assert_eq!(Position::from_columns(&parse_game("connect4").unwrap(), "445").unwrap().plies(), 3);
    /// ```
    pub fn plies(&self) -> u32 {
        self.cells.iter().filter(|&&c| c != 0).count() as u32
    }

    /// The position as text over `.` and its game's marks.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Setup};
    /// let lol = parse_game("lol:4").unwrap();
    /// let p = Setup::parse(&lol, "L*O.").unwrap().validate(&lol).unwrap();
    /// assert_eq!(p.to_text(), "L.O.");
    /// ```
    pub fn to_text(&self) -> String {
        cells_text(&self.rules, &self.cells)
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.cells == other.cells && self.rules.same_game(&other.rules)
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state);
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {:?})", self.rules.name(), self.to_text())
    }
}

/// Cells as text: `.` for empty, else the mark.
pub(super) fn cells_text(rules: &Rules, cells: &[u8]) -> String {
    let alphabet = rules.alphabet();
    cells.iter().map(|&c| if c == 0 { '.' } else { alphabet[c as usize - 1] }).collect()
}
