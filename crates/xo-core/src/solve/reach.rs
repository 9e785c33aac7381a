//! Whether a position can arise in a legal game, by playing backwards.
//!
//! A position is reachable when it is the start, or when some position one move earlier is
//! reachable and was not already finished (a game stops at its first win). Un-playing the last
//! mover's marks finds those earlier positions without any rule written per game.

use crate::game::Retrograde;
use std::collections::HashMap;

/// A memoised retrograde reachability checker.
///
/// ```
/// use xo_core::games::board::{Board, BoardPosition};
/// use xo_core::rules::parse_game;
/// use xo_core::solve::reach::Reachability;
///
/// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let mut reach = Reachability::new(&ttt);
/// assert!(reach.is_reachable(&BoardPosition { a: 0b1, b: 0 }));
/// // Three O's against no X: O cannot have moved first.
/// assert!(!reach.is_reachable(&BoardPosition { a: 0, b: 0b111 }));
/// ```
pub struct Reachability<'g, G: Retrograde> {
    game: &'g G,
    memo: HashMap<G::Position, bool>,
    /// Positions remembered at most; past it the search gives up (answering "not reachable",
    /// which callers must then disregard).
    max_memo: usize,
}

impl<'g, G: Retrograde> Reachability<'g, G> {
    /// A checker with an empty memo.
    pub fn new(game: &'g G) -> Self {
        Reachability { game, memo: HashMap::new(), max_memo: usize::MAX }
    }

    /// Whether `pos` occurs in some legal game from the start.
    pub fn is_reachable(&mut self, pos: &G::Position) -> bool {
        if *pos == self.game.start() {
            return true;
        }
        if let Some(&r) = self.memo.get(pos) {
            return r;
        }
        if self.memo.len() >= self.max_memo {
            return false;
        }
        let mut preds = Vec::new();
        self.game.unmoves(pos, &mut preds);
        let reachable =
            preds.iter().any(|p| self.game.outcome(p).is_none() && self.is_reachable(p));
        self.memo.insert(pos.clone(), reachable);
        reachable
    }
}

/// Why a position cannot arise in a legal game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    /// O has more marks than X.
    #[error("too many O's: O has {o} marks and X {x}, but X moves first")]
    TooManyO {
        /// X's on the board.
        x: usize,
        /// O's on the board.
        o: usize,
    },
    /// X has two or more marks more than O.
    #[error("too many X's: X has {x} marks and O {o}, but players alternate")]
    TooManyX {
        /// X's on the board.
        x: usize,
        /// O's on the board.
        o: usize,
    },
    /// A mark over an empty cell under gravity.
    #[error("the mark at cell {cell} floats over an empty cell")]
    Floating {
        /// 1-based cell.
        cell: usize,
    },
    /// Both players have a line.
    #[error("both players have a line; the game stops at the first")]
    BothWon,
    /// The winner's opponent moved after the win.
    #[error("{winner} has a line but {mover} moved after it")]
    MovedAfterWin {
        /// Who has the line.
        winner: char,
        /// Who moved afterwards.
        mover: char,
    },
    /// No sequence of legal moves leads there.
    #[error("no legal game reaches it: every way back passes through a finished position")]
    NoPath,
}

/// Why [`check_position`] could not decide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The board has more cells than the retrograde search handles.
    #[error(transparent)]
    TooLarge(#[from] crate::games::board::TooLarge),
    /// The search remembered as many positions as allowed without finding a way back.
    #[error("the check gave up after {0} positions; the answer is unknown")]
    GaveUp(usize),
}

/// Whether a position of `rules` can arise from the empty board, with the reason when it cannot.
/// Simple reasons (counts, floating marks, lines) are named first, by the same checks that
/// validate positions; the rest is decided by the retrograde search, which remembers at most
/// `max_nodes` positions (`Err` past that).
///
/// ```
/// use xo_core::rules::{parse_game, Setup};
/// use xo_core::solve::reach::{check_position, Unreachable};
/// let ttt = parse_game("tictactoe").unwrap();
/// let check = |t: &str| check_position(&ttt, &Setup::parse(&ttt, t).unwrap(), 1 << 20).unwrap();
/// assert_eq!(check("XO......."), None);
/// assert_eq!(check("OO.X....."), Some(Unreachable::TooManyO { x: 1, o: 2 }));
/// assert_eq!(check("XXXOO.O.."), Some(Unreachable::MovedAfterWin { winner: 'X', mover: 'O' }));
/// ```
pub fn check_position(
    rules: &crate::rules::Rules,
    setup: &crate::rules::Setup,
    max_nodes: usize,
) -> Result<Option<Unreachable>, CheckError> {
    use crate::games::board::Board;
    use crate::rules::{Marks, PositionError};
    let board = Board::new(rules)?;
    let unreachable = match setup.clone().validate(rules) {
        Err(PositionError::Counts { x, o }) if o > x => Some(Unreachable::TooManyO { x, o }),
        Err(PositionError::Counts { x, o }) => Some(Unreachable::TooManyX { x, o }),
        Err(PositionError::Floating { cell }) => Some(Unreachable::Floating { cell }),
        Err(PositionError::BothWon) => Some(Unreachable::BothWon),
        // Text and length were checked when the setup was read.
        Err(PositionError::BadChar { .. } | PositionError::Length { .. }) => None,
        Ok(pos) if rules.marks == Marks::Own => {
            // With own marks the player who moved last is the only one who may have a line.
            let x_moved_last = pos.plies() % 2 == 1;
            match (rules.has_pattern_of(pos.cells(), 1), rules.has_pattern_of(pos.cells(), 2)) {
                (true, false) if !x_moved_last => {
                    Some(Unreachable::MovedAfterWin { winner: 'X', mover: 'O' })
                }
                (false, true) if x_moved_last => {
                    Some(Unreachable::MovedAfterWin { winner: 'O', mover: 'X' })
                }
                _ => None,
            }
        }
        Ok(_) => None,
    };
    if unreachable.is_some() {
        return Ok(unreachable);
    }
    let mut reach = Reachability::new(&board);
    reach.max_memo = max_nodes;
    let reachable = reach.is_reachable(&board.encode_cells(&setup.cells));
    if !reachable && reach.memo.len() >= max_nodes {
        return Err(CheckError::GaveUp(reach.memo.len()));
    }
    Ok((!reachable).then_some(Unreachable::NoPath))
}
