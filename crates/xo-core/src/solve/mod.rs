//! The engines: each takes a validated position and returns a plain result value.

pub mod book;
pub mod count;
pub mod enumerate;
pub mod gravity;
pub mod grundy;
pub mod heaps;
pub mod lol;
pub mod minimax;
pub mod negamax;
pub mod reach;
pub mod strong;
pub mod table;
pub mod treblecross;
