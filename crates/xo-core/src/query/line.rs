//! Why a move has its value: its principal variation, the move then perfect play to the end of
//! the game. Each step asks the query's own engine for every move's value and remoteness of the
//! position reached and plays the best by the one tie rule ([`best_move`]): the winner the
//! quickest win, the loser (and both sides of a draw) the longest game. So the line of a move
//! with remoteness `r` has `r` moves and ends in the position its value says, and replaying it
//! checks the answer.
//!
//! ```
//! use xo_core::budget::Meter;
//! use xo_core::query::{answer, Answer};
//! use xo_core::request::Request;
//! use xo_core::threads::Runner;
//! let mut r = Request::new("tictactoe").at("XX. OO. ...");
//! r.line = true;
//! let q = r.prepare(&[], Runner::Pool).unwrap();
//! let Answer::Solve(report) = answer(&q, &Meter::default()).unwrap() else { panic!() };
//! let moves = report.moves.unwrap();
//! assert_eq!(moves[0].line.as_deref(), Some(&["3".to_string()][..])); // X wins at once
//! for m in &moves {
//!     assert_eq!(m.line.as_ref().unwrap().len() as u32, m.remoteness.unwrap());
//! }
//! ```

use super::plan::{Asked, Plan};
use super::play::best_move;
use super::prepared::{Query, Source};
use super::question::Question;
use super::report::SolveReport;
use super::solve;
use crate::budget::{Meter, Stopped};
use crate::game::GameTree as _;
use crate::rules::{parse_move, Position, Rules};

/// Puts the principal variation of each of `report`'s moves into it, within `meter`.
pub(super) fn add_lines(
    query: &Query,
    report: &mut SolveReport,
    meter: &Meter,
) -> Result<(), Stopped> {
    let (Some(rules), Some(start)) = (query.rules(), query.position()) else {
        return Ok(());
    };
    for m in report.moves.iter_mut().flatten() {
        m.line = Some(line_of(query, rules, start, &m.name, meter)?);
    }
    Ok(())
}

/// The position after the move named `name`, if it is legal.
fn after(rules: &Rules, pos: &Position, name: &str) -> Option<Position> {
    let mv = parse_move(rules, pos, name)?;
    Some(rules.play(pos, (mv.cell as usize, mv.mark)))
}

/// The move `first` from `start`, then the best move of each position reached until the game
/// ends.
fn line_of(
    query: &Query,
    rules: &Rules,
    start: &Position,
    first: &str,
    meter: &Meter,
) -> Result<Vec<String>, Stopped> {
    let analysis = Question::Analysis { winning_only: false };
    let mut line = vec![first.to_string()];
    let mut pos = after(rules, start, first);
    while let Some(here) = pos.take().filter(|p| rules.outcome(p).is_none()) {
        meter.check()?;
        // A position reached by legal moves from a valid one is valid: a refusal here cannot
        // happen, and would end the line short (which the length check of the tests catches).
        let text = here.to_text();
        let Ok(step) =
            Query::prepare(query.game().clone(), Source::Text(Some(&text)), analysis, None)
        else {
            break;
        };
        let mut step = step.with_threads(query.threads());
        if let Some(book) = query.book() {
            step = step.with_book(book.clone());
        }
        let Plan::Solve(solver, _) = step.plan() else { break };
        let solved = solve::solve(&step, solver, Asked::of(analysis), meter)?;
        let Some(best) = best_move(solved.moves.as_deref().unwrap_or_default()) else { break };
        line.push(best.name.clone());
        pos = after(rules, &here, &best.name);
    }
    Ok(line)
}
