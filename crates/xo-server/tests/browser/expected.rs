//! What the page should show, from `xo_core` itself: the solve report and the answer to a
//! request, the moves to mark best, a value turned round, and the names of heap moves.

use serde_json::Value;
use xo_core::budget::{Budget, Meter};
use xo_core::query::{answer, Query, Question};

/// The report `xo solve GAME POSITION --json` prints, from the core library.
pub fn core_report(game: &str, position: &str) -> Value {
    let query = Query::parse(game, Some(position), Question::Analysis { winning_only: false })
        .unwrap_or_else(|e| panic!("{game} {position}: {e}"));
    let report =
        answer(&query, &Meter::new(Budget::default())).expect("answered within the default budget");
    serde_json::to_value(report).unwrap()
}

/// The core's answer to `request` (JSON) within the request's budget, as JSON.
pub fn core_ask(request: Value) -> Value {
    let asked: xo_core::request::Request = serde_json::from_value(request.clone()).unwrap();
    let budget = asked.budget(Budget::default()).unwrap();
    let query = asked.prepare(&[], 1).unwrap_or_else(|e| panic!("{request}: {e}"));
    let answer = answer(&query, &Meter::new(budget)).expect("answered within the budget");
    serde_json::to_value(answer).unwrap()
}

/// The moves the page should mark best: the best value's quickest win or slowest loss (every
/// move of the best value when remoteness is not known, and every drawing move).
pub fn best_moves(moves: &[Value]) -> Vec<String> {
    let rank = |v: &Value| match v["value"].as_str().unwrap() {
        "win" => 2,
        "draw" => 1,
        _ => 0,
    };
    let Some(top) = moves.iter().map(rank).max() else { return vec![] };
    let tops: Vec<&Value> = moves.iter().filter(|m| rank(m) == top).collect();
    let rs: Vec<u64> = tops.iter().filter_map(|m| m["remoteness"].as_u64()).collect();
    let want = match top {
        2 => rs.iter().min().copied(),
        0 => rs.iter().max().copied(),
        _ => None,
    };
    tops.iter()
        .filter(|m| want.is_none() || m["remoteness"].as_u64() == want)
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// The value the player who just moved got: the value after the move, turned round.
pub fn flip(value: &str) -> &'static str {
    match value {
        "win" => "loss",
        "loss" => "win",
        "draw" => "draw",
        other => panic!("no value {other}"),
    }
}

/// A move of a solve report's `heap_moves` or `winning_moves` by the name the core's moves
/// question gives it (`H:K`, or `H:K:L,L` with the heaps left, smallest first).
pub fn heap_move_name(m: &Value) -> String {
    let mut leaves: Vec<u64> =
        m["leaves"].as_array().unwrap().iter().map(|l| l.as_u64().unwrap()).collect();
    leaves.sort();
    let leaves: Vec<String> = leaves.iter().map(u64::to_string).collect();
    let name = format!("{}:{}", m["heap"], m["removed"]);
    if leaves.is_empty() {
        name
    } else {
        format!("{name}:{}", leaves.join(","))
    }
}
