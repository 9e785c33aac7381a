//! Each move's principal variation (the request's `line`, issue #45), checked by replaying it:
//! every move legal, its length the move's remoteness, its end the move's value, and on boards
//! small enough every step a best move by plain minimax (the quickest win, the longest loss or
//! draw).

use rand::{rngs::StdRng, Rng, SeedableRng};
use xo_core::budget::{Budget, Meter};
use xo_core::game::GameTree as _;
use xo_core::query::{answer, Answer, InputError, SolveReport};
use xo_core::request::Request;
use xo_core::rules::{parse_game, parse_move, Position, Rules};
use xo_core::solve::minimax::plain_score;
use xo_core::threads::Runner;
use xo_core::Value;

/// The analysis of `text` of `game` with every move's line.
fn with_lines(game: &str, at: Option<&str>) -> Result<SolveReport, InputError> {
    let mut request = Request::new(game);
    request.position = at.map(str::to_string);
    request.line = true;
    let query = request.prepare(&[], Runner::Pool)?;
    match answer(&query, &Meter::new(Budget::default())).expect("within the default budget") {
        Answer::Solve(report) => Ok(report),
        other => panic!("a solve report, not {other:?}"),
    }
}

/// Replays every move's line from `start`; with `plain`, checks each step against minimax.
fn replay(rules: &Rules, start: &Position, report: &SolveReport, plain: bool) -> usize {
    let mut steps = 0;
    for m in report.moves.as_ref().expect("moves") {
        let line = m.line.as_ref().unwrap_or_else(|| panic!("move {} has no line", m.name));
        let where_ = format!("{} at {} move {}", rules.name(), start.to_text(), m.name);
        assert_eq!(Some(line.len() as u32), m.remoteness, "{where_}: {line:?}");
        assert_eq!(line[0], m.name, "{where_}");
        let mut pos = start.clone();
        for (ply, name) in line.iter().enumerate() {
            assert!(rules.outcome(&pos).is_none(), "{where_}: the game ended before ply {ply}");
            let mv = parse_move(rules, &pos, name)
                .unwrap_or_else(|| panic!("{where_}: {name} at ply {ply} is not legal"));
            let next = rules.play(&pos, (mv.cell as usize, mv.mark));
            if plain && ply > 0 {
                // The side to move plays a best move: its value and remoteness are the
                // position's own.
                let here = plain_score(rules, &pos);
                let child = plain_score(rules, &next);
                assert_eq!(
                    (-child.value, child.remoteness + 1),
                    (here.value, here.remoteness),
                    "{where_}: {name} at ply {ply} is not a best move"
                );
            }
            pos = next;
            steps += 1;
        }
        // The end: the game is over, with the move's value for the player who made it (to move
        // at the end when the line has an even length).
        let end = rules.outcome(&pos).unwrap_or_else(|| panic!("{where_}: not over at the end"));
        let mover = if line.len() % 2 == 0 { end } else { -end };
        assert_eq!(mover, m.value, "{where_}: {line:?} ends {end:?} for the player to move");
    }
    steps
}

/// Random positions of `game` with at most `most_empty` empty cells, each move's line replayed.
fn random_lines(game: &str, count: usize, most_empty: usize, seed: u64) -> usize {
    let rules = parse_game(game).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut steps = 0;
    for _ in 0..count {
        let least = rules.cells().saturating_sub(most_empty);
        let plies = rng.random_range(least..=rules.cells());
        let pos = xo_test_support::positions::random_play(&rules, plies, &mut rng);
        if rules.outcome(&pos).is_some() {
            continue;
        }
        let text = pos.to_text();
        let report = with_lines(game, Some(&text)).unwrap();
        steps += replay(&rules, &pos, &report, true);
    }
    steps
}

// Steps replayed (each line's length is the move's remoteness, so these sums are fixed by the
// seeds), so that lines left empty cannot pass.

#[test]
fn lines_of_tictactoe_are_perfect_play_to_the_end() {
    assert!(random_lines("tictactoe", 30, 9, 1) > 300);
}

#[test]
fn lines_of_mnk_boards_are_perfect_play_to_the_end() {
    assert!(random_lines("mnk:4,4,4", 12, 6, 2) > 50);
}

#[test]
#[ignore = "slow: 25 s of lines replayed against plain minimax (in .ci/run's slow group)"]
fn lines_of_strips_are_perfect_play_to_the_end() {
    assert!(random_lines("lol:8", 12, 8, 3) > 120);
    assert!(random_lines("treblecross:11", 25, 9, 4) > 60);
}

#[test]
fn lines_of_the_gravity_engine_are_perfect_play_to_the_end() {
    assert!(random_lines("connect:5,4,4", 12, 10, 5) > 50);
    assert!(random_lines("connect:4,4,3", 25, 10, 6) > 30);
}

#[test]
fn the_empty_tictactoe_board_draws_in_nine() {
    let rules = parse_game("tictactoe").unwrap();
    let report = with_lines("tictactoe", None).unwrap();
    let start = xo_core::rules::Setup::empty(&rules).validate(&rules).unwrap();
    assert_eq!(replay(&rules, &start, &report, true), 9 * 9);
    assert!(report.moves.unwrap().iter().all(|m| m.value == Value::Draw));
}

#[test]
fn lines_are_refused_where_they_cannot_be_given() {
    let refused = |game: &str, at: Option<&str>, f: fn(&mut Request)| {
        let mut request = Request::new(game);
        request.position = at.map(str::to_string);
        request.line = true;
        f(&mut request);
        request.prepare(&[], Runner::Pool).unwrap_err().to_string()
    };
    let no_moves = refused("tictactoe", None, |r| r.no_moves = true);
    assert!(no_moves.contains("'line' needs the moves"), "{no_moves}");
    let value_only = refused("tictactoe", None, |r| r.value_only = true);
    assert!(value_only.contains("'line' needs the moves"), "{value_only}");
    // Engines that do not tell remoteness: Grundy values, LOL's components, sums of heaps.
    for (game, at) in [("treblecross:100", None), ("lol:100", None), ("kayles", Some("40 50"))] {
        let why = refused(game, at, |_| {});
        assert!(why.contains("remoteness"), "{game}: {why}");
    }
    let count = refused("tictactoe", None, |r| r.question = xo_core::request::Ask::Count);
    assert!(count.contains("'line' does not go with question 'count'"), "{count}");
}
