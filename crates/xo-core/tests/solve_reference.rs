//! The bitboard negamax (`Searcher`) against plain minimax on the rules themselves, on random
//! positions of every family member: value and remoteness of the position and of every move.

use rand::{rngs::StdRng, Rng, SeedableRng};
use xo_core::budget::Meter;
use xo_core::game::GameTree;
use xo_core::games::board::{Board, BoardMove};
use xo_core::rules::{parse_game, Position, Rules, Setup};
use xo_core::solve::minimax::plain_score;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

/// A random unfinished position after `plies` random legal moves, if play lasts that long.
fn random_position(rules: &Rules, plies: usize, rng: &mut StdRng) -> Option<Position> {
    xo_test_support::positions::random_play_exactly(rules, plies, rng)
}

/// Compares the searcher with plain minimax on `count` random positions with at least
/// `min_plies` moves made.
fn check_game(rules: &Rules, min_plies: usize, count: usize, seed: u64) {
    let board = Board::new(rules).unwrap();
    let mut searcher = Searcher::new(&board, 1 << 20);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    let mut values = [0usize; 3];
    while checked < count {
        let plies = min_plies + rng.random_range(0..rules.cells() - min_plies);
        let Some(pos) = random_position(rules, plies, &mut rng) else { continue };
        let text = pos.to_text();
        let bits = board.encode(&pos).unwrap();
        let analysis = searcher.analyse(&bits, &Meter::unlimited()).unwrap();
        let expected = plain_score(rules, &pos);
        assert_eq!(analysis.scored, expected, "{} position {text}", rules.name());
        assert_eq!(
            searcher.value(&bits, &Meter::unlimited()).unwrap(),
            expected.value,
            "{} value of {text}",
            rules.name()
        );
        let mut moves = Vec::new();
        rules.moves(&pos, &mut moves);
        assert_eq!(analysis.moves.len(), moves.len(), "{} moves of {text}", rules.name());
        for ms in &analysis.moves {
            let BoardMove { cell, mark } = ms.mv;
            let child = plain_score(rules, &rules.play(&pos, (cell as usize, mark)));
            assert_eq!(ms.scored.value, -child.value, "{} {text} move {cell}/{mark}", rules.name());
            assert_eq!(
                ms.scored.remoteness,
                child.remoteness + 1,
                "{} {text} move {cell}",
                rules.name()
            );
        }
        values[expected.value as usize] += 1;
        checked += 1;
    }
    assert!(
        values.iter().filter(|&&n| n > 0).count() >= 2,
        "{}: too few kinds of value {values:?}",
        rules.name()
    );
}

fn misere(name: &str) -> Rules {
    parse_game(name).unwrap().with_misere(true).renamed(format!("misere {name}"))
}

#[test]
fn tictactoe_matches_plain_minimax() {
    check_game(&parse_game("tictactoe").unwrap(), 2, 200, 1);
}

#[test]
fn small_grids_match_plain_minimax() {
    check_game(&parse_game("mnk:4,3,3").unwrap(), 4, 150, 2);
    check_game(&parse_game("mnk:3,4,3").unwrap(), 4, 150, 3);
    check_game(&parse_game("mnk:4,4,4").unwrap(), 8, 60, 4);
    check_game(&parse_game("mnk:5,2,3").unwrap(), 3, 150, 5);
}

#[test]
fn gravity_games_match_plain_minimax() {
    check_game(&parse_game("connect:4,3,3").unwrap(), 3, 150, 6);
    check_game(&parse_game("connect:4,4,3").unwrap(), 6, 100, 7);
    check_game(&parse_game("connect:5,3,3").unwrap(), 6, 100, 8);
}

#[test]
fn strip_games_match_plain_minimax() {
    check_game(&parse_game("lol:7").unwrap(), 1, 150, 9);
    check_game(&parse_game("lol:9").unwrap(), 3, 100, 10);
    check_game(&parse_game("sos:8").unwrap(), 2, 100, 11);
    check_game(&parse_game("treblecross:9").unwrap(), 0, 150, 12);
    check_game(&parse_game("mnk:9,1,3").unwrap(), 2, 100, 13);
}

#[test]
fn misere_games_match_plain_minimax() {
    check_game(&misere("tictactoe"), 2, 150, 14);
    check_game(&misere("lol:7"), 1, 100, 15);
    check_game(&misere("treblecross:8"), 0, 100, 16);
    check_game(&misere("connect:4,3,3"), 3, 100, 17);
}

/// Published values of empty boards.
#[test]
fn empty_boards_have_their_published_values() {
    let cases = [
        ("mnk:3,3,3", Value::Draw),
        ("mnk:3,4,3", Value::Win),
        ("mnk:4,4,3", Value::Win),
        ("mnk:2,5,3", Value::Draw),
        ("mnk:3,5,4", Value::Draw),
        ("mnk:4,4,4", Value::Draw),
        ("mnk:5,5,4", Value::Draw),
    ];
    for (name, value) in cases {
        let board = Board::new(&parse_game(name).unwrap()).unwrap();
        let got =
            Searcher::new(&board, 1 << 24).value(&Default::default(), &Meter::unlimited()).unwrap();
        assert_eq!(got, value, "{name}");
    }
}

#[test]
fn lol_strips_have_their_published_values() {
    for n in 1..=14u32 {
        let board = Board::new(&parse_game(&format!("lol:{n}")).unwrap()).unwrap();
        let got =
            Searcher::new(&board, 1 << 24).value(&Default::default(), &Meter::unlimited()).unwrap();
        let want = if n >= 7 && n % 2 == 1 { Value::Win } else { Value::Draw };
        assert_eq!(got, want, "lol:{n}");
    }
}

#[test]
fn positions_from_text_are_checked() {
    let ttt = parse_game("tictactoe").unwrap();
    assert!(Setup::parse(&ttt, "XXXOO....").unwrap().validate(&ttt).is_ok());
    assert!(Setup::parse(&ttt, "XXXOOO...").unwrap().validate(&ttt).is_err());
    let c4 = parse_game("connect:3,2,3").unwrap();
    assert!(Setup::parse(&c4, "X.. ...").unwrap().validate(&c4).is_err());
    assert!(Setup::parse(&c4, "... X..").unwrap().validate(&c4).is_ok());
}
