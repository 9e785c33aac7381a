//! # xo-test-support
//!
//! What xo's tests repeat, in one place (a dev-dependency of the crates whose tests use it, never
//! a dependency of xo itself):
//!
//! - [`positions`]: random positions reached in play;
//! - [`pons`]: Pascal Pons' Connect 4 test sets, vendored in `crates/xo-core/tests/data/connect4`;
//! - [`dirs`]: temporary folders, and a folder's files to compare two runs;
//! - [`bin`]: running the built `xo` binary, fed, read and time-boxed without deadlocks;
//! - [`wait`]: waiting for a condition (with a limit that names it), not for a fixed time.

pub mod bin;
pub mod dirs;
pub mod pons;
pub mod positions;
pub mod wait;
