//! Game-theoretic values, always relative to the player to move.
//!
//! Keeping values relative (as shakmaty-syzygy's `Wdl` does) makes negamax a one-liner: the value
//! of a position is the best of its children's values, each negated.

use std::ops::Neg;

/// The result of a position under perfect play, for the player about to move.
///
/// `Loss < Draw < Win`, and negation swaps the point of view:
///
/// ```
/// use xo_core::Value;
/// assert!(Value::Loss < Value::Draw && Value::Draw < Value::Win);
/// assert_eq!(-Value::Win, Value::Loss);
/// assert_eq!(-Value::Draw, Value::Draw);
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// The player to move loses against perfect play.
    Loss,
    /// Neither player can force a win.
    Draw,
    /// The player to move can force a win.
    Win,
}

impl Neg for Value {
    type Output = Value;

    fn neg(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }
}

impl Value {
    /// The value as the integer judges print: `1` win, `0` draw, `-1` loss.
    ///
    /// ```
    /// use xo_core::Value;
    /// assert_eq!(Value::Loss.as_i8(), -1);
    /// ```
    pub fn as_i8(self) -> i8 {
        match self {
            Value::Loss => -1,
            Value::Draw => 0,
            Value::Win => 1,
        }
    }
}

impl std::fmt::Display for Value {
    /// The value as xo prints it: `win`, `draw` or `loss`.
    ///
    /// ```
    /// assert_eq!(xo_core::Value::Draw.to_string(), "draw");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

/// A value and how many plies remain under perfect play (its remoteness): a winner hurries, a
/// loser delays, and a drawn game lasts until the board is full. Shared by every engine that
/// tells remoteness.
///
/// ```
/// use xo_core::value::{Scored, Value};
/// let s = Scored { value: Value::Win, remoteness: 3 };
/// assert_eq!(s.remoteness, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scored {
    /// The value for the player to move.
    pub value: Value,
    /// Plies to the end of the game.
    pub remoteness: u32,
}

/// The one order of results from the mover's point of view, which every engine, report and
/// front end ranks moves by: better values first; among wins the quickest, among draws and
/// losses the longest. An unknown remoteness ranks as 0 (moves of engines that tell none are
/// equal within their value). Ties keep board order: see
/// [`best_move`](crate::query::best_move).
///
/// ```
/// use xo_core::value::{preference, Value};
/// assert!(preference(Value::Win, Some(3)) > preference(Value::Win, Some(5)));
/// assert!(preference(Value::Loss, Some(6)) > preference(Value::Loss, Some(2)));
/// assert!(preference(Value::Draw, Some(1)) > preference(Value::Loss, Some(9)));
/// assert!(preference(Value::Draw, Some(8)) > preference(Value::Draw, Some(6)));
/// ```
pub fn preference(value: Value, remoteness: Option<u32>) -> (Value, i64) {
    let r = i64::from(remoteness.unwrap_or(0));
    match value {
        Value::Win => (Value::Win, -r),
        Value::Draw | Value::Loss => (value, r),
    }
}

/// What a score search had proven when its budget ran out: the score (Pascal Pons' convention,
/// for the player to move: positive a win, the sooner the larger; 0 a draw) lies in
/// `at_least..=at_most`. Enough, when both ends have one sign, to tell the value.
///
/// ```
/// use xo_core::value::{ScoreBounds, Value};
/// let b = ScoreBounds { at_least: 1, at_most: 4 };
/// assert_eq!(b.value(), Some(Value::Win));
/// assert_eq!(b.to_string(), "a win for the player to move, score 1 to 4");
/// let b = ScoreBounds { at_least: -3, at_most: 0 };
/// assert_eq!(b.value(), None);
/// assert_eq!(b.to_string(), "at best a draw for the player to move, score -3 to 0");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ScoreBounds {
    /// The least the score can be.
    pub at_least: i32,
    /// The most the score can be.
    pub at_most: i32,
}

impl ScoreBounds {
    /// The value, when the bounds tell it.
    pub fn value(&self) -> Option<Value> {
        if self.at_least >= 1 {
            Some(Value::Win)
        } else if self.at_most <= -1 {
            Some(Value::Loss)
        } else if self.at_least == 0 && self.at_most == 0 {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

impl std::fmt::Display for ScoreBounds {
    /// The bounds in words, for the player to move.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.value() {
            Some(Value::Win) => "a win",
            Some(Value::Loss) => "a loss",
            Some(Value::Draw) => "a draw",
            None if self.at_least == 0 => "at least a draw",
            None if self.at_most == 0 => "at best a draw",
            None => "a score",
        };
        write!(f, "{what} for the player to move, score {} to {}", self.at_least, self.at_most)
    }
}
