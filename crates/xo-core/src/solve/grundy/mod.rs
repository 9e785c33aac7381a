//! Grundy values (nim-values) of octal-game heaps.
//!
//! The Sprague-Grundy theorem makes every impartial position equivalent to a nim heap of size
//! mex(options); a sum of independent positions is worth the XOR of its parts. For an octal game the
//! value of a heap of n depends on smaller heaps only, so the nim-sequence is built left to right.

use crate::games::octal::OctalGame;

/// A Grundy value. Octal games studied so far stay far below 2^16 for the heaps one can compute.
pub type Grundy = u32;

/// The nim-sequence of `game` for heaps `0..=upto`, by the plain definition: every option of every
/// heap is enumerated and the mex taken. Quadratic; the reference every faster engine is tested
/// against.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::nim_sequence_plain;
/// let kayles = "0.77".parse::<OctalGame>().unwrap();
/// assert_eq!(nim_sequence_plain(&kayles, 8), vec![0, 1, 2, 3, 1, 4, 3, 2, 1]);
/// ```
pub fn nim_sequence_plain(game: &OctalGame, upto: usize) -> Vec<Grundy> {
    let mut g: Vec<Grundy> = Vec::with_capacity(upto + 1);
    for _ in 0..=upto {
        let next = next_value_plain(game, &g);
        g.push(next);
    }
    g
}

/// The value of the heap of `g.len()` tokens, given the values `g` of every smaller heap.
fn next_value_plain(game: &OctalGame, g: &[Grundy]) -> Grundy {
    let n = g.len();
    let mut options: Vec<Grundy> = Vec::new();
    {
        for (k, &d) in game.digits().iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 && k > 0 {
                options.push(0);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                options.push(g[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                options.extend((1..=rest / 2).map(|a| g[a] ^ g[rest - a]));
            }
            if d & 8 != 0 && rest >= 3 {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        options.push(g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
    }
    let mut seen = vec![false; options.len() + 1];
    for &v in &options {
        if (v as usize) < seen.len() {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(options.len()) as Grundy
}

/// The nim-sequence of `game` for heaps `0..=upto`, by the fastest engine available.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::nim_sequence;
/// let g = nim_sequence(&OctalGame::dot007(), 15);
/// assert_eq!(g, vec![0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]);
/// ```
pub fn nim_sequence(game: &OctalGame, upto: usize) -> Vec<Grundy> {
    let mut seq = NimSequence::new(game.clone());
    seq.extend_to(upto);
    seq.values
}

/// A nim-sequence that grows on demand, for callers (like Treblecross analysis) that learn how far
/// they need it only as their input arrives.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::NimSequence;
/// let mut seq = NimSequence::new(OctalGame::dot007());
/// assert_eq!(seq.extend_to(9)[9], 3);
/// assert_eq!(seq.values().len(), 10);
/// ```
#[derive(Debug, Clone)]
pub struct NimSequence {
    game: OctalGame,
    values: Vec<Grundy>,
}

impl NimSequence {
    /// An empty sequence for `game`.
    pub fn new(game: OctalGame) -> Self {
        NimSequence { game, values: Vec::new() }
    }

    /// The values computed so far, for heaps `0..values().len()`.
    pub fn values(&self) -> &[Grundy] {
        &self.values
    }

    /// Makes sure heaps `0..=upto` are computed and returns every value computed so far.
    pub fn extend_to(&mut self, upto: usize) -> &[Grundy] {
        while self.values.len() <= upto {
            let next = next_value_plain(&self.game, &self.values);
            self.values.push(next);
        }
        &self.values
    }
}
