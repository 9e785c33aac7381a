//! The look-ahead's tests: exact where it reaches every end, the same with bitboards and
//! plain rules, settled moves exact at every depth. In a file of their own because they ask
//! the whole query (the dispatch, which reaches the look-ahead through `play`).

use super::*;
use crate::query::dispatch::answer;
use crate::query::game::Game;
use crate::query::prepared::{Query, Source};
use crate::query::question::Question;
use crate::query::report::Answer;
use crate::rules::{parse_game, Setup};

/// Every move's exact value and remoteness, by the engine the query chooses.
fn exact(game: &str, text: &str) -> Vec<MoveReport> {
    let analysis = Question::Analysis { winning_only: false };
    let q = Query::prepare(Game::parse(game).unwrap(), Source::Text(Some(text)), analysis, None);
    let Answer::Solve(r) = answer(&q.unwrap(), &Default::default()).unwrap() else { panic!() };
    r.moves.unwrap().into_iter().map(|m| MoveReport { score: None, ..m }).collect()
}

fn position(rules: &Rules, text: &str) -> Position {
    Setup::parse(rules, text).unwrap().validate(rules).unwrap()
}

/// Deep enough to reach every end, the deepening is the exact answer: every move's value and
/// remoteness equal the engines', on positions of tic-tac-toe and small Connect Fours.
#[test]
fn a_search_that_reaches_every_end_is_exact() {
    let cases: [(&str, &[&str]); 2] = [
        ("tictactoe", &[".........", "X...O....", "XX.OO....", "X.O.X.O.."]),
        ("connect:4,3,3", &["............", "....X...O...", "....XO..OX.."]),
    ];
    for (game, positions) in cases {
        let rules = parse_game(game).unwrap();
        for text in positions {
            let (mut moves, _) =
                deepest(&rules, &position(&rules, text), u64::MAX, u32::MAX).unwrap();
            let mut want = exact(game, text);
            moves.sort_by(|a, b| a.name.cmp(&b.name));
            want.sort_by(|a, b| a.name.cmp(&b.name));
            assert_eq!(moves, want, "{game} {text}");
        }
    }
}

/// The bitboards and the plain rules give the same rounds, node for node.
#[test]
fn bitboards_and_plain_rules_agree() {
    for (game, text) in
        [("connect:5,4,4", "..........X....XO..O"), ("mnk:4,4,3", "X....O..........")]
    {
        let rules = parse_game(game).unwrap();
        let pos = position(&rules, text);
        let board = Board::new(&rules).unwrap();
        let mut legal = Vec::new();
        rules.moves(&pos, &mut legal);
        let plain: Vec<Position> = legal.iter().map(|&m| rules.play(&pos, m)).collect();
        let bits: Vec<BoardPosition> = plain.iter().map(|p| board.encode(p).unwrap()).collect();
        let names: Vec<String> = (0..legal.len()).map(|i| i.to_string()).collect();
        for max in [500, 5_000, 50_000] {
            let a = rounds(&board, &bits, &names, 20, max);
            assert_eq!(a, rounds(&rules, &plain, &names, 20, max), "{game} {max}");
            assert!(a.is_some_and(|(_, depth)| depth >= 2), "{game} {max}");
        }
    }
}

/// Past 64 cells the plain rules answer: an immediate win on a 9x8 board.
#[test]
fn large_boards_use_the_plain_rules() {
    let rules = parse_game("mnk:9,8,4").unwrap();
    let mut cells = ".".repeat(72);
    cells.replace_range(0..3, "XXX");
    cells.replace_range(9..12, "OOO");
    let (moves, depth) = deepest(&rules, &position(&rules, &cells), 10_000, u32::MAX).unwrap();
    let best = crate::query::play::best_move(&moves).unwrap();
    assert!(depth >= 1);
    assert_eq!((best.name.as_str(), best.value, best.remoteness), ("4", Value::Win, Some(1)));
}

/// With few positions, what a round settles is still exact (a cut round is never used).
#[test]
fn settled_moves_are_exact_at_every_depth() {
    let (game, text) = ("connect:5,4,4", "..........X....XO..O");
    let rules = parse_game(game).unwrap();
    let want = exact(game, text);
    for max in [10, 100, 1_000, 10_000] {
        let (moves, depth) = deepest(&rules, &position(&rules, text), max, u32::MAX).unwrap();
        assert!(depth >= 1);
        assert_eq!(moves.len(), want.len());
        for m in &moves {
            let w = want.iter().find(|w| w.name == m.name).unwrap();
            if m.remoteness.is_some() {
                assert_eq!(m, w, "{max} positions, depth {depth}");
            }
        }
    }
}
