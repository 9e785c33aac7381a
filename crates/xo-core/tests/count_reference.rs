//! The layered census against plain enumeration on random positions of every family member, the
//! retrograde reachability check against forward search, and published counts.

use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::HashSet;
use xo_core::game::Game;
use xo_core::games::board::Board;
use xo_core::rules::{parse_game, Position, Rules};
use xo_core::solve::enumerate::{census, census_with, plain_count};
use xo_core::solve::reach::Reachability;

fn random_position(rules: &Rules, plies: usize, rng: &mut StdRng) -> Position {
    let mut pos = rules.start();
    for _ in 0..plies {
        let mut moves = Vec::new();
        rules.moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        pos = rules.play(&pos, moves[rng.random_range(0..moves.len())]);
    }
    pos
}

/// Every position reachable from `pos` by plain depth-first search.
fn plain_positions(rules: &Rules, pos: &Position, seen: &mut HashSet<Position>) {
    if !seen.insert(pos.clone()) {
        return;
    }
    let mut moves = Vec::new();
    rules.moves(pos, &mut moves);
    for m in moves {
        plain_positions(rules, &rules.play(pos, m), seen);
    }
}

fn check_census(name: &str, min_plies: usize, count: usize, seed: u64) {
    let rules = parse_game(name).unwrap();
    let board = Board::new(&rules).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..count {
        let plies = min_plies + rng.random_range(0..rules.cells() - min_plies);
        let pos = random_position(&rules, plies, &mut rng);
        let text = pos.to_text(&rules);
        let c = census(&board, &board.encode(&pos), &Default::default()).unwrap();
        assert_eq!(c.games, plain_count(&rules, &pos), "{name} {text}");
        let sparse = census_with(&board, &board.encode(&pos), false, &Default::default()).unwrap();
        assert_eq!(sparse, c, "{name} {text}: hash maps and dense tables agree");
        let by_length_total =
            c.by_length.iter().fold(xo_core::solve::count::GameCounts::default(), |a, &b| a + b);
        assert_eq!(by_length_total, c.games, "{name} {text}: lengths add up");
        let mut seen = HashSet::new();
        plain_positions(&rules, &pos, &mut seen);
        assert_eq!(c.positions, seen.len() as u128, "{name} {text}: positions");
    }
}

#[test]
fn census_matches_plain_enumeration() {
    check_census("tictactoe", 1, 40, 1);
    check_census("mnk:4,3,3", 4, 30, 2);
    check_census("mnk:4,4,4", 9, 20, 3);
    check_census("connect:4,4,3", 6, 20, 4);
    check_census("lol:8", 2, 20, 5);
    check_census("sos:7", 1, 20, 6);
    check_census("treblecross:10", 1, 20, 7);
}

#[test]
fn tictactoe_census_has_the_published_figures() {
    let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    let c = census(&board, &Default::default(), &Default::default()).unwrap();
    assert_eq!((c.games.first, c.games.second, c.games.draws), (131_184, 77_904, 46_080));
    assert_eq!(c.games.total(), 255_168);
    let totals: Vec<u128> = c.by_length.iter().map(|g| g.total()).collect();
    assert_eq!(totals, vec![0, 0, 0, 0, 0, 1_440, 5_328, 47_952, 72_576, 127_872]);
    assert_eq!(c.positions, 5_478);
}

#[test]
fn four_by_four_census_has_the_published_total() {
    let board = Board::new(&parse_game("mnk:4,4,4").unwrap()).unwrap();
    let c = census(&board, &Default::default(), &Default::default()).unwrap();
    assert_eq!(c.games.total(), 15_038_733_958_272);
}

/// Retrograde reachability on the bitboard agrees with a forward search from the empty board.
#[test]
fn retrograde_reachability_matches_forward_search() {
    for name in ["tictactoe", "connect:3,3,3", "lol:6", "treblecross:7", "mnk:4,2,3"] {
        let rules = parse_game(name).unwrap();
        let board = Board::new(&rules).unwrap();
        let mut forward = HashSet::new();
        plain_positions(&rules, &rules.start(), &mut forward);
        let forward: HashSet<_> = forward.iter().map(|p| board.encode(p)).collect();
        let mut reach = Reachability::new(&board);
        let alphabet = rules.alphabet().len() as u64 + 1;
        for code in 0..alphabet.pow(rules.cells() as u32) {
            let mut pos = xo_core::games::board::BoardPosition::default();
            let mut c = code;
            for cell in 0..rules.cells() {
                match c % alphabet {
                    1 => pos.a |= 1 << cell,
                    2 => pos.b |= 1 << cell,
                    _ => {}
                }
                c /= alphabet;
            }
            assert_eq!(reach.is_reachable(&pos), forward.contains(&pos), "{name} {pos:?}");
        }
    }
}
