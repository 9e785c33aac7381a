//! Pascal Pons' Connect 4 test sets ("Solving Connect 4", blog.gamesolver.org), vendored in
//! `crates/xo-core/tests/data/connect4` (see the README there): one position a line, the
//! columns played (1-based, one digit each) and the exact score for the player to move.

use std::path::PathBuf;

/// The folder of the test sets.
pub fn dir() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", "xo-core", "tests", "data", "connect4"].iter().collect()
}

/// The lines of test set `name` (such as `Test_L3_R1`): the columns played and the score.
pub fn pons_set(name: &str) -> Vec<(String, i32)> {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Connect 4 test set {} is needed: {e}", path.display()));
    text.lines()
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("moves and score");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}
