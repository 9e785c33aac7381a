//! The three classic judge problems (the formats of `xo batch`: tic-tac-toe continuations, the
//! LOL letter game, Treblecross) as questions of the core, so the front end that reads their
//! files only splits lines, calls [`Judge`] and writes the answers; which engine answers, with
//! which tables, is decided here with every other engine choice.
//!
//! Two things set them apart from a [`Query`](super::Query): a run asks thousands of cases of
//! one game, so the engines keep their tables from one case to the next (the LOL component
//! solver's, the .007 nim-sequence); and the problems' statements read some positions the
//! validated model refuses: a LOL strip that already holds `LOL`, or a Treblecross strip with
//! three `X`s in a row, "was just completed by the opponent" and is answered as lost, whatever
//! else the strip holds.
//!
//! ```
//! use xo_core::budget::Meter;
//! use xo_core::query::Judge;
//! use xo_core::Value;
//! let mut judge = Judge::new();
//! let meter = Meter::default();
//! assert_eq!(judge.lol(b"L*****L", &meter).unwrap(), Value::Win);
//! let t = judge.treblecross(b".....", &meter).unwrap();
//! assert_eq!((t.winning, t.winning_moves), (true, vec![2]));
//! ```

use crate::budget::{Meter, Stopped};
use crate::games::board::Board;
use crate::games::lol::LolStrip;
use crate::games::octal::OctalGame;
use crate::games::treblecross::TreblecrossStrip;
use crate::rules::parse_game;
use crate::solve::count::GameCounter;
use crate::solve::grundy::{NimSequence, StoredSequence};
use crate::solve::lol::LolSolver;
use crate::solve::reach::Reachability;
use crate::solve::treblecross::StripAnalysis;
use crate::Value;
use std::sync::Arc;

/// Entries the LOL solver's tables keep between cases; past it they are emptied before the next
/// case, so a long run's memory stays bounded.
pub const LOL_TABLE_LIMIT: usize = 4_000_000;

/// Why a judge case got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JudgeError {
    /// The case is not in the problem's format: what was expected.
    Bad(String),
    /// The run's budget ran out on it.
    Stopped(Stopped),
}

impl From<String> for JudgeError {
    /// What was expected, for a case not in the problem's format.
    fn from(expected: String) -> Self {
        JudgeError::Bad(expected)
    }
}

impl From<Stopped> for JudgeError {
    fn from(stopped: Stopped) -> Self {
        JudgeError::Stopped(stopped)
    }
}

/// Answers the cases of the classic judge problems, keeping each engine's tables from one case
/// to the next (all within the run's one meter).
#[derive(Debug)]
pub struct Judge {
    /// The LOL component solver, its tables carried between cases.
    lol: LolSolver,
    /// The .007 nim-sequence (Treblecross), computed as far as the longest free run seen.
    dot007: NimSequence,
    /// Stored .007 values, taken before any are computed.
    stored: Option<Arc<StoredSequence>>,
}

impl Default for Judge {
    fn default() -> Self {
        Self::new()
    }
}

impl Judge {
    /// A judge with empty tables.
    ///
    /// ```
    /// let judge = xo_core::query::Judge::new();
    /// # drop(judge);
    /// ```
    pub fn new() -> Judge {
        Judge { lol: LolSolver::new(), dot007: NimSequence::new(OctalGame::dot007()), stored: None }
    }

    /// The same judge, taking Treblecross's .007 values from `stored` as far as it goes
    /// (`xo_store::sequence::shipped_dot007` holds them to heap 2^20, for strips of a million
    /// cells) and computing only those beyond. A stored sequence of another game is not used.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::query::Judge;
    /// use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence};
    /// let values = nim_sequence_plain(&OctalGame::dot007(), 5000);
    /// let mut judge = Judge::new().with_stored(Arc::new(StoredSequence::new(OctalGame::dot007(), values)));
    /// // With a budget of one heap, a strip of 4,998 cells is answered from the stored values.
    /// let none = Meter::new(Budget::default().with_max_nodes(1));
    /// let strip = vec![b'.'; 4998];
    /// let answer = judge.treblecross(&strip, &none).unwrap();
    /// assert_eq!(answer, Judge::new().treblecross(&strip, &Meter::default()).unwrap());
    /// ```
    pub fn with_stored(mut self, stored: Arc<StoredSequence>) -> Judge {
        self.stored = Some(stored);
        self
    }

    /// The LOL letter game: the value for the player to move of a strip over `*LO` (`*` empty),
    /// `Loss` when it already holds `LOL` (the opponent just completed it).
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::{Judge, JudgeError};
    /// use xo_core::Value;
    /// let (mut judge, meter) = (Judge::new(), Meter::default());
    /// assert_eq!(judge.lol(b"LOL*LOL", &meter).unwrap(), Value::Loss);
    /// assert_eq!(judge.lol(b"LO*", &meter).unwrap(), Value::Win);
    /// let Err(JudgeError::Bad(why)) = judge.lol(b"L.O", &meter) else { panic!() };
    /// assert_eq!(why, "expected a strip over '*LO', found '.' at column 2");
    /// ```
    pub fn lol(&mut self, case: &[u8], meter: &Meter) -> Result<Value, JudgeError> {
        // A case costs a query: the clock is read on every one.
        meter.check()?;
        // The core's strips also read `.` as empty; the problem's alphabet is `*LO` only.
        if let Some(i) = case.iter().position(|&b| b == b'.') {
            return Err(JudgeError::Bad(format!(
                "expected a strip over '*LO', found '.' at column {}",
                i + 1
            )));
        }
        let strip = LolStrip::parse(case)
            .map_err(|e| JudgeError::Bad(format!("expected a strip over '*LO': {e}")))?;
        if self.lol.table_len() > LOL_TABLE_LIMIT {
            self.lol.clear();
        }
        Ok(self.lol.value(&strip, meter)?)
    }

    /// Treblecross: whether the player to move wins on a strip over `.X` of at least 3 cells,
    /// and every cell (0-based, increasing) where an X keeps the win; a strip that already has
    /// three X's in a row is lost with no moves. Answered by Grundy values of .007, computed as
    /// far as the strip's longest free run needs and kept for the next cases.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::Judge;
    /// let (mut judge, meter) = (Judge::new(), Meter::default());
    /// let won = judge.treblecross(b"XXX..", &meter).unwrap();
    /// assert!(!won.winning && won.winning_moves.is_empty());
    /// assert_eq!(judge.treblecross(b"X.X..", &meter).unwrap().winning_moves, vec![1]);
    /// ```
    pub fn treblecross(&mut self, case: &[u8], meter: &Meter) -> Result<StripAnalysis, JudgeError> {
        let strip = TreblecrossStrip::parse(case).map_err(|e| {
            JudgeError::Bad(format!("expected a strip over '.X' of at least 3 cells: {e}"))
        })?;
        if let Some(stored) = &self.stored {
            self.dot007.adopt(stored, strip.largest_heap());
        }
        let analysis = strip.analyse(&mut self.dot007, meter).map_err(|stopped| {
            let longest = strip.free_runs().iter().map(|&(_, len)| len).max().unwrap_or(0);
            let reached = stopped.reached.clone();
            stopped.reaching(format!("a free run of {longest} cells ({reached})"))
        })?;
        meter.check()?;
        Ok(analysis)
    }

    /// Tic-tac-toe continuations: for every grid, by its rank in [`Board::rank`]'s numbering
    /// (base 3, cell 1 the lowest digit, `X` 1 and `O` 2), `None` when it cannot arise in a
    /// legal game, else how many distinct games continuing from it (itself included) X wins and
    /// O wins. All 3^9 grids at once, by the retrograde reachability check and the memoised
    /// game counter (a few milliseconds: tic-tac-toe needs no budget).
    ///
    /// ```
    /// let grids = xo_core::query::Judge::tictactoe_continuations();
    /// assert_eq!(grids.len(), 19_683);
    /// assert_eq!(grids[0], Some((131_184, 77_904))); // the empty grid
    /// assert_eq!(grids[1 + 3], None); // X in cells 1 and 2 and no O: cannot arise
    /// ```
    pub fn tictactoe_continuations() -> Vec<Option<(u64, u64)>> {
        let rules = parse_game("tictactoe").expect("tic-tac-toe is built in");
        let ttt = Board::new(&rules).expect("nine cells fit a board");
        let mut reach = Reachability::new(&ttt);
        let mut counter = GameCounter::new(&ttt);
        let unlimited = Meter::unlimited();
        (0..3u128.pow(9))
            .map(|rank| {
                let pos = ttt.unrank(rank);
                let reachable = reach.is_reachable(&pos, &unlimited).expect("no limit to reach");
                reachable.then(|| {
                    let c = counter.count(&pos);
                    // Tic-tac-toe's counts are below 10^6.
                    (c.first as u64, c.second as u64)
                })
            })
            .collect()
    }
}
