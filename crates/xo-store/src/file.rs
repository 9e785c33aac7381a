//! The rules every file of the store is read and written by: reads accept only regular files and
//! never block on one (a FIFO named like a tier is refused, not waited on); outputs replace only
//! regular files, through a temporary file created exclusively (a symbolic link planted at its
//! name is never followed), synced, renamed, and the folder synced; writers hold a lock file, so
//! a second writer of the same output fails at once, naming the lock.
//!
//! On Unix and on Windows alike; where the two differ the code is gated (`cfg(unix)`,
//! `cfg(windows)`) and each gate says what Windows does instead: it has no FIFO in a folder to
//! open without waiting and no way to sync a folder, and there a lock file cannot be deleted
//! while anyone has it open, which stands in for Unix's check of the locked file's identity.

#[cfg(not(any(unix, windows)))]
compile_error!("xo-store's file rules are written for Unix and Windows");

use crate::StoreError;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// What a file that is not a regular file is, in words.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    // Windows' other kinds (a device, a pipe) have no name of their own in std.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_char_device() {
            return "a character device";
        } else if t.is_block_device() {
            return "a block device";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading without waiting on it. On Unix, non-blocking (`O_NONBLOCK`): a FIFO
/// put at the name after its check is not waited on for a writer, and is then refused by the
/// check of the open file. Windows puts no FIFO in a folder (named pipes have a namespace of
/// their own, `\\.\pipe\`) and opening one never waits (a busy pipe fails at once), so a plain
/// open, checked the same way.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(windows)]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Opens `path` for reading if it is a regular file (a symbolic link to one is followed),
/// returning it with its length. FIFOs, devices, sockets and folders are refused without
/// waiting: the file is opened non-blocking and checked before anything is read.
///
/// ```
/// use xo_store::file::open_regular;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a");
/// std::fs::write(&path, b"abc").unwrap();
/// assert_eq!(open_regular(&path).unwrap().1, 3);
/// let err = open_regular(dir.path()).unwrap_err().to_string();
/// assert!(err.ends_with("is a directory, not a regular file"), "{err}");
/// #[cfg(unix)]
/// assert!(open_regular(std::path::Path::new("/dev/zero")).is_err());
/// ```
pub fn open_regular(path: &Path) -> Result<(File, u64), StoreError> {
    // Refused by its name first, so that opening it has no effect (a device, a FIFO)...
    let meta = std::fs::metadata(path).map_err(|e| StoreError::io("read", path, e))?;
    if !meta.is_file() {
        return Err(StoreError::NotRegular { path: path.into(), kind: kind(&meta) });
    }
    // ...then checked again once open (it may have been replaced), never blocking meanwhile.
    let file = open_without_waiting(path).map_err(|e| StoreError::io("read", path, e))?;
    let meta = file.metadata().map_err(|e| StoreError::io("read", path, e))?;
    if !meta.is_file() {
        return Err(StoreError::NotRegular { path: path.into(), kind: kind(&meta) });
    }
    Ok((file, meta.len()))
}

/// Reads a whole regular file of at most `max` bytes (longer ones are refused before any byte
/// is read).
///
/// ```
/// use xo_store::file::read_bounded;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("a");
/// std::fs::write(&path, b"abc").unwrap();
/// assert_eq!(read_bounded(&path, 3).unwrap(), b"abc");
/// assert!(read_bounded(&path, 2).unwrap_err().to_string().contains("longer than"));
/// ```
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, StoreError> {
    let (file, len) = open_regular(path)?;
    if len > max {
        return Err(StoreError::Damaged {
            path: path.into(),
            what: format!("{len} bytes, longer than the {max} such a file can be"),
        });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max).read_to_end(&mut bytes).map_err(|e| StoreError::io("read", path, e))?;
    Ok(bytes)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks that `path` may be written as an output: it is absent (in an existing folder) or a
/// regular file. Devices, FIFOs, folders and symbolic links are refused, so that writing an
/// output never replaces anything but a file of its own kind.
///
/// ```
/// use xo_store::file::check_output;
/// let dir = tempfile::tempdir().unwrap();
/// assert!(check_output(&dir.path().join("new.book")).is_ok());
/// assert!(check_output(dir.path()).is_err());
/// #[cfg(unix)]
/// assert!(check_output(std::path::Path::new("/dev/null")).is_err());
/// assert!(check_output(&dir.path().join("no/such/folder.book")).is_err());
/// ```
pub fn check_output(path: &Path) -> Result<(), StoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(StoreError::NotRegular { path: path.into(), kind: kind(&meta) }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = folder_of(path);
            match std::fs::metadata(folder) {
                Ok(meta) if meta.is_dir() => Ok(()),
                Ok(_) => {
                    Err(StoreError::io("write", path, std::io::ErrorKind::NotADirectory.into()))
                }
                Err(e) => Err(StoreError::io("write", path, e)),
            }
        }
        Err(e) => Err(StoreError::io("write", path, e)),
    }
}

/// Syncs a folder, so that a rename in it survives a crash (file systems that cannot sync a
/// folder are left as they are).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// xo_store::file::sync_folder(dir.path()).unwrap();
/// ```
pub fn sync_folder(folder: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    let synced = File::open(folder).and_then(|f| f.sync_all());
    // Windows: not done (std opens no folder as a file there, and Windows documents no flush of
    // a folder's entries); a rename is as durable as NTFS makes it (its log keeps the rename
    // whole, so a crash soon after it may leave the old file, never half of one).
    #[cfg(windows)]
    let synced: std::io::Result<()> = {
        let _ = folder;
        Ok(())
    };
    match synced {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        other => other.map_err(|e| StoreError::io("sync", folder, e)),
    }
}

/// The suffix of every temporary file: `NAME.PID.N.tmp` beside the output `NAME`.
const TMP: &str = ".tmp";

/// Whether `name` is a temporary file of the output named `output`, as [`AtomicFile`] names
/// them (also the `NAME.tmp` and `NAME.xot.tmp` of older versions).
///
/// ```
/// use xo_store::file::is_temporary_of;
/// assert!(is_temporary_of("tier-09.xot.4711.0.tmp", "tier-09.xot"));
/// assert!(is_temporary_of("tier-09.xot.tmp", "tier-09.xot"));
/// assert!(!is_temporary_of("tier-09.xot", "tier-09.xot"));
/// assert!(!is_temporary_of("tier-09.xot.x.tmp", "tier-09.xot"));
/// ```
pub fn is_temporary_of(name: &str, output: &str) -> bool {
    let Some(rest) = name.strip_prefix(output).and_then(|r| r.strip_suffix(TMP)) else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    rest.is_empty()
        || rest
            .strip_prefix('.')
            .and_then(|r| r.split_once('.'))
            .is_some_and(|(pid, n)| digits(pid) && digits(n))
}

/// Removes the temporary files of `output` that a killed writer left beside it (call it while
/// holding the output's lock). Symbolic links at those names are removed, never followed.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// for name in ["b.book", "b.book.12.0.tmp", "b.book.tmp", "c.book.12.0.tmp"] {
///     std::fs::write(dir.path().join(name), b"").unwrap();
/// }
/// xo_store::file::remove_stale_temporaries(&dir.path().join("b.book"));
/// let mut left: Vec<_> = std::fs::read_dir(dir.path()).unwrap()
///     .map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
/// left.sort();
/// assert_eq!(left, ["b.book", "c.book.12.0.tmp"]);
/// ```
pub fn remove_stale_temporaries(output: &Path) {
    let Some(name) = output.file_name().and_then(|n| n.to_str()) else { return };
    let Ok(entries) = std::fs::read_dir(folder_of(output)) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(|n| is_temporary_of(n, name)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An output being written: a temporary file beside it, created exclusively, which
/// [`AtomicFile::commit`] syncs and renames over the output. Dropped without a commit, the
/// temporary file is removed and the output is untouched.
///
/// ```
/// use std::io::Write;
/// use xo_store::file::AtomicFile;
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("out.book");
/// let mut f = AtomicFile::create(&out).unwrap();
/// f.write_all(b"hello").unwrap();
/// f.commit().unwrap();
/// assert_eq!(std::fs::read(&out).unwrap(), b"hello");
/// drop(AtomicFile::create(&out).unwrap()); // not committed: nothing changes
/// assert_eq!(std::fs::read(&out).unwrap(), b"hello");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
#[derive(Debug)]
pub struct AtomicFile {
    output: PathBuf,
    temporary: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `output` (absent or a regular file, see [`check_output`]).
    pub fn create(output: &Path) -> Result<AtomicFile, StoreError> {
        check_output(output)?;
        let name = output.file_name().ok_or_else(|| {
            StoreError::io("write", output, std::io::ErrorKind::InvalidInput.into())
        })?;
        let pid = std::process::id();
        for n in 0u32.. {
            let mut tmp = name.to_owned();
            tmp.push(format!(".{pid}.{n}{TMP}"));
            let temporary = output.with_file_name(tmp);
            // O_EXCL (CREATE_NEW on Windows): fails on anything already there, a symbolic link
            // included.
            match OpenOptions::new().write(true).create_new(true).open(&temporary) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        output: output.into(),
                        temporary,
                        file: Some(BufWriter::with_capacity(1 << 20, file)),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 64 => continue,
                Err(e) => return Err(StoreError::io("create", temporary, e)),
            }
        }
        unreachable!("the loop returns")
    }

    /// The file being written.
    pub fn output(&self) -> &Path {
        &self.output
    }

    /// Syncs the temporary file, renames it over the output (still a regular file or absent) and
    /// syncs the folder.
    pub fn commit(mut self) -> Result<(), StoreError> {
        let writer = self.file.take().expect("present until committed or dropped");
        let tmp = self.temporary.clone();
        let result = (|| {
            let file =
                writer.into_inner().map_err(|e| StoreError::io("write", &tmp, e.into_error()))?;
            file.sync_all().map_err(|e| StoreError::io("write", &tmp, e))?;
            drop(file);
            check_output(&self.output)?;
            std::fs::rename(&tmp, &self.output)
                .map_err(|e| StoreError::io("write", &self.output, e))?;
            sync_folder(folder_of(&self.output))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("present until committed").write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.file.as_mut().expect("present until committed").write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("present until committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// A lock file held while an output is written: taken without waiting (a second writer fails at
/// once with [`StoreError::Locked`]), released and removed when dropped (or kept, after
/// [`Lock::keep_on_drop`]: a journal). A lock file left by a killed process is not held (the
/// system releases it with the process) and is taken over.
///
/// On Windows the lock is mandatory (`LockFileEx`: other handles can neither read nor write the
/// file while it is held), and every holder and would-be holder opens the file without
/// `FILE_SHARE_DELETE`, so that no one can remove or rename a lock file someone has open; it is
/// removed after it is released and closed, and only if no one else has opened it meanwhile.
///
/// ```
/// use xo_store::file::Lock;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("out.lock");
/// let held = Lock::acquire(&path, dir.path()).unwrap();
/// let err = Lock::acquire(&path, dir.path()).unwrap_err().to_string();
/// assert!(err.contains("another xo") && err.contains("out.lock"), "{err}");
/// #[cfg(windows)] // no one deletes a lock file that someone has open
/// assert!(std::fs::remove_file(&path).is_err());
/// drop(held);
/// assert!(!path.exists());
/// assert!(Lock::acquire(&path, dir.path()).is_ok());
/// ```
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    /// Present until dropped (Windows closes it before removing the file).
    file: Option<File>,
    remove: bool,
}

/// Opens (or creates) the lock file `path` for reading and writing, never through a symbolic
/// link and never waiting: `O_NOFOLLOW | O_NONBLOCK` on Unix.
#[cfg(unix)]
fn open_lock(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

/// Opens (or creates) the lock file `path` for reading and writing, never through a symbolic
/// link: on Windows a link (or junction) at the name is opened itself
/// (`FILE_FLAG_OPEN_REPARSE_POINT`), and then refused as not a regular file; nothing to wait on
/// (see [`open_without_waiting`]). Shared for reading and writing but not for deleting, so the
/// file cannot be removed or renamed while anyone has it open.
#[cfg(windows)]
fn open_lock(path: &Path) -> std::io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    // winnt.h / winbase.h.
    const FILE_SHARE_READ: u32 = 0x1;
    const FILE_SHARE_WRITE: u32 = 0x2;
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)
}

/// Whether the name `path` still leads to the file opened and locked (of metadata `meta`): the
/// holder before may have removed it after it was opened here. On Unix, the device and inode
/// numbers under the name now (a symbolic link is not followed) against the open file's.
#[cfg(unix)]
fn still_named(path: &Path, meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(path) {
        Ok(now) => (now.dev(), now.ino()) == (meta.dev(), meta.ino()),
        Err(_) => false,
    }
}

/// Whether the name `path` still leads to the file opened and locked. On Windows it always
/// does: every opener of a lock file denies deleting it ([`open_lock`]), so the file held open
/// here was neither removed nor renamed since it was opened (std has no stable way there to
/// read a file's identity to compare).
#[cfg(windows)]
fn still_named(_path: &Path, _meta: &Metadata) -> bool {
    true
}

impl Lock {
    /// Takes the lock file `path` (created when absent; never through a symbolic link) for
    /// writing `output`.
    pub fn acquire(path: &Path, output: &Path) -> Result<Lock, StoreError> {
        for _ in 0..16 {
            let file = open_lock(path).map_err(|e| match std::fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_file() => {
                    StoreError::NotRegular { path: path.into(), kind: kind(&meta) }
                }
                _ => StoreError::io("create", path, e),
            })?;
            let meta = file.metadata().map_err(|e| StoreError::io("read", path, e))?;
            if !meta.is_file() {
                return Err(StoreError::NotRegular { path: path.into(), kind: kind(&meta) });
            }
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Locked { output: output.into(), lock: path.into() })
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(StoreError::io("lock", path, e))
                }
            }
            // The holder before us may have removed the file after we opened it: the lock is
            // ours only if the name still leads to the file we locked.
            if still_named(path, &meta) {
                return Ok(Lock { path: path.into(), file: Some(file), remove: true });
            }
        }
        Err(StoreError::Locked { output: output.into(), lock: path.into() })
    }

    /// The locked file (a journal is its own lock).
    pub fn file(&self) -> &File {
        self.file.as_ref().expect("present until dropped")
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same lock, whose file stays in place when it is dropped (a journal, which holds what
    /// a later run resumes from, is removed only by [`Lock::remove`]).
    ///
    /// ```
    /// use xo_store::file::Lock;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("j.partial");
    /// drop(Lock::acquire(&path, dir.path()).unwrap().keep_on_drop());
    /// assert!(path.exists());
    /// Lock::acquire(&path, dir.path()).unwrap().remove();
    /// assert!(!path.exists());
    /// ```
    pub fn keep_on_drop(mut self) -> Lock {
        self.remove = false;
        self
    }

    /// Removes the lock file, then releases the lock.
    pub fn remove(mut self) {
        self.remove = true;
    }
}

impl Drop for Lock {
    #[cfg(unix)]
    fn drop(&mut self) {
        // Removed while still held, so no one takes a lock on a file about to vanish.
        if self.remove {
            let _ = std::fs::remove_file(&self.path);
        }
        if let Some(file) = self.file.take() {
            let _ = file.unlock();
        }
    }

    #[cfg(windows)]
    fn drop(&mut self) {
        // Released and closed first (a file open here cannot be deleted, this handle included);
        // then removed, which fails, leaving the file, if another xo has opened it meanwhile:
        // it is that one's lock now.
        if let Some(file) = self.file.take() {
            let _ = file.unlock();
        }
        if self.remove {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
