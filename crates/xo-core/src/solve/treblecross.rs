//! Treblecross analysis: the outcome of a strip and every winning move, from the .007
//! nim-sequence (see [`games::treblecross`](crate::games::treblecross) for why a free run of `L`
//! cells is a .007 heap of `L + 2`). Linear in the strip's length once the values exist.

use crate::budget::{Meter, Stopped};
use crate::games::treblecross::TreblecrossStrip;
use crate::solve::grundy::{Grundy, NimSequence};

/// The outcome of a strip for the player to move, and every winning move (0-based cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripAnalysis {
    /// Whether the player to move wins with perfect play.
    pub winning: bool,
    /// Every cell where an X keeps the win, increasing; empty when losing.
    pub winning_moves: Vec<usize>,
}

impl TreblecrossStrip {
    /// The largest .007 heap [`Self::analyse`] needs the value of: `L + 2` for the longest free
    /// run of `L` cells.
    ///
    /// ```
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// assert_eq!(TreblecrossStrip::parse(b"..........").unwrap().largest_heap(), 12);
    /// assert_eq!(TreblecrossStrip::parse(b"X.........").unwrap().largest_heap(), 9);
    /// ```
    pub fn largest_heap(&self) -> usize {
        // A free run of `len` cells is a .007 heap of `len + 2`.
        self.free_runs().iter().map(|&(_, len)| len).max().unwrap_or(0) + 2
    }

    /// Solves the strip for the player to move. `seq` must be the .007 nim-sequence; it is extended
    /// as far as this strip needs, spending `meter` (see [`NimSequence::extend_to`]: the values
    /// computed are kept, and strips needing no more than a few thousand values always finish).
    /// When the meter stops, the [`Stopped`] says how far the values got of those the strip needs
    /// (heap `L + 2` for its longest free run of `L` cells).
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// let a = TreblecrossStrip::parse(b".....").unwrap().analyse(&mut seq, &Meter::unlimited()).unwrap();
    /// assert!(a.winning);
    /// assert_eq!(a.winning_moves, vec![2]);
    /// ```
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::games::treblecross::TreblecrossStrip;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// let none = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    /// assert!(TreblecrossStrip::parse(b".....").unwrap().analyse(&mut seq, &none).is_ok());
    /// let long = TreblecrossStrip::parse(&vec![b'.'; 1_000_000]).unwrap();
    /// let stopped = long.analyse(&mut seq, &none).unwrap_err();
    /// assert_eq!(stopped.limit, Limit::Time);
    /// assert!(stopped.reached.ends_with(" of 1000002"));
    /// ```
    pub fn analyse(&self, seq: &mut NimSequence, meter: &Meter) -> Result<StripAnalysis, Stopped> {
        if self.is_won() {
            return Ok(StripAnalysis { winning: false, winning_moves: Vec::new() });
        }
        let immediate = self.immediate_wins();
        if !immediate.is_empty() {
            return Ok(StripAnalysis { winning: true, winning_moves: immediate });
        }
        let runs = self.free_runs();
        seq.extend_to(self.largest_heap(), meter)?;
        let g007 = seq.values();
        let run_value = |len: usize| -> Grundy { g007[len + 2] };
        let total = runs.iter().fold(0, |acc, &(_, len)| acc ^ run_value(len));
        if total == 0 {
            return Ok(StripAnalysis { winning: false, winning_moves: Vec::new() });
        }
        let mut winning_moves = Vec::new();
        for &(start, len) in &runs {
            let target = total ^ run_value(len);
            for i in 0..len {
                let left = run_value(i.saturating_sub(2));
                let right = run_value((len - 1 - i).saturating_sub(2));
                if left ^ right == target {
                    winning_moves.push(start + i);
                }
            }
        }
        Ok(StripAnalysis { winning: true, winning_moves })
    }
}
