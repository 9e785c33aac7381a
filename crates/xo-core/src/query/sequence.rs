//! The nim-sequence of an octal game as a question of its own: values of every heap up to a
//! bound, the period the Guy-Smith theorem proves from them, and the summary figures people read
//! off a sequence. Like every other question, it is checked first and then answered within a
//! [`Meter`].

use super::game::{Game, InputError};
use crate::budget::{Meter, Stopped};
use crate::games::octal::OctalGame;
use crate::solve::grundy::{find_period, max_heap, Grundy, NimSequence, Summary};
use serde::Serialize;

/// The largest heap a nim-sequence is computed to (values take 4 bytes a heap).
pub const MAX_UPTO: usize = 100_000_000;

/// Heaps computed directly before a proven period is looked for.
const FIRST_BLOCK: usize = 4096;

/// A checked request for a nim-sequence: an octal game and the largest heap.
///
/// ```
/// use xo_core::query::Question;
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// let ask = |game: &str, upto| Request::new(game).asking(Question::Grundy { upto });
/// assert!(ask("treblecross", 100).prepare(&[], Runner::Pool).is_ok());
/// assert!(ask("tictactoe", 100).prepare(&[], Runner::Pool).is_err());
/// assert!(ask("kayles", 1 << 40).prepare(&[], Runner::Pool).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SequenceQuery {
    game: OctalGame,
    upto: usize,
    /// Threads the engine may use (the thread policy's default unless set).
    threads: usize,
}

impl SequenceQuery {
    /// Checks that `game` is an octal game (or one, like Treblecross, that is played as one) and
    /// that `upto` is within what the engines take.
    pub(crate) fn new(game: &Game, upto: usize) -> Result<SequenceQuery, InputError> {
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
        Ok(SequenceQuery {
            game: octal,
            upto,
            threads: crate::threads::Runner::Alone.default_threads(),
        })
    }

    /// The same query, allowed `threads` threads (see [`NimSequence::set_threads`]; the values
    /// are the same with any number).
    pub(crate) fn with_threads(mut self, threads: usize) -> SequenceQuery {
        self.threads = threads.max(1);
        self
    }

    /// The report's shape with nothing known, for a sequence stopped at its budget: the same
    /// fields as a [`SequenceReport`], each figure `"unknown"`, with the reason and the stop.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::query::{answer, Question};
    /// use xo_core::request::Request;
    /// use xo_core::threads::Runner;
    /// let q = Request::new("kayles").asking(Question::Grundy { upto: 100_000 });
    /// let q = q.prepare(&[], Runner::Pool).unwrap();
    /// let stopped = answer(&q, &Meter::new(Budget::default().with_max_nodes(10))).unwrap_err();
    /// let json = serde_json::to_value(q.unanswered(&stopped)).unwrap();
    /// assert_eq!((json["values"].as_str(), json["upto"].as_u64()), (Some("unknown"), Some(100_000)));
    /// assert_eq!(json["stopped"]["limit"], "nodes");
    /// ```
    pub fn unanswered(&self, stopped: &Stopped) -> UnknownSequence {
        UnknownSequence {
            game: format!("octal:{}", self.game),
            upto: self.upto,
            values: UNKNOWN,
            period: UNKNOWN,
            preperiod: UNKNOWN,
            largest: UNKNOWN,
            largest_at: UNKNOWN,
            mask: UNKNOWN,
            mask_domain: UNKNOWN,
            rare_heaps: UNKNOWN,
            common_heaps: UNKNOWN,
            rare_values: UNKNOWN,
            reason: stopped.to_string(),
            stopped: stopped.clone(),
        }
    }
}

/// What a figure not computed says.
const UNKNOWN: &str = "unknown";

/// A nim-sequence stopped at its budget ([`SequenceQuery::unanswered`]): the fields of a
/// [`SequenceReport`], each figure `"unknown"`, then why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnknownSequence {
    /// The game's canonical name.
    pub game: String,
    /// The largest heap asked for.
    pub upto: usize,
    /// `"unknown"`, as every figure below.
    pub values: &'static str,
    /// See [`SequenceReport::period`].
    pub period: &'static str,
    /// See [`SequenceReport::preperiod`].
    pub preperiod: &'static str,
    /// See [`SequenceReport::largest`].
    pub largest: &'static str,
    /// See [`SequenceReport::largest_at`].
    pub largest_at: &'static str,
    /// See [`SequenceReport::mask`].
    pub mask: &'static str,
    /// See [`SequenceReport::mask_domain`].
    pub mask_domain: &'static str,
    /// See [`SequenceReport::rare_heaps`].
    pub rare_heaps: &'static str,
    /// See [`SequenceReport::common_heaps`].
    pub common_heaps: &'static str,
    /// See [`SequenceReport::rare_values`].
    pub rare_values: &'static str,
    /// The budget reached, in words.
    pub reason: String,
    /// Which budget, and how far the computation got.
    pub stopped: Stopped,
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
/// use xo_core::query::{answer, Answer, Question};
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// let q = Request::new("kayles").asking(Question::Grundy { upto: 200 });
/// let q = q.prepare(&[], Runner::Pool).unwrap();
/// let Answer::Sequence(r) = answer(&q, &Meter::default()).unwrap() else { panic!() };
/// assert_eq!((r.period, r.preperiod, r.game.as_str()), (Some(12), Some(71), "octal:0.77"));
/// ```
pub(crate) fn sequence(query: &SequenceQuery, meter: &Meter) -> Result<SequenceReport, Stopped> {
    let upto = query.upto;
    // The values reported, 4 bytes a heap, whether computed or arithmetic: checked first, so a
    // sequence beyond the memory budget stops at once (the engine asks for more as it goes).
    let bytes = (upto as u64 + 1).saturating_mul(std::mem::size_of::<Grundy>() as u64);
    let _reported =
        meter.reserve(bytes).map_err(|s| s.reaching(format!("values of heaps 0..={upto}")))?;
    let mut seq = NimSequence::new(query.game.clone());
    seq.set_threads(query.threads);
    // In growing blocks until the Guy-Smith theorem proves a period: the values beyond it are
    // arithmetic (Kayles to a million heaps needs 4,096 of them computed).
    let mut block = upto.min(FIRST_BLOCK - 1);
    let proven = loop {
        seq.extend_to(block, meter)?;
        if block >= upto {
            break None;
        }
        if let Some(p) = find_period(&query.game, seq.values()) {
            break Some(p);
        }
        block = block.saturating_mul(2).saturating_add(1).min(upto);
    };
    let computed = &seq.values()[..=block.min(seq.values().len() - 1)];
    let mut values = Vec::new();
    if let Some(p) = proven {
        values.reserve_exact(upto + 1);
        values.extend_from_slice(computed);
        // Counted as values like the computed ones, in one batch.
        meter.tick((upto + 1 - values.len()) as u64)?;
        for n in values.len()..=upto {
            values.push(values[p.preperiod + (n - p.preperiod) % p.period]);
        }
    } else {
        values.extend_from_slice(computed);
    }
    drop(seq);
    let period = proven.or_else(|| find_period(&query.game, &values));
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
