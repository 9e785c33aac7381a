//! The bytes of a strong database: one file per tier, each self-describing and checked in
//! blocks, so that a lookup checks the few blocks it reads instead of the whole file.
//!
//! ```text
//! magic "XOTIER\r\n" | version u32 (3) | header length u32 | header | block index | blocks
//! header: rules (TOML, u32 length + bytes) | made by (u32 length + bytes) | tier u32 |
//!         positions u64 | records per block u32 | bytes of blocks u64 |
//!         header CRC-32 u32 (of the header bytes before it)
//! block index: per block, the u64 offset of its end in the blocks; then per block, the u32
//!         CRC-32 of its compressed bytes
//! blocks: per block of records (the last block may be shorter), the records' bytes (one
//!         little-endian u16 per position, in rank order) compressed as one raw DEFLATE stream
//! ```
//!
//! A lookup reads the header, two offsets and a CRC of the index, and one block: it checks the
//! block's compressed bytes against their CRC, then inflates them into a buffer of exactly the
//! block's records (more or fewer bytes are refused), so damaged bytes never reach the inflater
//! and no output is larger than a block. Compression is deterministic: the same records make the
//! same bytes (the distributed and the single-process solve write the same files).
//!
//! Version 2 stored the records uncompressed: `header | records | block CRCs`, with no bytes of
//! blocks in the header and one CRC-32 per block of uncompressed records after them. Version 1
//! (xo before the store) had no blocks: its header held one CRC-32 of all the records in place of
//! the block size, and nothing followed the records. Both are still read (version 1 whole, as
//! before), never written.
//!
//! Reading checks the magic, the version, the header's checksum, the length (against the header,
//! before anything else is read), the game and the tier when the caller knows them, and each
//! block's checksum before its records are used: a file of another game, another version, a
//! flipped byte or a cut file is refused with a [`DbError`], never read as an answer.

use xo_core::rules::Rules;
use xo_core::solve::strong::Record;

/// The first bytes of every tier file.
pub const MAGIC: &[u8; 8] = b"XOTIER\r\n";
/// The format's version, as written.
pub const VERSION: u32 = 3;
/// The DEFLATE level blocks are compressed at (miniz_oxide's 0 to 10; see
/// `docs/strong-databases.md` for the sizes and times measured).
pub const LEVEL: u8 = 3;
/// Records per checked block (4 KiB of records).
pub const BLOCK: u64 = 2048;
/// The longest header read (a rules file and a line of text need far less).
pub const MAX_HEADER: u64 = 1 << 20;

/// Why bytes are not a usable tier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DbError {
    /// The bytes do not start like a tier file.
    #[error("not an xo database tier file")]
    NotADatabase,
    /// Another version of the format.
    #[error("database format version {found}; this xo reads versions 1 to {VERSION}")]
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
    /// The file is longer than its header says.
    #[error("the file is longer than its header says: {found} bytes, not {expected}")]
    TooLong {
        /// Bytes the header promises.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// A checksum does not match: the file is damaged.
    #[error("the {what} checksum does not match: the file is damaged")]
    Checksum {
        /// `header`, `records` or `block N`.
        what: String,
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
    /// A compressed block (its checksum right) that does not inflate to its records.
    #[error("block {0} does not decompress to its records: the file is damaged")]
    Block(u64),
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

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Magic, version, header length and header around the header's fields.
fn frame(version: u32, mut header: Vec<u8>) -> Vec<u8> {
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
fn header_fields(rules: &Rules, tier: u32, positions: u64, made_by: &str) -> Vec<u8> {
    let mut header = Vec::new();
    put_str(&mut header, &rules.to_toml());
    put_str(&mut header, made_by);
    header.extend_from_slice(&tier.to_le_bytes());
    header.extend_from_slice(&positions.to_le_bytes());
    header.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    header
}

/// Records' bytes, streamed in pieces of any length, compressed block by block: the block index
/// and the blocks of a version-3 file.
///
/// ```
/// use xo_store::tier::format::Blocks;
/// let mut blocks = Blocks::default();
/// blocks.update(&[1, 2, 3, 4]);
/// let (index, packed) = blocks.finish();
/// assert_eq!(index[..8], (packed.len() as u64).to_le_bytes());
/// assert_eq!(index[8..], crc32fast::hash(&packed).to_le_bytes());
/// ```
#[derive(Debug, Default)]
pub struct Blocks {
    pending: Vec<u8>,
    ends: Vec<u8>,
    crcs: Vec<u8>,
    packed: Vec<u8>,
}

impl Blocks {
    /// Takes in the next record bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        let size = 2 * BLOCK as usize;
        while !bytes.is_empty() {
            let take = (size - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == size {
                self.seal();
            }
        }
    }

    /// Compresses the pending block.
    fn seal(&mut self) {
        let block = miniz_oxide::deflate::compress_to_vec(&self.pending, LEVEL);
        self.pending.clear();
        self.packed.extend_from_slice(&block);
        self.ends.extend_from_slice(&(self.packed.len() as u64).to_le_bytes());
        self.crcs.extend_from_slice(&crc32fast::hash(&block).to_le_bytes());
    }

    /// The bytes of compressed blocks so far (the last, shorter block not yet compressed).
    pub fn packed_len(&self) -> u64 {
        self.packed.len() as u64
    }

    /// The block index and the compressed blocks (the last, shorter block's included).
    pub fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        if !self.pending.is_empty() {
            self.seal();
        }
        let mut index = self.ends;
        index.extend_from_slice(&self.crcs);
        (index, self.packed)
    }
}

/// The CRC-32 of each block of uncompressed records (version 2), from the records' bytes
/// streamed in pieces of any length.
///
/// ```
/// use xo_store::tier::format::BlockCrcs;
/// let mut crcs = BlockCrcs::default();
/// crcs.update(&[1, 2, 3, 4]);
/// assert_eq!(crcs.finish(), crc32fast::hash(&[1, 2, 3, 4]).to_le_bytes());
/// ```
#[derive(Debug, Default)]
pub struct BlockCrcs {
    table: Vec<u8>,
    current: crc32fast::Hasher,
    in_block: u64,
}

impl BlockCrcs {
    /// Takes in the next record bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        let size = 2 * BLOCK;
        while !bytes.is_empty() {
            let take = ((size - self.in_block) as usize).min(bytes.len());
            self.current.update(&bytes[..take]);
            self.in_block += take as u64;
            bytes = &bytes[take..];
            if self.in_block == size {
                let done = std::mem::take(&mut self.current).finalize();
                self.table.extend_from_slice(&done.to_le_bytes());
                self.in_block = 0;
            }
        }
    }

    /// The table of block CRCs (the last, shorter block's included).
    pub fn finish(mut self) -> Vec<u8> {
        if self.in_block > 0 {
            self.table.extend_from_slice(&self.current.finalize().to_le_bytes());
        }
        self.table
    }
}

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
    let expected = layout.file_len();
    if file_len < expected {
        return Err(DbError::Truncated { expected, found: file_len });
    }
    if file_len > expected {
        return Err(DbError::TooLong { expected, found: file_len });
    }
    Ok(())
}

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

/// The name of tier `t`'s file in a database folder.
///
/// ```
/// assert_eq!(xo_store::tier::format::tier_file_name(7), "tier-07.xot");
/// ```
pub fn tier_file_name(t: u32) -> String {
    format!("tier-{t:02}.xot")
}
