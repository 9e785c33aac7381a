//! Sums of octal-game heaps by search: the value and remoteness of a small sum and of every move
//! from it, which Grundy values do not tell. Positions are multisets of heap sizes (sorted, empty
//! heaps dropped), each searched once; the moves are those of the octal code
//! ([`OctalMoves`]). Normal play: the player who cannot move loses, so a sum with no move is a
//! loss in 0 plies, a winner hurries and a loser delays. The number of distinct sums grows like
//! the partitions of the tokens, so this is for small sums (see
//! [`OCTAL_SEARCH_TOKENS`](crate::query::OCTAL_SEARCH_TOKENS)); Grundy values answer any size.

use crate::budget::{Meter, Stopped};
use crate::games::octal::{OctalGame, OctalMoves};
use crate::value::{preference, Scored};
use crate::Value;
use rustc_hash::FxHashMap;

/// One move in a sum of heaps: from which heap (0-based, in the order given), how many tokens
/// removed, the heaps left in its place, and its value and remoteness for the mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredHeapMove {
    /// 0-based index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub removed: usize,
    /// Heaps left in its place (none, one, two or three), smallest first.
    pub leaves: Vec<usize>,
    /// The move's value and remoteness for its player.
    pub scored: Scored,
}

/// A searcher over sums of one octal game's heaps, keeping what it has searched.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::heaps::HeapSearch;
/// use xo_core::Value;
/// let mut kayles = HeapSearch::new(&"0.77".parse::<OctalGame>().unwrap());
/// let meter = xo_core::budget::Meter::default();
/// // One heap of 3: take the middle token, leaving 1 + 1; the opponent takes one, you the last.
/// let s = kayles.score(&[3], &meter).unwrap();
/// assert_eq!((s.value, s.remoteness), (Value::Win, 3));
/// assert_eq!(kayles.score(&[1, 1], &meter).unwrap().value, Value::Loss);
/// ```
#[derive(Debug, Clone)]
pub struct HeapSearch {
    moves: OctalMoves,
    known: FxHashMap<Vec<u32>, Scored>,
}

impl HeapSearch {
    /// A searcher for `game`.
    pub fn new(game: &OctalGame) -> HeapSearch {
        HeapSearch { moves: game.moves(), known: FxHashMap::default() }
    }

    /// The value and remoteness of the sum `heaps`, within `meter` (one node per sum searched).
    pub fn score(&mut self, heaps: &[usize], meter: &Meter) -> Result<Scored, Stopped> {
        let mut key: Vec<u32> = heaps.iter().filter(|&&h| h > 0).map(|&h| h as u32).collect();
        key.sort_unstable();
        self.search(key, meter)
    }

    /// Every move of the sum `heaps` with its value and remoteness, by heap, then tokens
    /// removed, then leaves; moves in equal heaps are listed for each heap.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::heaps::HeapSearch;
    /// let mut dawson = HeapSearch::new(&"0.07".parse::<OctalGame>().unwrap());
    /// let moves = dawson.moves(&[3], &Default::default()).unwrap();
    /// // .07 removes two tokens: leaving one heap of 1 (from either end, one move here).
    /// assert_eq!(moves.iter().map(|m| (m.removed, m.leaves.clone())).collect::<Vec<_>>(), [(2, vec![1])]);
    /// ```
    pub fn moves(
        &mut self,
        heaps: &[usize],
        meter: &Meter,
    ) -> Result<Vec<ScoredHeapMove>, Stopped> {
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for (removed, leaves) in self.moves.in_heap(h) {
                let mut after: Vec<usize> = heaps.to_vec();
                after.remove(i);
                after.extend(&leaves);
                let child = self.score(&after, meter)?;
                out.push(ScoredHeapMove {
                    heap: i,
                    removed,
                    leaves,
                    scored: Scored { value: -child.value, remoteness: child.remoteness + 1 },
                });
            }
        }
        Ok(out)
    }

    fn search(&mut self, key: Vec<u32>, meter: &Meter) -> Result<Scored, Stopped> {
        if let Some(&s) = self.known.get(&key) {
            return Ok(s);
        }
        meter.tick(1)?;
        let mut best: Option<Scored> = None;
        let mut tried: Vec<u32> = Vec::new();
        for (i, &h) in key.iter().enumerate() {
            // Moves in a heap of the size just tried lead to the same sums.
            if tried.last() == Some(&h) {
                continue;
            }
            tried.push(h);
            for (_, leaves) in self.moves.in_heap(h as usize) {
                let mut child: Vec<u32> = key[..i].iter().chain(&key[i + 1..]).copied().collect();
                child.extend(leaves.iter().map(|&l| l as u32));
                child.sort_unstable();
                let s = self.search(child, meter)?;
                let s = Scored { value: -s.value, remoteness: s.remoteness + 1 };
                if best.is_none_or(|b| {
                    preference(s.value, Some(s.remoteness))
                        > preference(b.value, Some(b.remoteness))
                }) {
                    best = Some(s);
                }
            }
        }
        let s = best.unwrap_or(Scored { value: Value::Loss, remoteness: 0 });
        self.known.insert(key, s);
        Ok(s)
    }
}
