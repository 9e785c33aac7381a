//! `connect4-score`: for each line of 1-based columns played from the empty Connect Four board
//! (Pascal Pons' test-set format; anything after the first space, such as the expected score, is
//! ignored), Pons' score of the position for the player to move.

use super::answerer::{Answerer, CaseError};
use xo_core::budget::Meter;
use xo_core::query::{answer, Answer, Game, Question};
use xo_core::request::Request;
use xo_core::rules::{parse_game, Rules};
use xo_core::threads::Runner;

/// Answers through the core's entry point, all lines within one meter, each on every core the
/// thread policy allows (a long search starts its helpers after a short try alone).
pub struct Connect4ScoreAnswerer {
    rules: Rules,
    meter: Meter,
    book: Option<std::sync::Arc<xo_core::solve::book::Book>>,
}

impl Default for Connect4ScoreAnswerer {
    fn default() -> Self {
        Self::new()
    }
}

impl Connect4ScoreAnswerer {
    /// An answerer with the default budget.
    pub fn new() -> Self {
        Self::with_meter(Meter::new(Default::default()))
    }

    /// An answerer whose whole run is bounded by `meter`.
    pub fn with_meter(meter: Meter) -> Self {
        Connect4ScoreAnswerer {
            rules: parse_game("connect4").expect("built in"),
            meter,
            book: None,
        }
    }

    /// The same answerer, consulting an opening book.
    pub fn with_book(mut self, book: std::sync::Arc<xo_core::solve::book::Book>) -> Self {
        self.book = Some(book);
        self
    }
}

impl Answerer for Connect4ScoreAnswerer {
    const MAX_LINE: usize = 4096;

    fn meter(&self) -> &Meter {
        &self.meter
    }

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError> {
        // A line costs a query: the clock is read on every one (the driver counts the lines).
        self.meter.check()?;
        let text = std::str::from_utf8(case)
            .map_err(|_| "expected columns 1-7, found bytes that are not text".to_string())?;
        let moves = text.split_whitespace().next().unwrap_or("");
        let request = Request::for_game(&Game::Placement(self.rules.clone()))
            .columns(moves)
            .asking(Question::Score);
        let query = request
            .prepare(self.book.as_slice(), Runner::Alone)
            .map_err(|e| format!("expected the columns (1-7) of a legal game: {e}"))?;
        let score = match answer(&query, &self.meter)? {
            Answer::Solve(report) => report.score,
            _ => None,
        }
        .ok_or_else(|| "the engine told no score for this position".to_string())?;
        out.extend_from_slice(format!("{score}\n").as_bytes());
        Ok(())
    }
}
