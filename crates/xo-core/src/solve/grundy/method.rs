//! The choice of how a [`NimSequence`](super::NimSequence) computes its values, and what the
//! computing cost (counters for reports and benchmarks).

use super::kernel::PassKernel;

/// How [`NimSequence`](super::NimSequence) computes values. Every method gives the same values;
/// they differ in speed only.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::{Method, NimSequence};
/// let mut fast = NimSequence::new(OctalGame::dot007());
/// let mut bitset = NimSequence::with_method(OctalGame::dot007(), Method::Bitset);
/// let meter = Meter::unlimited();
/// assert_eq!(fast.extend_to(3000, &meter), bitset.extend_to(3000, &meter));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The sparse-space method where the data show it pays. Elsewhere, for games whose moves
    /// leave at most two heaps and while values stay below 2^12, the filtered pass where the CPU
    /// has a vector kernel for it (AVX-512, AVX2 or NEON: [`PassKernel::best`]) on every core
    /// that helps; below 2^15, candidate testing where probes show it
    /// costs less than scattering every split (into a table read forward from a `u16` mirror),
    /// and that scatter otherwise; the bitset mex in the remaining cases.
    Auto,
    /// The filtered pass for every heap it can value (moves leaving at most two heaps, values
    /// below 2^12, a CPU with a vector kernel), on every core that helps; [`Method::Auto`] without the
    /// sparse space for the others.
    Filtered,
    /// [`Method::Filtered`] with the kernel given where the CPU has it (else the fastest weaker
    /// one it has, the scalar one at worst), on any CPU: the same passes, work counters
    /// included. For testing and timing each kernel on one machine; the scalar kernel is
    /// several times slower than the vector ones (and than [`Method::Auto`] without them).
    FilteredOn(PassKernel),
    /// Candidate testing for every heap (no sparse space): scatter `prefix` splits of each
    /// splitting move, spread evenly, then test the least unseen value against all the splits with
    /// a vectorised scan. Falls back to the bitset mex for three-heap moves and values of 2^15 or
    /// more. The prefix changes the speed only.
    Candidates {
        /// Splits sampled (evenly spread) and scattered before testing starts, per splitting
        /// move (at least 1; at least the number of splits scatters them all).
        prefix: usize,
    },
    /// The bitset mex over every option of every heap (word-parallel, both cores for big heaps).
    Bitset,
    /// The sparse-space method, choosing the mask from the data first after `review_from` heaps
    /// and again each time the number of heaps doubles. With `force` the best mask is used even
    /// when rare heaps are plentiful (for testing); otherwise only when they are few.
    Sparse {
        /// Heaps computed by the bitset mex before the first mask is chosen (at least 2).
        review_from: usize,
        /// Use the best mask even when it does not pay.
        force: bool,
    },
}

/// Work counters of a [`NimSequence`](super::NimSequence), for reports and benchmarks.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::NimSequence;
/// let mut seq = NimSequence::new(OctalGame::dot007());
/// seq.extend_to(5000, &Meter::unlimited()).unwrap();
/// let stats = seq.stats();
/// let valued = stats.sparse_heaps + stats.bitset_heaps + stats.candidate_heaps;
/// assert_eq!(valued + stats.filtered_heaps, 5001);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Heaps valued by the sparse-space method without a full scan.
    pub sparse_heaps: u64,
    /// Heaps valued by a full scan of their options with the bitset mex.
    pub bitset_heaps: u64,
    /// Heaps valued by candidate testing (a full scan too).
    pub candidate_heaps: u64,
    /// Heaps valued by the filtered pass (a full vectorised scan).
    pub filtered_heaps: u64,
    /// Filtered passes: one per heap, two when the first tracked too few values.
    pub filtered_passes: u64,
    /// Splits the filtered pass found hitting a value still in its table (written out and
    /// cleared).
    pub filtered_hits: u64,
    /// Candidates found to be options, each at the cost of a scan up to where it was found.
    pub candidates_rejected: u64,
    /// Two-heap splits looked at in total.
    pub splits_scanned: u64,
}
