//! `treblecross`: for each strip over `.X`, `WINNING` or `LOSING` and every winning cell.

use super::Answerer;
use std::io::Write;
use std::time::Duration;
use xo_core::budget::{Budget, Meter};
use xo_core::games::octal::OctalGame;
use xo_core::games::treblecross::TreblecrossStrip;
use xo_core::solve::grundy::NimSequence;

/// Answers from the Grundy values of .007, computed as far as the longest free run seen so far.
pub struct TreblecrossAnswerer {
    values: NimSequence,
    /// How long one case may spend extending the values.
    budget: Duration,
}

/// The time one case may spend on Grundy values by default: strips of a few million cells.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(600);

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
        Self::with_budget(DEFAULT_BUDGET)
    }

    /// An answerer whose cases may each spend at most `budget` extending the Grundy values; a case
    /// that needs more is refused with a message naming its longest free run.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_cli::batch::{Answerer, TreblecrossAnswerer};
    /// let mut quick = TreblecrossAnswerer::with_budget(Duration::ZERO);
    /// let mut out = Vec::new();
    /// // Short strips take no time worth counting; a million cells do.
    /// assert!(quick.answer(b"..........", &mut out).is_ok());
    /// let long = vec![b'.'; 1_000_000];
    /// assert!(quick.answer(&long, &mut out).unwrap_err().contains("free run of 1000000 cells"));
    /// ```
    pub fn with_budget(budget: Duration) -> Self {
        TreblecrossAnswerer { values: NimSequence::new(OctalGame::dot007()), budget }
    }
}

impl Answerer for TreblecrossAnswerer {
    const MAX_LINE: usize = 1 << 26;

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let strip = TreblecrossStrip::parse(case)
            .map_err(|e| format!("expected a strip over '.X' of at least 3 cells: {e}"))?;
        let meter = Meter::new(Budget::default().with_timeout(self.budget));
        let analysis = strip.analyse_within(&mut self.values, &meter).map_err(|_| {
            let longest = strip.free_runs().iter().map(|&(_, len)| len).max().unwrap_or(0);
            format!(
                "a free run of {longest} cells needs Grundy values beyond the {} s budget (raise --timeout)",
                self.budget.as_secs_f64()
            )
        })?;
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
