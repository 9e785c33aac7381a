//! The header of a tier file: what it says about the file ([`TierHeader`]) and where the file's
//! parts lie ([`Layout`]), written for a new file and read, checked, from an existing one.

use super::constants::{BLOCK, MAGIC, MAX_HEADER, VERSION};
use super::error::DbError;
use xo_core::rules::Rules;

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

/// Where the parts of a tier file are, from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The format version (1, 2 or 3).
    pub version: u32,
    /// Positions (records).
    pub positions: u64,
    /// Offset of the first record (versions 1 and 2) or of the block index (version 3).
    pub records_at: u64,
    /// Records per block (versions 2 and 3; version 1 is one block).
    pub block: u64,
    /// Version 1's CRC-32 of all the records.
    pub records_crc: Option<u32>,
    /// Version 3's bytes of compressed blocks (0 in versions 1 and 2).
    pub packed: u64,
}

impl Layout {
    /// Blocks of records.
    pub fn blocks(&self) -> u64 {
        self.positions.div_ceil(self.block.max(1))
    }

    /// Offset of the block CRCs (versions 2 and 3: after the records, or after the index's
    /// offsets).
    pub fn table_at(&self) -> u64 {
        if self.version >= 3 {
            return self.records_at.saturating_add(self.blocks().saturating_mul(8));
        }
        self.records_at.saturating_add(self.positions.saturating_mul(2))
    }

    /// Offset of the first compressed block (version 3).
    pub fn blocks_at(&self) -> u64 {
        self.table_at().saturating_add(self.blocks().saturating_mul(4))
    }

    /// The length of the whole file.
    pub fn file_len(&self) -> u64 {
        match self.version {
            1 => self.table_at(),
            2 => self.blocks_at(),
            _ => self.blocks_at().saturating_add(self.packed),
        }
    }

    /// The range of record indices of block `b`.
    pub fn block_range(&self, b: u64) -> std::ops::Range<u64> {
        let start = b.saturating_mul(self.block).min(self.positions);
        start..start.saturating_add(self.block).min(self.positions)
    }
}

pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Magic, version, header length and header around the header's fields.
pub(super) fn frame(version: u32, mut header: Vec<u8>) -> Vec<u8> {
    let header_crc = crc32fast::hash(&header);
    header.extend_from_slice(&header_crc.to_le_bytes());
    let mut out = Vec::with_capacity(16 + header.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out
}

/// The bytes of a tier file before its block index (magic, version, header) for `positions`
/// records in `packed` bytes of compressed blocks: a file is these bytes then what [`Blocks`]
/// made of the records, so a writer that streams the records (the distributed solve) makes the
/// same bytes as [`encode_tier`].
///
/// [`Blocks`]: super::Blocks
/// [`encode_tier`]: super::encode_tier
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::format::{encode_head, encode_tier, Blocks};
/// let ttt = parse_game("tictactoe").unwrap();
/// let whole = encode_tier(&ttt, 9, &[Record(0x8009), Record(0x4000)], "test");
/// let mut blocks = Blocks::default();
/// for piece in [&[9u8, 0x80][..], &[0, 0x40]] {
///     blocks.update(piece);
/// }
/// let (index, packed) = blocks.finish();
/// let mut streamed = encode_head(&ttt, 9, 2, packed.len() as u64, "test");
/// streamed.extend_from_slice(&index);
/// streamed.extend_from_slice(&packed);
/// assert_eq!(streamed, whole);
/// ```
pub fn encode_head(
    rules: &Rules,
    tier: u32,
    positions: u64,
    packed: u64,
    made_by: &str,
) -> Vec<u8> {
    let mut header = header_fields(rules, tier, positions, made_by);
    header.extend_from_slice(&packed.to_le_bytes());
    frame(VERSION, header)
}

/// The header's fields common to versions 2 and 3.
pub(super) fn header_fields(rules: &Rules, tier: u32, positions: u64, made_by: &str) -> Vec<u8> {
    let mut header = Vec::new();
    put_str(&mut header, &rules.to_toml());
    put_str(&mut header, made_by);
    header.extend_from_slice(&tier.to_le_bytes());
    header.extend_from_slice(&positions.to_le_bytes());
    header.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    header
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
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, DbError> {
        Ok(u64::from(self.u32()?) | u64::from(self.u32()?) << 32)
    }
    fn string(&mut self) -> Result<String, DbError> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec())
            .map_err(|_| DbError::Malformed("a text field is not UTF-8".into()))
    }
}

/// The length of a tier file's magic, version, header length and header, from its first 16
/// bytes (checking the magic and the version): how much to read before [`decode_header`].
///
/// ```
/// use xo_store::tier::format::{head_len, DbError};
/// assert_eq!(head_len(b"hello"), Err(DbError::NotADatabase));
/// ```
pub fn head_len(first: &[u8]) -> Result<u64, DbError> {
    if first.len() < 16 || &first[..8] != MAGIC {
        return Err(DbError::NotADatabase);
    }
    let word = |i: usize| u32::from_le_bytes([first[i], first[i + 1], first[i + 2], first[i + 3]]);
    let version = word(8);
    if !(1..=VERSION).contains(&version) {
        return Err(DbError::Version { found: version });
    }
    let len = u64::from(word(12));
    if len > MAX_HEADER {
        return Err(DbError::Malformed(format!("a header of {len} bytes")));
    }
    Ok(16 + len)
}

/// Reads a tier file's header from its first bytes (the records need not be there).
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_store::tier::format::{decode_header, encode_head};
/// let ttt = parse_game("tictactoe").unwrap();
/// let (header, layout) = decode_header(&encode_head(&ttt, 3, 5000, 700, "test")).unwrap();
/// assert_eq!((header.tier, layout.positions, layout.blocks(), layout.packed), (3, 5000, 3, 700));
/// ```
pub fn decode_header(bytes: &[u8]) -> Result<(TierHeader, Layout), DbError> {
    let end = head_len(bytes)?;
    if (bytes.len() as u64) < end {
        return Err(DbError::Truncated { expected: end, found: bytes.len() as u64 });
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    let header = &bytes[16..end as usize];
    if header.len() < 4 {
        return Err(DbError::Malformed("the header is too short".into()));
    }
    let (body, crc) = header.split_at(header.len() - 4);
    if crc32fast::hash(body).to_le_bytes() != crc {
        return Err(DbError::Checksum { what: "header".into() });
    }
    let mut c = Cursor(body);
    let rules_text = c.string()?;
    let made_by = c.string()?;
    let tier = c.u32()?;
    let positions = c.u64()?;
    let last = c.u32()?;
    let (block, records_crc) = match version {
        1 => (positions.max(1), Some(last)),
        _ if last == 0 => return Err(DbError::Malformed("blocks of no records".into())),
        _ => (u64::from(last), None),
    };
    // A block is inflated into a buffer of its records' bytes: at most 2 * BLOCK.
    if version >= 3 && u64::from(last) != BLOCK {
        return Err(DbError::Malformed(format!("blocks of {last} records, not {BLOCK}")));
    }
    let packed = if version >= 3 { c.u64()? } else { 0 };
    if version >= 3 && !c.0.is_empty() {
        return Err(DbError::Malformed("bytes after the header's fields".into()));
    }
    let rules = Rules::from_toml(&rules_text).map_err(|e| DbError::Malformed(e.to_string()))?;
    let layout = Layout { version, positions, records_at: end, block, records_crc, packed };
    Ok((TierHeader { rules, made_by, tier, positions }, layout))
}

/// Checks a header against the game and tier expected (when given) and the file's length.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_store::tier::format::{check, decode_header, encode_head, DbError};
/// let ttt = parse_game("tictactoe").unwrap();
/// let head = encode_head(&ttt, 1, 9, 30, "test");
/// let (header, layout) = decode_header(&head).unwrap();
/// let len = layout.file_len();
/// assert!(check(&header, &layout, Some(&ttt), Some(1), len).is_ok());
/// assert!(matches!(check(&header, &layout, None, Some(2), len), Err(DbError::OtherTier { .. })));
/// assert!(matches!(check(&header, &layout, None, None, 1 << 31), Err(DbError::TooLong { .. })));
/// ```
pub fn check(
    header: &TierHeader,
    layout: &Layout,
    rules: Option<&Rules>,
    tier: Option<u32>,
    file_len: u64,
) -> Result<(), DbError> {
    if let Some(rules) = rules
        && header.rules != *rules
    {
        return Err(DbError::OtherGame {
            found: header.rules.name().to_string(),
            expected: rules.name().to_string(),
        });
    }
    if let Some(t) = tier
        && header.tier != t
    {
        return Err(DbError::OtherTier { found: header.tier, expected: t });
    }
    let expected = layout.file_len();
    if file_len < expected {
        return Err(DbError::Truncated { expected, found: file_len });
    }
    if file_len > expected {
        return Err(DbError::TooLong { expected, found: file_len });
    }
    Ok(())
}
