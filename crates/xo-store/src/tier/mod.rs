//! One tier file of a strong database: read memory-mapped, each block of records checked against
//! its CRC the first time a lookup uses it and inflated when it is read (so a query touches the
//! header, the index and a block or two, not two whole tiers), and written by one streaming
//! writer (the single-process and the distributed solve alike, so their files are the same
//! bytes).

pub mod format;

use crate::file::{open_regular, AtomicFile};
use crate::StoreError;
use format::{
    block_bytes, check, check_block, decode_header, encode_head, head_len, Blocks, DbError, Layout,
    TierHeader, BLOCK,
};
use std::io::{Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use xo_core::rules::Rules;
use xo_core::solve::strong::{Record, Records};

/// A tier file's bytes: mapped, or in memory (version 1 files, tests, fuzzing).
#[derive(Debug)]
enum Bytes {
    Mapped(memmap2::Mmap),
    Held(Vec<u8>),
}

impl Bytes {
    fn get(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Held(v) => v,
        }
    }
}

/// Maps a tier file's bytes.
#[allow(unsafe_code)]
fn map(file: &std::fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is only read, through `&[u8]`. Its file is a regular file whose length was
    // checked against its header, and xo never writes a tier file in place: a tier is written to
    // a temporary file and renamed over the old one, which leaves the mapped file as it was. The
    // one hazard left is another program truncating the file while it is mapped (the process
    // would then get SIGBUS on reading the lost pages), as with every memory-mapped reader.
    unsafe { memmap2::Mmap::map(file) }
}

/// A tier file opened for lookups.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::{TierFile, TierWriter};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("tier-09.xot");
/// let ttt = parse_game("tictactoe").unwrap();
/// let mut w = TierWriter::create(&path, &ttt, 9, 3, "test").unwrap();
/// w.write_records(&[Record(0x8001), Record(0x4000), Record(0xc002)]).unwrap();
/// w.commit().unwrap();
/// let tier = TierFile::open(&path, Some(&ttt), Some(9)).unwrap();
/// assert_eq!(tier.get(2).unwrap(), Some(Record(0xc002)));
/// assert_eq!(tier.get(3).unwrap(), None);
/// assert_eq!(tier.records(0..2).unwrap(), [Record(0x8001), Record(0x4000)]);
/// ```
#[derive(Debug)]
pub struct TierFile {
    path: PathBuf,
    header: TierHeader,
    layout: Layout,
    bytes: Bytes,
    /// One bit per block: checked already.
    checked: Vec<AtomicU64>,
    /// The first damaged block a lookup met, plus one (0: none).
    damaged: AtomicU64,
}

impl TierFile {
    /// Opens the tier file `path`, checking its header (against `rules` and `tier` when given)
    /// and its length before mapping it.
    pub fn open(
        path: &Path,
        rules: Option<&Rules>,
        tier: Option<u32>,
    ) -> Result<TierFile, StoreError> {
        let (mut file, len) = open_regular(path)?;
        let bad = |error| StoreError::Tier { path: path.into(), error };
        let io = |e| StoreError::io("read", path, e);
        let mut head = Vec::with_capacity(16);
        (&mut file).take(16).read_to_end(&mut head).map_err(io)?;
        let end = head_len(&head).map_err(bad)?;
        if end > len {
            return Err(bad(DbError::Truncated { expected: end, found: len }));
        }
        (&mut file).take(end - 16).read_to_end(&mut head).map_err(io)?;
        let (header, layout) = decode_header(&head).map_err(bad)?;
        check(&header, &layout, rules, tier, len).map_err(bad)?;
        let bytes = if layout.version == 1 {
            // Version 1 has one checksum for all the records: read whole (its length is known).
            let mut all = head;
            file.take(len - end).read_to_end(&mut all).map_err(io)?;
            Bytes::Held(all)
        } else {
            Bytes::Mapped(map(&file).map_err(io)?)
        };
        TierFile::new(path.into(), header, layout, bytes)
    }

    /// A tier file from its bytes in memory (checked like [`TierFile::open`]); `path` names it
    /// in messages.
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::strong::Record;
    /// use xo_store::tier::{format::encode_tier, TierFile};
    /// let ttt = parse_game("tictactoe").unwrap();
    /// let mut bytes = encode_tier(&ttt, 1, &[Record(0x8001); 9], "test");
    /// assert!(TierFile::from_bytes("t", bytes.clone(), None, None).unwrap().check_all().is_ok());
    /// let at = bytes.len() - 2;
    /// bytes[at] ^= 1; // the compressed records
    /// let tier = TierFile::from_bytes("t", bytes, None, None).unwrap();
    /// assert!(tier.get(8).unwrap_err().to_string().contains("checksum"));
    /// ```
    pub fn from_bytes(
        path: impl Into<PathBuf>,
        bytes: Vec<u8>,
        rules: Option<&Rules>,
        tier: Option<u32>,
    ) -> Result<TierFile, StoreError> {
        let path = path.into();
        let bad = |error| StoreError::Tier { path: path.clone(), error };
        let (header, layout) = decode_header(&bytes).map_err(bad)?;
        check(&header, &layout, rules, tier, bytes.len() as u64).map_err(bad)?;
        TierFile::new(path, header, layout, Bytes::Held(bytes))
    }

    fn new(
        path: PathBuf,
        header: TierHeader,
        layout: Layout,
        bytes: Bytes,
    ) -> Result<TierFile, StoreError> {
        let words = layout.blocks().div_ceil(64) as usize;
        let tier = TierFile {
            path,
            header,
            layout,
            bytes,
            checked: (0..words).map(|_| AtomicU64::new(0)).collect(),
            damaged: AtomicU64::new(0),
        };
        if tier.layout.version == 1 {
            // One block: checked now, as version 1 files always were.
            tier.check_all()?;
        }
        Ok(tier)
    }

    /// What the file says about itself.
    pub fn header(&self) -> &TierHeader {
        &self.header
    }

    /// The format version of the file (1, 2 or 3).
    pub fn version(&self) -> u32 {
        self.layout.version
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Positions (records) in the tier.
    pub fn len(&self) -> u64 {
        self.layout.positions
    }

    /// Whether the tier holds no record.
    pub fn is_empty(&self) -> bool {
        self.layout.positions == 0
    }

    /// The file's length in bytes.
    pub fn bytes(&self) -> u64 {
        self.layout.file_len()
    }

    /// Checks block `b` unless it was checked before.
    fn check(&self, b: u64) -> Result<(), StoreError> {
        let (word, bit) = ((b / 64) as usize, 1u64 << (b % 64));
        let Some(seen) = self.checked.get(word) else { return Ok(()) };
        if seen.load(Ordering::Relaxed) & bit != 0 {
            return Ok(());
        }
        match check_block(self.bytes.get(), &self.layout, b) {
            Ok(()) => {
                seen.fetch_or(bit, Ordering::Relaxed);
                Ok(())
            }
            Err(error) => {
                let _ =
                    self.damaged.compare_exchange(0, b + 1, Ordering::Relaxed, Ordering::Relaxed);
                Err(StoreError::Tier { path: self.path.clone(), error })
            }
        }
    }

    /// Calls `f` with the records' bytes of block `b`, checked first (and inflated, version 3).
    fn with_block<T>(&self, b: u64, f: impl FnOnce(&[u8]) -> T) -> Result<T, StoreError> {
        self.check(b)?;
        let mut buffer = [0; 2 * BLOCK as usize];
        match block_bytes(self.bytes.get(), &self.layout, b, &mut buffer) {
            Ok(data) => Ok(f(data)),
            Err(error) => {
                let _ =
                    self.damaged.compare_exchange(0, b + 1, Ordering::Relaxed, Ordering::Relaxed);
                Err(StoreError::Tier { path: self.path.clone(), error })
            }
        }
    }

    /// Record `index` (`None` past the end), its block checked first.
    pub fn get(&self, index: u64) -> Result<Option<Record>, StoreError> {
        if index >= self.layout.positions {
            return Ok(None);
        }
        let b = index / self.layout.block;
        let at = ((index - b * self.layout.block) * 2) as usize;
        self.with_block(b, |data| {
            data.get(at..at + 2).map(|p| Record(u16::from_le_bytes([p[0], p[1]])))
        })
    }

    /// Records `range` (within the tier), their blocks checked first.
    pub fn records(&self, range: Range<u64>) -> Result<Vec<Record>, StoreError> {
        let range = range.start.min(self.len())..range.end.min(self.len());
        if range.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        for b in range.start / self.layout.block..=(range.end - 1) / self.layout.block {
            let first = b * self.layout.block;
            let from = (range.start.max(first) - first) as usize * 2;
            let to = (range.end.min(first + self.layout.block) - first) as usize * 2;
            self.with_block(b, |data| {
                let data = data.get(from..to).unwrap_or_default();
                out.extend(data.chunks_exact(2).map(|p| Record(u16::from_le_bytes([p[0], p[1]]))));
            })?;
        }
        Ok(out)
    }

    /// Checks every block (its checksum, and that it inflates to its records).
    pub fn check_all(&self) -> Result<(), StoreError> {
        (0..self.layout.blocks()).try_for_each(|b| self.with_block(b, |_| ()))
    }

    /// The damage a lookup through [`Records`] met (it answered "no record" there), if any.
    pub fn damage(&self) -> Result<(), StoreError> {
        match self.damaged.load(Ordering::Relaxed) {
            0 => Ok(()),
            b => self.with_block(b - 1, |_| ()),
        }
    }
}

impl Records for TierFile {
    /// The record at `index`; a damaged block gives `None`, and [`TierFile::damage`] says why.
    fn record(&self, index: u64) -> Option<Record> {
        self.get(index).ok().flatten()
    }
}

/// Writes one tier file: the records streamed in pieces are compressed block by block and held
/// (about a sixth of their bytes on the games measured), then the header, the block index and
/// the blocks are written through an [`AtomicFile`] when it commits.
#[derive(Debug)]
pub struct TierWriter {
    file: AtomicFile,
    head: (Rules, u32, String),
    blocks: Blocks,
    positions: u64,
    written: u64,
}

impl TierWriter {
    /// Starts tier `tier` of `rules` with `positions` records at `path`.
    pub fn create(
        path: &Path,
        rules: &Rules,
        tier: u32,
        positions: u64,
        made_by: &str,
    ) -> Result<TierWriter, StoreError> {
        let file = AtomicFile::create(path)?;
        let head = (rules.clone(), tier, made_by.to_string());
        Ok(TierWriter { file, head, blocks: Blocks::default(), positions, written: 0 })
    }

    /// Appends records' little-endian bytes (in pieces of any length).
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        self.blocks.update(bytes);
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Appends records.
    pub fn write_records(&mut self, records: &[Record]) -> Result<(), StoreError> {
        for piece in records.chunks(1 << 16) {
            self.write_bytes(&format::record_bytes(piece))?;
        }
        Ok(())
    }

    /// Writes the header, the block index and the blocks and commits the file (synced, renamed,
    /// folder synced), if every record was written.
    pub fn commit(self) -> Result<(), StoreError> {
        let TierWriter { mut file, head: (rules, tier, made_by), blocks, positions, written } =
            self;
        let path = file.output().to_path_buf();
        if written != 2 * positions {
            return Err(StoreError::Damaged {
                path,
                what: format!("{written} bytes of records written, not {}", 2 * positions),
            });
        }
        let (index, packed) = blocks.finish();
        let head = encode_head(&rules, tier, positions, packed.len() as u64, &made_by);
        for part in [&head, &index, &packed] {
            file.write_all(part).map_err(|e| StoreError::io("write", &path, e))?;
        }
        file.commit()
    }
}

/// Writes a whole tier file at once (what [`TierWriter`] makes from the same records).
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::tier::{format::encode_tier, write_tier};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("tier-01.xot");
/// let ttt = parse_game("tictactoe").unwrap();
/// let records = vec![Record(0x8003); 5000];
/// write_tier(&path, &ttt, 1, &records, "test").unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), encode_tier(&ttt, 1, &records, "test"));
/// ```
pub fn write_tier(
    path: &Path,
    rules: &Rules,
    tier: u32,
    records: &[Record],
    made_by: &str,
) -> Result<(), StoreError> {
    let mut w = TierWriter::create(path, rules, tier, records.len() as u64, made_by)?;
    w.write_records(records)?;
    w.commit()
}
