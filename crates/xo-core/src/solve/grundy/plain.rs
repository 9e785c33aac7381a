//! The plain reference: every option of every heap enumerated and the mex taken, exactly as the
//! definition reads. Quadratic (cubic for three-heap hexadecimal moves); every faster engine is
//! tested against it.

use super::types::Grundy;
use crate::games::octal::OctalGame;

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
    let mut seen = vec![false; options.len() + 1];
    for &v in &options {
        if (v as usize) < seen.len() {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(options.len()) as Grundy
}
