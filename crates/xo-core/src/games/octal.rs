//! Octal (and hexadecimal) games written as codes, as in Winning Ways and CGSuite.
//!
//! A code `d0.d1d2d3...` says, for each number k of tokens removed from one heap, how the rest may
//! be left: digit bit 1 allows leaving no heap, bit 2 one heap, bit 4 two heaps, bit 8 three heaps
//! (hexadecimal codes). `0.77` is Kayles, `0.07` Dawson's Kayles, `0.007` behaves like Treblecross.
//! The digit before the point (k = 0) may only split a heap without removing tokens: 0 or 4, or
//! 8 and C in hexadecimal codes.
//!
//! Codes are read as written in the literature (`0.77`, `.07`, `4.07`, hex digits `0-9A-F`), with
//! an optional `octal:` prefix, and by the names `kayles`, `dawson-kayles` and `treblecross`.
//!
//! [`OctalMoves`] reads a code as the table of its moves by what they leave, the form every engine
//! that values heaps works from.

use std::fmt;
use std::str::FromStr;

/// An octal or hexadecimal game code. `digit(k)` describes removing `k` tokens.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// let kayles: OctalGame = "0.77".parse().unwrap();
/// assert_eq!(kayles.digit(1), 7);
/// assert_eq!(kayles.digit(3), 0);
/// assert_eq!(kayles.to_string(), "0.77");
/// assert_eq!("octal:.77".parse::<OctalGame>().unwrap(), kayles);
/// assert_eq!("kayles".parse::<OctalGame>().unwrap(), kayles);
/// assert_eq!("dawson-kayles".parse::<OctalGame>().unwrap().to_string(), "0.07");
/// assert_eq!("treblecross".parse::<OctalGame>().unwrap(), OctalGame::dot007());
/// assert_eq!("4.0c".parse::<OctalGame>().unwrap().to_string(), "4.0C");
/// assert!("0.7x".parse::<OctalGame>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalGame {
    digits: Vec<u8>,
}

/// Why a game code cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OctalError {
    /// The code has no `.` separating the whole-heap digit from the rest.
    #[error(
        "'{0}' is neither an octal code with a point (0.77, .07, 4.07) nor a known name (kayles, \
         dawson-kayles, treblecross)"
    )]
    NoPoint(String),
    /// A character is not a hexadecimal digit.
    #[error("octal code '{code}': '{ch}' is not a digit 0-9 or A-F")]
    BadDigit {
        /// The code as given.
        code: String,
        /// The offending character.
        ch: char,
    },
    /// The digit before the point may only be 0 or 4 (split a heap without removing tokens), or
    /// add 8 in hexadecimal codes.
    #[error("octal code '{0}': the digit before the point must be 0, 4, 8 or C")]
    BadWholeDigit(String),
    /// The code allows no move at all, or is unreasonably long.
    #[error("octal code '{0}' must allow some move and have at most 64 digits after the point")]
    Empty(String),
}

impl OctalGame {
    /// The digit for removing `k` tokens (0 beyond the written code).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// Digits from the one before the point (`k = 0`) to the last non-zero one.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether every digit is octal (at most 7).
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8)
    }

    /// Treblecross's game: `.007` (take three adjacent tokens, leaving up to two heaps).
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// assert_eq!(OctalGame::dot007().to_string(), "0.007");
    /// ```
    pub fn dot007() -> Self {
        OctalGame { digits: vec![0, 0, 0, 7] }
    }

    /// The moves of the game, by what they leave.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// let moves = OctalGame::dot007().moves();
    /// assert_eq!(moves.take_all, vec![3]);
    /// assert_eq!(moves.split2, vec![3]);
    /// ```
    pub fn moves(&self) -> OctalMoves {
        OctalMoves::new(self)
    }
}

/// The moves of an octal game, by what they leave: for each kind of move, the numbers of tokens
/// `k` that it may remove from one heap.
///
/// ```
/// use xo_core::games::octal::{OctalGame, OctalMoves};
/// let kayles = OctalMoves::new(&"0.77".parse::<OctalGame>().unwrap());
/// assert_eq!(kayles.take_all, vec![1, 2]);
/// assert_eq!(kayles.take_some, vec![1, 2]);
/// assert_eq!(kayles.split2, vec![1, 2]);
/// assert!(kayles.split3.is_empty());
/// assert_eq!((kayles.window(), kayles.max_parts(), kayles.split_parity()), (1, 2, None));
/// let dawson = OctalMoves::new(&"0.07".parse::<OctalGame>().unwrap());
/// assert_eq!((dawson.window(), dawson.split_parity()), (2, Some(0)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OctalMoves {
    /// `k` such that a heap of exactly `k` may be removed whole.
    pub take_all: Vec<usize>,
    /// `k` such that `k` tokens may be removed leaving one non-empty heap.
    pub take_some: Vec<usize>,
    /// `k` such that `k` tokens may be removed leaving two non-empty heaps.
    pub split2: Vec<usize>,
    /// `k` such that `k` tokens may be removed leaving three non-empty heaps.
    pub split3: Vec<usize>,
}

impl OctalMoves {
    /// The moves of `game`.
    pub fn new(game: &OctalGame) -> Self {
        let mut moves = OctalMoves {
            take_all: Vec::new(),
            take_some: Vec::new(),
            split2: Vec::new(),
            split3: Vec::new(),
        };
        for (k, &d) in game.digits().iter().enumerate() {
            if k > 0 && d & 1 != 0 {
                moves.take_all.push(k);
            }
            if k > 0 && d & 2 != 0 {
                moves.take_some.push(k);
            }
            if d & 4 != 0 {
                moves.split2.push(k);
            }
            if d & 8 != 0 {
                moves.split3.push(k);
            }
        }
        moves
    }

    /// The moves in one heap of `h` tokens: tokens removed and the heaps left (smallest first),
    /// each distinct split once, in order of tokens removed, then leaves.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// let kayles = "0.77".parse::<OctalGame>().unwrap().moves();
    /// assert_eq!(kayles.in_heap(3), [(1, vec![1, 1]), (1, vec![2]), (2, vec![1])]);
    /// assert_eq!(kayles.count_in_heap(3), 3);
    /// ```
    pub fn in_heap(&self, h: usize) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for &k in &self.take_all {
            if h == k {
                out.push((k, Vec::new()));
            }
        }
        for &k in &self.take_some {
            if h > k {
                out.push((k, vec![h - k]));
            }
        }
        for &k in &self.split2 {
            if h > k {
                let rest = h - k;
                out.extend((1..=rest / 2).map(|a| (k, vec![a, rest - a])));
            }
        }
        for &k in &self.split3 {
            if h > k {
                let rest = h - k;
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        out.push((k, vec![a, b, rest - a - b]));
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// How many moves [`in_heap`](Self::in_heap) lists for a heap of `h` tokens, without listing
    /// them (a heap of 10^8 tokens of a game that splits in three has about 10^15).
    pub fn count_in_heap(&self, h: usize) -> u128 {
        let below = |ks: &[usize]| -> Vec<u128> {
            ks.iter().filter(|&&k| h > k).map(|&k| (h - k) as u128).collect()
        };
        let whole = self.take_all.iter().filter(|&&k| k == h).count() as u128;
        let some = below(&self.take_some).len() as u128;
        let two: u128 = below(&self.split2).iter().map(|rest| rest / 2).sum();
        // Partitions of `rest` into three positive parts: the nearest whole number to rest²/12.
        let three: u128 = below(&self.split3).iter().map(|rest| (rest * rest + 6) / 12).sum();
        whole + some + two + three
    }

    /// Whether removing `removed` tokens from a heap of `h` may leave `leaves` (in any order).
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// let kayles = "0.77".parse::<OctalGame>().unwrap().moves();
    /// assert!(kayles.allows(5, 1, &[3, 1]));
    /// assert!(!kayles.allows(5, 3, &[1, 1]));
    /// assert!(!kayles.allows(5, 1, &[4, 0]));
    /// ```
    pub fn allows(&self, h: usize, removed: usize, leaves: &[usize]) -> bool {
        let left = leaves.iter().try_fold(0usize, |sum, &l| sum.checked_add(l));
        if leaves.contains(&0) || left.and_then(|l| l.checked_add(removed)) != Some(h) {
            return false;
        }
        let kinds = match leaves.len() {
            0 => &self.take_all,
            1 => &self.take_some,
            2 => &self.split2,
            3 => &self.split3,
            _ => return false,
        };
        kinds.contains(&removed)
    }

    /// How many consecutive heaps depend only on smaller heaps than all of them: heap `n` leaves
    /// no heap above `n - window` (`usize::MAX` when no move leaves a heap).
    pub fn window(&self) -> usize {
        let some = self.take_some.iter().copied();
        let split2 = self.split2.iter().map(|&k| k + 1);
        let split3 = self.split3.iter().map(|&k| k + 2);
        some.chain(split2).chain(split3).min().unwrap_or(usize::MAX)
    }

    /// The most heaps one move can leave (1, 2 or 3).
    pub fn max_parts(&self) -> usize {
        if !self.split3.is_empty() {
            3
        } else if !self.split2.is_empty() {
            2
        } else {
            1
        }
    }

    /// The parity of the counts removed by every two-heap split, if they share one.
    pub fn split_parity(&self) -> Option<usize> {
        let first = self.split2.first()? % 2;
        self.split2.iter().all(|&k| k % 2 == first).then_some(first)
    }
}

impl FromStr for OctalGame {
    type Err = OctalError;

    fn from_str(text: &str) -> Result<Self, OctalError> {
        let code = text.trim();
        let code = match code.to_ascii_lowercase().as_str() {
            "kayles" => "0.77",
            "dawson-kayles" | "dawsons-kayles" => "0.07",
            "treblecross" => "0.007",
            _ => code.strip_prefix("octal:").unwrap_or(code),
        };
        let (whole, frac) = code.split_once('.').ok_or_else(|| OctalError::NoPoint(code.into()))?;
        let digit = |ch: char| {
            ch.to_digit(16).map(|d| d as u8).ok_or(OctalError::BadDigit { code: code.into(), ch })
        };
        let d0 = match whole {
            "" => 0,
            w if w.chars().count() == 1 => digit(w.chars().next().unwrap_or('0'))?,
            _ => return Err(OctalError::BadWholeDigit(code.into())),
        };
        if d0 & 3 != 0 {
            return Err(OctalError::BadWholeDigit(code.into()));
        }
        let mut digits = vec![d0];
        for ch in frac.chars() {
            digits.push(digit(ch)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) || digits.len() > 65 {
            return Err(OctalError::Empty(code.into()));
        }
        Ok(OctalGame { digits })
    }
}

impl fmt::Display for OctalGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d:X}")?;
        }
        if self.digits.len() == 1 {
            write!(f, "0")?;
        }
        Ok(())
    }
}
