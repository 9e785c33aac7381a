//! `ttt-count`: for each tic-tac-toe grid, `-1 -1` when it cannot occur, else how many games
//! continuing from it X wins and O wins.

use super::Answerer;
use xo_core::games::grid::{GridPosition, MnkGame};
use xo_core::solve::count::GameCounter;
use xo_core::solve::reach::Reachability;

/// Answers from a table of all 3^9 grids (indexed by base-3 rank), built once by the core's
/// retrograde reachability check and memoised game counter; each line is then a table lookup.
pub struct TttCountAnswerer {
    game: MnkGame,
    /// The answer line of every grid, by rank.
    answers: Vec<Box<[u8]>>,
}

impl Default for TttCountAnswerer {
    fn default() -> Self {
        Self::new()
    }
}

impl TttCountAnswerer {
    /// Builds the table (a few milliseconds).
    ///
    /// ```
    /// use xo_cli::batch::{Answerer, TttCountAnswerer};
    /// let mut t = TttCountAnswerer::new();
    /// let mut out = Vec::new();
    /// t.answer(b"OOOXXX...", &mut out).unwrap();
    /// assert_eq!(out, b"-1 -1\n");
    /// ```
    pub fn new() -> Self {
        let ttt = MnkGame::tic_tac_toe();
        let mut reach = Reachability::new(&ttt);
        let mut counter = GameCounter::new(&ttt);
        let answers: Vec<Box<[u8]>> = (0..3u64.pow(9))
            .map(|rank| {
                let pos = ttt.unrank(rank);
                let text = if reach.is_reachable(&pos) {
                    let c = counter.count(&pos);
                    format!("{} {}\n", c.first, c.second)
                } else {
                    "-1 -1\n".to_string()
                };
                text.into_bytes().into_boxed_slice()
            })
            .collect();
        TttCountAnswerer { game: ttt, answers }
    }
}

impl Answerer for TttCountAnswerer {
    const MAX_LINE: usize = 64;

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        if case.len() != 9 {
            return Err(format!(
                "expected 9 characters from '.XO' (a grid row by row), found {}",
                case.len()
            ));
        }
        let mut pos = GridPosition::default();
        for (i, &b) in case.iter().enumerate() {
            match b {
                b'X' => pos.x |= 1 << i,
                b'O' => pos.o |= 1 << i,
                b'.' => {}
                _ => {
                    return Err(format!(
                        "character {:?} at column {} is not one of '.XO'",
                        b as char,
                        i + 1
                    ))
                }
            }
        }
        out.extend_from_slice(&self.answers[self.game.rank(&pos) as usize]);
        Ok(())
    }
}
