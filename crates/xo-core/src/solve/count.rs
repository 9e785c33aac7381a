//! Counting games (move sequences) by who wins them, memoised over positions.
//!
//! Two games differ when their move sequences differ, even through the same positions, so the count
//! of a position is the sum of its children's counts; memoising on the position makes that linear in
//! the number of reachable positions rather than in the (far larger) number of games.

use crate::game::GameTree;
use crate::Value;
use std::collections::HashMap;
use std::ops::Add;

/// How many games end with each result. "First" is the player who moved first from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct GameCounts {
    /// Games the first player wins.
    pub first: u128,
    /// Games the second player wins.
    pub second: u128,
    /// Games nobody wins.
    pub draws: u128,
}

impl GameCounts {
    /// All games counted.
    ///
    /// ```
    /// use xo_core::solve::count::GameCounts;
    /// assert_eq!(GameCounts { first: 1, second: 2, draws: 3 }.total(), 6);
    /// ```
    pub fn total(&self) -> u128 {
        self.first + self.second + self.draws
    }
}

impl Add for GameCounts {
    type Output = GameCounts;

    fn add(self, o: GameCounts) -> GameCounts {
        GameCounts {
            first: self.first + o.first,
            second: self.second + o.second,
            draws: self.draws + o.draws,
        }
    }
}

/// The single game that a finished position is, attributed to its winner.
fn finished<G: GameTree>(game: &G, pos: &G::Position, value: Value) -> GameCounts {
    let mover_is_first = game.plies(pos) % 2 == 0;
    let first_wins = match value {
        Value::Draw => return GameCounts { draws: 1, ..GameCounts::default() },
        Value::Win => mover_is_first,
        Value::Loss => !mover_is_first,
    };
    if first_wins {
        GameCounts { first: 1, ..GameCounts::default() }
    } else {
        GameCounts { second: 1, ..GameCounts::default() }
    }
}

/// A memoised game counter; keep one alive to answer many positions of the same game.
///
/// ```
/// use xo_core::games::board::{Board, BoardPosition};
/// use xo_core::rules::parse_game;
/// use xo_core::solve::count::GameCounter;
///
/// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let mut counter = GameCounter::new(&ttt);
/// // X in a corner, O in the centre: many games remain.
/// let c = counter.count(&BoardPosition { a: 0b1, b: 0b10000 });
/// assert!(c.first > c.second);
/// ```
pub struct GameCounter<'g, G: GameTree> {
    game: &'g G,
    memo: HashMap<G::Position, GameCounts>,
}

impl<'g, G: GameTree> GameCounter<'g, G> {
    /// A counter with an empty memo.
    pub fn new(game: &'g G) -> Self {
        GameCounter { game, memo: HashMap::new() }
    }

    /// Counts the games continuing from `pos`, the position itself included.
    pub fn count(&mut self, pos: &G::Position) -> GameCounts {
        if let Some(value) = self.game.outcome(pos) {
            return finished(self.game, pos, value);
        }
        if let Some(&c) = self.memo.get(pos) {
            return c;
        }
        let mut moves = Vec::new();
        self.game.moves(pos, &mut moves);
        let total = moves
            .into_iter()
            .map(|m| self.count(&self.game.play(pos, m)))
            .fold(GameCounts::default(), Add::add);
        self.memo.insert(pos.clone(), total);
        total
    }
}

/// Counts the games continuing from `pos` with a fresh memo.
///
/// ```
/// use xo_core::game::GameTree;
/// use xo_core::games::board::Board;
/// use xo_core::rules::parse_game;
/// use xo_core::solve::count::count_games;
/// let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// assert_eq!(count_games(&ttt, &ttt.start()).total(), 255_168);
/// ```
pub fn count_games<G: GameTree>(game: &G, pos: &G::Position) -> GameCounts {
    GameCounter::new(game).count(pos)
}
