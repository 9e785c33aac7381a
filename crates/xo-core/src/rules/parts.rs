//! The parts a game's rules are made of (how marks are chosen, the goal), the largest board,
//! and why rules cannot be played: apart from `mod.rs`, which only declares and re-exports, so
//! that the files of the rules name each other, never their parent.

/// How players choose the mark they place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Marks {
    /// Each player places their own mark: X (moving first) and O.
    Own,
    /// On each turn the mover chooses any mark of the alphabet (`L`/`O` in LOL, `S`/`O` in SOS).
    Shared(Vec<char>),
    /// Both players place the same mark (`X` in Treblecross).
    Same(char),
}

/// The pattern whose completion ends the game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Goal {
    /// `k` equal marks in a line: the mover's own marks with [`Marks::Own`], otherwise `k` of the
    /// same mark.
    InRow(u32),
    /// A word read along a line in either direction.
    Word(Vec<char>),
}

/// Why rules cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// An unknown game name or a malformed size.
    #[error("unknown game {0:?}: try tictactoe, mnk:M,N,K, connect:M,N,K, connect4, treblecross:N, lol:N, sos:N, or a rules file")]
    UnknownGame(String),
    /// A size or parameter that does not make sense.
    #[error("{0}")]
    Invalid(String),
}

/// The most cells any board may have (engines may support fewer).
pub const MAX_CELLS: u64 = 1 << 24;
