//! The layered census, by hash maps and by dense tables, against plain enumeration on random
//! positions of every family member, the retrograde reachability check against forward search,
//! and published counts.

use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::HashSet;
use xo_core::budget::Meter;
use xo_core::game::GameTree;
use xo_core::games::board::Board;
use xo_core::rules::{parse_game, Marks, Position, Rules};
use xo_core::solve::enumerate::{census, census_with, plain_count};
use xo_core::solve::reach::Reachability;

fn random_position(rules: &Rules, plies: usize, rng: &mut StdRng) -> Position {
    xo_test_support::positions::random_play(rules, plies, rng)
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

/// Binomial coefficient, saturating at `u64::MAX`.
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k.min(n - k))
        .fold(1u128, |c, i| (c * (n - i) as u128 / (i + 1) as u128).min(u64::MAX as u128))
        as u64
}

/// The depths after `start_plies` whose dense table fits, by the census's documented rule
/// (restated here, since which path ran is not observable through the public API): a depth of
/// `d` marks is ranked densely when C(cells, d) times its mark patterns (C(d, ceil(d/2)) with own
/// marks, 2^d with two letters, 1 with one mark) is at most 2^22 entries. The census with
/// `dense = true` builds a table for depth `d + 1` while expanding depth `d`.
fn dense_depths(rules: &Rules, start_plies: usize) -> Vec<usize> {
    let cells = rules.cells() as u64;
    (start_plies + 1..=rules.cells())
        .filter(|&d| {
            let d = d as u64;
            let patterns = match rules.marks() {
                Marks::Own => binomial(d, d.div_ceil(2)),
                Marks::Shared(l) if l.len() == 2 => 1u64.checked_shl(d as u32).unwrap_or(u64::MAX),
                _ => 1,
            };
            binomial(cells, d).checked_mul(patterns).is_some_and(|size| size <= 1 << 22)
        })
        .collect()
}

/// The census by hash maps and by dense tables against plain enumeration (and each other), from
/// `count` random positions with at least `min_plies` moves made. At least a quarter of the
/// positions must reach a depth whose dense table fits, so that `dense = true` is really
/// exercised (finished positions, which have no next depth, make up much of the rest).
fn check_census(name: &str, min_plies: usize, count: usize, seed: u64) {
    let rules = parse_game(name).unwrap();
    let board = Board::new(&rules).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dense_positions = 0;
    for _ in 0..count {
        let plies = min_plies + rng.random_range(0..rules.cells() - min_plies);
        let pos = random_position(&rules, plies, &mut rng);
        let text = pos.to_text();
        let plain = plain_count(&rules, &pos);
        let hashed =
            census_with(&board, &board.encode(&pos).unwrap(), false, &Default::default()).unwrap();
        assert_eq!(hashed.games, plain, "{name} {text}: hash maps against plain enumeration");
        let dense =
            census_with(&board, &board.encode(&pos).unwrap(), true, &Default::default()).unwrap();
        assert_eq!(dense.games, plain, "{name} {text}: dense tables against plain enumeration");
        assert_eq!(dense, hashed, "{name} {text}: dense tables and hash maps agree in full");
        let default = census(&board, &board.encode(&pos).unwrap(), &Default::default()).unwrap();
        assert_eq!(default, hashed, "{name} {text}: the default census");
        let by_length_total = hashed
            .by_length
            .iter()
            .fold(xo_core::solve::count::GameCounts::default(), |a, &b| a + b);
        assert_eq!(by_length_total, hashed.games, "{name} {text}: lengths add up");
        let mut seen = HashSet::new();
        plain_positions(&rules, &pos, &mut seen);
        assert_eq!(hashed.positions, seen.len() as u128, "{name} {text}: positions");
        // A dense table is used for a depth the game actually reaches from here.
        // (`by_length` counts moves from the empty board.)
        let deepest = hashed.by_length.iter().rposition(|g| g.total() > 0).unwrap_or(0);
        if dense_depths(&rules, pos.plies() as usize).iter().any(|&d| d <= deepest) {
            dense_positions += 1;
        }
    }
    eprintln!("{name}: {dense_positions} of {count} positions used a dense table");
    assert!(
        dense_positions * 4 >= count,
        "{name}: only {dense_positions} of {count} positions reach a depth with a dense table"
    );
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

/// Boards where some depths take dense tables and others (too many positions) hash maps, so one
/// census switches between the two paths.
#[test]
fn census_mixing_dense_and_hashed_depths_matches_plain_enumeration() {
    for name in ["mnk:5,4,4", "connect:5,4,4", "sos:16"] {
        let rules = parse_game(name).unwrap();
        let dense = dense_depths(&rules, 0);
        assert!(
            !dense.is_empty() && dense.len() < rules.cells(),
            "{name}: some depths dense, some hashed: {dense:?}"
        );
    }
    check_census("mnk:5,4,4", 12, 12, 8);
    check_census("connect:5,4,4", 11, 12, 9);
    check_census("sos:16", 10, 12, 10);
}

/// From the empty board, where every depth of these small games fits a dense table.
#[test]
fn dense_census_of_empty_boards_matches_plain_enumeration() {
    for name in ["tictactoe", "connect:3,3,3", "mnk:4,2,3", "lol:7", "sos:6", "treblecross:9"] {
        let rules = parse_game(name).unwrap();
        assert_eq!(dense_depths(&rules, 0).len(), rules.cells(), "{name}: every depth dense");
        let board = Board::new(&rules).unwrap();
        let dense = census_with(&board, &Default::default(), true, &Default::default()).unwrap();
        let hashed = census_with(&board, &Default::default(), false, &Default::default()).unwrap();
        assert_eq!(dense.games, plain_count(&rules, &rules.start()), "{name}: dense against plain");
        assert_eq!(dense, hashed, "{name}: dense against hashed");
    }
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
        let forward: HashSet<_> = forward.iter().map(|p| board.encode(p).unwrap()).collect();
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
            assert_eq!(
                reach.is_reachable(&pos, &Meter::unlimited()).unwrap(),
                forward.contains(&pos),
                "{name} {pos:?}"
            );
        }
    }
}
