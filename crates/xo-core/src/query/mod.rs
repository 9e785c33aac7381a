//! The one entry point for every question xo answers.
//!
//! A caller (the CLI, the HTTP server, Python, the page, a program using the library) fills a
//! [`Request`](crate::request::Request) with a game, a position and a question;
//! [`Request::prepare`](crate::request::Request::prepare), the one way to a [`Query`], checks
//! all of it once and makes the plan (the engine, holding its input already converted and
//! checked), and [`answer`] runs that plan within one [`Meter`] and returns an [`Answer`] or the
//! [`Stopped`] reason. Callers never choose engines, convert positions for them or invent budgets of their
//! own, so every caller gets the same engine, the same limits and the same report for the same
//! question. Adding an engine touches [`Query`]'s choice and this module's dispatch, nothing
//! outside the core.
//!
//! ```
//! use xo_core::request::Request;
//! use xo_core::threads::Runner;
//! use xo_core::budget::Meter;
//! use xo_core::query::{answer, Answer, Query, Question};
//! use xo_core::Value;
//!
//! let query = Request::new("tictactoe").at("XX. OO. ...").asking(Question::Analysis { winning_only: false }).prepare(&[], Runner::Pool).unwrap();
//! let Answer::Solve(report) = answer(&query, &Meter::new(Default::default())).unwrap() else { panic!() };
//! assert_eq!((report.value, report.remoteness), (Some(Value::Win), Some(1)));
//! let moves = report.moves.unwrap();
//! assert_eq!(moves.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["3", "6", "7", "8", "9"]);
//! ```

mod count;
mod deepening;
mod describe;
mod game;
mod heap_play;
mod judge;
mod plan;
mod play;
mod prepared;
mod report;
mod sequence;
mod solve;

pub use deepening::LOOK_AHEAD_NODES;
pub use describe::{describe, presets, GameInfo, Removal};
pub use game::{Engine, Game, InputError};
pub use heap_play::MAX_LISTED_HEAP_MOVES;
pub use judge::{Judge, JudgeError, LOL_TABLE_LIMIT};
pub use plan::{OCTAL_SEARCH_TOKENS, TREBLECROSS_SEARCH_CELLS};
pub use play::{best_move, AfterReport, BestReport, LegalMove, MovesReport};
pub(crate) use prepared::Source;
pub use prepared::{Query, MAX_PLAY_CELLS};
pub use report::{
    Answer, CheckReport, CountReport, HeapMove, HeapMoveReport, LengthCounts, LengthSplit,
    MoveReport, OutcomeCounts, SolveReport, StoppedReport,
};
pub(crate) use sequence::sequence;
pub use sequence::{SequenceReport, UnknownSequence, MAX_UPTO};
pub use solve::from_database;

use crate::budget::{Meter, Stopped};
use crate::rules::player_to_move;
use plan::Plan;

/// What is asked of a position (or, for [`Question::Grundy`], of a game): the checked form of a
/// request's [`Ask`](crate::request::Ask) with the flags that refine it.
/// [`Request::question`](crate::request::Request::question) makes it from them and
/// [`Request::asking`](crate::request::Request::asking) puts it back; a [`Query`] holds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Its value for the player to move, as fast as possible.
    Value,
    /// Its value and remoteness (and, for gravity games, Pascal Pons' score), without the moves.
    Score,
    /// Its value, remoteness and every move's value (only the winning moves when
    /// `winning_only`), as far as the engine tells them.
    Analysis {
        /// List only the moves that win.
        winning_only: bool,
    },
    /// The games continuing from it, by outcome, and the distinct positions on the way.
    Count {
        /// Also split the games by length.
        by_length: bool,
        /// Merge depths in dense tables indexed by rank where they fit, instead of hash maps.
        dense: bool,
    },
    /// Whether it can arise in a legal game from the empty board.
    Reach,
    /// The nim-sequence of the game (an octal game, or Treblecross as .007) up to heap `upto`.
    Grundy {
        /// The largest heap.
        upto: usize,
    },
    /// Its legal moves, each with the position after it.
    Moves,
    /// The position after a move (the request's `move`).
    After,
    /// Its best move, by the one tie rule of [`best_move`].
    Best,
}

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
        Plan::Solve(solver, asked) => solve::solve(query, solver, *asked, meter).map(Answer::Solve),
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
            engine: self.engine().name(),
            note: None,
            reason: None,
            stopped: None,
        }
    }
}
