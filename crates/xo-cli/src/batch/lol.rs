//! `lol`: for each strip over `*LO`, the value for the player to move: `1`, `0` or `-1`.

use super::{Answerer, CaseError};
use xo_core::budget::Meter;
use xo_core::games::lol::LolStrip;
use xo_core::solve::lol::LolSolver;

/// Table entries kept between lines before the solver's tables are emptied, to bound memory.
const TABLE_LIMIT: usize = 4_000_000;

/// Answers with the core's component-splitting LOL solver, whose tables carry over between lines,
/// all within one meter (the run's budget; the solver's tables within its memory budget).
pub struct LolAnswerer {
    solver: LolSolver,
    meter: Meter,
}

impl LolAnswerer {
    /// An answerer with empty tables.
    ///
    /// ```
    /// use xo_cli::batch::{Answerer, LolAnswerer};
    /// let mut out = Vec::new();
    /// LolAnswerer::new().answer(b"L*****L", &mut out).unwrap();
    /// assert_eq!(out, b"1\n");
    /// ```
    pub fn new() -> Self {
        Self::with_meter(Meter::new(Default::default()))
    }

    /// An answerer whose whole run is bounded by `meter`.
    pub fn with_meter(meter: Meter) -> Self {
        LolAnswerer { solver: LolSolver::new(), meter }
    }
}

impl Default for LolAnswerer {
    fn default() -> Self {
        Self::new()
    }
}

impl Answerer for LolAnswerer {
    const MAX_LINE: usize = 1 << 20;

    fn meter(&self) -> &Meter {
        &self.meter
    }

    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError> {
        // A line costs a query: the clock is read on every one (the driver counts the lines).
        self.meter.check()?;
        // The core also reads `.` as empty; the judge format's alphabet is `*LO` only.
        if let Some(i) = case.iter().position(|&b| b == b'.') {
            return Err(
                format!("expected a strip over '*LO', found '.' at column {}", i + 1).into()
            );
        }
        let strip =
            LolStrip::parse(case).map_err(|e| format!("expected a strip over '*LO': {e}"))?;
        if self.solver.table_len() > TABLE_LIMIT {
            self.solver.clear();
        }
        let value = self.solver.value(&strip, &self.meter)?;
        out.extend_from_slice(match value.as_i8() {
            1 => b"1\n",
            0 => b"0\n",
            _ => b"-1\n",
        });
        Ok(())
    }
}
