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
mod parts;
mod position;
mod setup;

pub use builtin::parse_game;
pub use checked::{ForeignPosition, Position};
pub use columns::{columns_text, parse_columns};
pub use naive::Requirement;
pub use notation::{move_name, move_order, parse_move, player_to_move};
pub use parts::{Goal, Marks, RulesError, MAX_CELLS};
pub use position::{BoardMove, PositionError, Setup};
pub use setup::{Rules, RulesSetup};
