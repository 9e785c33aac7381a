//! Plain minimax with remoteness: every move of every position, no pruning, no table. Exponential,
//! and obviously right; every faster engine is tested against it on small positions.

use crate::game::GameTree;
use crate::value::Scored;
use crate::Value;

/// The value and remoteness of `pos` for the player to move, by visiting the whole game tree.
/// A winner takes the shortest win, a loser the longest loss.
///
/// ```
/// use xo_core::game::GameTree;
/// use xo_core::rules::{parse_game, Setup};
/// use xo_core::solve::minimax::plain_score;
/// use xo_core::Value;
///
/// let ttt = parse_game("tictactoe").unwrap();
/// let pos = Setup::parse(&ttt, "XX. OO. ...").unwrap().validate(&ttt).unwrap();
/// let s = plain_score(&ttt, &pos);
/// assert_eq!((s.value, s.remoteness), (Value::Win, 1));
/// ```
pub fn plain_score<G: GameTree>(game: &G, pos: &G::Position) -> Scored {
    if let Some(value) = game.outcome(pos) {
        return Scored { value, remoteness: 0 };
    }
    let mut moves = Vec::new();
    game.moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let child = plain_score(game, &game.play(pos, mv));
            Scored { value: -child.value, remoteness: child.remoteness + 1 }
        })
        .max_by_key(|s| preference(*s))
        .expect("an unfinished position has a move")
}

/// Orders results from the mover's point of view: the one order of
/// [`value::preference`](crate::value::preference) (better values first, then quicker wins and
/// slower draws and losses).
///
/// ```
/// use xo_core::solve::minimax::preference;
/// use xo_core::value::{Scored, Value};
/// let s = |value, remoteness| Scored { value, remoteness };
/// assert!(preference(s(Value::Win, 1)) > preference(s(Value::Win, 3)));
/// ```
pub fn preference(s: Scored) -> (Value, i64) {
    crate::value::preference(s.value, Some(s.remoteness))
}
