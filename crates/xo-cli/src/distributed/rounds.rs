//! How many positions a rank solves per round, in a file of its own so that the exchange takes it
//! from here rather than from the module that runs the rounds.

use xo_core::games::board::Board;
use xo_core::solve::strong::{most_moves, Tier};

/// The bytes of children's ranks a rank expands per round (a round's memory is about twice
/// this: the ranks, then the distinct ones to fetch).
pub const ROUND_BYTES: u64 = 96 << 20;

/// Positions a rank expands and solves per round in `tier`: [`ROUND_BYTES`] of child slots
/// (at least 4096 positions).
pub fn round_positions(board: &Board, tier: &Tier) -> u64 {
    (ROUND_BYTES / (8 * most_moves(board, tier).max(1) as u64 + 4)).max(4096)
}
