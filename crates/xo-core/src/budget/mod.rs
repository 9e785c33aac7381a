//! One budget for every job, and one way to say a job stopped at it.
//!
//! Every engine in xo can run for longer than anyone wants to wait, or ask for more memory than the
//! machine has. Rather than each engine inventing its own limits, they all take a [`Budget`]
//! (positions visited, wall time, memory) and report [`Stopped`] when they reach it, naming which
//! limit and how far they got. A [`Meter`] is the running side of a budget: engines tick it as they
//! visit positions, ask it before they allocate, and it tells them when to stop. It is `Sync`, so
//! parallel engines share one meter and all stop together.
//!
//! The module is split by concern: `limits` holds the budget and the words for a stop, `meter`
//! the running count shared by a job's threads, `reservation` the memory a job holds, and
//! `ticker` the batcher between hot loops and the meter. Everything is re-exported here, so
//! callers name it `xo_core::budget::X`.

mod limits;
mod meter;
mod reservation;
mod ticker;

pub use limits::{Budget, Limit, Stopped};
pub use meter::{Meter, Progress};
pub use reservation::Reservation;
pub use ticker::Ticker;

#[cfg(test)]
mod tests;
