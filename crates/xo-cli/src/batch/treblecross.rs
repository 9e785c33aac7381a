//! `treblecross`: for each strip over `.X`, `WINNING` or `LOSING` and every winning cell.

use super::Answerer;
use std::io::Write;
use xo_core::games::octal::OctalGame;
use xo_core::games::treblecross::TreblecrossStrip;
use xo_core::solve::grundy::NimSequence;

/// Answers from the Grundy values of .007, computed as far as the longest free run seen so far.
pub struct TreblecrossAnswerer {
    values: NimSequence,
}

impl Default for TreblecrossAnswerer {
    fn default() -> Self {
        Self::new()
    }
}

impl TreblecrossAnswerer {
    /// An answerer with no values computed yet.
    ///
    /// ```
    /// use xo_cli::batch::{Answerer, TreblecrossAnswerer};
    /// let mut out = Vec::new();
    /// TreblecrossAnswerer::new().answer(b".....", &mut out).unwrap();
    /// assert_eq!(out, b"WINNING\n3\n");
    /// ```
    pub fn new() -> Self {
        TreblecrossAnswerer { values: NimSequence::new(OctalGame::dot007()) }
    }
}

impl Answerer for TreblecrossAnswerer {
    const MAX_LINE: usize = 1 << 26;

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let strip = TreblecrossStrip::parse(case)
            .map_err(|e| format!("expected a strip over '.X' of at least 3 cells: {e}"))?;
        let analysis = strip.analyse(&mut self.values);
        out.extend_from_slice(if analysis.winning { b"WINNING\n" } else { b"LOSING\n" });
        for (i, cell) in analysis.winning_moves.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            // Writing to a Vec cannot fail.
            let _ = write!(out, "{}", cell + 1);
        }
        out.push(b'\n');
        Ok(())
    }
}
