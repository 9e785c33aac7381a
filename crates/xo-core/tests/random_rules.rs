//! Property tests over the whole rules family: random rules (board of at most 12 cells, with or
//! without gravity; own, two shared or one same mark; k in a row or a word; normal or misère)
//! and random reachable positions, reached by playing random legal moves on the naive reference
//! (`Rules` itself as a `GameTree`). For each:
//!
//! (a) the bitboard `Board` as a `GameTree` agrees with the naive `Rules` on every step of a random
//!     playout to the end: the same legal moves, outcome and plies, and the same position after
//!     each move;
//! (b) the negamax `Searcher` agrees with plain minimax on the value and remoteness of the
//!     position and of every move (and on `score` and `value`);
//! (c) the census, by hash maps and by dense tables, agrees with plain enumeration on the games
//!     by outcome.

use proptest::prelude::*;
use xo_core::budget::Meter;
use xo_core::game::GameTree;
use xo_core::games::board::{Board, BoardMove, BoardPosition};
use xo_core::rules::{Goal, Marks, Position, Rules, RulesSetup};
use xo_core::solve::enumerate::{census, census_with, plain_count};
use xo_core::solve::minimax::plain_score;
use xo_core::solve::negamax::Searcher;

/// Letters two shared marks are drawn from (any distinct ASCII letters are allowed).
const LETTERS: [char; 6] = ['L', 'O', 'S', 'X', 'A', 'z'];

/// Random rules of the family, some of them invalid (a word with own marks, an empty row): the
/// property tests skip those, after checking that `validate` says so without panicking.
fn rules_strategy() -> impl Strategy<Value = RulesSetup> {
    let size = (1u32..=6, 1u32..=4).prop_filter("at most 12 cells", |(w, h)| w * h <= 12);
    let marks = prop_oneof![
        Just(Marks::Own),
        (0..LETTERS.len(), 1..LETTERS.len())
            .prop_map(|(i, d)| Marks::Shared(vec![LETTERS[i], LETTERS[(i + d) % LETTERS.len()]])),
        Just(Marks::Same('X')),
    ];
    // A word as indices into the alphabet, mapped once the marks are known.
    // Mostly patterns of 2 to 5 cells: 1 ends every game at once, 0 is invalid.
    let goal = prop_oneof![
        1 => (0u32..=1).prop_map(|k| (Some(k), Vec::new())),
        6 => (2u32..=5).prop_map(|k| (Some(k), Vec::new())),
        1 => prop::collection::vec(0usize..2, 1..=1).prop_map(|w| (None, w)),
        6 => prop::collection::vec(0usize..2, 2..=4).prop_map(|w| (None, w)),
    ];
    (size, any::<bool>(), marks, goal, any::<bool>()).prop_map(
        |((width, height), gravity, marks, (k, word), misere)| {
            let goal = match k {
                Some(k) => Goal::InRow(k),
                None => {
                    let alphabet = match &marks {
                        Marks::Own => vec!['X', 'O'],
                        Marks::Shared(l) => l.clone(),
                        Marks::Same(c) => vec![*c],
                    };
                    Goal::Word(word.iter().map(|&i| alphabet[i % alphabet.len()]).collect())
                }
            };
            RulesSetup {
                name: format!(
                    "{width}x{height}{} {marks:?} {goal:?}{}",
                    if gravity { " gravity" } else { "" },
                    if misere { " misere" } else { "" }
                ),
                width,
                height,
                gravity,
                marks,
                goal,
                misere,
            }
        },
    )
}

/// The most empty cells left for exhaustive references (plain minimax, plain counting), by the
/// number of marks a player may choose: at most 8! (one mark) or 6! * 2^6 (two) games.
fn empties_allowed(rules: &Rules) -> usize {
    match rules.marks() {
        Marks::Own | Marks::Same(_) => 8,
        Marks::Shared(_) => 6,
    }
}

/// A random reachable position with few enough empty cells for the exhaustive references:
/// `cells - empties_allowed` random moves first, then `extra` more. Each choice picks a move
/// that does not end the game where there is one (a finished position is a trivial test), so
/// that the position is finished only where every line of play had ended before.
fn small_position(rules: &Rules, choices: &[u32], extra: usize) -> Position {
    let first = rules.cells().saturating_sub(empties_allowed(rules));
    let mut pos = rules.start();
    let mut moves = Vec::new();
    for &c in choices.iter().take(first + extra) {
        moves.clear();
        rules.moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        let n = moves.len();
        let children = (0..n).map(|i| rules.play(&pos, moves[(c as usize + i) % n]));
        let mut last = None;
        let mut chosen = None;
        for child in children {
            if rules.outcome(&child).is_none() {
                chosen = Some(child);
                break;
            }
            last = Some(child);
        }
        // Past the random prefix, a game that can only end stops here, unfinished.
        match chosen {
            Some(child) => pos = child,
            None if rules.plies(&pos) < first as u32 => pos = last.expect("a move"),
            None => break,
        }
    }
    pos
}

fn sorted_naive_moves(rules: &Rules, pos: &Position) -> Vec<(usize, u8)> {
    let mut moves = Vec::new();
    rules.moves(pos, &mut moves);
    moves.sort_unstable();
    moves
}

fn sorted_board_moves(board: &Board, pos: &BoardPosition) -> Vec<(usize, u8)> {
    let mut moves: Vec<BoardMove> = Vec::new();
    GameTree::moves(board, pos, &mut moves);
    let mut moves: Vec<(usize, u8)> = moves.iter().map(|m| (m.cell as usize, m.mark)).collect();
    moves.sort_unstable();
    moves
}

/// The rules, valid ones only: `validate` must answer for every generated setup without panicking.
fn valid(setup: RulesSetup) -> Option<Rules> {
    setup.validate().ok()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        max_global_rejects: 4096,
        ..ProptestConfig::default()
    })]

    /// (a) Bitboard and naive rules agree along a whole random playout.
    #[test]
    fn bitboard_agrees_with_naive_rules_along_playouts(
        rules in rules_strategy(),
        choices in prop::collection::vec(any::<u32>(), 12),
    ) {
        let rules = valid(rules);
        prop_assume!(rules.is_some());
        let rules = rules.unwrap();
        let board = Board::new(&rules).expect("at most 12 cells");
        let mut pos = rules.start();
        let mut bits = board.start();
        prop_assert_eq!(board.encode(&pos).unwrap(), bits, "{}: start", &rules.name());
        for &c in choices.iter().chain(std::iter::once(&0)) {
            let text = pos.to_text();
            prop_assert_eq!(board.encode(&pos).unwrap(), bits, "{}: {}", &rules.name(), &text);
            prop_assert_eq!(GameTree::plies(&board, &bits), rules.plies(&pos), "{}: {}", &rules.name(), &text);
            prop_assert_eq!(
                GameTree::outcome(&board, &bits),
                rules.outcome(&pos),
                "{}: outcome of {}", &rules.name(), &text
            );
            let naive = sorted_naive_moves(&rules, &pos);
            let fast = sorted_board_moves(&board, &bits);
            prop_assert_eq!(fast.len(), naive.len(), "{}: move count of {}", &rules.name(), &text);
            prop_assert_eq!(&fast, &naive, "{}: moves of {}", &rules.name(), &text);
            prop_assert_eq!(naive.is_empty(), rules.outcome(&pos).is_some(), "{}: {}", &rules.name(), &text);
            if naive.is_empty() {
                break;
            }
            let (cell, mark) = naive[c as usize % naive.len()];
            pos = rules.play(&pos, (cell, mark));
            bits = GameTree::play(&board, &bits, BoardMove { cell: cell as u8, mark });
        }
    }

    /// (b) Negamax against plain minimax: the position and every move, value and remoteness.
    #[test]
    fn negamax_agrees_with_plain_minimax(
        rules in rules_strategy(),
        choices in prop::collection::vec(any::<u32>(), 12),
        extra in 0usize..4,
    ) {
        let rules = valid(rules);
        prop_assume!(rules.is_some());
        let rules = rules.unwrap();
        let board = Board::new(&rules).expect("at most 12 cells");
        let pos = small_position(&rules, &choices, extra);
        let text = pos.to_text();
        let bits = board.encode(&pos).unwrap();
        let mut searcher = Searcher::new(&board, 1 << 20);
        let expected = plain_score(&rules, &pos);
        let analysis = searcher.analyse(&bits, &Meter::unlimited()).expect("no limits");
        prop_assert_eq!(analysis.scored, expected, "{}: analyse {}", &rules.name(), &text);
        prop_assert_eq!(searcher.score(&bits, &Meter::unlimited()).expect("no limits"), expected, "{}: score {}", &rules.name(), &text);
        prop_assert_eq!(searcher.value(&bits, &Meter::unlimited()).expect("no limits"), expected.value, "{}: value {}", &rules.name(), &text);
        let mut moves: Vec<(usize, u8)> =
            analysis.moves.iter().map(|m| (m.mv.cell as usize, m.mv.mark)).collect();
        moves.sort_unstable();
        prop_assert_eq!(moves, sorted_naive_moves(&rules, &pos), "{}: moves of {}", &rules.name(), &text);
        for ms in &analysis.moves {
            let BoardMove { cell, mark } = ms.mv;
            let child = plain_score(&rules, &rules.play(&pos, (cell as usize, mark)));
            prop_assert_eq!(
                (ms.scored.value, ms.scored.remoteness),
                (-child.value, child.remoteness + 1),
                "{}: {} move {}/{}", &rules.name(), &text, cell, mark
            );
        }
    }

    /// (c) The census (hash maps, dense tables) against plain enumeration.
    #[test]
    fn census_agrees_with_plain_count(
        rules in rules_strategy(),
        choices in prop::collection::vec(any::<u32>(), 12),
        extra in 0usize..4,
    ) {
        let rules = valid(rules);
        prop_assume!(rules.is_some());
        let rules = rules.unwrap();
        let board = Board::new(&rules).expect("at most 12 cells");
        let pos = small_position(&rules, &choices, extra);
        let text = pos.to_text();
        let bits = board.encode(&pos).unwrap();
        let plain = plain_count(&rules, &pos);
        let hashed = census(&board, &bits, &Default::default()).expect("small");
        prop_assert_eq!(hashed.games, plain, "{}: hashed census of {}", &rules.name(), &text);
        let dense = census_with(&board, &bits, true, &Default::default()).expect("small");
        prop_assert_eq!(dense.games, plain, "{}: dense census of {}", &rules.name(), &text);
        prop_assert_eq!(dense, hashed, "{}: dense and hashed census of {}", &rules.name(), &text);
    }
}
