//! Playing through the one entry point: the legal moves of a position and the position after
//! each, the position after one move, and the best move by one tie rule. Front ends that play
//! (`xo play`, the web page) ask these instead of knowing the rules themselves.
//!
//! The best move comes from the exact answer, never chance: the best value; among wins the
//! quickest, among draws and losses the longest; among moves still equal, the first in board
//! order (see [`preference`](crate::value::preference)). When the budget runs out before the
//! exact answer, the best move of the deepest look-ahead that finished within a fixed number of
//! positions is given, marked `proven: false` (see the `deepening` module).

use super::prepared::Query;
use super::report::{AfterReport, BestReport, LegalMove, MoveReport, MovesReport};
use crate::budget::Stopped;
use crate::game::GameTree as _;
use crate::rules::{move_name, move_order, player_to_move, Position, Rules};
use crate::value::preference;

/// The best of `moves` by the one tie rule: by [`preference`], then the first in the order
/// given (board order in reports).
///
/// ```
/// use xo_core::query::{best_move, MoveReport};
/// use xo_core::Value;
/// let m = |name: &str, value, remoteness| MoveReport { name: name.into(), value, remoteness, score: None, line: None };
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
    solved: Result<super::report::SolveReport, Stopped>,
) -> BestReport {
    let mut report = BestReport::of(query, player_to_move(rules, pos.plies()));
    match solved {
        Ok(solved) => report.best = best_move(solved.moves.as_deref().unwrap_or(&[])).cloned(),
        Err(stopped) => {
            if let Some((moves, depth)) =
                super::deepening::deepest(rules, pos, super::deepening::LOOK_AHEAD_NODES, u32::MAX)
            {
                report.best = best_move(&moves).cloned();
                report.look_ahead_plies = Some(depth);
            }
            report.stopped_by(stopped);
        }
    }
    report
}

/// The best move of a look-ahead at most `depth` plies deep (within the deepening's budget of
/// positions), as asked: a weaker player than the exact answer, marked not proven.
pub(super) fn look_ahead(query: &Query, rules: &Rules, pos: &Position, depth: u32) -> BestReport {
    let mut report = BestReport::of(query, player_to_move(rules, pos.plies()));
    report.proven = false;
    report.reason = Some(format!("a look-ahead of at most {depth} plies, as asked (depth)"));
    if let Some((moves, reached)) =
        super::deepening::deepest(rules, pos, super::deepening::LOOK_AHEAD_NODES, depth)
    {
        report.best = best_move(&moves).cloned();
        report.look_ahead_plies = Some(reached);
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
    pub(super) fn into_answer(self) -> Result<super::report::Answer, Stopped> {
        match self.stopped {
            Some(stopped) if self.best.is_none() => Err(stopped),
            _ => Ok(super::report::Answer::Best(self)),
        }
    }
}
