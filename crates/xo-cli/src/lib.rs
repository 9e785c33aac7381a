//! The `xo` command's library half: arguments, batch formats, rendering and the interactive
//! game, shared by the binary, its integration tests and its benchmarks. Everything here reads
//! or writes; the rules, the engines and the choice between them live in `xo-core`.

pub mod ask;
pub mod batch;
pub mod book;
pub mod budget;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod game;
pub mod grundy;
pub mod play;
pub mod render;
pub mod serve;
pub mod strong;
