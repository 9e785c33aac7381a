//! The one error type of the store: what went wrong, and with which file. The binaries turn every
//! one of them into exit status 2 with its message.

use std::path::PathBuf;
use xo_core::solve::book::BookError;

use crate::tier::format::DbError;

/// Why a file cannot be read or written.
///
/// ```
/// use xo_store::StoreError;
/// let e = StoreError::NotRegular { path: "/dev/null".into(), kind: "a character device" };
/// assert_eq!(e.to_string(), "/dev/null is a character device, not a regular file");
/// ```
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The system refused an operation on a file.
    #[error("cannot {action} {}: {error}", path.display())]
    Io {
        /// What was being done: `read`, `write`, `create`, `rename`, ...
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A FIFO, a device, a folder or a symbolic link where a regular file is needed.
    #[error("{} is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead (`a FIFO`, `a directory`, ...).
        kind: &'static str,
    },
    /// A tier file that is not a usable tier of the database.
    #[error("{}: {error}", path.display())]
    Tier {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: DbError,
    },
    /// A book file that is not a usable opening book.
    #[error("{}: {error}", path.display())]
    Book {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: BookError,
    },
    /// Another file that is damaged or not what it should be (a journal, a part, a manifest).
    #[error("{}: {what}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Another process holds the lock of an output.
    #[error("{} is being written by another xo (it holds the lock {}); wait for it to finish", output.display(), lock.display())]
    Locked {
        /// The output being written.
        output: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// A database folder of another game.
    #[error("{} holds the database of {found}, not {expected}; give another folder", dir.display())]
    OtherGame {
        /// The folder.
        dir: PathBuf,
        /// The game it holds.
        found: String,
        /// The game being solved.
        expected: String,
    },
}

impl StoreError {
    /// An [`StoreError::Io`] error for `action` on `path`.
    ///
    /// ```
    /// use xo_store::StoreError;
    /// let e = StoreError::io("read", "x.book", std::io::ErrorKind::NotFound.into());
    /// assert!(e.to_string().starts_with("cannot read x.book: "));
    /// ```
    pub fn io(action: &'static str, path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        StoreError::Io { action, path: path.into(), error }
    }
}
