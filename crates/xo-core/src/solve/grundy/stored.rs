//! Nim-sequences computed once and kept: the values of an octal game up to some heap, as a file
//! of packed values, so that a front end answers from them at once instead of computing them
//! again (as the opening book does for Connect Four). Treblecross strips of a million cells need
//! .007 to heap 1,000,002: about 35 s of the engine on two cores without AVX-512, against a few
//! milliseconds to decode the file xo ships (`xo_store::sequence`).
//!
//! A file is trusted as far as its checksum and a recomputation of its first
//! [`CHECKED_ON_DECODE`] values go (that catches a file of another game, or of another rule
//! for it); the shipped file is checked to its end against the engine by the tests and the
//! Grundy bench.
//!
//! The encoding (little-endian): the magic `XONIMSEQ`, the format version (`u32`, 1), the
//! number of values (`u64`), the bits per value (`u8`, 1 to 32), the game's code (`u8` length,
//! then ASCII, e.g. `0.007`), the CRC-32 of the header so far and the packed values (`u32`), then the values packed
//! from the lowest bit of each byte up, `bits` each, the last byte padded with zeros.

use super::plain::nim_sequence_plain;
use super::types::Grundy;
use crate::games::octal::OctalGame;

/// Values recomputed (by the plain definition) and compared when a stored sequence is decoded.
pub const CHECKED_ON_DECODE: usize = 2048;

const MAGIC: &[u8; 8] = b"XONIMSEQ";
const VERSION: u32 = 1;
/// The most values a stored sequence holds (2^32: far beyond what can be computed).
pub const MAX_VALUES: u64 = 1 << 32;

/// Why bytes are not a stored nim-sequence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoredSequenceError {
    /// They do not start like a stored nim-sequence.
    #[error("not an xo nim-sequence file")]
    NotASequence,
    /// Another version of the format.
    #[error("a nim-sequence file of format version {0}; this xo reads version 1")]
    Version(u32),
    /// Shorter or longer than the header says, a header out of range, or a failed checksum.
    #[error("the nim-sequence file is damaged ({0})")]
    Damaged(&'static str),
    /// The values are not the game's (its first values, recomputed, differ).
    #[error("the nim-sequence file's values are not those of {game} (heap {heap} differs)")]
    WrongValues {
        /// The game the file names.
        game: String,
        /// The first heap whose value differs.
        heap: usize,
    },
}

/// The values of an octal game for heaps `0..len()`, as kept in a file.
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence};
/// let values = nim_sequence_plain(&OctalGame::dot007(), 100);
/// let stored = StoredSequence::new(OctalGame::dot007(), values.clone());
/// let back = StoredSequence::decode(&stored.encode()).unwrap();
/// assert_eq!(back.values(), &values[..]);
/// assert_eq!(back.game(), &OctalGame::dot007());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSequence {
    game: OctalGame,
    values: Vec<Grundy>,
}

impl StoredSequence {
    /// The values of `game` for heaps `0..values.len()`, as computed by the caller (normally
    /// [`NimSequence`](super::NimSequence)); [`StoredSequence::decode`] checks the first ones.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::StoredSequence;
    /// let kayles = "0.77".parse::<OctalGame>().unwrap();
    /// assert_eq!(StoredSequence::new(kayles, vec![0, 1, 2, 3]).values().len(), 4);
    /// ```
    pub fn new(game: OctalGame, values: Vec<Grundy>) -> Self {
        StoredSequence { game, values }
    }

    /// The game.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::StoredSequence;
    /// let s = StoredSequence::new(OctalGame::dot007(), vec![0, 0, 0, 1]);
    /// assert_eq!(s.game().to_string(), "0.007");
    /// ```
    pub fn game(&self) -> &OctalGame {
        &self.game
    }

    /// The values, for heaps `0..values().len()`.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::StoredSequence;
    /// assert_eq!(StoredSequence::new(OctalGame::dot007(), vec![0, 0, 0, 1]).values()[3], 1);
    /// ```
    pub fn values(&self) -> &[Grundy] {
        &self.values
    }

    /// The file's bytes (see the module's documentation for the layout).
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::StoredSequence;
    /// let bytes = StoredSequence::new(OctalGame::dot007(), vec![0, 0, 0, 1, 1, 1, 2]).encode();
    /// assert!(bytes.starts_with(b"XONIMSEQ"));
    /// // 7 values of 2 bits: 2 bytes after the header.
    /// assert_eq!(bytes.len(), 8 + 4 + 8 + 1 + 1 + 5 + 4 + 2);
    /// ```
    pub fn encode(&self) -> Vec<u8> {
        let max = self.values.iter().copied().max().unwrap_or(0);
        let bits = (32 - max.leading_zeros()).max(1);
        let packed = pack(&self.values, bits);
        let code = self.game.to_string();
        let mut out = Vec::with_capacity(head_len(code.len()) + packed.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        out.push(bits as u8);
        // Octal codes are a few digits long; a code of over 255 characters is cut (and would
        // then fail to decode, which no game xo names can reach).
        out.push(code.len().min(255) as u8);
        out.extend_from_slice(&code.as_bytes()[..code.len().min(255)]);
        let crc = checksum(&out, &packed);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&packed);
        out
    }

    /// Reads a stored sequence from its file's bytes: the header, the length, the checksum,
    /// then the first [`CHECKED_ON_DECODE`] values against the game's rules (a millisecond; 256
    /// values for games whose moves may leave three heaps).
    /// Never allocates more than the bytes given justify.
    ///
    /// ```
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence, StoredSequenceError};
    /// let kayles = "0.77".parse::<OctalGame>().unwrap();
    /// let mut wrong = nim_sequence_plain(&kayles, 50);
    /// let bytes = StoredSequence::new(OctalGame::dot007(), wrong.clone()).encode();
    /// let err = StoredSequence::decode(&bytes).unwrap_err();
    /// assert!(matches!(err, StoredSequenceError::WrongValues { heap: 1, .. }));
    /// assert_eq!(StoredSequence::decode(b"XONIMSEQ"), Err(StoredSequenceError::Damaged("too short")));
    /// wrong[7] ^= 1;
    /// let mut bytes = StoredSequence::new(kayles, wrong).encode();
    /// assert!(StoredSequence::decode(&bytes).is_err());
    /// let last = bytes.len() - 1;
    /// bytes[last] ^= 0x80;
    /// assert!(StoredSequence::decode(&bytes).unwrap_err().to_string().contains("checksum"));
    /// ```
    pub fn decode(bytes: &[u8]) -> Result<StoredSequence, StoredSequenceError> {
        use StoredSequenceError::{Damaged, NotASequence};
        if !bytes.starts_with(MAGIC) {
            return Err(if MAGIC.starts_with(bytes) { Damaged("too short") } else { NotASequence });
        }
        let fixed = head_len(0);
        if bytes.len() < fixed {
            return Err(Damaged("too short"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(StoredSequenceError::Version(version));
        }
        let count = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let bits = u32::from(bytes[20]);
        let code_len = usize::from(bytes[21]);
        if count > MAX_VALUES {
            return Err(Damaged("more values than any file xo writes"));
        }
        if !(1..=32).contains(&bits) {
            return Err(Damaged("bits per value out of range"));
        }
        let head = head_len(code_len);
        if bytes.len() < head {
            return Err(Damaged("too short"));
        }
        let code = std::str::from_utf8(&bytes[22..22 + code_len])
            .map_err(|_| Damaged("the game's code is not text"))?;
        let game: OctalGame = code.parse().map_err(|_| Damaged("the game's code is not one"))?;
        let crc = u32::from_le_bytes(bytes[head - 4..head].try_into().expect("4 bytes"));
        let packed = &bytes[head..];
        // Checked before anything is allocated: the count is bounded by the bytes present.
        if (packed.len() as u64) != (count * u64::from(bits)).div_ceil(8) {
            return Err(Damaged("its length disagrees with its header"));
        }
        if checksum(&bytes[..head - 4], packed) != crc {
            return Err(Damaged("the values do not match their checksum"));
        }
        let values = unpack(packed, bits, count as usize);
        // Moves that leave three heaps make the plain definition cubic: fewer values then.
        let three_parts = crate::games::octal::OctalMoves::new(&game).max_parts() > 2;
        let checked = values.len().min(if three_parts { 256 } else { CHECKED_ON_DECODE });
        let plain = nim_sequence_plain(&game, checked.saturating_sub(1));
        if let Some(heap) = (0..checked).find(|&n| plain[n] != values[n]) {
            return Err(StoredSequenceError::WrongValues { game: game.to_string(), heap });
        }
        Ok(StoredSequence { game, values })
    }
}

/// The CRC-32 of the header before it and of the packed values.
fn checksum(header: &[u8], packed: &[u8]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(header);
    crc.update(packed);
    crc.finalize()
}

/// The header's length for a game code of `code_len` bytes.
fn head_len(code_len: usize) -> usize {
    8 + 4 + 8 + 1 + 1 + code_len + 4
}

/// The values packed `bits` each, from the lowest bit of each byte up.
fn pack(values: &[Grundy], bits: u32) -> Vec<u8> {
    let mut out = vec![0u8; (values.len() as u64 * u64::from(bits)).div_ceil(8) as usize];
    let mut at = 0usize;
    for &v in values {
        for b in 0..bits as usize {
            if v >> b & 1 == 1 {
                out[(at + b) / 8] |= 1 << ((at + b) % 8);
            }
        }
        at += bits as usize;
    }
    out
}

/// The `count` values of `bits` each in `packed` (which holds at least `count * bits` bits).
fn unpack(packed: &[u8], bits: u32, count: usize) -> Vec<Grundy> {
    let mask = if bits == 32 { u64::from(u32::MAX) } else { (1u64 << bits) - 1 };
    (0..count)
        .map(|i| {
            let at = i * bits as usize;
            let mut word = [0u8; 8];
            let end = packed.len().min(at / 8 + 8);
            word[..end - at / 8].copy_from_slice(&packed[at / 8..end]);
            ((u64::from_le_bytes(word) >> (at % 8)) & mask) as Grundy
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_width_round_trip() {
        for bits in 1..=32u32 {
            let top = if bits == 32 { u32::MAX } else { (1 << bits) - 1 };
            let values: Vec<Grundy> =
                (0..77u32).map(|i| top.wrapping_sub(i.wrapping_mul(2654435761)) & top).collect();
            let packed = pack(&values, bits);
            assert_eq!(packed.len(), (77 * bits as usize).div_ceil(8));
            assert_eq!(unpack(&packed, bits, 77), values, "{bits} bits");
        }
    }

    #[test]
    fn every_cut_and_flip_of_a_file_is_refused_or_equal() {
        let game = "0.137".parse::<OctalGame>().unwrap();
        let stored = StoredSequence::new(game.clone(), nim_sequence_plain(&game, 60));
        let bytes = stored.encode();
        for cut in 0..bytes.len() {
            assert!(StoredSequence::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                if let Ok(back) = StoredSequence::decode(&flipped) {
                    // Only a flip the format cannot see may pass: the checksum covers the
                    // header and the values, and the length the checksum's own bytes.
                    assert_eq!(back, stored, "byte {i} bit {bit}");
                }
            }
        }
    }
}
