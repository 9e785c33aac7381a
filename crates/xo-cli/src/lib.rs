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

/// The refusal of a command or flag whose optional cargo feature this `xo` was built without
/// (`serve`, `plot`): the one message, naming the feature and how to get it, and exit status 2
/// as for any bad input.
///
/// ```
/// let err = xo_cli::built_without("serve");
/// assert_eq!(
///     err.to_string(),
///     "this xo was built without the `serve` feature; rebuild with --features serve"
/// );
/// ```
pub fn built_without(feature: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "this xo was built without the `{feature}` feature; rebuild with --features {feature}"
    )
}
