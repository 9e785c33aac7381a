//! The nim-sequence of an octal game as a question of its own: values of every heap up to a
//! bound, the period the Guy-Smith theorem proves from them, and the summary figures people read
//! off a sequence. Like every other question, it is checked first and then answered within a
//! [`Meter`].

use super::{Game, InputError};
use crate::budget::{Meter, Stopped};
use crate::games::octal::OctalGame;
use crate::solve::grundy::{find_period, max_heap, Grundy, NimSequence, Summary};
use serde::Serialize;

/// The largest heap a nim-sequence is computed to (values take 4 bytes a heap).
pub const MAX_UPTO: usize = 100_000_000;

/// A checked request for a nim-sequence: an octal game and the largest heap.
///
/// ```
/// use xo_core::query::{Game, SequenceQuery};
/// let q = SequenceQuery::new(&Game::parse("treblecross").unwrap(), 100).unwrap();
/// assert_eq!(q.game().to_string(), "0.007");
/// assert!(SequenceQuery::new(&Game::parse("tictactoe").unwrap(), 100).is_err());
/// assert!(SequenceQuery::new(&Game::parse("kayles").unwrap(), 1 << 40).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceQuery {
    game: OctalGame,
    upto: usize,
}

impl SequenceQuery {
    /// Checks that `game` is an octal game (or one, like Treblecross, that is played as one) and
    /// that `upto` is within what the engines take.
    pub fn new(game: &Game, upto: usize) -> Result<SequenceQuery, InputError> {
        let octal = game.octal().ok_or_else(|| {
            InputError::Unsupported(format!(
                "{} is not an octal game; nim-sequences are of octal codes (0.77, .137, 4.07), \
                 kayles, dawson-kayles and treblecross (.007)",
                game.name()
            ))
        })?;
        let limit = max_heap(&octal).min(MAX_UPTO);
        if upto > limit {
            return Err(InputError::Unsupported(format!(
                "--upto {upto} is too large: at most {limit} for octal:{octal}"
            )));
        }
        Ok(SequenceQuery { game: octal, upto })
    }

    /// The octal game.
    pub fn game(&self) -> &OctalGame {
        &self.game
    }

    /// The largest heap.
    pub fn upto(&self) -> usize {
        self.upto
    }
}

/// A nim-sequence with its period and summary figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SequenceReport {
    /// The game's canonical name.
    pub game: String,
    /// The largest heap computed.
    pub upto: usize,
    /// Values of heaps 0..=upto.
    pub values: Vec<Grundy>,
    /// The least period, if proven by the Guy-Smith theorem from these values.
    pub period: Option<usize>,
    /// The preperiod that goes with `period`.
    pub preperiod: Option<usize>,
    /// The largest value.
    pub largest: Grundy,
    /// The least heap with the largest value.
    pub largest_at: usize,
    /// The sparse-space mask with the fewest rare heaps, if any.
    pub mask: Option<Grundy>,
    /// Whether the mask counts the heap's parity too (sparse space in the domain).
    pub mask_domain: bool,
    /// Heaps (of at least one token) with rare values.
    pub rare_heaps: usize,
    /// Heaps (of at least one token) with common values.
    pub common_heaps: usize,
    /// The distinct rare values.
    pub rare_values: Vec<Grundy>,
}

/// Computes the nim-sequence `query` asks for, within `meter`.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::query::{sequence, Game, SequenceQuery};
/// let q = SequenceQuery::new(&Game::parse("kayles").unwrap(), 200).unwrap();
/// let r = sequence(&q, &Meter::default()).unwrap();
/// assert_eq!((r.period, r.preperiod, r.game.as_str()), (Some(12), Some(71), "octal:0.77"));
/// ```
pub fn sequence(query: &SequenceQuery, meter: &Meter) -> Result<SequenceReport, Stopped> {
    let mut seq = NimSequence::new(query.game.clone());
    seq.extend_within(query.upto, meter)?;
    let values = seq.values()[..=query.upto].to_vec();
    let period = find_period(&query.game, &values);
    let summary = Summary::of(&query.game, &values);
    Ok(SequenceReport {
        game: format!("octal:{}", query.game),
        upto: query.upto,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        largest: summary.largest,
        largest_at: summary.largest_at,
        mask: summary.mask.map(|m| m.mask),
        mask_domain: summary.mask.is_some_and(|m| m.domain),
        rare_heaps: summary.rare_heaps,
        common_heaps: summary.common_heaps,
        rare_values: summary.rare_values,
        values,
    })
}
