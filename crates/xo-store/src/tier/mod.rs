//! One tier file of a strong database: read memory-mapped, each block of records checked against
//! its CRC the first time a lookup uses it (so a query touches a few pages, not two whole tiers),
//! and written by one streaming writer (the single-process and the distributed solve alike, so
//! their files are the same bytes).

pub mod format;

use crate::file::{open_regular, AtomicFile};
use crate::StoreError;
use format::{
    check, check_block, decode_header, encode_head, head_len, record_at, BlockCrcs, DbError,
    Layout, TierHeader,
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
    /// let at = bytes.len() - 6;
    /// bytes[at] ^= 1; // a record
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

    /// The format version of the file (1 or 2).
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

    /// Record `index` (`None` past the end), its block checked first.
    pub fn get(&self, index: u64) -> Result<Option<Record>, StoreError> {
        if index >= self.layout.positions {
            return Ok(None);
        }
        self.check(index / self.layout.block)?;
        Ok(record_at(self.bytes.get(), &self.layout, index))
    }

    /// Records `range` (within the tier), their blocks checked first.
    pub fn records(&self, range: Range<u64>) -> Result<Vec<Record>, StoreError> {
        let range = range.start.min(self.len())..range.end.min(self.len());
        if range.is_empty() {
            return Ok(Vec::new());
        }
        for b in range.start / self.layout.block..=(range.end - 1) / self.layout.block {
            self.check(b)?;
        }
        let bytes = self.bytes.get();
        Ok(range.filter_map(|i| record_at(bytes, &self.layout, i)).collect())
    }

    /// Checks every block.
    pub fn check_all(&self) -> Result<(), StoreError> {
        (0..self.layout.blocks()).try_for_each(|b| self.check(b))
    }

    /// The damage a lookup through [`Records`] met (it answered "no record" there), if any.
    pub fn damage(&self) -> Result<(), StoreError> {
        match self.damaged.load(Ordering::Relaxed) {
            0 => Ok(()),
            b => self.check(b - 1),
        }
    }
}

impl Records for TierFile {
    /// The record at `index`; a damaged block gives `None`, and [`TierFile::damage`] says why.
    fn record(&self, index: u64) -> Option<Record> {
        self.get(index).ok().flatten()
    }
}

/// Writes one tier file: the header, the records streamed in pieces, then their block CRCs,
/// through an [`AtomicFile`].
#[derive(Debug)]
pub struct TierWriter {
    file: AtomicFile,
    crcs: BlockCrcs,
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
        let mut file = AtomicFile::create(path)?;
        file.write_all(&encode_head(rules, tier, positions, made_by))
            .map_err(|e| StoreError::io("write", path, e))?;
        Ok(TierWriter { file, crcs: BlockCrcs::default(), positions, written: 0 })
    }

    /// Appends records' little-endian bytes (in pieces of any length).
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        self.crcs.update(bytes);
        self.written += bytes.len() as u64;
        let path = self.file.output().to_path_buf();
        self.file.write_all(bytes).map_err(|e| StoreError::io("write", path, e))
    }

    /// Appends records.
    pub fn write_records(&mut self, records: &[Record]) -> Result<(), StoreError> {
        for piece in records.chunks(1 << 16) {
            self.write_bytes(&format::record_bytes(piece))?;
        }
        Ok(())
    }

    /// Writes the block CRCs and commits the file (synced, renamed, folder synced), if every
    /// record was written.
    pub fn commit(mut self) -> Result<(), StoreError> {
        let path = self.file.output().to_path_buf();
        if self.written != 2 * self.positions {
            return Err(StoreError::Damaged {
                path,
                what: format!(
                    "{} bytes of records written, not {}",
                    self.written,
                    2 * self.positions
                ),
            });
        }
        let table = std::mem::take(&mut self.crcs).finish();
        self.file.write_all(&table).map_err(|e| StoreError::io("write", &path, e))?;
        self.file.commit()
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
