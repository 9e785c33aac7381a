//! What people read off a nim-sequence: its period, proven by the Guy-Smith periodicity theorem,
//! and summary figures (largest value, rare and common values under the best sparse-space mask).

use super::mask::SparseMask;
use super::mask::{best_mask, bits_for};
use super::types::Grundy;
use crate::games::octal::{OctalGame, OctalMoves};

/// An ultimately periodic nim-sequence: `g(n + period) == g(n)` for every `n >= preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodicity {
    /// The least period.
    pub period: usize,
    /// The least heap from which the sequence repeats with that period.
    pub preperiod: usize,
}

/// The period and preperiod of `game`'s nim-sequence, if the computed `values` (heaps
/// `0..values.len()`) prove one; `None` means "no period up to `values.len() - 1`", not "no
/// period".
///
/// The proof is the Guy-Smith periodicity theorem: if every move removes at most `t` tokens and
/// leaves at most two heaps, and `g(n + p) == g(n)` for `i <= n < 2i + p + t`, then the sequence
/// has period `p` from `i` on, for ever. For hexadecimal moves leaving up to three heaps the same
/// induction needs `i <= n < 3i + 2p + t`, and for moves leaving one heap `i <= n <= i + t`. The
/// least proven period is the least period of the whole sequence.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::{find_period, nim_sequence, Periodicity};
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// let p = find_period(&kayles, &nim_sequence(&kayles, 200, &Meter::unlimited()).unwrap());
/// assert_eq!(p, Some(Periodicity { period: 12, preperiod: 71 }));
/// assert_eq!(find_period(&kayles, &nim_sequence(&kayles, 100, &Meter::unlimited()).unwrap()), None);
/// ```
pub fn find_period(game: &OctalGame, values: &[Grundy]) -> Option<Periodicity> {
    let rules = OctalMoves::new(game);
    let h = rules.max_parts();
    let t = game.digits().len() - 1;
    let extra = usize::from(h == 1);
    let top = values.len().checked_sub(1)?;
    // The window to check for period p from i is i <= n < h*i + (h-1)*p + t + extra, and its
    // last n + p must be a computed heap: h*i + h*p + t + extra - 1 <= top.
    let needed = |i: usize, p: usize| h * i + h * p + t + extra;
    let mut p = 1;
    while needed(0, p) <= top + 1 {
        let i_max = (top + 1 - needed(0, p)) / h;
        // Highest mismatch: scan down from the top; give up once it proves i > i_max.
        let mut n = top - p;
        let mut preperiod = 0;
        let mut ok = true;
        loop {
            if values[n] != values[n + p] {
                preperiod = n + 1;
                ok = preperiod <= i_max;
                break;
            }
            if n == 0 {
                break;
            }
            n -= 1;
        }
        if ok {
            return Some(Periodicity { period: p, preperiod });
        }
        p += 1;
    }
    None
}

/// Summary figures of a nim-sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The number of heaps summarised (`0..heaps`).
    pub heaps: usize,
    /// The largest value.
    pub largest: Grundy,
    /// The least heap with the largest value.
    pub largest_at: usize,
    /// The sparse-space classification with the fewest rare heaps (of at least one token), if any
    /// value is non-zero.
    pub mask: Option<SparseMask>,
    /// Heaps of at least one token whose value is rare under `mask` (all of them without a mask).
    pub rare_heaps: usize,
    /// Heaps of at least one token whose value is common under `mask`.
    pub common_heaps: usize,
    /// The distinct rare values, increasing.
    pub rare_values: Vec<Grundy>,
}

impl Summary {
    /// Summarises `values` (heaps `0..values.len()`) of `game`.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::{nim_sequence, Summary};
    /// let game = OctalGame::dot007();
    /// let s = Summary::of(&game, &nim_sequence(&game, 15, &Meter::unlimited()).unwrap());
    /// assert_eq!((s.largest, s.largest_at), (4, 15));
    /// assert_eq!(s.rare_heaps + s.common_heaps, 15);
    /// ```
    pub fn of(game: &OctalGame, values: &[Grundy]) -> Summary {
        let (largest_at, largest) = values
            .iter()
            .copied()
            .enumerate()
            .fold((0, 0), |(bi, bv), (i, v)| if v > bv { (i, v) } else { (bi, bv) });
        let rules = OctalMoves::new(game);
        let mask = if largest == 0 {
            None
        } else {
            best_mask(values, bits_for(values), rules.split_parity()).map(|(m, _)| m)
        };
        let rare = |x: usize| mask.is_none_or(|m| m.is_rare(x, values[x]));
        let tail = values.len().saturating_sub(1);
        let rare_heaps = (1..values.len()).filter(|&x| rare(x)).count();
        let mut rare_values: Vec<Grundy> =
            (1..values.len()).filter(|&x| rare(x)).map(|x| values[x]).collect();
        rare_values.sort_unstable();
        rare_values.dedup();
        Summary {
            heaps: values.len(),
            largest,
            largest_at,
            mask,
            rare_heaps,
            common_heaps: tail - rare_heaps,
            rare_values,
        }
    }
}
