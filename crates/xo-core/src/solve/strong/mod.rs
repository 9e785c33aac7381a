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
//! The bytes of database files and their I/O are the store's (`xo-store`); here, a tier is
//! anything that gives a position's [`Record`] by its rank ([`Records`]).

use crate::budget::{Meter, Stopped};
use crate::game::GameTree;
use crate::games::board::{Board, BoardMove, BoardPosition};
use crate::solve::enumerate::DepthRanks;
use crate::value::{Scored, Value};
use rayon::prelude::*;
use std::ops::Range;

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

/// Where a tier's records are looked up by rank: a slice in memory, or a tier file read as
/// needed (`xo_store::tier::TierFile`).
///
/// ```
/// use xo_core::solve::strong::{Record, Records};
/// let tier = vec![Record(0x8001), Record(0x4000)];
/// assert_eq!(tier.record(1), Some(Record(0x4000)));
/// assert_eq!(tier.record(2), None);
/// ```
pub trait Records {
    /// The record of the position of rank `index`, or `None` when there is none (past the end,
    /// or unreadable).
    fn record(&self, index: u64) -> Option<Record>;
}

impl Records for [Record] {
    fn record(&self, index: u64) -> Option<Record> {
        self.get(usize::try_from(index).ok()?).copied()
    }
}

impl Records for Vec<Record> {
    fn record(&self, index: u64) -> Option<Record> {
        self.as_slice().record(index)
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

/// The one per-position step of every tiered solve, single-process or distributed: the record of
/// position `index` of `tier` when the game is over there, else `None` after calling `child` with
/// the rank in the next tier (`next`) of each of its children, in move order (`moves` is
/// scratch).
///
/// Panics if the position has moves but `next` is `None` (only the full board's tier has no next
/// tier, and every position there is over).
#[inline]
pub fn expand_position(
    board: &Board,
    tier: &Tier,
    index: u64,
    next: Option<&Tier>,
    moves: &mut Vec<BoardMove>,
    mut child: impl FnMut(u64),
) -> Option<Record> {
    let pos = tier.unrank(index);
    if let Some(value) = board.outcome(&pos) {
        return Some(Record::new(Scored { value, remoteness: 0 }));
    }
    let next = next.expect("a tier with moves has a next tier");
    moves.clear();
    board.moves(&pos, moves);
    for &mv in moves.iter() {
        child(next.rank(&board.play(&pos, mv)));
    }
    None
}

/// The best of a position's children so far, from the mover's point of view: the quickest win,
/// else a draw, else the slowest loss.
#[derive(Debug, Clone, Copy, Default)]
pub struct Best(Option<Scored>);

impl Best {
    /// Takes in a child's record.
    ///
    /// Panics if the child has no record (every position of the next tier is solved before this
    /// one).
    #[inline]
    pub fn add(&mut self, child: Record) {
        let c = child.scored().expect("every position of the next tier is solved");
        let s = Scored { value: -c.value, remoteness: c.remoteness + 1 };
        let better =
            |b: Scored| crate::solve::minimax::preference(s) > crate::solve::minimax::preference(b);
        if self.0.is_none_or(better) {
            self.0 = Some(s);
        }
    }

    /// The record of the position, from the children taken in.
    ///
    /// Panics if no child was taken in (an unfinished position has a move).
    #[inline]
    pub fn record(self) -> Record {
        Record::new(self.0.expect("an unfinished position has a move"))
    }
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
    let next_tier = next.map(|(t, _)| t);
    let next_records = next.map_or(&[][..], |(_, r)| r);
    records.par_chunks_mut(chunk).enumerate().try_for_each(|(c, out)| {
        meter.tick(out.len() as u64)?;
        let mut moves = Vec::with_capacity(64);
        for (i, slot) in out.iter_mut().enumerate() {
            let index = (c * chunk + i) as u64;
            let mut best = Best::default();
            *slot = expand_position(board, tier, index, next_tier, &mut moves, |k| {
                best.add(next_records[k as usize])
            })
            .unwrap_or_else(|| best.record());
        }
        Ok(())
    })?;
    Ok(records)
}

/// Splits `len` positions into `parts` contiguous ranges of nearly equal size (part `i` starts at
/// `len * i / parts`), in order; part `i` is the share of rank `i` in a distributed solve.
///
/// ```
/// use xo_core::solve::strong::{owner, partition};
/// assert_eq!(partition(10, 3), vec![0..3, 3..6, 6..10]);
/// let owners: Vec<usize> = (0..10).map(|i| owner(10, 3, i)).collect();
/// assert_eq!(owners, [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]);
/// ```
pub fn partition(len: u64, parts: usize) -> Vec<Range<u64>> {
    let parts = parts.max(1) as u128;
    let start = |i: u128| (u128::from(len) * i / parts) as u64;
    (0..parts).map(|i| start(i)..start(i + 1)).collect()
}

/// The part of [`partition`]`(len, parts)` holding `index` (`index < len`).
pub fn owner(len: u64, parts: usize, index: u64) -> usize {
    // The largest i with len * i / parts <= index, i.e. len * i < (index + 1) * parts.
    let parts = parts.max(1) as u128;
    (((u128::from(index) + 1) * parts - 1) / u128::from(len.max(1))).min(parts - 1) as usize
}

/// The most moves a position of tier `tier` of `board` can have: its empty cells times the marks
/// a mover may choose from (under gravity too: a tier holds unreachable arrangements with marks
/// in the air, where more than one cell of a column is playable).
pub fn most_moves(board: &Board, tier: &Tier) -> usize {
    let rules = board.rules();
    let choices = match rules.marks() {
        crate::rules::Marks::Shared(letters) => letters.len().min(2),
        _ => 1,
    };
    board.cells().saturating_sub(tier.marks as usize) * choices
}

/// A range of a tier expanded for a distributed solve: every position's record where its game is
/// over, else the ranks of its children in the next tier, so that the children's records can be
/// fetched (in batches, from whoever holds them) before the range is finished by
/// [`Expansion::finish`]. The buffers are kept from range to range (no allocation, no page
/// faults once they have grown): each position has `stride` slots for its children.
#[derive(Debug, Clone, Default)]
pub struct Expansion {
    /// Child slots per position ([`most_moves`] of the tier).
    pub stride: usize,
    /// Per position of the range: its record when the game is over there, else `Record(0)`.
    pub over: Vec<Record>,
    /// Per position: its children's ranks in the next tier, in move order, then `u64::MAX` in
    /// the slots left over.
    pub children: Vec<u64>,
}

impl Expansion {
    /// Expands positions `range` of `tier` (children ranked in `next`) into this expansion's
    /// buffers, on every core.
    pub fn expand(&mut self, board: &Board, tier: &Tier, range: Range<u64>, next: Option<&Tier>) {
        const PIECE: usize = 1 << 10;
        let stride = most_moves(board, tier).max(1);
        let n = (range.end - range.start) as usize;
        self.stride = stride;
        self.over.clear();
        self.over.resize(n, Record(0));
        self.children.clear();
        self.children.resize(n * stride, u64::MAX);
        self.over
            .par_chunks_mut(PIECE)
            .zip(self.children.par_chunks_mut(PIECE * stride))
            .enumerate()
            .for_each(|(c, (over, slots))| {
                let mut moves = Vec::with_capacity(64);
                for (i, (o, slot)) in over.iter_mut().zip(slots.chunks_mut(stride)).enumerate() {
                    let index = range.start + (c * PIECE + i) as u64;
                    let mut at = 0;
                    let over = expand_position(board, tier, index, next, &mut moves, |k| {
                        slot[at] = k;
                        at += 1;
                    });
                    if let Some(record) = over {
                        *o = record;
                    }
                }
            });
    }

    /// Positions in the range.
    pub fn len(&self) -> usize {
        self.over.len()
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.over.is_empty()
    }

    /// The distinct children outside `held` (the next tier's ranks this process holds), sorted,
    /// into `wanted`: the records to fetch from other processes. Returns the children read (with
    /// repeats).
    pub fn wanted(&self, held: &Range<u64>, wanted: &mut Vec<u64>) -> u64 {
        wanted.clear();
        wanted.par_extend(
            self.children.par_iter().copied().filter(|&k| k != u64::MAX && !held.contains(&k)),
        );
        wanted.par_sort_unstable();
        wanted.dedup();
        self.children.par_iter().filter(|&&k| k != u64::MAX).count() as u64
    }

    /// The records of the range into `out` (one per position), from the children's records:
    /// `held` (the records of the next tier's ranks `held_range`) and `fetched` (the records of
    /// `wanted`, in its order). Runs on every core; ticks `meter` once per position.
    ///
    /// Panics if a child is neither held nor wanted (`wanted` must be this expansion's
    /// [`Expansion::wanted`] for `held_range`), or `out` is not as long as the range.
    pub fn finish(
        &self,
        (held_range, held): (&Range<u64>, &[Record]),
        (wanted, fetched): (&[u64], &[Record]),
        out: &mut [Record],
        meter: &Meter,
    ) -> Result<(), Stopped> {
        const PIECE: usize = 1 << 12;
        assert_eq!(out.len(), self.len(), "one record per position");
        let index = SortedIndex::new(wanted);
        let lookup = |k: u64| {
            if held_range.contains(&k) {
                held[(k - held_range.start) as usize]
            } else {
                fetched[index.find(wanted, k).expect("every child is held or fetched")]
            }
        };
        let stride = self.stride;
        out.par_chunks_mut(PIECE).enumerate().try_for_each(|(c, piece)| {
            meter.tick(piece.len() as u64)?;
            for (i, slot) in piece.iter_mut().enumerate() {
                let p = c * PIECE + i;
                *slot = match self.over[p] {
                    Record(0) => {
                        let mut best = Best::default();
                        for &k in self.children[p * stride..(p + 1) * stride]
                            .iter()
                            .take_while(|&&k| k != u64::MAX)
                        {
                            best.add(lookup(k));
                        }
                        best.record()
                    }
                    over => over,
                };
            }
            Ok(())
        })?;
        Ok(())
    }
}

/// Finds keys in a sorted list in about one step: the list's span is cut into buckets of
/// `2^shift` keys, at most about as many buckets as keys, each remembering where its keys start
/// (a binary search over millions of fetched children's ranks would take some twenty dependent
/// reads a lookup).
struct SortedIndex {
    low: u64,
    shift: u32,
    starts: Vec<u32>,
}

impl SortedIndex {
    /// The index of `keys` (sorted, distinct, fewer than 2^32).
    fn new(keys: &[u64]) -> SortedIndex {
        let (Some(&low), Some(&high)) = (keys.first(), keys.last()) else {
            return SortedIndex { low: 0, shift: 0, starts: vec![0, 0] };
        };
        let mut shift = 0;
        while (high - low) >> shift >= keys.len() as u64 {
            shift += 1;
        }
        let buckets = ((high - low) >> shift) as usize + 1;
        let mut starts = vec![0u32; buckets + 1];
        let mut at = 0usize;
        for (b, start) in starts.iter_mut().enumerate() {
            let from = low.saturating_add((b as u64) << shift);
            while at < keys.len() && keys[at] < from && b < buckets {
                at += 1;
            }
            *start = if b == buckets { keys.len() as u32 } else { at as u32 };
        }
        SortedIndex { low, shift, starts }
    }

    /// Where `key` is in `keys` (the list the index was made of), if it is there.
    #[inline]
    fn find(&self, keys: &[u64], key: u64) -> Option<usize> {
        let b = (key.checked_sub(self.low)? >> self.shift) as usize;
        let (&from, &to) = (self.starts.get(b)?, self.starts.get(b + 1)?);
        let bucket = &keys[from as usize..to as usize];
        bucket.iter().position(|&k| k == key).map(|i| from as usize + i)
    }
}

#[cfg(test)]
mod tests {
    use super::SortedIndex;

    #[test]
    fn the_sorted_index_finds_every_key_and_no_other() {
        let lists: [&[u64]; 5] = [
            &[],
            &[7],
            &[0, 1, 2, 3],
            &[5, 9, 1000, 1001, 1 << 40, u64::MAX - 1],
            &[3, 4, 90, 91, 92],
        ];
        for keys in lists {
            let index = SortedIndex::new(keys);
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(index.find(keys, k), Some(i), "{keys:?} {k}");
            }
            for k in [0, 2, 6, 8, 10, 95, 999, 1 << 39, u64::MAX] {
                assert_eq!(index.find(keys, k), keys.iter().position(|&x| x == k), "{keys:?} {k}");
            }
        }
    }
}
