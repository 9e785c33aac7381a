//! The placement-game model: one [`Rules`] type describes every game of the family, and the
//! built-in names (`tictactoe`, `mnk:M,N,K`, `connect4`, `lol:16`, ...) are just instances of it.
//!
//! A game is a board (a strip or an m x n grid, optionally with gravity), a way of choosing marks
//! (each player their own, a shared alphabet, or one mark for both), a winning pattern (k in a
//! line, or a word read along a line in either direction) and whether completing it wins or loses.
//! Rules text is parsed into a plain [`RulesSetup`], which [`RulesSetup::validate`] checks once
//! into [`Rules`]: its fields are private, so every `Rules` an engine sees is playable.

mod builtin;
mod checked;
mod columns;
mod file;
mod naive;
mod notation;
mod position;
mod setup;

pub use builtin::parse_game;
pub use checked::{ForeignPosition, Position};
pub use columns::{columns_text, parse_columns};
pub use naive::Requirement;
pub use notation::{move_name, move_order, parse_move, player_to_move};
pub use position::{BoardMove, PositionError, Setup};
pub use setup::{Rules, RulesSetup};

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
