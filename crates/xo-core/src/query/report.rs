//! The answers to queries as plain values, serialisable as the JSON that `xo --json` prints and
//! the HTTP API returns: one shape per question, the same whichever engine answered, and the same
//! shape (value `unknown`, with the reason) when the budget ran out.

use crate::budget::Stopped;
use crate::Value;
use serde::{Serialize, Serializer};

/// Serialises a value, or `unknown` when there is none.
fn value_or_unknown<S: Serializer>(value: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => v.serialize(s),
        None => s.serialize_str("unknown"),
    }
}

/// Serialises a count, or `unknown` when there is none.
fn number_or_unknown<S: Serializer>(n: &Option<u128>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => n.serialize(s),
        None => s.serialize_str("unknown"),
    }
}

/// Serialises the counts by outcome, or the same fields each `unknown`: a count stopped at its
/// budget keeps the answer's shape.
fn counts_or_unknown<S: Serializer>(c: &Option<OutcomeCounts>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    match c {
        Some(c) => c.serialize(s),
        None => {
            let mut st = s.serialize_struct("OutcomeCounts", 4)?;
            for field in ["first_player_wins", "second_player_wins", "draws", "games"] {
                st.serialize_field(field, "unknown")?;
            }
            st.end()
        }
    }
}

/// A move with a value and a remoteness, for [`marked_best`].
trait Valued: Serialize {
    fn preference(&self) -> (Value, i64);
}

impl Valued for MoveReport {
    fn preference(&self) -> (Value, i64) {
        crate::value::preference(self.value, self.remoteness)
    }
}

impl Valued for HeapMoveReport {
    fn preference(&self) -> (Value, i64) {
        crate::value::preference(self.value, Some(self.remoteness))
    }
}

/// A move as serialized, with `"best": true` when it ties for the best.
#[derive(Serialize)]
struct Marked<'a, T: Serialize> {
    #[serde(flatten)]
    the_move: &'a T,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    best: bool,
}

/// The moves, those tied for the best by [`preference`](crate::value::preference) marked.
fn marked_best<T: Valued, S: Serializer>(moves: &Option<Vec<T>>, s: S) -> Result<S::Ok, S::Error> {
    let moves = moves.as_deref().unwrap_or_default();
    let top = moves.iter().map(Valued::preference).max();
    s.collect_seq(moves.iter().map(|m| Marked { the_move: m, best: Some(m.preference()) == top }))
}

/// One move of a placement game and what it is worth to the player making it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The move's name: its cell's 1-based index (plus the letter, where the player chooses it),
    /// or its column under gravity.
    #[serde(rename = "move")]
    pub name: String,
    /// Its value for the player making it.
    pub value: Value,
    /// Plies to the end under perfect play, counting this move; `null` when the engine does not
    /// tell it (Grundy values, the LOL component solver).
    pub remoteness: Option<u32>,
    /// For gravity games: Pascal Pons' score of the move for its player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// When asked for (the request's `line`): the principal variation, this move then perfect
    /// play to the end of the game (the winner taking the quickest win, the loser and both sides
    /// of a draw the longest game, ties by board order), as move names. Its length is the
    /// remoteness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
}

/// A winning move in a sum of heaps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapMove {
    /// 1-based index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub removed: usize,
    /// Heaps left in its place.
    pub leaves: Vec<usize>,
}

/// A move in a sum of heaps with its value and remoteness for the player making it (sums small
/// enough to search).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapMoveReport {
    /// 1-based index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub removed: usize,
    /// Heaps left in its place.
    pub leaves: Vec<usize>,
    /// Its value for the player making it.
    pub value: Value,
    /// Plies to the end under perfect play, counting this move.
    pub remoteness: u32,
}

/// What solving a position found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolveReport {
    /// The game's canonical name.
    pub game: String,
    /// The position, as canonical text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// `win`, `draw`, `loss` for the player to move, or `unknown` when the budget ran out.
    #[serde(serialize_with = "value_or_unknown")]
    pub value: Option<Value>,
    /// Plies to the end under perfect play, when known and asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u32>,
    /// For gravity games with own marks and k in a row (Connect Four's family), when the
    /// remoteness is known: Pascal Pons' score, positive when the player to move wins and larger
    /// the sooner (`(W*H + 2 - e) / 2` for a game won at ply `e`), negative when losing, 0 drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Every legal move in board order (or only the winning ones, when asked), unless only the
    /// value was asked for.
    ///
    /// In JSON each move tied best under the one rule of [`best_move`](super::best_move) (by
    /// [`preference`](crate::value::preference): the quickest win, the slowest draw or loss)
    /// carries `"best": true`, so that no front end ranks moves itself.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "marked_best")]
    pub moves: Option<Vec<MoveReport>>,
    /// For sums of heaps: each heap's Grundy value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_values: Option<Vec<u32>>,
    /// For impartial games: the position's Grundy value (nim-sum of its parts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nim_sum: Option<u32>,
    /// For sums of heaps: every winning move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves: Option<Vec<HeapMove>>,
    /// For sums of heaps small enough to search: every move (only the winning ones when asked)
    /// with its value and remoteness.
    /// Marked best in JSON as [`SolveReport::moves`] are.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "marked_best")]
    pub heap_moves: Option<Vec<HeapMoveReport>>,
    /// For gravity games, when asked (`threats`): each side's threats and who holds the parity
    /// (see [`Threats`](super::threats::Threats)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threats: Option<super::threats::Threats>,
    /// Which engine answered.
    pub engine: &'static str,
    /// Anything the reader should know (what the engine does not tell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why the value is unknown: the budget reached, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the value is unknown: which budget, and how far the engine got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// Games by outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OutcomeCounts {
    /// Games the first player wins (X; in strip games the player to move at an even number of
    /// filled cells).
    pub first_player_wins: u128,
    /// Games the second player wins.
    pub second_player_wins: u128,
    /// Games nobody wins.
    pub draws: u128,
    /// All games.
    pub games: u128,
}

impl From<crate::solve::count::GameCounts> for OutcomeCounts {
    fn from(c: crate::solve::count::GameCounts) -> Self {
        OutcomeCounts {
            first_player_wins: c.first,
            second_player_wins: c.second,
            draws: c.draws,
            games: c.total(),
        }
    }
}

/// Games ending after a given number of moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LengthCounts {
    /// Moves in the whole game, counted from the empty board.
    pub moves: usize,
    /// The games of that length, by outcome.
    #[serde(flatten)]
    pub counts: OutcomeCounts,
}

/// The games split by length, when asked for: the lengths with at least one game, or unknown
/// (serialised as `"unknown"`) when the budget ran out first, so a stopped count keeps the
/// answer's shape.
///
/// ```
/// use xo_core::query::LengthSplit;
/// assert_eq!(serde_json::to_string(&LengthSplit::Unknown).unwrap(), r#""unknown""#);
/// assert_eq!(serde_json::to_string(&LengthSplit::Known(vec![])).unwrap(), "[]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LengthSplit {
    /// The games of each length that has any, shortest first.
    Known(Vec<LengthCounts>),
    /// The budget ran out before the census finished.
    Unknown,
}

impl Serialize for LengthSplit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LengthSplit::Known(lengths) => lengths.serialize(s),
            LengthSplit::Unknown => s.serialize_str("unknown"),
        }
    }
}

/// What counting the games from a position found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountReport {
    /// The game's canonical name.
    pub game: String,
    /// The position counted from.
    pub position: String,
    /// Games by outcome; `None` when the budget ran out (each count is then `"unknown"`).
    #[serde(flatten, serialize_with = "counts_or_unknown")]
    pub counts: Option<OutcomeCounts>,
    /// Distinct positions reachable from the position, itself included (`"unknown"` when the
    /// budget ran out).
    #[serde(serialize_with = "number_or_unknown")]
    pub positions: Option<u128>,
    /// When asked for: the split by game length (lengths with no game left out), unknown when
    /// the budget ran out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_length: Option<LengthSplit>,
    /// Why the counts are unknown, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the counts are unknown: which budget, and how far the census got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// Whether a position can arise in a legal game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The game's canonical name.
    pub game: String,
    /// The position checked.
    pub position: String,
    /// Whether some legal game from the empty board reaches it; `None` when the budget ran out.
    pub reachable: Option<bool>,
    /// Why not, in words (or why it is unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the answer is unknown: which budget, and how far the check got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// A question stopped at its budget with no partial answer to show (a nim-sequence): the stop
/// in words and in detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoppedReport {
    /// The stop, in words.
    pub error: String,
    /// Which budget, and how far the engine got.
    pub stopped: Stopped,
}

/// The answer to a [`Query`](super::Query): one shape per question, serialised without a tag
/// (the JSON is the report itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// For [`Question::Value`](super::Question::Value),
    /// [`Question::Score`](super::Question::Score) and
    /// [`Question::Analysis`](super::Question::Analysis).
    Solve(SolveReport),
    /// For [`Question::Count`](super::Question::Count).
    Count(CountReport),
    /// For [`Question::Reach`](super::Question::Reach).
    Check(CheckReport),
    /// For [`Question::Grundy`](super::Question::Grundy).
    Sequence(super::sequence::SequenceReport),
    /// For [`Question::Grundy`](super::Question::Grundy) stopped at its budget: the same
    /// fields, each figure unknown.
    UnknownSequence(super::sequence::UnknownSequence),
    /// For [`Question::Moves`](super::Question::Moves).
    Moves(MovesReport),
    /// For [`Question::After`](super::Question::After).
    After(AfterReport),
    /// For [`Question::Best`](super::Question::Best).
    Best(BestReport),
    /// A question stopped at its budget with no partial shape.
    Stopped(StoppedReport),
}

impl Answer {
    /// Why the answer is unknown, when the budget ran out.
    pub fn stopped(&self) -> Option<&Stopped> {
        match self {
            Answer::Solve(r) => r.stopped.as_ref(),
            Answer::Count(r) => r.stopped.as_ref(),
            Answer::Check(r) => r.stopped.as_ref(),
            Answer::Best(r) => r.stopped.as_ref(),
            Answer::Stopped(r) => Some(&r.stopped),
            Answer::UnknownSequence(r) => Some(&r.stopped),
            Answer::Sequence(_) | Answer::Moves(_) | Answer::After(_) => None,
        }
    }
}

/// A legal move and the position it leads to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The move's name, as solve reports name it and [`Question::After`](super::Question::After)
    /// reads it.
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it, as canonical text.
    pub position: String,
}

/// The legal moves of a position.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{answer, Answer, Query, Question};
/// let q = Request::new("lol:3").at("L..").asking(Question::Moves).prepare(&[], Runner::Pool).unwrap();
/// let Answer::Moves(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// let names: Vec<&str> = r.moves.iter().map(|m| m.name.as_str()).collect();
/// assert_eq!(names, ["2L", "2O", "3L", "3O"]);
/// assert_eq!(r.moves[1].position, "LO.");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovesReport {
    /// The game's canonical name.
    pub game: String,
    /// The position, as canonical text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// Whether the game is over (no moves).
    pub over: bool,
    /// Every legal move in board order, with the position after it.
    pub moves: Vec<LegalMove>,
    /// When the game ended by a completed pattern: its cells, numbered from 1 in reading order
    /// (the line a page draws through the win).
    ///
    /// ```
    /// use xo_core::request::Request;
    /// use xo_core::threads::Runner;
    /// use xo_core::query::{answer, Answer, Query, Question};
    /// let q = Request::new("tictactoe").at("XXXOO....").asking(Question::Moves).prepare(&[], Runner::Pool).unwrap();
    /// let Answer::Moves(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
    /// assert_eq!((r.over, r.line), (true, Some(vec![1, 2, 3])));
    /// ```
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<usize>>,
}

/// The position after one move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AfterReport {
    /// The game's canonical name.
    pub game: String,
    /// The position the move was played in.
    pub position: String,
    /// The move, by its canonical name.
    #[serde(rename = "move")]
    pub name: String,
    /// The position after it.
    pub after: String,
    /// Who is to move after it.
    pub to_move: String,
    /// Whether the move ended the game.
    pub over: bool,
}

/// The best move of a position.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{answer, Answer, Query, Question};
/// let q = Request::new("tictactoe").at("XX.OO....").asking(Question::Best).prepare(&[], Runner::Pool).unwrap();
/// let Answer::Best(r) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// assert_eq!((r.best.unwrap().name.as_str(), r.proven), ("3", true));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestReport {
    /// The game's canonical name.
    pub game: String,
    /// The position, as canonical text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// The best move with its value and remoteness, `null` when the game is over (or the budget
    /// ran out before any move was known). From the look-ahead (`proven: false`), a move whose
    /// value its plies do not settle is reported as a draw with no remoteness.
    pub best: Option<MoveReport>,
    /// Whether `best` comes from the exact answer (false: from the look-ahead that runs when
    /// the budget did not allow it).
    pub proven: bool,
    /// Over the budget: how many plies deep the look-ahead that chose `best` searched (the
    /// deepest round that finished within its
    /// [`LOOK_AHEAD_NODES`](super::LOOK_AHEAD_NODES) positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub look_ahead_plies: Option<u32>,
    /// Which engine answered.
    pub engine: &'static str,
    /// Why the exact answer is missing: the budget reached, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the exact answer is missing: which budget, and how far the engine got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}
