//! What the page should show, from `xo_core` itself: the solve report and the answer to a
//! request, the moves to mark best, a value turned round, and the names of heap moves.

use serde_json::Value;
use xo_core::budget::{Budget, Meter};
use xo_core::query::{answer, Question};
use xo_core::request::Request;
use xo_core::threads::Runner;

/// The report `xo solve GAME POSITION --json` prints, from the core library.
pub fn core_report(game: &str, position: &str) -> Value {
    let query = Request::new(game)
        .at(position)
        .asking(Question::Analysis { winning_only: false })
        .prepare(&[], Runner::Pool)
        .unwrap_or_else(|e| panic!("{game} {position}: {e}"));
    let report =
        answer(&query, &Meter::new(Budget::default())).expect("answered within the default budget");
    serde_json::to_value(report).unwrap()
}

/// The core's answer to `request` (JSON) within the request's budget, as JSON.
pub fn core_ask(request: Value) -> Value {
    let asked: xo_core::request::Request = serde_json::from_value(request.clone()).unwrap();
    let budget = asked.budget(Budget::default()).unwrap();
    let query = asked
        .prepare(&[], xo_core::threads::Runner::Pool)
        .unwrap_or_else(|e| panic!("{request}: {e}"));
    let answer = answer(&query, &Meter::new(budget)).expect("answered within the budget");
    serde_json::to_value(answer).unwrap()
}

/// The core's answer to `request` (JSON) with the opening book xo ships for its game, as the
/// command (`xo solve connect4 --moves M --json`) and the server prepare it.
pub fn core_ask_with_book(request: &Value) -> Value {
    let asked: Request = serde_json::from_value(request.clone()).unwrap();
    let budget = asked.budget(Budget::default()).unwrap();
    let query = xo_store::book::prepare(&asked, None, Runner::Pool)
        .unwrap_or_else(|e| panic!("{request}: {e}"));
    let answer = answer(&query, &Meter::new(budget)).expect("answered within the budget");
    serde_json::to_value(answer).unwrap()
}

/// The moves the page should mark best: those tied best by the core's one rule
/// ([`xo_core::value::preference`]: the quickest win, the slowest draw or loss; every move of
/// the best value when remoteness is not known).
pub fn best_moves(moves: &[Value]) -> Vec<String> {
    let preference = |m: &Value| {
        let value = match m["value"].as_str().unwrap() {
            "win" => xo_core::Value::Win,
            "draw" => xo_core::Value::Draw,
            _ => xo_core::Value::Loss,
        };
        let remoteness = m["remoteness"].as_u64().map(|r| r as u32);
        xo_core::value::preference(value, remoteness)
    };
    let Some(top) = moves.iter().map(preference).max() else { return vec![] };
    moves
        .iter()
        .filter(|m| preference(m) == top)
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
