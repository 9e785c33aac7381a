//! Whether a position can arise in a legal game, by playing backwards.
//!
//! A position is reachable when it is the start, or when some position one move earlier is
//! reachable and was not already finished (a game stops at its first win). Un-playing the last
//! mover's marks finds those earlier positions without any rule written per game.

use crate::budget::{Meter, Reservation, Stopped, Ticker};
use crate::game::Retrograde;
use std::collections::HashMap;

/// A memoised retrograde reachability checker.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::board::{Board, BoardPosition};
/// use xo_core::rules::parse_game;
/// use xo_core::solve::reach::Reachability;
///
/// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let mut reach = Reachability::new(&ttt);
/// let meter = Meter::unlimited();
/// assert_eq!(reach.is_reachable(&BoardPosition { a: 0b1, b: 0 }, &meter), Ok(true));
/// // Three O's against no X: O cannot have moved first.
/// assert_eq!(reach.is_reachable(&BoardPosition { a: 0, b: 0b111 }, &meter), Ok(false));
/// ```
pub struct Reachability<'g, G: Retrograde> {
    game: &'g G,
    memo: HashMap<G::Position, bool>,
    /// Positions not yet reported to the query's meter, and its stop; once stopped, answers are
    /// "not reachable", which [`Reachability::is_reachable`] turns into the stop.
    ticker: Ticker,
}

/// Bytes a remembered position takes in the memo (key, answer, hash table overhead).
const MEMO_BYTES: u64 = 64;

impl<'g, G: Retrograde> Reachability<'g, G> {
    /// A checker with an empty memo.
    pub fn new(game: &'g G) -> Self {
        Reachability { game, memo: HashMap::new(), ticker: Ticker::default() }
    }

    /// Whether `pos` occurs in some legal game from the start, within `meter` (each position
    /// visited is a node; the memo is reserved on the meter as it grows).
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// use xo_core::games::board::{Board, BoardPosition};
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::reach::Reachability;
    /// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// let mut reach = Reachability::new(&ttt);
    /// let pos = BoardPosition { a: 0b1_0000_0011, b: 0b0_0011_0000 };
    /// assert_eq!(reach.is_reachable(&pos, &Meter::new(Budget::default())), Ok(true));
    /// let tiny = Meter::new(Budget::default().with_max_nodes(1));
    /// assert_eq!(Reachability::new(&ttt).is_reachable(&pos, &tiny).unwrap_err().limit, Limit::Nodes);
    /// ```
    pub fn is_reachable(&mut self, pos: &G::Position, meter: &Meter) -> Result<bool, Stopped> {
        self.ticker.reset();
        let reachable = match meter.reserve(self.memo_bytes()) {
            Ok(mut memo) => self.search(pos, meter, &mut memo),
            Err(stopped) => {
                self.ticker.stop(stopped);
                false
            }
        };
        match self.ticker.finish(meter, reachable) {
            Err(stopped) => {
                let held = self.memo.len();
                // Answers found after the stop may be wrong: forget them all.
                self.memo.clear();
                Err(stopped.reaching(format!("{held} positions remembered")))
            }
            ok => ok,
        }
    }

    /// The bytes of the memo with one more position.
    fn memo_bytes(&self) -> u64 {
        (self.memo.len() as u64 + 1).saturating_mul(MEMO_BYTES)
    }

    /// Counts a visited position against the meter, and the memo's memory; false once stopped.
    fn within_budget(&mut self, meter: &Meter, memo: &mut Reservation) -> bool {
        if self.ticker.is_stopped() {
            return false;
        }
        if let Err(stopped) = memo.grow_to(self.memo_bytes()) {
            self.ticker.stop(stopped);
            return false;
        }
        !self.ticker.tick(meter)
    }

    fn search(&mut self, pos: &G::Position, meter: &Meter, memo: &mut Reservation) -> bool {
        if *pos == self.game.start() {
            return true;
        }
        if let Some(&r) = self.memo.get(pos) {
            return r;
        }
        if !self.within_budget(meter, memo) {
            return false;
        }
        let mut preds = Vec::new();
        self.game.unmoves(pos, &mut preds);
        let reachable =
            preds.iter().any(|p| self.game.outcome(p).is_none() && self.search(p, meter, memo));
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
    /// Patterns stand that no single last move completed.
    #[error("no single last move completed every pattern on the board; the game had ended before")]
    MovedAfterEnd,
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
    /// The search reached its budget before finding a way back.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Whether a position of `rules` can arise from the empty board, with the reason when it cannot.
/// Simple reasons (counts, floating marks, lines) are named first, by the same checks that
/// validate positions; the rest is decided by the retrograde search, within `meter`.
///
/// ```
/// use xo_core::rules::{parse_game, Setup};
/// use xo_core::solve::reach::{check_position, Unreachable};
/// let ttt = parse_game("tictactoe").unwrap();
/// let meter = xo_core::budget::Meter::new(Default::default());
/// let check = |t: &str| check_position(&ttt, &Setup::parse(&ttt, t).unwrap(), &meter).unwrap();
/// assert_eq!(check("XO......."), None);
/// assert_eq!(check("OO.X....."), Some(Unreachable::TooManyO { x: 1, o: 2 }));
/// assert_eq!(check("XXXOO.O.."), Some(Unreachable::MovedAfterWin { winner: 'X', mover: 'O' }));
/// ```
pub fn check_position(
    rules: &crate::rules::Rules,
    setup: &crate::rules::Setup,
    meter: &Meter,
) -> Result<Option<Unreachable>, CheckError> {
    let board = crate::games::board::Board::new(rules)?;
    Ok(check_setup(&board, setup, meter)?)
}

/// Like [`check_position`], on the bitboard of the rules (built once by the caller).
///
/// ```
/// use xo_core::games::board::Board;
/// use xo_core::rules::{parse_game, Setup};
/// use xo_core::solve::reach::check_setup;
/// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let setup = Setup::parse(board.rules(), "XXXOO.O..").unwrap();
/// assert!(check_setup(&board, &setup, &Default::default()).unwrap().is_some());
/// ```
pub fn check_setup(
    board: &crate::games::board::Board,
    setup: &crate::rules::Setup,
    meter: &Meter,
) -> Result<Option<Unreachable>, Stopped> {
    use crate::rules::PositionError;
    let rules = board.rules();
    let unreachable = match setup.clone().validate(rules) {
        Err(PositionError::Counts { x, o }) if o > x => Some(Unreachable::TooManyO { x, o }),
        Err(PositionError::Counts { x, o }) => Some(Unreachable::TooManyX { x, o }),
        Err(PositionError::Floating { cell }) => Some(Unreachable::Floating { cell }),
        Err(PositionError::BothWon) => Some(Unreachable::BothWon),
        Err(PositionError::MovedAfterWin { winner, mover }) => {
            Some(Unreachable::MovedAfterWin { winner, mover })
        }
        Err(PositionError::MovedAfterEnd) => Some(Unreachable::MovedAfterEnd),
        // Text and length were checked when the setup was read.
        Err(
            PositionError::BadChar { .. }
            | PositionError::Length { .. }
            | PositionError::IllegalMove { .. }
            | PositionError::Foreign(_),
        ) => None,
        Ok(_) => None,
    };
    if unreachable.is_some() {
        return Ok(unreachable);
    }
    let mut reach = Reachability::new(board);
    let reachable = reach.is_reachable(&board.encode_cells(&setup.cells), meter)?;
    Ok((!reachable).then_some(Unreachable::NoPath))
}
