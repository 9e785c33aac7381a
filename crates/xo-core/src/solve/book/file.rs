//! The book file's bytes. Format 2 (written): a header naming the board, the depth and how much
//! of the deepest level is solved, then the entries sorted by key, each the key's distance from
//! the previous one (LEB128) and the score (one byte), then a CRC-32 of everything: about five
//! bytes an entry, so a 7x6 book of every position of ten moves (1.2 million) fits in 8 MiB.
//! Format 1 (read only): fixed nine-byte entries, complete books only.
//!
//! ```text
//! format 2: "XOBOOK\0\0" | 2 u32 | width u32 | height u32 | k u32 | depth u32
//!           | entries u64 | solved u64 | deepest u64 | body bytes u64 | body | CRC-32 u32
//! format 1: "XOBOOK\0\0" | 1 u32 | width u32 | height u32 | k u32 | depth u32
//!           | entries u64 | (key u64, score i8) * entries | CRC-32 u32
//! ```

use super::types::{Book, BookError};

/// The first bytes of every book file.
pub(super) const MAGIC: &[u8; 8] = b"XOBOOK\0\0";
/// The format version written.
pub(super) const VERSION: u32 = 2;
/// Bytes of format 1's header.
const HEADER_1: usize = 8 + 4 * 5 + 8;
/// Bytes of format 2's header.
pub(super) const HEADER_2: usize = HEADER_1 + 3 * 8;

/// The little-endian u32 at `at`.
fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The little-endian u64 at `at`.
fn long(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The file's length as its header gives it (`head` holds at least the header).
pub(super) fn file_len(head: &[u8]) -> Result<u64, BookError> {
    if head.len() < HEADER_1 || &head[..8] != MAGIC {
        return Err(BookError::NotABook);
    }
    let too_long = BookError::Damaged("its length disagrees with its header");
    match word(head, 8) {
        1 => long(head, 28)
            .checked_mul(9)
            .and_then(|b| b.checked_add(HEADER_1 as u64 + 4))
            .ok_or(too_long),
        2 if head.len() < HEADER_2 => Err(BookError::Damaged("its header is cut short")),
        2 => long(head, 52).checked_add(HEADER_2 as u64 + 4).ok_or(too_long),
        version => Err(BookError::Version(version)),
    }
}

/// The bytes of `book`, format 2.
pub(super) fn encode(book: &Book) -> Vec<u8> {
    let mut body = Vec::with_capacity(book.keys.len() * 6);
    let mut previous = 0u64;
    for (&key, &score) in book.keys.iter().zip(&book.scores) {
        let mut gap = key - previous;
        previous = key;
        while gap >= 0x80 {
            body.push((gap as u8 & 0x7f) | 0x80);
            gap >>= 7;
        }
        body.push(gap as u8);
        body.push(score as u8);
    }
    let mut out = Vec::with_capacity(HEADER_2 + body.len() + 4);
    out.extend_from_slice(MAGIC);
    for v in [VERSION, book.width, book.height, book.k, book.depth] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [book.keys.len() as u64, book.solved, book.deepest, body.len() as u64] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Reads a book file of either format, checking everything.
pub(super) fn decode(bytes: &[u8]) -> Result<Book, BookError> {
    let want = file_len(bytes)?;
    if want != bytes.len() as u64 {
        return Err(BookError::Damaged("its length disagrees with its header"));
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(body).to_le_bytes() != crc {
        return Err(BookError::Damaged("checksum"));
    }
    let (width, height, k, depth) =
        (word(bytes, 12), word(bytes, 16), word(bytes, 20), word(bytes, 24));
    let count = long(bytes, 28);
    let (keys, scores, solved, deepest) = if word(bytes, 8) == 1 {
        let entries = &body[HEADER_1..];
        let keys: Vec<u64> = entries
            .chunks_exact(9)
            .map(|e| u64::from_le_bytes(e[..8].try_into().unwrap()))
            .collect();
        let scores = entries.chunks_exact(9).map(|e| e[8] as i8).collect();
        // Format 1 held complete books only.
        (keys, scores, 0, 0)
    } else {
        let (keys, scores) = entries_2(&body[HEADER_2..], count)?;
        (keys, scores, long(bytes, 36), long(bytes, 44))
    };
    if keys.windows(2).any(|w| w[0] >= w[1]) {
        return Err(BookError::Damaged("its keys are out of order"));
    }
    if solved > deepest {
        return Err(BookError::Damaged("more positions solved than its deepest level holds"));
    }
    Ok(Book { width, height, k, depth, solved, deepest, keys, scores })
}

/// Format 2's entries: `count` of them, exactly filling `body`.
fn entries_2(body: &[u8], count: u64) -> Result<(Vec<u64>, Vec<i8>), BookError> {
    // Every entry takes two bytes at least: a count beyond that is a lie, refused before
    // anything is allocated for it.
    if count > body.len() as u64 / 2 {
        return Err(BookError::Damaged("more entries than its bytes can hold"));
    }
    let mut keys = Vec::with_capacity(count as usize);
    let mut scores = Vec::with_capacity(count as usize);
    let mut at = 0usize;
    let mut key = 0u64;
    for _ in 0..count {
        let mut gap = 0u64;
        let mut shift = 0u32;
        loop {
            let byte = *body.get(at).ok_or(BookError::Damaged("an entry is cut short"))?;
            at += 1;
            if shift > 63 || (shift == 63 && byte & 0x7e != 0) {
                return Err(BookError::Damaged("a key is too large"));
            }
            gap |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                if byte == 0 && shift > 7 {
                    // One encoding per number: a key is written back byte for byte.
                    return Err(BookError::Damaged("a key gap is not in its shortest form"));
                }
                break;
            }
        }
        if !keys.is_empty() && gap == 0 {
            return Err(BookError::Damaged("its keys are out of order"));
        }
        key = key.checked_add(gap).ok_or(BookError::Damaged("a key is too large"))?;
        let score = *body.get(at).ok_or(BookError::Damaged("an entry is cut short"))?;
        at += 1;
        keys.push(key);
        scores.push(score as i8);
    }
    if at != body.len() {
        return Err(BookError::Damaged("bytes past its last entry"));
    }
    Ok((keys, scores))
}
