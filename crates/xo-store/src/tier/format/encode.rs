//! Whole tier files made in memory from their records: the current version, and the older
//! versions kept only to test that such files are still read.

use super::blocks::{BlockCrcs, Blocks};
use super::header::{encode_head, frame, header_fields, put_str};
use xo_core::rules::Rules;
use xo_core::solve::strong::Record;

/// The little-endian bytes of `records`.
///
/// ```
/// use xo_core::solve::strong::Record;
/// assert_eq!(xo_store::tier::format::record_bytes(&[Record(0x8001)]), [0x01, 0x80]);
/// ```
pub fn record_bytes(records: &[Record]) -> Vec<u8> {
    records.iter().flat_map(|r| r.0.to_le_bytes()).collect()
}

/// The bytes of a tier file holding `records` for tier `tier` of `rules`.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{decode_tier, encode_tier};
/// let ttt = parse_game("tictactoe").unwrap();
/// let bytes = encode_tier(&ttt, 9, &[Record(0x8009), Record(0x4000)], "test");
/// let (header, records) = decode_tier(&bytes, Some(&ttt), Some(9)).unwrap();
/// assert_eq!((header.tier, header.positions, records.len()), (9, 2, 2));
/// let mut bad = bytes.clone();
/// *bad.last_mut().unwrap() ^= 1;
/// assert!(decode_tier(&bad, Some(&ttt), Some(9)).is_err());
/// assert!(decode_tier(&bytes[..bytes.len() - 1], Some(&ttt), Some(9)).is_err());
/// ```
pub fn encode_tier(rules: &Rules, tier: u32, records: &[Record], made_by: &str) -> Vec<u8> {
    let mut blocks = Blocks::default();
    blocks.update(&record_bytes(records));
    let (index, packed) = blocks.finish();
    let mut out = encode_head(rules, tier, records.len() as u64, packed.len() as u64, made_by);
    out.extend_from_slice(&index);
    out.extend_from_slice(&packed);
    out
}

/// The bytes of a version-2 tier file (records uncompressed, as xo wrote before version 3):
/// kept to test that such files are still read.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{decode_tier, encode_tier_v2};
/// let ttt = parse_game("tictactoe").unwrap();
/// let bytes = encode_tier_v2(&ttt, 9, &[Record(0x8009)], "old");
/// assert_eq!(decode_tier(&bytes, Some(&ttt), Some(9)).unwrap().1, [Record(0x8009)]);
/// ```
pub fn encode_tier_v2(rules: &Rules, tier: u32, records: &[Record], made_by: &str) -> Vec<u8> {
    let data = record_bytes(records);
    let mut out = frame(2, header_fields(rules, tier, records.len() as u64, made_by));
    let mut crcs = BlockCrcs::default();
    crcs.update(&data);
    out.extend_from_slice(&data);
    out.extend_from_slice(&crcs.finish());
    out
}

/// The bytes of a version-1 tier file (as xo wrote before blocks): kept to test that such files
/// are still read.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{decode_tier, encode_tier_v1};
/// let ttt = parse_game("tictactoe").unwrap();
/// let bytes = encode_tier_v1(&ttt, 9, &[Record(0x8009)], "old");
/// assert_eq!(decode_tier(&bytes, Some(&ttt), Some(9)).unwrap().1, [Record(0x8009)]);
/// ```
pub fn encode_tier_v1(rules: &Rules, tier: u32, records: &[Record], made_by: &str) -> Vec<u8> {
    let data = record_bytes(records);
    let mut header = Vec::new();
    put_str(&mut header, &rules.to_toml());
    put_str(&mut header, made_by);
    header.extend_from_slice(&tier.to_le_bytes());
    header.extend_from_slice(&(records.len() as u64).to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(&data).to_le_bytes());
    let mut out = frame(1, header);
    out.extend_from_slice(&data);
    out
}
