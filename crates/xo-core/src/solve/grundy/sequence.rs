//! The nim-sequence of a game, as callers ask for it ([`nim_sequence`], [`NimSequence`]), and the
//! limits and kernel the engines work with, in a file of their own so that the parts that build on
//! it (`sum`) take it from here rather than from the module that declares and re-exports the parts.

use super::engine::SequenceEngine;
use super::kernel::{Kernel, PassKernel};
use super::mask::SparseMask;
use super::method::{EngineStats, Method};
use super::stored::StoredSequence;
use super::types::Grundy;
use crate::budget::{Meter, Stopped};
use crate::games::octal::{OctalGame, OctalMoves};

/// The largest heap the engines accept for `game`: 10^8 when a move leaves at most two heaps, 4096
/// when a hexadecimal move may leave three (the work is then cubic in the heap).
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::max_heap;
/// assert_eq!(max_heap(&"0.77".parse::<OctalGame>().unwrap()), 100_000_000);
/// assert_eq!(max_heap(&"0.8".parse::<OctalGame>().unwrap()), 4096);
/// ```
pub fn max_heap(game: &OctalGame) -> usize {
    if OctalMoves::new(game).max_parts() >= 3 {
        4096
    } else {
        100_000_000
    }
}

/// The kernel of the filtered pass that the default method uses on this CPU ([`PassKernel::best`]:
/// AVX-512, AVX2 or NEON), or `None` where there is no vector kernel (or `XO_GRUNDY_KERNEL=scalar`
/// says not to use one); the engine then values heaps by candidate testing and the bitset mex.
///
/// ```
/// use xo_core::solve::grundy::{pass_kernel, PassKernel};
/// if let Some(k) = pass_kernel() {
///     assert!(k.is_available() && k != PassKernel::Scalar);
/// }
/// ```
pub fn pass_kernel() -> Option<PassKernel> {
    Kernel::vector().map(Kernel::name)
}

/// The nim-sequence of `game` for heaps `0..=upto`, by the fastest engine available, within
/// `meter` (see [`NimSequence::extend_to`]).
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::nim_sequence;
/// let g = nim_sequence(&OctalGame::dot007(), 15, &Meter::unlimited()).unwrap();
/// assert_eq!(g, vec![0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]);
/// ```
pub fn nim_sequence(game: &OctalGame, upto: usize, meter: &Meter) -> Result<Vec<Grundy>, Stopped> {
    let mut engine = SequenceEngine::new(game, Method::Auto);
    engine.extend(upto, meter)?;
    Ok(engine.into_values())
}

/// A nim-sequence that grows on demand, for callers (like Treblecross analysis) that learn how far
/// they need it only as their input arrives.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::NimSequence;
/// let mut seq = NimSequence::new(OctalGame::dot007());
/// assert_eq!(seq.extend_to(9, &Meter::unlimited()).unwrap()[9], 3);
/// assert_eq!(seq.values().len(), 10);
/// ```
#[derive(Debug, Clone)]
pub struct NimSequence {
    game: OctalGame,
    engine: SequenceEngine,
}

impl NimSequence {
    /// An empty sequence for `game`, computed by the fastest method ([`Method::Auto`]).
    pub fn new(game: OctalGame) -> Self {
        Self::with_method(game, Method::Auto)
    }

    /// An empty sequence for `game`, computed by `method`.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::{Method, NimSequence};
    /// let mut seq = NimSequence::with_method(OctalGame::dot007(), Method::Bitset);
    /// assert_eq!(seq.extend_to(15, &Meter::unlimited()).unwrap()[15], 4);
    /// ```
    pub fn with_method(game: OctalGame, method: Method) -> Self {
        let engine = SequenceEngine::new(&game, method);
        NimSequence { game, engine }
    }

    /// The game.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::NimSequence;
    /// assert_eq!(NimSequence::new(OctalGame::dot007()).game().to_string(), "0.007");
    /// ```
    pub fn game(&self) -> &OctalGame {
        &self.game
    }

    /// The values computed so far, for heaps `0..values().len()`.
    pub fn values(&self) -> &[Grundy] {
        self.engine.values()
    }

    /// Makes sure heaps `0..=upto` are computed and returns every value computed so far,
    /// spending `meter`: it asks the meter for the memory of the tables first (4 bytes per value,
    /// plus the engine's copies of the values sized by the heap count), ticks it once per heap
    /// valued, and reads its clock every few milliseconds of work on every thread. When the meter
    /// stops (a limit reached, or cancelled from another thread) it returns the [`Stopped`],
    /// saying how far the values got, and keeps every value computed so far. Work too small to
    /// reach a reading of the clock (fewer than 64 heaps, and a few thousand heaps' splits)
    /// always finishes.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// assert_eq!(seq.extend_to(9, &Meter::unlimited()).unwrap()[9], 3);
    /// let ample = Meter::new(Budget::default());
    /// assert!(seq.extend_to(1000, &ample).is_ok());
    /// let none = || Meter::new(Budget::default().with_timeout(Duration::ZERO));
    /// assert!(seq.extend_to(1050, &none()).is_ok());
    /// let stopped = seq.extend_to(10_000_000, &none()).unwrap_err();
    /// assert_eq!(stopped.limit, Limit::Time);
    /// assert!(stopped.reached.starts_with("Grundy values up to heap "));
    /// assert!(seq.values().len() > 1051);
    /// ```
    pub fn extend_to(&mut self, upto: usize, meter: &Meter) -> Result<&[Grundy], Stopped> {
        match self.engine.extend(upto, meter) {
            Ok(()) => Ok(self.engine.values()),
            Err(stopped) => {
                let reached = self.values().len().saturating_sub(1);
                Err(stopped.reaching(format!("Grundy values up to heap {reached} of {upto}")))
            }
        }
    }

    /// Takes from `stored` the values of heaps up to `upto` (as many as it has) that this
    /// sequence lacks, so that they are not computed; returns how many it took. A stored
    /// sequence of another game gives none. The values are trusted as far as
    /// [`StoredSequence::decode`] checks them (the shipped files are checked to their end by
    /// the tests); the engine goes on from them as from its own.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::{nim_sequence_plain, NimSequence, StoredSequence};
    /// let stored = StoredSequence::new(OctalGame::dot007(), nim_sequence_plain(&OctalGame::dot007(), 3000));
    /// let mut seq = NimSequence::new(OctalGame::dot007());
    /// assert_eq!(seq.adopt(&stored, 2000), 2001);
    /// assert_eq!(seq.adopt(&stored, 2000), 0);
    /// // Computed on from there, the values are the plain ones.
    /// seq.extend_to(3500, &Meter::unlimited()).unwrap();
    /// assert_eq!(seq.values(), &nim_sequence_plain(&OctalGame::dot007(), 3500)[..]);
    /// let mut kayles = NimSequence::new("0.77".parse().unwrap());
    /// assert_eq!(kayles.adopt(&stored, 2000), 0);
    /// ```
    pub fn adopt(&mut self, stored: &StoredSequence, upto: usize) -> usize {
        if stored.game() != &self.game {
            return 0;
        }
        let have = self.values().len();
        let end = stored.values().len().min(upto.saturating_add(1));
        if end <= have {
            return 0;
        }
        self.engine.adopt(&stored.values()[have..end]);
        end - have
    }

    /// Lets the engine use up to `threads` threads (by default, every core this process may use,
    /// as [`crate::threads::allowed`] decides; at most 4, and no more than the game's moves let
    /// work at once). The values are the same with any number.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut one = NimSequence::new(OctalGame::dot007());
    /// one.set_threads(1);
    /// let mut many = NimSequence::new(OctalGame::dot007());
    /// let meter = Meter::unlimited();
    /// assert_eq!(one.extend_to(5000, &meter), many.extend_to(5000, &meter));
    /// ```
    pub fn set_threads(&mut self, threads: usize) {
        self.engine.set_threads(threads);
    }

    /// The sparse-space classification in use, if the sparse method is running.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::{Method, NimSequence};
    /// let method = Method::Sparse { review_from: 64, force: true };
    /// let mut seq = NimSequence::with_method(OctalGame::dot007(), method);
    /// assert_eq!(seq.mask(), None);
    /// seq.extend_to(500, &Meter::unlimited()).unwrap();
    /// assert!(seq.mask().is_some());
    /// // .007 has no sparse space: the default method finds no mask worth using.
    /// let mut auto = NimSequence::new(OctalGame::dot007());
    /// auto.extend_to(5000, &Meter::unlimited()).unwrap();
    /// assert_eq!(auto.mask(), None);
    /// ```
    pub fn mask(&self) -> Option<SparseMask> {
        self.engine.sparse()
    }

    /// Work counters so far.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::NimSequence;
    /// let mut seq = NimSequence::new("0.77".parse::<OctalGame>().unwrap());
    /// seq.extend_to(100, &Meter::unlimited()).unwrap();
    /// let stats = seq.stats();
    /// assert_eq!(stats.candidate_heaps + stats.filtered_heaps, 101);
    /// ```
    pub fn stats(&self) -> EngineStats {
        self.engine.stats()
    }

    pub(crate) fn rules(&self) -> &OctalMoves {
        self.engine.rules()
    }
}
