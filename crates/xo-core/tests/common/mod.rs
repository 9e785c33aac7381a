//! What several test files share: Pascal Pons' Connect 4 test sets, vendored in
//! `tests/data/connect4` (see the README there).

use std::path::PathBuf;

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
