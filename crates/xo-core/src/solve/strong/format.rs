//! The bytes of a strong database: one file per tier, each self-describing and checked.
//!
//! ```text
//! magic "XOTIER\r\n" | version u32 | header length u32 | header | records
//! header: rules (TOML, u32 length + bytes) | made by (u32 length + bytes) | tier u32 |
//!         positions u64 | records CRC-32 u32 | header CRC-32 u32 (of the header bytes before it)
//! records: one little-endian u16 per position, in rank order
//! ```
//!
//! Reading checks the magic, the version, both checksums, the length, and (when the caller knows
//! them) the game and the tier: a file of another game, another version, a flipped byte or a cut
//! file is refused with a [`DbError`], never read as an answer.

use super::Record;
use crate::rules::Rules;

/// The first bytes of every tier file.
pub const MAGIC: &[u8; 8] = b"XOTIER\r\n";
/// The format's version.
pub const VERSION: u32 = 1;

/// Why bytes are not a usable tier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DbError {
    /// The bytes do not start like a tier file.
    #[error("not an xo database tier file")]
    NotADatabase,
    /// Another version of the format.
    #[error("database format version {found}; this xo reads version {VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The file is shorter than its header says.
    #[error("the file is cut short: {found} bytes of {expected}")]
    Truncated {
        /// Bytes the header promises.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// A checksum does not match: the file is damaged.
    #[error("the {what} checksum does not match: the file is damaged")]
    Checksum {
        /// `header` or `records`.
        what: &'static str,
    },
    /// Another game's database.
    #[error("the database is of {found}, not {expected}")]
    OtherGame {
        /// The game in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// Another tier than asked for.
    #[error("the file holds tier {found}, not tier {expected}")]
    OtherTier {
        /// The tier in the file.
        found: u32,
        /// The tier asked for.
        expected: u32,
    },
    /// A header that cannot be read.
    #[error("the header is malformed: {0}")]
    Malformed(String),
}

/// What a tier file says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierHeader {
    /// The game, as a rules file.
    pub rules: Rules,
    /// Which program made it, and how.
    pub made_by: String,
    /// The tier (marks on the board).
    pub tier: u32,
    /// Positions (records) in the tier.
    pub positions: u64,
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// The bytes of a tier file holding `records` for tier `tier` of `rules`.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::format::{decode_tier, encode_tier};
/// use xo_core::solve::strong::Record;
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
    let mut data = Vec::with_capacity(records.len() * 2);
    for r in records {
        data.extend_from_slice(&r.0.to_le_bytes());
    }
    let mut out = encode_head(rules, tier, records.len() as u64, crc32fast::hash(&data), made_by);
    out.extend_from_slice(&data);
    out
}

/// The bytes of a tier file before its records (magic, version, header), for `positions`
/// records whose little-endian bytes have CRC-32 `records_crc`: a file is these bytes followed by
/// the records, so a writer that streams the records (the distributed solve) makes the same bytes
/// as [`encode_tier`].
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::format::{encode_head, encode_tier};
/// use xo_core::solve::strong::Record;
/// let ttt = parse_game("tictactoe").unwrap();
/// let whole = encode_tier(&ttt, 9, &[Record(0x8009), Record(0x4000)], "test");
/// let mut streamed = encode_head(&ttt, 9, 2, crc32fast::hash(&[9, 0x80, 0, 0x40]), "test");
/// streamed.extend_from_slice(&[9, 0x80, 0, 0x40]);
/// assert_eq!(streamed, whole);
/// ```
pub fn encode_head(
    rules: &Rules,
    tier: u32,
    positions: u64,
    records_crc: u32,
    made_by: &str,
) -> Vec<u8> {
    let mut header = Vec::new();
    put_str(&mut header, &rules.to_toml());
    put_str(&mut header, made_by);
    header.extend_from_slice(&tier.to_le_bytes());
    header.extend_from_slice(&positions.to_le_bytes());
    header.extend_from_slice(&records_crc.to_le_bytes());
    let header_crc = crc32fast::hash(&header);
    header.extend_from_slice(&header_crc.to_le_bytes());
    let mut out = Vec::with_capacity(16 + header.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out
}

/// A little reader over header bytes that never reads past the end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DbError> {
        if self.0.len() < n {
            return Err(DbError::Malformed("a field runs past the header".into()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u32(&mut self) -> Result<u32, DbError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, DbError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn string(&mut self) -> Result<String, DbError> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec())
            .map_err(|_| DbError::Malformed("a text field is not UTF-8".into()))
    }
}

/// Reads a tier file's header (from its first bytes; the records need not be there), returning
/// it with the offset of the records and their checksum.
pub fn decode_header(bytes: &[u8]) -> Result<(TierHeader, usize, u32), DbError> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(DbError::NotADatabase);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(DbError::Version { found: version });
    }
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let end = 16usize
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or(DbError::Truncated { expected: 16 + len as u64, found: bytes.len() as u64 })?;
    let header = &bytes[16..end];
    if header.len() < 4 {
        return Err(DbError::Malformed("the header is too short".into()));
    }
    let (body, crc) = header.split_at(header.len() - 4);
    if crc32fast::hash(body).to_le_bytes() != crc {
        return Err(DbError::Checksum { what: "header" });
    }
    let mut c = Cursor(body);
    let rules_text = c.string()?;
    let made_by = c.string()?;
    let tier = c.u32()?;
    let positions = c.u64()?;
    let records_crc = c.u32()?;
    let rules = Rules::from_toml(&rules_text).map_err(|e| DbError::Malformed(e.to_string()))?;
    Ok((TierHeader { rules, made_by, tier, positions }, end, records_crc))
}

/// Reads a whole tier file, checking it against the game and tier expected (when given).
pub fn decode_tier(
    bytes: &[u8],
    rules: Option<&Rules>,
    tier: Option<u32>,
) -> Result<(TierHeader, Vec<Record>), DbError> {
    let (header, offset, crc) = decode_header(bytes)?;
    if let Some(rules) = rules {
        if header.rules != *rules {
            return Err(DbError::OtherGame {
                found: header.rules.name.clone(),
                expected: rules.name.clone(),
            });
        }
    }
    if let Some(t) = tier {
        if header.tier != t {
            return Err(DbError::OtherTier { found: header.tier, expected: t });
        }
    }
    let expected = (offset as u64).saturating_add(header.positions.saturating_mul(2));
    if bytes.len() as u64 != expected {
        return Err(DbError::Truncated { expected, found: bytes.len() as u64 });
    }
    let data = &bytes[offset..];
    if crc32fast::hash(data) != crc {
        return Err(DbError::Checksum { what: "records" });
    }
    let records = data.chunks_exact(2).map(|b| Record(u16::from_le_bytes([b[0], b[1]]))).collect();
    Ok((header, records))
}

/// The name of tier `t`'s file in a database folder.
///
/// ```
/// assert_eq!(xo_core::solve::strong::format::tier_file_name(7), "tier-07.xot");
/// ```
pub fn tier_file_name(t: u32) -> String {
    format!("tier-{t:02}.xot")
}
