//! What a query asks, once checked: [`Question`], in a file of its own so that every engine's
//! file can name it without reaching into the module that dispatches to them.

/// What is asked of a position (or, for [`Question::Grundy`], of a game): the checked form of a
/// request's [`Ask`](crate::request::Ask) with the flags that refine it.
/// [`Request::question`](crate::request::Request::question) makes it from them and
/// [`Request::asking`](crate::request::Request::asking) puts it back; a [`Query`] holds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Its value for the player to move, as fast as possible.
    Value,
    /// Its value and remoteness (and, for gravity games, Pascal Pons' score), without the moves.
    Score,
    /// Its value, remoteness and every move's value (only the winning moves when
    /// `winning_only`), as far as the engine tells them.
    Analysis {
        /// List only the moves that win.
        winning_only: bool,
    },
    /// The games continuing from it, by outcome, and the distinct positions on the way.
    Count {
        /// Also split the games by length.
        by_length: bool,
        /// Merge depths in dense tables indexed by rank where they fit, instead of hash maps.
        dense: bool,
    },
    /// Whether it can arise in a legal game from the empty board.
    Reach,
    /// The nim-sequence of the game (an octal game, or Treblecross as .007) up to heap `upto`.
    Grundy {
        /// The largest heap.
        upto: usize,
    },
    /// Its legal moves, each with the position after it.
    Moves,
    /// The position after a move (the request's `move`).
    After,
    /// Its best move, by the one tie rule of [`best_move`].
    Best,
}
