//! Fast representations of concrete games: bitboards for grids, bit strips for LOL and
//! Treblecross, heaps for octal games.

pub mod bits;
pub mod board;
pub mod gravity;
pub mod lol;
pub mod octal;
pub mod treblecross;
