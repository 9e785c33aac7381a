//! Grundy values (nim-values) of octal-game heaps, their periods, and sums of heaps.
//!
//! The Sprague-Grundy theorem makes every impartial position equivalent to a nim heap of size
//! mex(options); a sum of independent positions is worth the XOR of its parts. For an octal game the
//! value of a heap of n depends on smaller heaps only, so the nim-sequence is built left to right.
//!
//! - [`nim_sequence_plain`]: the definition, quadratic; the reference for tests.
//! - [`NimSequence`]: the fast incremental engine (a vectorised filtered pass over all splits on
//!   every core that helps, by the kernel the CPU offers ([`PassKernel`]), candidate testing or a bitset mex, plus the sparse-space method).
//! - [`StoredSequence`]: values computed once and kept in a file, adopted by a [`NimSequence`].
//! - [`find_period`]: periods proven by the Guy-Smith periodicity theorem.
//! - [`Summary`]: largest value and the rare/common split of a sequence.
//! - [`analyse_sum`]: the nim-sum of several heaps and every winning move.

mod analysis;
mod engine;
mod filter;
mod kernel;
mod mask;
mod method;
mod pipeline;
mod plain;
mod scan;
mod sequence;
mod stored;
mod sum;
mod types;

pub use analysis::{find_period, Periodicity, Summary};
pub use kernel::PassKernel;
pub use mask::SparseMask;
pub use method::{EngineStats, Method};
pub use plain::nim_sequence_plain;
pub use sequence::{max_heap, nim_sequence, pass_kernel, NimSequence};
pub use stored::{StoredSequence, StoredSequenceError, CHECKED_ON_DECODE, MAX_VALUES};
pub use sum::{analyse_sum, SumAnalysis, SumError, SumMove};
pub use types::Grundy;
