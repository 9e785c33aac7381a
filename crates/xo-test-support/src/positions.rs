//! Random positions reached in play.

use rand::rngs::StdRng;
use rand::Rng;
use xo_core::game::GameTree as _;
use xo_core::rules::{Position, Rules};

/// The position after `plies` random legal moves from the empty board (fewer when a game ends).
pub fn random_play(rules: &Rules, plies: usize, rng: &mut StdRng) -> Position {
    let mut pos = rules.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        rules.moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        pos = rules.play(&pos, moves[rng.random_range(0..moves.len())]);
    }
    pos
}

/// The position after exactly `plies` random legal moves from the empty board, or `None` when
/// the game ends before.
pub fn random_play_exactly(rules: &Rules, plies: usize, rng: &mut StdRng) -> Option<Position> {
    let pos = random_play(rules, plies, rng);
    (pos.plies() as usize == plies).then_some(pos)
}
