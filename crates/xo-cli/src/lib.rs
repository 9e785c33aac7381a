//! The `xo` command's library half: argument resolution, batch formats, rendering and the
//! interactive game, shared by the binary, its integration tests and its benchmarks. Everything
//! here reads or writes; the rules and engines live in `xo-core`.

pub mod batch;
pub mod count;
pub mod game;
pub mod grundy;
pub mod play;
pub mod render;
pub mod solve;
