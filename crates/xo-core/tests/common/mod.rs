//! What several test files share: Pascal Pons' Connect 4 test sets, vendored in
//! `tests/data/connect4` (see the README there), and random positions reached in play.

// Each test file uses part of this module.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::Rng;
use std::path::PathBuf;
use xo_core::game::Game as _;
use xo_core::rules::{Position, Rules};

/// The position after `plies` random legal moves from the empty board (fewer when a game ends).
pub fn random_play(rules: &Rules, plies: usize, rng: &mut StdRng) -> Position {
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

/// The lines of one of Pons' test sets: the columns played (1-based) and the score.
pub fn pons_set(name: &str) -> Vec<(String, i32)> {
    let path: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "tests", "data", "connect4", name].iter().collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Connect 4 test set {} is needed: {e}", path.display()));
    text.lines()
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("moves and score");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}
