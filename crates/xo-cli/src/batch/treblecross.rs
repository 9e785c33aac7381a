//! `treblecross`: for each strip over `.X`, `WINNING` or `LOSING` and every winning cell.

use super::{Answerer, CaseError};
use std::io::Write;
use xo_core::budget::Meter;
use xo_core::games::octal::OctalGame;
use xo_core::games::treblecross::TreblecrossStrip;
use xo_core::solve::grundy::NimSequence;

/// Answers from the Grundy values of .007, computed as far as the longest free run seen so far.
pub struct TreblecrossAnswerer {
    values: NimSequence,
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
    /// let long = vec![b'.'; 1_000_000];
    /// assert!(matches!(quick.answer(&long, &mut out), Err(CaseError::Stopped(_))));
    /// ```
    pub fn with_meter(meter: Meter) -> Self {
        TreblecrossAnswerer { values: NimSequence::new(OctalGame::dot007()), meter }
    }
}

impl Answerer for TreblecrossAnswerer {
    const MAX_LINE: usize = 1 << 26;

    fn meter(&self) -> &Meter {
        &self.meter
    }

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError> {
        let strip = TreblecrossStrip::parse(case)
            .map_err(|e| format!("expected a strip over '.X' of at least 3 cells: {e}"))?;
        let analysis = strip.analyse(&mut self.values, &self.meter).map_err(|stopped| {
            let longest = strip.free_runs().iter().map(|&(_, len)| len).max().unwrap_or(0);
            let reached = stopped.reached.clone();
            stopped.reaching(format!("a free run of {longest} cells ({reached})"))
        })?;
        self.meter.check()?;
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
