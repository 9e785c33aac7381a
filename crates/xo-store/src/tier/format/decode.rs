//! Reading a tier file's blocks and records: where each block is stored, checking it against its
//! CRC, inflating it, and reading a whole file back, checked.

use super::constants::BLOCK;
use super::error::DbError;
use super::header::{check, decode_header, Layout, TierHeader};
use xo_core::rules::Rules;
use xo_core::solve::strong::Record;

/// A `u32` or `u64` (`n` bytes, little-endian) at `at` of `bytes`.
fn word(bytes: &[u8], at: u64, n: usize) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let b = bytes.get(at..at.checked_add(n)?)?;
    Some(b.iter().rev().fold(0, |w, &x| w << 8 | u64::from(x)))
}

/// The bytes block `b` is stored as in a whole file's `bytes` (records in versions 1 and 2,
/// compressed in version 3), and their CRC-32.
fn stored<'a>(bytes: &'a [u8], layout: &Layout, b: u64) -> Result<(&'a [u8], u32), DbError> {
    let cut = || DbError::Truncated { expected: layout.file_len(), found: bytes.len() as u64 };
    let slice = |from: Option<u64>, to: Option<u64>| {
        let (from, to) = (usize::try_from(from?).ok()?, usize::try_from(to?).ok()?);
        bytes.get(from..to)
    };
    let crc_at = b.checked_mul(4).and_then(|o| o.checked_add(layout.table_at()));
    if layout.version >= 3 {
        if b >= layout.blocks() {
            return Err(cut());
        }
        let end_of = |k: u64| word(bytes, k.checked_mul(8)?.checked_add(layout.records_at)?, 8);
        let start = if b == 0 { Some(0) } else { end_of(b - 1) };
        let (Some(start), Some(end)) = (start, end_of(b)) else { return Err(cut()) };
        if start > end || end > layout.packed {
            return Err(DbError::Malformed(format!("block {b}'s place in the index")));
        }
        let at = |o: u64| o.checked_add(layout.blocks_at());
        let data = slice(at(start), at(end)).ok_or_else(cut)?;
        let crc = crc_at.and_then(|t| word(bytes, t, 4)).ok_or_else(cut)?;
        return Ok((data, crc as u32));
    }
    let range = layout.block_range(b);
    let at = |i: u64| i.checked_mul(2).and_then(|o| o.checked_add(layout.records_at));
    let data = slice(at(range.start), at(range.end)).ok_or_else(cut)?;
    let crc = match layout.records_crc {
        Some(crc) => crc,
        None => crc_at.and_then(|t| word(bytes, t, 4)).ok_or_else(cut)? as u32,
    };
    Ok((data, crc))
}

/// Checks block `b` of a whole file's `bytes` (already [`check`]ed) against its checksum
/// (version 1: all the records against theirs; version 3: the compressed bytes).
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{check_block, decode_header, encode_tier, record_at};
/// let ttt = parse_game("tictactoe").unwrap();
/// let mut bytes = encode_tier(&ttt, 2, &[Record(0x8002); 3000], "test");
/// let layout = decode_header(&bytes).unwrap().1;
/// assert_eq!(layout.blocks(), 2);
/// let last = bytes.len() - 1;
/// bytes[last] ^= 1; // block 1's compressed bytes
/// assert!(check_block(&bytes, &layout, 0).is_ok() && check_block(&bytes, &layout, 1).is_err());
/// ```
pub fn check_block(bytes: &[u8], layout: &Layout, b: u64) -> Result<(), DbError> {
    let (data, expected) = stored(bytes, layout, b)?;
    if crc32fast::hash(data) != expected {
        let what = if layout.version == 1 { "records".into() } else { format!("block {b}") };
        return Err(DbError::Checksum { what });
    }
    Ok(())
}

/// The records' bytes of block `b` of a whole file's `bytes` (unchecked: [`check_block`] it
/// first): in place (versions 1 and 2) or inflated into `buffer` (version 3; exactly the
/// block's records, or refused).
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{block_bytes, decode_header, encode_tier, BLOCK};
/// let ttt = parse_game("tictactoe").unwrap();
/// let bytes = encode_tier(&ttt, 2, &[Record(0x8002); 3000], "test");
/// let layout = decode_header(&bytes).unwrap().1;
/// let mut buffer = [0; 2 * BLOCK as usize];
/// let block = block_bytes(&bytes, &layout, 1, &mut buffer).unwrap();
/// assert_eq!(block, [2, 0x80].repeat(3000 - 2048));
/// ```
pub fn block_bytes<'a>(
    bytes: &'a [u8],
    layout: &Layout,
    b: u64,
    buffer: &'a mut [u8; 2 * BLOCK as usize],
) -> Result<&'a [u8], DbError> {
    let (data, _) = stored(bytes, layout, b)?;
    if layout.version < 3 {
        return Ok(data);
    }
    let range = layout.block_range(b);
    let want = (range.end - range.start) as usize * 2; // at most 2 * BLOCK (checked in the header)
    let out = &mut buffer[..want];
    match miniz_oxide::inflate::decompress_slice_iter_to_slice(
        out,
        std::iter::once(data),
        false,
        true,
    ) {
        Ok(n) if n == want => Ok(out),
        _ => Err(DbError::Block(b)),
    }
}

/// Record `index` of a whole version-1 or version-2 file's `bytes` (unchecked: check its block
/// first; version 3 reads records through [`block_bytes`]).
#[inline]
pub fn record_at(bytes: &[u8], layout: &Layout, index: u64) -> Option<Record> {
    if index >= layout.positions || layout.version >= 3 {
        return None;
    }
    let at = usize::try_from(layout.records_at.checked_add(index.checked_mul(2)?)?).ok()?;
    let pair = bytes.get(at..at.checked_add(2)?)?;
    Some(Record(u16::from_le_bytes([pair[0], pair[1]])))
}

/// Reads a whole tier file, checking it all, and against the game and tier expected (when
/// given).
pub fn decode_tier(
    bytes: &[u8],
    rules: Option<&Rules>,
    tier: Option<u32>,
) -> Result<(TierHeader, Vec<Record>), DbError> {
    let (header, layout) = decode_header(bytes)?;
    check(&header, &layout, rules, tier, bytes.len() as u64)?;
    let mut records = Vec::new();
    let mut buffer = [0; 2 * BLOCK as usize];
    for b in 0..layout.blocks() {
        check_block(bytes, &layout, b)?;
        let data = block_bytes(bytes, &layout, b, &mut buffer)?;
        records.extend(data.chunks_exact(2).map(|p| Record(u16::from_le_bytes([p[0], p[1]]))));
    }
    Ok((header, records))
}
