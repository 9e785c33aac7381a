//! The score convention (see the module's "Scores"): a score as a value and remoteness, and the
//! score of a game won at a given ply.

use crate::games::gravity::{Bits, GravityBoard};
use crate::value::Scored;
use crate::Value;

/// The value and remoteness (plies to the end under perfect play) of `score` for the player to
/// move in a position with `plies` stones on `board`.
///
/// ```
/// use xo_core::games::gravity::GravityBoard;
/// use xo_core::solve::gravity::to_scored;
/// use xo_core::Value;
/// let c4 = GravityBoard::new(7, 6, 4).unwrap();
/// // The empty board scores 1: the first player wins with their 21st stone, ply 41.
/// let s = to_scored(&c4, 0, 1);
/// assert_eq!((s.value, s.remoteness), (Value::Win, 41));
/// // A win at once from 5 stones: (44 - 6) / 2 = 19.
/// assert_eq!(to_scored(&c4, 5, 19).remoteness, 1);
/// assert_eq!(to_scored(&c4, 5, 0).remoteness, 37);
/// ```
pub fn to_scored<B: Bits>(board: &GravityBoard<B>, plies: u32, score: i32) -> Scored {
    let n = board.cells() as i32;
    let m = plies as i32;
    if score == 0 {
        return Scored { value: Value::Draw, remoteness: (n - m).max(0) as u32 };
    }
    // The winner moves at plies of the mover's parity on a win, the other parity on a loss.
    let (value, parity) = if score > 0 { (Value::Win, m + 1) } else { (Value::Loss, m) };
    let s = score.abs();
    // (n + 2 - p) / 2 == s  <=>  p in {n + 2 - 2s, n + 1 - 2s}: take the one of the right parity.
    let p = if (n + 2 - 2 * s - parity) % 2 == 0 { n + 2 - 2 * s } else { n + 1 - 2 * s };
    Scored { value, remoteness: (p - m).max(0) as u32 }
}

/// The score of a game won at ply `p`, for the winner.
pub(crate) fn win_at(n: i32, p: i32) -> i32 {
    (n + 2 - p) / 2
}

pub(super) fn sign_value(score: i32) -> Value {
    match score.signum() {
        1 => Value::Win,
        -1 => Value::Loss,
        _ => Value::Draw,
    }
}
