//! The engines: each takes a validated position and returns a plain result value.

pub mod count;
pub mod grundy;
pub mod lol;
pub mod reach;
