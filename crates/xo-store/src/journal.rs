//! The journal of an unfinished book build (`BOOK.partial`): every deepest-level score is
//! appended as it is found, so a stopped or killed build resumes from them.
//!
//! ```text
//! header: "XOBOOKP\0" | width u32 | height u32 | k u32 | depth u32
//! record: key u64 | score i8 | CRC-32 u32 (of key and score)
//! ```
//!
//! A journal is read record by record and every record that passes its checksum is kept: a
//! record cut by a kill, bytes flipped on disk or stray bytes from elsewhere are skipped (the
//! reader slides byte by byte until records check again), never a reason to throw the rest away.
//! The journal is its own lock: a build holds it while it runs, so two builds of one book never
//! write it at once.

use crate::file::Lock;
use crate::StoreError;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The first bytes of every journal.
pub const MAGIC: &[u8; 8] = b"XOBOOKP\0";
/// How often an appending build writes its buffered records out.
const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
/// Bytes of one record.
pub const RECORD: usize = 13;
/// The longest journal read (far more than any book's deepest level).
pub const MAX_JOURNAL: u64 = 4 << 30;

/// The header of the journal of a book of a `width` x `height` board, `k` in a row, `depth`
/// moves.
///
/// ```
/// assert_eq!(xo_store::journal::header(7, 6, 4, 8).len(), 24);
/// ```
pub fn header(width: u32, height: u32, k: u32, depth: u32) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    for v in [width, height, k, depth] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    h
}

/// The bytes of one record.
///
/// ```
/// use xo_store::journal::{header, record, scan};
/// let h = header(5, 4, 4, 6);
/// let mut bytes = h.clone();
/// bytes.extend_from_slice(&record(42, -3));
/// assert_eq!(scan(&bytes, &h).unwrap().scores, [(42, -3)]);
/// ```
pub fn record(key: u64, score: i8) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..8].copy_from_slice(&key.to_le_bytes());
    r[8] = score as u8;
    let crc = crc32fast::hash(&r[..9]);
    r[9..].copy_from_slice(&crc.to_le_bytes());
    r
}

/// What a journal holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalScan {
    /// The scores of every valid record, in the journal's order.
    pub scores: Vec<(u64, i8)>,
    /// Bytes skipped: damaged or cut records.
    pub skipped: u64,
    /// Where the last valid record ends (the header's end when there is none).
    pub valid_end: u64,
}

/// Reads a journal's bytes for the book whose journal header is `header`: every record that
/// passes its checksum (and holds a score a board of the header's size can have), skipping
/// damage. A journal of another book is an error (its message); an empty journal, or one cut
/// inside its header, holds nothing.
///
/// ```
/// use xo_store::journal::{header, record, scan};
/// let h = header(5, 4, 4, 6);
/// let mut bytes = h.clone();
/// bytes.extend_from_slice(&record(1, 2));
/// bytes.extend_from_slice(&record(3, 4)[..7]); // cut by a kill
/// bytes.extend_from_slice(&h); // a stray header
/// bytes.extend_from_slice(&record(5, -6));
/// let found = scan(&bytes, &h).unwrap();
/// assert_eq!((found.scores, found.skipped), (vec![(1, 2), (5, -6)], 7 + 24));
/// assert!(scan(b"XOBOOKP\0other", &h).is_err());
/// ```
pub fn scan(bytes: &[u8], header: &[u8]) -> Result<JournalScan, String> {
    if bytes.len() < header.len() && header.starts_with(bytes) {
        return Ok(JournalScan::default());
    }
    if !bytes.starts_with(header) {
        return Err("holds the scores of another book (another game or depth); remove it to \
                    start over"
            .into());
    }
    // The best score on a board of n cells is n / 2 + 1 (Pons' convention), less for the other.
    let cells = match header.get(8..16) {
        Some(w) => {
            let word =
                |i: usize| u64::from(u32::from_le_bytes([w[i], w[i + 1], w[i + 2], w[i + 3]]));
            word(0).saturating_mul(word(4))
        }
        None => 0,
    };
    let most = (cells / 2 + 1).min(127) as i8;
    let mut found = JournalScan { valid_end: header.len() as u64, ..JournalScan::default() };
    let mut at = header.len();
    while at < bytes.len() {
        let rest = &bytes[at..];
        let valid = rest.len() >= RECORD
            && crc32fast::hash(&rest[..9]).to_le_bytes() == rest[9..RECORD]
            && (rest[8] as i8).unsigned_abs() <= most.unsigned_abs();
        if valid {
            let key = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
            found.scores.push((key, rest[8] as i8));
            at += RECORD;
            found.valid_end = at as u64;
        } else {
            at += 1;
            found.skipped += 1;
        }
    }
    Ok(found)
}

/// A journal open for a build: locked, its valid records read, new ones appended. Dropped, it is
/// written out and kept (a build that fails after it started loses nothing); only
/// [`Journal::remove`] deletes it.
///
/// ```
/// use xo_store::journal::{header, Journal};
/// let dir = tempfile::tempdir().unwrap();
/// let (path, book) = (dir.path().join("b.book.partial"), dir.path().join("b.book"));
/// let h = header(5, 4, 4, 6);
/// let (journal, found) = Journal::open(&path, &h, &book).unwrap();
/// assert!(found.scores.is_empty());
/// assert!(Journal::open(&path, &h, &book).unwrap_err().to_string().contains("another xo"));
/// journal.append(7, 1);
/// journal.keep().unwrap();
/// let (journal, found) = Journal::open(&path, &h, &book).unwrap();
/// assert_eq!(found.scores, [(7, 1)]);
/// journal.append(8, -2);
/// drop(journal); // a build that fails: its records are written out and kept
/// let (journal, found) = Journal::open(&path, &h, &book).unwrap();
/// assert_eq!(found.scores, [(7, 1), (8, -2)]);
/// journal.remove();
/// assert!(!path.exists());
/// ```
#[derive(Debug)]
pub struct Journal {
    // Fields drop in this order: the records are written out before the lock is released.
    writer: Mutex<BufWriter<File>>,
    /// When the buffer was last written out: a long build writes it every few seconds, so a
    /// kill loses at most that much work.
    flushed: Mutex<std::time::Instant>,
    failed: AtomicBool,
    added: AtomicU64,
    lock: Lock,
}

impl Journal {
    /// Opens (or creates) the journal `path` of the book `output` whose journal header is
    /// `header`, taking its lock, and reads the scores it holds. Damaged bytes are skipped (and
    /// counted), and a damaged tail is cut so that new records follow the last valid one.
    pub fn open(
        path: &Path,
        header: &[u8],
        output: &Path,
    ) -> Result<(Journal, JournalScan), StoreError> {
        // Kept whatever happens to the build, unless it is removed on purpose.
        let lock = Lock::acquire(path, output)?.keep_on_drop();
        let io = |action, e| StoreError::io(action, path, e);
        let mut file = lock.file().try_clone().map_err(|e| io("read", e))?;
        let len = file.metadata().map_err(|e| io("read", e))?.len();
        if len > MAX_JOURNAL {
            return Err(StoreError::Damaged {
                path: path.into(),
                what: format!("{len} bytes: larger than any journal xo writes"),
            });
        }
        let mut bytes = Vec::with_capacity(len as usize);
        (&mut file).take(len).read_to_end(&mut bytes).map_err(|e| io("read", e))?;
        let found =
            scan(&bytes, header).map_err(|what| StoreError::Damaged { path: path.into(), what })?;
        let keep =
            if found.scores.is_empty() && bytes.len() < header.len() { 0 } else { found.valid_end };
        if keep < bytes.len() as u64 {
            file.set_len(keep).map_err(|e| io("write", e))?;
        }
        file.seek(SeekFrom::Start(keep)).map_err(|e| io("write", e))?;
        if keep == 0 {
            file.write_all(header).map_err(|e| io("write", e))?;
        }
        let journal = Journal {
            writer: Mutex::new(BufWriter::new(file)),
            flushed: Mutex::new(std::time::Instant::now()),
            failed: AtomicBool::new(false),
            added: AtomicU64::new(0),
            lock,
        };
        Ok((journal, found))
    }

    /// Appends a score (from any thread); a failed write is reported by [`Journal::keep`].
    pub fn append(&self, key: u64, score: i8) {
        self.added.fetch_add(1, Ordering::Relaxed);
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if w.write_all(&record(key, score)).is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        let mut flushed = self.flushed.lock().unwrap_or_else(|e| e.into_inner());
        if flushed.elapsed() >= FLUSH_EVERY {
            *flushed = std::time::Instant::now();
            if w.flush().is_err() {
                self.failed.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Scores appended since the journal was opened.
    pub fn added(&self) -> u64 {
        self.added.load(Ordering::Relaxed)
    }

    /// Writes out what is buffered.
    pub fn flush(&self) -> Result<(), StoreError> {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if w.flush().is_err() || self.failed.load(Ordering::Relaxed) {
            return Err(StoreError::io(
                "write",
                self.lock.path(),
                std::io::Error::other("a record was not written"),
            ));
        }
        Ok(())
    }

    /// Writes out what is buffered and releases the journal, leaving it for a later build.
    pub fn keep(self) -> Result<(), StoreError> {
        let flushed = self.flush();
        drop(self);
        flushed
    }

    /// Removes the journal (the book is written, or nothing was kept) and releases it.
    pub fn remove(self) {
        let Journal { lock, writer, .. } = self;
        drop(writer);
        lock.remove();
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        self.lock.path()
    }
}
