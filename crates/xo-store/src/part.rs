//! The part files of the distributed solve: each rank writes its share of a tier as one checked
//! part file, and rank 0 streams the parts, each checked against what the rank reported, into
//! the tier file.
//!
//! ```text
//! magic "XOPART\r\n" | tier u32 | rank u32 | ranks u32 | first position u64 | positions u64 |
//! records CRC-32 u32 | records (one little-endian u16 each)
//! ```

use crate::file::{open_regular, AtomicFile};
use crate::StoreError;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use xo_core::solve::strong::Record;

/// The first bytes of a part file.
pub const MAGIC: &[u8; 8] = b"XOPART\r\n";
/// Bytes of a part file's header.
pub const HEADER: usize = 8 + 4 + 4 + 4 + 8 + 8 + 4;

/// What a part file says about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartHeader {
    /// The tier.
    pub tier: u32,
    /// The rank that wrote it.
    pub rank: u32,
    /// Ranks in the job.
    pub ranks: u32,
    /// The tier's first position in the part.
    pub start: u64,
    /// Positions in the part.
    pub count: u64,
    /// CRC-32 of the records' bytes.
    pub crc: u32,
}

impl PartHeader {
    /// The header's bytes.
    pub fn encode(&self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&self.tier.to_le_bytes());
        h[12..16].copy_from_slice(&self.rank.to_le_bytes());
        h[16..20].copy_from_slice(&self.ranks.to_le_bytes());
        h[20..28].copy_from_slice(&self.start.to_le_bytes());
        h[28..36].copy_from_slice(&self.count.to_le_bytes());
        h[36..40].copy_from_slice(&self.crc.to_le_bytes());
        h
    }

    /// Reads a header from a part file's first bytes.
    pub fn decode(bytes: &[u8]) -> Option<PartHeader> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return None;
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        Some(PartHeader {
            tier: u32_at(8),
            rank: u32_at(12),
            ranks: u32_at(16),
            start: u64_at(20),
            count: u64_at(28),
            crc: u32_at(36),
        })
    }

    /// The length of the whole file.
    pub fn file_len(&self) -> Option<u64> {
        self.count.checked_mul(2)?.checked_add(HEADER as u64)
    }
}

/// Reads a whole part file's bytes: its header and records, the records checked.
///
/// ```
/// use xo_store::part::{decode, encode, PartHeader};
/// let bytes = encode(3, 1, 2, 10, &[xo_core::solve::strong::Record(7)]);
/// let (header, records) = decode(&bytes).unwrap();
/// assert_eq!((header.tier, header.start, records), (3, 10, &[7u8, 0][..]));
/// assert!(decode(&bytes[..bytes.len() - 1]).is_err());
/// ```
pub fn decode(bytes: &[u8]) -> Result<(PartHeader, &[u8]), String> {
    let header = PartHeader::decode(bytes).ok_or("not a part file")?;
    if header.file_len() != Some(bytes.len() as u64) {
        return Err("its length disagrees with its header".into());
    }
    let records = &bytes[HEADER..];
    if crc32fast::hash(records) != header.crc {
        return Err("the records do not match their checksum".into());
    }
    Ok((header, records))
}

/// The bytes of a part file of `records`, positions `start..` of tier `tier`, by rank `rank` of
/// `ranks`.
pub fn encode(tier: u32, rank: u32, ranks: u32, start: u64, records: &[Record]) -> Vec<u8> {
    let data = crate::tier::format::record_bytes(records);
    let count = records.len() as u64;
    let header = PartHeader { tier, rank, ranks, start, count, crc: crc32fast::hash(&data) };
    let mut bytes = header.encode().to_vec();
    bytes.extend_from_slice(&data);
    bytes
}

/// The file of rank `rank`'s part of tier `t` in `dir`.
///
/// ```
/// let p = xo_store::part::part_path(std::path::Path::new("db"), 7, 2);
/// assert_eq!(p, std::path::Path::new("db/tier-07-rank-00002.part"));
/// ```
pub fn part_path(dir: &Path, t: u32, rank: usize) -> PathBuf {
    dir.join(format!("tier-{t:02}-rank-{rank:05}.part"))
}

/// Writes rank `rank`'s records of tier `t` (positions `start..`) as its part file, atomically;
/// returns the CRC-32 and length of the records' bytes.
///
/// ```
/// use xo_core::solve::strong::Record;
/// use xo_store::part::{copy, part_path, write, PartHeader};
/// let dir = tempfile::tempdir().unwrap();
/// let (crc, len) = write(dir.path(), (5, 1, 2), 100, &[Record(1), Record(2)]).unwrap();
/// let expected = PartHeader { tier: 5, rank: 1, ranks: 2, start: 100, count: 2, crc };
/// let mut out = Vec::new();
/// copy(&part_path(dir.path(), 5, 1), &expected, |b| Ok(out.extend_from_slice(b))).unwrap();
/// assert_eq!((out, len), (vec![1, 0, 2, 0], 4));
/// let other = PartHeader { start: 99, ..expected };
/// assert!(copy(&part_path(dir.path(), 5, 1), &other, |_| Ok(())).is_err());
/// ```
pub fn write(
    dir: &Path,
    (t, rank, ranks): (u32, usize, usize),
    start: u64,
    records: &[Record],
) -> Result<(u32, u64), StoreError> {
    let path = part_path(dir, t, rank);
    let bytes = encode(t, rank as u32, ranks as u32, start, records);
    let header = PartHeader::decode(&bytes).expect("just encoded");
    let mut file = AtomicFile::create(&path)?;
    file.write_all(&bytes).map_err(|e| StoreError::io("write", &path, e))?;
    file.commit()?;
    Ok((header.crc, 2 * header.count))
}

/// Streams the records of the part file `path` into `out`, checking that its header is
/// `expected` (before reading on) and its records match their checksum.
pub fn copy(
    path: &Path,
    expected: &PartHeader,
    mut out: impl FnMut(&[u8]) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let (file, len) = open_regular(path)?;
    let not_ours =
        || StoreError::Damaged { path: path.into(), what: "not the part this job wrote".into() };
    if expected.file_len() != Some(len) {
        return Err(not_ours());
    }
    let mut file = std::io::BufReader::with_capacity(1 << 20, file);
    let mut head = [0u8; HEADER];
    file.read_exact(&mut head).map_err(|e| StoreError::io("read", path, e))?;
    if PartHeader::decode(&head).as_ref() != Some(expected) {
        return Err(not_ours());
    }
    let mut hasher = crc32fast::Hasher::new();
    let mut block = vec![0u8; 1 << 20];
    let mut left = len - HEADER as u64;
    while left > 0 {
        let n = (block.len() as u64).min(left) as usize;
        file.read_exact(&mut block[..n]).map_err(|e| StoreError::io("read", path, e))?;
        hasher.update(&block[..n]);
        out(&block[..n])?;
        left -= n as u64;
    }
    if hasher.finalize() != expected.crc {
        return Err(StoreError::Damaged {
            path: path.into(),
            what: "the records do not match their checksum".into(),
        });
    }
    Ok(())
}

/// Removes the part files and temporary files a killed job left in `dir` (they are never read
/// without their tier being solved again).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// for name in ["tier-03.xot", "tier-02-rank-00001.part", "tier-02.xot.7.0.tmp"] {
///     std::fs::write(dir.path().join(name), b"").unwrap();
/// }
/// xo_store::part::remove_stale(dir.path());
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("tier-") && (name.ends_with(".part") || name.ends_with(".tmp")) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
