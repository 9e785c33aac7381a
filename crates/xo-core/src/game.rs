//! The interface every generic engine (counting, reachability, plain minimax) works through.
//!
//! A placement game fills one empty cell per move, so a position's ply count is the number of
//! filled cells and a game lasts at most as many moves as the board has cells.

use crate::Value;
use std::hash::Hash;

/// A two-player game of perfect information, described by its moves and its end.
///
/// Implementors promise: [`GameTree::moves`] yields nothing exactly when
/// [`GameTree::outcome`] is `Some`, and every move increases [`GameTree::plies`] by one.
///
/// ```
/// use xo_core::game::GameTree;
/// use xo_core::rules::parse_game;
/// use xo_core::Value;
/// // Rules themselves are a (slow, obvious) GameTree: play a short LOL strip by hand.
/// let lol = parse_game("lol:3").unwrap();
/// let mut pos = lol.start();
/// for mv in [(0, 1), (2, 1), (1, 2)] {
///     pos = lol.play(&pos, mv); // L at 1, L at 3, O at 2
/// }
/// assert_eq!(lol.outcome(&pos), Some(Value::Loss)); // the player to move has lost
/// assert_eq!(lol.plies(&pos), 3);
/// ```
pub trait GameTree {
    /// A position.
    type Position: Clone + Eq + Hash;
    /// A move, as the engine applies it.
    type Move: Copy;

    /// The position every game starts from.
    fn start(&self) -> Self::Position;

    /// Appends the legal moves of `pos` to `out` (nothing when the game is over).
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// The position after `mv`.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// `Some(value)` for the player to move when the game is over, `None` while it goes on.
    fn outcome(&self, pos: &Self::Position) -> Option<Value>;

    /// How many moves have been made since [`GameTree::start`].
    fn plies(&self, pos: &Self::Position) -> u32;
}

/// A game that can also be played backwards, as reachability checks need.
pub trait Retrograde: GameTree {
    /// Appends to `out` every position from which one legal move leads to `pos` (ignoring whether
    /// that position was itself reachable or already finished).
    fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);
}
