//! The dispatch from a prepared query to the engine its plan names ([`answer`]), and the
//! answer's shape when the budget stops it first ([`Query::unanswered`]). Apart from
//! `mod.rs`, which only declares and re-exports, so that no engine's file imports its parent.

use super::count;
use super::heap_play;
use super::line;
use super::plan::{self, Plan};
use super::play;
use super::prepared::Query;
use super::question::Question;
use super::report::{
    Answer, BestReport, CheckReport, CountReport, LengthSplit, SolveReport, StoppedReport,
};
use super::sequence::sequence;
use super::solve;
use super::threats;
use crate::budget::{Meter, Stopped};
use crate::rules::player_to_move;

/// Answers `query` within `meter`: the engine [`Query`] chose runs until it has the answer or
/// the meter stops it.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::budget::{Budget, Limit, Meter};
/// use xo_core::query::{answer, Query, Question};
/// let query = Request::new("connect4").asking(Question::Value).prepare(&[], Runner::Pool).unwrap();
/// let stopped = answer(&query, &Meter::new(Budget::default().with_max_nodes(1000))).unwrap_err();
/// assert_eq!(stopped.limit, Limit::Nodes);
/// ```
pub fn answer(query: &Query, meter: &Meter) -> Result<Answer, Stopped> {
    // The best move is chosen from every move's value and remoteness.
    let full = plan::Asked::of(Question::Analysis { winning_only: false });
    match query.plan() {
        Plan::Solve(solver, asked) => {
            let mut report = solve::solve(query, solver, *asked, meter)?;
            if query.lines() {
                line::add_lines(query, &mut report, meter)?;
            }
            report.threats = query.threats_told();
            Ok(Answer::Solve(report))
        }
        Plan::Best(_, rules, pos) if query.depth().is_some() => {
            play::look_ahead(query, rules, pos, query.depth().unwrap_or(1)).into_answer()
        }
        Plan::Best(solver, rules, pos) => {
            play::best(query, rules, pos, solve::solve(query, solver, full, meter)).into_answer()
        }
        // The census's parallel layers run on the query's threads (the thread policy's number).
        Plan::Count { board, bits, by_length, dense } => {
            crate::threads::run_on(query.threads(), || {
                count::count(query, (board, bits), *by_length, *dense, meter).map(Answer::Count)
            })
        }
        Plan::Check { board, setup } => count::check(query, board, setup, meter).map(Answer::Check),
        Plan::Sequence(seq) => sequence(seq, meter).map(Answer::Sequence),
        Plan::Moves(rules, pos) => Ok(Answer::Moves(play::moves(query, rules, pos))),
        Plan::After { rules, mv, after } => Ok(Answer::After(play::after(query, rules, mv, after))),
        Plan::HeapMoves { moves, heaps } => {
            Ok(Answer::Moves(heap_play::moves(query, moves, heaps)))
        }
        Plan::HeapAfter { moves, mv, after } => {
            Ok(Answer::After(heap_play::after(query, moves, mv, after)))
        }
        Plan::HeapBest { solver, moves, heaps } => {
            let solved = solve::solve(query, solver, full, meter);
            heap_play::best(query, moves, heaps, solved).into_answer()
        }
    }
}

impl Query {
    /// The threats of the position, when the query asks for them (gravity games).
    fn threats_told(&self) -> Option<super::threats::Threats> {
        match self.plan() {
            Plan::Solve(plan::Solver::Gravity64(input), _) if self.threats() => {
                Some(threats::of(input))
            }
            Plan::Solve(plan::Solver::Gravity128(input), _) if self.threats() => {
                Some(threats::of(input))
            }
            _ => None,
        }
    }

    /// The answer's shape with nothing known, for a query that stopped at its budget: the same
    /// fields as a full answer, the value `unknown`, and the reason.
    ///
    /// ```
    /// use xo_core::request::Request;
    /// use xo_core::threads::Runner;
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::query::{answer, Query, Question};
    /// let query = Request::new("connect4").asking(Question::Value).prepare(&[], Runner::Pool).unwrap();
    /// let stopped = answer(&query, &Meter::new(Budget::default().with_max_nodes(10))).unwrap_err();
    /// let json = serde_json::to_value(query.unanswered(&stopped)).unwrap();
    /// assert_eq!(json["value"], "unknown");
    /// assert_eq!(json["stopped"]["limit"], "nodes");
    /// ```
    pub fn unanswered(&self, stop: &Stopped) -> Answer {
        // A nim-sequence keeps its shape, each figure unknown.
        if let Plan::Sequence(seq) = self.plan() {
            return Answer::UnknownSequence(seq.unanswered(stop));
        }
        let reason = Some(stop.to_string());
        let stopped = Some(stop.clone());
        match self.question() {
            Question::Value | Question::Score | Question::Analysis { .. } => {
                let mut report = self.solve_report();
                // A score search may have proved the value before its budget ran out.
                report.value = stop.proven.and_then(|bounds| bounds.value());
                report.reason = reason;
                report.stopped = stopped;
                // The threats are facts of the position: told though the search stopped.
                report.threats = self.threats_told();
                Answer::Solve(report)
            }
            Question::Count { by_length, .. } => Answer::Count(CountReport {
                game: self.game().name(),
                position: self.position_text(),
                counts: None,
                positions: None,
                by_length: by_length.then_some(LengthSplit::Unknown),
                reason,
                stopped,
            }),
            Question::Reach => Answer::Check(CheckReport {
                game: self.game().name(),
                position: self.position_text(),
                reachable: None,
                reason,
                stopped,
            }),
            Question::Best => Answer::Best(BestReport {
                game: self.game().name(),
                position: self.position_text(),
                to_move: self.solve_report().to_move,
                best: None,
                proven: false,
                look_ahead_plies: None,
                engine: self.engine().name(),
                reason,
                stopped,
            }),
            // Answered without search, so never stopped: the stop alone.
            Question::Grundy { .. } | Question::Moves | Question::After => {
                Answer::Stopped(StoppedReport { error: stop.to_string(), stopped: stop.clone() })
            }
        }
    }

    /// A solve report for this query with nothing found yet.
    pub(crate) fn solve_report(&self) -> SolveReport {
        let to_move = match self.rules() {
            Some(rules) => player_to_move(rules, self.plies()),
            None => "first player",
        };
        SolveReport {
            game: self.game().name(),
            position: self.position_text(),
            to_move: to_move.into(),
            value: None,
            remoteness: None,
            moves: None,
            score: None,
            heap_values: None,
            nim_sum: None,
            winning_moves: None,
            heap_moves: None,
            threats: None,
            engine: self.engine().name(),
            note: None,
            reason: None,
            stopped: None,
        }
    }
}
