//! Sums of heaps: a position made of several heaps of one octal game is won exactly when the XOR
//! (nim-sum) of the heaps' values is not zero, and a winning move is one that makes it zero.

use super::analysis::find_period;
use super::sequence::{max_heap, NimSequence};
use super::types::Grundy;
use crate::budget::{Meter, Stopped};
use crate::value::Value;

/// One move in a sum of heaps: from heap number `heap` (0-based, in the order given), remove
/// `removed` tokens and leave the heaps `leaves` (none, one, two or three, increasing) in its place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SumMove {
    /// Index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub removed: usize,
    /// The heaps left in its place, increasing.
    pub leaves: Vec<usize>,
}

/// The analysis of a sum of heaps for the player to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumAnalysis {
    /// The Grundy value of each heap, in the order given.
    pub heap_values: Vec<Grundy>,
    /// The XOR of the heaps' values: the sum's Grundy value.
    pub nim_sum: Grundy,
    /// `Win` when the nim-sum is not zero, else `Loss`.
    pub value: Value,
    /// Every move to a sum of nim-sum zero, by heap, then tokens removed, then leaves.
    pub winning_moves: Vec<SumMove>,
}

/// Why a sum cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SumError {
    /// A heap is larger than the engines accept for this game.
    #[error("heap {size} is too large: at most {max} tokens for this game")]
    HeapTooLarge {
        /// The heap's size.
        size: usize,
        /// The largest heap accepted ([`max_heap`]).
        max: usize,
    },
    /// The values needed could not be computed within the budget.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// Heaps computed directly before a proven period is looked for.
const FIRST_BLOCK: usize = 4096;

/// Analyses the sum of `heaps` of `seq`'s game: its nim-sum, value and every winning move,
/// within `meter`. The sequence is computed in growing blocks until it reaches the largest heap
/// or the Guy-Smith theorem proves a period, after which larger heaps are looked up in it
/// (Kayles heaps of a million tokens need only a few thousand values).
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::{analyse_sum, NimSequence, SumMove};
/// use xo_core::Value;
/// let mut kayles = NimSequence::new("0.77".parse::<OctalGame>().unwrap());
/// let meter = Meter::unlimited();
/// // Kayles values: g(2) = 2, g(3) = 3, so 2 + 3 is won by moving 3 to a heap worth 2.
/// let a = analyse_sum(&mut kayles, &[2, 3], &meter).unwrap();
/// assert_eq!((a.nim_sum, a.value), (1, Value::Win));
/// assert!(a.winning_moves.contains(&SumMove { heap: 1, removed: 1, leaves: vec![2] }));
/// assert_eq!(analyse_sum(&mut kayles, &[4, 4], &meter).unwrap().value, Value::Loss);
/// let a = analyse_sum(&mut kayles, &[1_000_000, 7], &meter).unwrap();
/// // g(1000000) = g(71 + (1000000 - 71) % 12) = g(80) = 1 (period 12 from 71), g(7) = 2.
/// assert_eq!(a.heap_values, vec![1, 2]);
/// assert!(kayles.values().len() < 10_000);
/// ```
pub fn analyse_sum(
    seq: &mut NimSequence,
    heaps: &[usize],
    meter: &Meter,
) -> Result<SumAnalysis, SumError> {
    let max = max_heap(seq.game());
    if let Some(&size) = heaps.iter().find(|&&h| h > max) {
        return Err(SumError::HeapTooLarge { size, max });
    }
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let mut upto = largest.min(FIRST_BLOCK - 1).max(seq.values().len().saturating_sub(1));
    let period = loop {
        seq.extend_to(upto.min(largest), meter)?;
        if upto >= largest {
            break None;
        }
        if let Some(p) = find_period(seq.game(), seq.values()) {
            break Some(p);
        }
        upto = upto.saturating_mul(2).saturating_add(1);
    };
    let values = seq.values().to_vec();
    let g = |n: usize| match period {
        Some(p) if n >= values.len() => values[p.preperiod + (n - p.preperiod) % p.period],
        _ => values[n],
    };
    Ok(analyse_sum_by(seq, heaps, g))
}

/// The analysis of a sum given the value of every heap it needs (`g`).
fn analyse_sum_by(seq: &NimSequence, heaps: &[usize], g: impl Fn(usize) -> Grundy) -> SumAnalysis {
    let rules = seq.rules();
    let heap_values: Vec<Grundy> = heaps.iter().map(|&h| g(h)).collect();
    let nim_sum = heap_values.iter().fold(0, |acc, &v| acc ^ v);
    let mut winning_moves = Vec::new();
    if nim_sum != 0 {
        for (heap, &size) in heaps.iter().enumerate() {
            let target = nim_sum ^ g(size);
            let mut push = |removed: usize, leaves: Vec<usize>| {
                winning_moves.push(SumMove { heap, removed, leaves });
            };
            // Moves ordered by tokens removed, then by leaves.
            let mut ks: Vec<usize> = rules
                .take_all
                .iter()
                .chain(&rules.take_some)
                .chain(&rules.split2)
                .chain(&rules.split3)
                .copied()
                .filter(|&k| k <= size)
                .collect();
            ks.sort_unstable();
            ks.dedup();
            for k in ks {
                let rest = size - k;
                if rest == 0 && rules.take_all.contains(&k) && target == 0 {
                    push(k, Vec::new());
                }
                if rest > 0 && rules.take_some.contains(&k) && g(rest) == target {
                    push(k, vec![rest]);
                }
                if rest >= 2 && rules.split2.contains(&k) {
                    for a in 1..=rest / 2 {
                        if g(a) ^ g(rest - a) == target {
                            push(k, vec![a, rest - a]);
                        }
                    }
                }
                if rest >= 3 && rules.split3.contains(&k) {
                    for a in 1..=rest / 3 {
                        for b in a..=(rest - a) / 2 {
                            if g(a) ^ g(b) ^ g(rest - a - b) == target {
                                push(k, vec![a, b, rest - a - b]);
                            }
                        }
                    }
                }
            }
        }
    }
    let value = if nim_sum != 0 { Value::Win } else { Value::Loss };
    SumAnalysis { heap_values, nim_sum, value, winning_moves }
}
