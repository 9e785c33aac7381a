//! `lol`: for each strip over `*LO`, the value for the player to move: `1`, `0` or `-1`.

use super::answerer::{Answerer, CaseError};
use xo_core::budget::Meter;
use xo_core::query::Judge;

/// Answers through the core's [`Judge`], whose LOL tables carry over between lines, all within
/// one meter (the run's budget).
pub struct LolAnswerer {
    judge: Judge,
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
        LolAnswerer { judge: Judge::new(), meter }
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
        let value = self.judge.lol(case, &self.meter)?;
        out.extend_from_slice(match value.as_i8() {
            1 => b"1\n",
            0 => b"0\n",
            _ => b"-1\n",
        });
        Ok(())
    }
}
