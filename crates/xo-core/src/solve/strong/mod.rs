//! Strong solving: the value and remoteness of every position of a game, by retrograde analysis
//! in tiers.
//!
//! A tier is the positions with the same number of marks. Every move adds one mark, so a tier's
//! values need only the next tier's: the solve runs from the full board back to the empty one,
//! holding two tiers at a time. Inside a tier, positions are numbered by a combinatorial ranking
//! (which cells are filled, then which of them hold which mark), so a tier is a plain array of
//! two-byte [`Record`]s indexed by rank, with no stored keys; the work within a tier runs on
//! every core. The ranking covers every arrangement of the tier's marks, reachable or not: the
//! unreachable ones cost space, never correctness.
//!
//! [`format`] turns tiers into the bytes of a database file and back, checking everything; the
//! binaries do the file I/O.

pub mod format;

use crate::budget::{Meter, Stopped};
use crate::game::Game;
use crate::games::board::{Board, BoardPosition};
use crate::solve::enumerate::DepthRanks;
use crate::value::{Scored, Value};
use rayon::prelude::*;

/// A position's value and remoteness in two bytes: the value in the top two bits (1 loss,
/// 2 draw, 3 win; 0 for no record), the remoteness in the low 14.
///
/// ```
/// use xo_core::solve::strong::Record;
/// use xo_core::value::{Scored, Value};
/// let r = Record::new(Scored { value: Value::Win, remoteness: 5 });
/// assert_eq!(r.scored(), Some(Scored { value: Value::Win, remoteness: 5 }));
/// assert_eq!(Record(0).scored(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Record(pub u16);

impl Record {
    /// The record of `s` (remoteness below 2^14: boards have at most 64 cells).
    pub fn new(s: Scored) -> Record {
        let v = match s.value {
            Value::Loss => 1u16,
            Value::Draw => 2,
            Value::Win => 3,
        };
        Record(v << 14 | (s.remoteness.min(0x3fff) as u16))
    }

    /// The value and remoteness, or `None` for an empty record.
    pub fn scored(self) -> Option<Scored> {
        let value = match self.0 >> 14 {
            1 => Value::Loss,
            2 => Value::Draw,
            3 => Value::Win,
            _ => return None,
        };
        Some(Scored { value, remoteness: u32::from(self.0 & 0x3fff) })
    }
}

/// The positions of one tier and how to number them.
#[derive(Debug, Clone)]
pub struct Tier {
    /// Marks on the board in every position of the tier.
    pub marks: u32,
    ranks: DepthRanks,
}

impl Tier {
    /// Tier `marks` of `board`, if its positions can be numbered in a `u64`.
    pub fn new(board: &Board, marks: u32) -> Option<Tier> {
        DepthRanks::within(board, marks, u64::MAX).map(|ranks| Tier { marks, ranks })
    }

    /// Positions in the tier.
    pub fn len(&self) -> u64 {
        self.ranks.size
    }

    /// Whether the tier has no positions.
    pub fn is_empty(&self) -> bool {
        self.ranks.size == 0
    }

    /// The index of a position of this tier.
    pub fn rank(&self, pos: &BoardPosition) -> u64 {
        self.ranks.rank(pos)
    }

    /// The position with index `rank`.
    pub fn unrank(&self, rank: u64) -> BoardPosition {
        self.ranks.unrank(rank)
    }
}

/// Every tier of `board`, from the empty board (tier 0) to the full one, with their sizes; `None`
/// when some tier cannot be numbered.
pub fn tiers(board: &Board) -> Option<Vec<Tier>> {
    (0..=board.cells() as u32).map(|t| Tier::new(board, t)).collect()
}

/// The best of a position's children, from the mover's point of view: the quickest win, else a
/// draw, else the slowest loss.
fn best(children: impl Iterator<Item = Scored>) -> Option<Scored> {
    children
        .map(|c| Scored { value: -c.value, remoteness: c.remoteness + 1 })
        .max_by_key(|s| crate::solve::minimax::preference(*s))
}

/// Solves tier `tier` given the records of the next tier (`next`, indexed by its ranking;
/// `None` for the full board's tier, which has no moves). Runs on every core; ticks `meter`
/// once per position.
pub fn solve_tier(
    board: &Board,
    tier: &Tier,
    next: Option<(&Tier, &[Record])>,
    meter: &Meter,
) -> Result<Vec<Record>, Stopped> {
    let size = usize::try_from(tier.len()).map_err(|_| meter.halt(crate::budget::Limit::Memory))?;
    let chunk = 1 << 12;
    let mut records = vec![Record(0); size];
    records.par_chunks_mut(chunk).enumerate().try_for_each(|(c, out)| {
        meter.tick(out.len() as u64)?;
        let mut moves = Vec::with_capacity(64);
        for (i, slot) in out.iter_mut().enumerate() {
            let pos = tier.unrank((c * chunk + i) as u64);
            let scored = match board.outcome(&pos) {
                Some(value) => Scored { value, remoteness: 0 },
                None => {
                    let (next_tier, next_records) =
                        next.expect("a tier with moves has a next tier");
                    moves.clear();
                    board.moves(&pos, &mut moves);
                    let children = moves.iter().map(|&mv| {
                        let child = board.play(&pos, mv);
                        next_records[next_tier.rank(&child) as usize]
                            .scored()
                            .expect("every position of the next tier is solved")
                    });
                    best(children).expect("an unfinished position has a move")
                }
            };
            *slot = Record::new(scored);
        }
        Ok(())
    })?;
    Ok(records)
}
