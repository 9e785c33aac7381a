//! The block sizes of the pass's walk over the splits, in a file of their own so that the kernels
//! (`blocks`, `avx512`) read them from here rather than from the module that chooses among them.

/// Splits in the first block of the pass; blocks double up to [`MAX_BLOCK`].
pub(super) const FIRST_BLOCK: usize = 256;
/// Most splits between two refreshes of the table.
pub(super) const MAX_BLOCK: usize = 2048;
