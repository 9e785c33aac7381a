//! Playing through the one entry point: the legal moves of a position and the position after
//! each, the position after one move, and the best move by one tie rule. Front ends that play
//! (`xo play`, the web page) ask these instead of knowing the rules themselves.
//!
//! The best move comes from the exact answer, never chance: the best value; among wins the
//! quickest, among draws and losses the longest; among moves still equal, the first in board
//! order (see [`preference`](crate::value::preference)). When the budget runs out before the
//! exact answer, the best move of the deepest look-ahead that finished within a fixed number of
//! positions is given, marked `proven: false` (see the `deepening` module).

use super::{MoveReport, Query};
use crate::budget::Stopped;
use crate::game::GameTree as _;
use crate::rules::{move_name, move_order, player_to_move, Position, Rules};
use crate::value::preference;
use serde::Serialize;

/// A legal move and the position it leads to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The move's name, as solve reports name it and [`Question::After`](super::Question::After)
    /// reads it.
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it, as canonical text.
    pub position: String,
}

/// The legal moves of a position.
///
/// ```
/// use xo_core::query::{answer, Answer, Query, Question};
/// let q = Query::parse("lol:3", Some("L.."), Question::Moves).unwrap();
/// let Answer::Moves(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// let names: Vec<&str> = r.moves.iter().map(|m| m.name.as_str()).collect();
/// assert_eq!(names, ["2L", "2O", "3L", "3O"]);
/// assert_eq!(r.moves[1].position, "LO.");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovesReport {
    /// The game's canonical name.
    pub game: String,
    /// The position, as canonical text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// Whether the game is over (no moves).
    pub over: bool,
    /// Every legal move in board order, with the position after it.
    pub moves: Vec<LegalMove>,
    /// When the game ended by a completed pattern: its cells, numbered from 1 in reading order
    /// (the line a page draws through the win).
    ///
    /// ```
    /// use xo_core::query::{answer, Answer, Query, Question};
    /// let q = Query::parse("tictactoe", Some("XXXOO...."), Question::Moves).unwrap();
    /// let Answer::Moves(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
    /// assert_eq!((r.over, r.line), (true, Some(vec![1, 2, 3])));
    /// ```
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<usize>>,
}

/// The position after one move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AfterReport {
    /// The game's canonical name.
    pub game: String,
    /// The position the move was played in.
    pub position: String,
    /// The move, by its canonical name.
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it.
    pub after: String,
    /// Who is to move after it.
    pub to_move: String,
    /// Whether the move ended the game.
    pub over: bool,
}

/// The best move of a position.
///
/// ```
/// use xo_core::query::{answer, Answer, Query, Question};
/// let q = Query::parse("tictactoe", Some("XX.OO...."), Question::Best).unwrap();
/// let Answer::Best(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// assert_eq!((r.best.unwrap().name.as_str(), r.proven), ("3", true));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestReport {
    /// The game's canonical name.
    pub game: String,
    /// The position, as canonical text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// The best move with its value and remoteness, `null` when the game is over (or the budget
    /// ran out before any move was known). From the look-ahead (`proven: false`), a move whose
    /// value its plies do not settle is reported as a draw with no remoteness.
    pub best: Option<MoveReport>,
    /// Whether `best` comes from the exact answer (false: from the look-ahead that runs when
    /// the budget did not allow it).
    pub proven: bool,
    /// Over the budget: how many plies deep the look-ahead that chose `best` searched (the
    /// deepest round that finished within its
    /// [`LOOK_AHEAD_NODES`](super::LOOK_AHEAD_NODES) positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub look_ahead_plies: Option<u32>,
    /// Which engine answered.
    pub engine: &'static str,
    /// Why the exact answer is missing: the budget reached, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the exact answer is missing: which budget, and how far the engine got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// The best of `moves` by the one tie rule: by [`preference`], then the first in the order
/// given (board order in reports).
///
/// ```
/// use xo_core::query::{best_move, MoveReport};
/// use xo_core::Value;
/// let m = |name: &str, value, remoteness| MoveReport { name: name.into(), value, remoteness, score: None };
/// let moves = [m("1", Value::Draw, Some(8)), m("2", Value::Win, Some(5)), m("3", Value::Win, Some(3)), m("4", Value::Win, Some(3))];
/// assert_eq!(best_move(&moves).unwrap().name, "3");
/// let draws = [m("1", Value::Loss, Some(2)), m("5", Value::Draw, Some(8)), m("7", Value::Draw, Some(8))];
/// assert_eq!(best_move(&draws).unwrap().name, "5");
/// assert!(best_move(&[]).is_none());
/// ```
pub fn best_move(moves: &[MoveReport]) -> Option<&MoveReport> {
    let mut best: Option<&MoveReport> = None;
    for m in moves {
        if best
            .is_none_or(|b| preference(m.value, m.remoteness) > preference(b.value, b.remoteness))
        {
            best = Some(m);
        }
    }
    best
}

/// The legal moves of `pos` in board order, each with the position after it.
pub(super) fn moves(query: &Query, rules: &Rules, pos: &Position) -> MovesReport {
    let mut legal = Vec::new();
    rules.moves(pos, &mut legal);
    let named =
        |&(cell, mark): &(usize, u8)| crate::games::board::BoardMove { cell: cell as u8, mark };
    legal.sort_by_key(|m| move_order(rules, named(m)));
    MovesReport {
        game: query.game().name(),
        position: query.position_text(),
        to_move: player_to_move(rules, pos.plies()).into(),
        over: legal.is_empty(),
        line: legal
            .is_empty()
            .then(|| {
                let cells = pos.cells();
                rules.patterns().into_iter().find(|p| p.iter().all(|&(c, m)| cells[c] == m))
            })
            .flatten()
            .map(|p| p.iter().map(|&(c, _)| c + 1).collect()),
        moves: legal
            .iter()
            .map(|m| LegalMove {
                name: move_name(rules, named(m)),
                position: rules.play(pos, *m).to_text(),
            })
            .collect(),
    }
}

/// The report of a move played when the query was prepared.
pub(super) fn after(query: &Query, rules: &Rules, mv: &str, after: &Position) -> AfterReport {
    AfterReport {
        game: query.game().name(),
        position: query.position_text(),
        name: mv.to_string(),
        after: after.to_text(),
        to_move: player_to_move(rules, after.plies()).into(),
        over: rules.outcome(after).is_some(),
    }
}

/// The best move from a solve report's moves (`Ok`), or, when the solve stopped, from the
/// deepest look-ahead that finished.
pub(super) fn best(
    query: &Query,
    rules: &Rules,
    pos: &Position,
    solved: Result<super::SolveReport, Stopped>,
) -> BestReport {
    let mut report = BestReport::of(query, player_to_move(rules, pos.plies()));
    match solved {
        Ok(solved) => report.best = best_move(solved.moves.as_deref().unwrap_or(&[])).cloned(),
        Err(stopped) => {
            if let Some((moves, depth)) =
                super::deepening::deepest(rules, pos, super::deepening::LOOK_AHEAD_NODES)
            {
                report.best = best_move(&moves).cloned();
                report.look_ahead_plies = Some(depth);
            }
            report.stopped_by(stopped);
        }
    }
    report
}

impl BestReport {
    /// The report of `query` with no move yet, proven until [`stopped_by`](Self::stopped_by).
    pub(super) fn of(query: &Query, to_move: &str) -> BestReport {
        BestReport {
            game: query.game().name(),
            position: query.position_text(),
            to_move: to_move.into(),
            best: None,
            proven: true,
            look_ahead_plies: None,
            engine: query.engine().name(),
            reason: None,
            stopped: None,
        }
    }

    /// Marks the report as not proven: the exact answer stopped at `stopped`.
    pub(super) fn stopped_by(&mut self, stopped: Stopped) {
        self.proven = false;
        self.reason = Some(stopped.to_string());
        self.stopped = Some(stopped);
    }

    /// The report as an answer, or the stop when the budget ran out before any move was known.
    pub(super) fn into_answer(self) -> Result<super::Answer, Stopped> {
        match self.stopped {
            Some(stopped) if self.best.is_none() => Err(stopped),
            _ => Ok(super::Answer::Best(self)),
        }
    }
}
