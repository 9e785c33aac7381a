//! `treblecross`: for each strip over `.X`, `WINNING` or `LOSING` and every winning cell.

use super::answerer::{Answerer, CaseError};
use std::io::Write;
use xo_core::budget::Meter;
use xo_core::query::Judge;

/// Answers through the core's [`Judge`] (Grundy values of .007, stored or computed as far as the
/// longest free run seen so far and kept between lines).
pub struct TreblecrossAnswerer {
    judge: Judge,
    /// The run's budget.
    meter: Meter,
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
        Self::with_meter(Meter::new(Default::default()))
    }

    /// An answerer whose whole run is bounded by `meter`; a case that needs Grundy values beyond
    /// it stops the run.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_cli::batch::{Answerer, CaseError, TreblecrossAnswerer};
    /// use xo_core::budget::{Budget, Meter};
    /// let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    /// let mut quick = TreblecrossAnswerer::with_meter(meter);
    /// let mut out = Vec::new();
    /// let long = vec![b'.'; 1_000_000]; // with no stored values
    /// assert!(matches!(quick.answer(&long, &mut out), Err(CaseError::Stopped(_))));
    /// ```
    pub fn with_meter(meter: Meter) -> Self {
        TreblecrossAnswerer { judge: Judge::new(), meter }
    }

    /// The same answerer, taking the .007 values from `stored` as far as it goes (the command
    /// gives it `xo_store::sequence::shipped_dot007`, to heap 2^20, unless `--no-book`).
    ///
    /// ```
    /// use xo_cli::batch::{Answerer, TreblecrossAnswerer};
    /// use xo_core::budget::{Budget, Meter};
    /// let stored = xo_store::sequence::shipped_dot007().unwrap();
    /// // A budget of one heap: a strip of a million cells needs 1,000,002 values, all stored.
    /// let meter = Meter::new(Budget::default().with_max_nodes(1));
    /// let mut answerer = TreblecrossAnswerer::with_meter(meter).with_stored(stored);
    /// let mut out = Vec::new();
    /// answerer.answer(&vec![b'.'; 1_000_000], &mut out).unwrap();
    /// assert!(out.starts_with(b"WINNING\n") || out == b"LOSING\n\n");
    /// ```
    pub fn with_stored(
        mut self,
        stored: std::sync::Arc<xo_core::solve::grundy::StoredSequence>,
    ) -> Self {
        self.judge = self.judge.with_stored(stored);
        self
    }
}

impl Answerer for TreblecrossAnswerer {
    const MAX_LINE: usize = 1 << 26;

    fn meter(&self) -> &Meter {
        &self.meter
    }

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError> {
        let analysis = self.judge.treblecross(case, &self.meter)?;
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
