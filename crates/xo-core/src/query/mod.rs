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
mod dispatch;
mod game;
mod heap_moves;
mod heap_play;
mod judge;
mod line;
mod plan;
mod play;
mod prepared;
mod question;
mod report;
mod sequence;
mod solve;
mod threats;

pub use deepening::LOOK_AHEAD_NODES;
pub use describe::{describe, presets, GameInfo, Removal};
pub use dispatch::answer;
pub use game::{Engine, Game, InputError};
pub use heap_moves::MAX_LISTED_HEAP_MOVES;
pub use judge::{Judge, JudgeError, LOL_TABLE_LIMIT};
pub use plan::{OCTAL_SEARCH_TOKENS, TREBLECROSS_SEARCH_CELLS};
pub use play::best_move;
pub(crate) use prepared::Source;
pub use prepared::{Query, MAX_PLAY_CELLS};
pub use question::Question;
pub use report::{
    AfterReport, Answer, BestReport, CheckReport, CountReport, HeapMove, HeapMoveReport, LegalMove,
    LengthCounts, LengthSplit, MoveReport, MovesReport, OutcomeCounts, SolveReport, StoppedReport,
};
pub use sequence::{SequenceReport, UnknownSequence, MAX_UPTO};
pub use solve::from_database;
pub use threats::{cell_name, SideThreats, Threats};
