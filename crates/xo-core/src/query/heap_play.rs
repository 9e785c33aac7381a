//! Playing octal games through the one entry point, as [`play`](super::play) does for placement
//! games: the legal moves of a sum of heaps and the heaps after each, the heaps after one move,
//! and the best move. Front ends (the web page, `xo moves`) ask these instead of generating the
//! octal code's moves themselves.
//!
//! A move is named `H:K` or `H:K:L,L...`: heap `H` (1-based, in the order given), `K` tokens
//! removed, and the heaps it leaves in its place, smallest first (none when the heap is taken
//! whole). The heaps left take the moved heap's place in the position.
//!
//! ```
//! use xo_core::request::Request;
//! use xo_core::threads::Runner;
//! use xo_core::query::{answer, Answer, Query, Question};
//! let q = Request::new("kayles").at("3 1").asking(Question::Moves).prepare(&[], Runner::Pool).unwrap();
//! let Answer::Moves(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
//! let names: Vec<&str> = r.moves.iter().map(|m| m.name.as_str()).collect();
//! assert_eq!(names, ["1:1:1,1", "1:1:2", "1:2:1", "2:1"]);
//! assert_eq!(r.moves[0].position, "1 1 1");
//! ```

use super::heap_moves::{name, replaced, text};
use super::play::best_move;
use super::prepared::Query;
use super::report::{AfterReport, BestReport, LegalMove, MoveReport, MovesReport, SolveReport};
use crate::budget::Stopped;
use crate::games::octal::OctalMoves;
use crate::Value;

/// The legal moves of `heaps` (checked listable when the plan was made), by heap, then tokens
/// removed, then leaves, each with the heaps after it.
pub(super) fn moves(query: &Query, moves: &OctalMoves, heaps: &[usize]) -> MovesReport {
    let mut legal = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for (removed, leaves) in moves.in_heap(h) {
            let position = text(&replaced(heaps, i, &leaves));
            legal.push(LegalMove { name: name(i + 1, removed, &leaves), position });
        }
    }
    MovesReport {
        game: query.game().name(),
        position: query.position_text(),
        to_move: "first player".into(),
        over: legal.is_empty(),
        moves: legal,
        line: None,
    }
}

/// The report of a move played when the query was prepared.
pub(super) fn after(query: &Query, moves: &OctalMoves, mv: &str, after: &[usize]) -> AfterReport {
    AfterReport {
        game: query.game().name(),
        position: query.position_text(),
        name: mv.to_string(),
        after: text(after),
        to_move: "second player".into(),
        over: after.iter().all(|&h| moves.count_in_heap(h) == 0),
    }
}

/// The best move from the solve report of the heaps: by search, the best by the one tie rule;
/// by Grundy values, the first winning move, or, in a lost position, the first move (every move
/// loses; how long each lasts is not known).
pub(super) fn best(
    query: &Query,
    moves: &OctalMoves,
    heaps: &[usize],
    solved: Result<SolveReport, Stopped>,
) -> BestReport {
    let mut report = BestReport::of(query, "first player");
    let solved = match solved {
        Ok(solved) => solved,
        Err(stopped) => {
            report.stopped_by(stopped);
            return report;
        }
    };
    report.best = if let Some(scored) = &solved.heap_moves {
        let all: Vec<MoveReport> = scored
            .iter()
            .map(|m| MoveReport {
                name: name(m.heap, m.removed, &m.leaves),
                value: m.value,
                remoteness: Some(m.remoteness),
                score: None,
                line: None,
            })
            .collect();
        best_move(&all).cloned()
    } else if let Some(w) = solved.winning_moves.as_ref().and_then(|w| w.first()) {
        let name = name(w.heap, w.removed, &w.leaves);
        Some(MoveReport { name, value: Value::Win, remoteness: None, score: None, line: None })
    } else {
        first_move(moves, heaps).map(|name| MoveReport {
            name,
            value: Value::Loss,
            remoteness: None,
            score: None,
            line: None,
        })
    };
    report
}

/// The first move of `heaps` in listing order, found without listing the moves.
fn first_move(moves: &OctalMoves, heaps: &[usize]) -> Option<String> {
    heaps.iter().enumerate().find_map(|(i, &h)| {
        let below = |ks: &[usize], least: usize| -> Vec<usize> {
            ks.iter().copied().filter(|&k| h >= k + least && h > k).collect()
        };
        let whole = moves.take_all.iter().filter(|&&k| k == h).map(|&k| (k, Vec::new()));
        let some = below(&moves.take_some, 1).into_iter().map(|k| (k, vec![h - k]));
        let two = below(&moves.split2, 2).into_iter().map(|k| (k, vec![1, h - k - 1]));
        let three = below(&moves.split3, 3).into_iter().map(|k| (k, vec![1, 1, h - k - 2]));
        let first = whole.chain(some).chain(two).chain(three).min()?;
        Some(name(i + 1, first.0, &first.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::OctalGame;

    /// The first move found without listing is the first listed, and the count is the
    /// listing's length, for every heap up to 40 of games of every kind of move.
    #[test]
    fn first_move_and_count_agree_with_the_listing() {
        for code in ["0.77", "0.07", "0.137", "4.7", "0.6", "0.4f", "0.8", "0.f3", "0.33", "0.51"] {
            let moves = code.parse::<OctalGame>().unwrap().moves();
            for h in 0..40 {
                let listed = moves.in_heap(h);
                assert_eq!(moves.count_in_heap(h), listed.len() as u128, "{code} heap {h}");
                let first = listed.first().map(|(k, l)| name(1, *k, l));
                assert_eq!(first_move(&moves, &[h]), first, "{code} heap {h}");
                for (k, l) in &listed {
                    assert!(moves.allows(h, *k, l), "{code} heap {h}: {k} {l:?}");
                }
            }
        }
    }
}
