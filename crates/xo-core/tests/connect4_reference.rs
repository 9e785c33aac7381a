//! The negamax against Pascal Pons' published Connect 4 test sets (`shared/data/connect4`): each
//! line is a game so far (columns 1-7) and its score, positive when the player to move wins, and
//! larger the sooner: `(44 - e) / 2` for a game that ends with `e` discs on the board.

use std::path::PathBuf;
use xo_core::games::board::{Board, BoardMove, BoardPosition};
use xo_core::rules::parse_game;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

fn test_set(name: &str) -> Vec<(String, i32)> {
    let path: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "..", "..", "shared", "data", "connect4", name]
            .iter()
            .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Connect 4 test set {} is needed: {e}", path.display()));
    text.lines()
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("moves and score");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}

/// Plays the columns (1-based) from the empty board.
fn position(board: &Board, moves: &str) -> BoardPosition {
    let mut pos = BoardPosition::default();
    for ch in moves.chars() {
        let col = ch.to_digit(10).expect("a column digit") - 1;
        let playable = board.playable(&pos);
        let cell =
            (0..board.cells() as u32).rev().find(|&c| c % 7 == col && playable >> c & 1 == 1);
        let cell = cell.expect("the column has room") as u8;
        let mark = if pos.plies() % 2 == 0 { 1 } else { 2 };
        pos = board.play(&pos, BoardMove { cell, mark });
    }
    pos
}

fn check(name: &str, take: usize) {
    let board = Board::new(&parse_game("connect4").unwrap()).unwrap();
    let mut searcher = Searcher::new(&board, 1 << 26);
    for (moves, want) in test_set(name).into_iter().take(take) {
        let pos = position(&board, &moves);
        let s = searcher.score(&pos).unwrap();
        let end = (pos.plies() + s.remoteness) as i32;
        let got = match s.value {
            Value::Win => (44 - end) / 2,
            Value::Loss => -(44 - end) / 2,
            Value::Draw => 0,
        };
        assert_eq!(got, want, "{name}: {moves}");
        assert_eq!(searcher.value(&pos).unwrap(), s.value, "{name}: value of {moves}");
    }
}

#[test]
fn end_game_positions_match_the_published_scores() {
    check("Test_L3_R1", 1000);
}

#[test]
fn middle_game_positions_match_the_published_scores() {
    check("Test_L2_R1", 300);
}
