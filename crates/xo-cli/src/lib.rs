//! The `xo` command's library half: batch formats and rendering, shared by the binary, its
//! integration tests and its benchmarks. Everything here reads or writes; the rules and engines
//! live in `xo-core`.

pub mod batch;
pub mod grundy;
