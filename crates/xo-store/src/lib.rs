//! Every file xo reads and writes, in one place: strong-database tiers ([`tier`], [`database`]),
//! opening books ([`book`]), stored nim-sequences ([`sequence`]), the journals of unfinished book builds ([`journal`]) and the part
//! files of the distributed solve ([`part`]).
//!
//! Each format has one reader and one writer, and they share the same rules ([`file`]): a read
//! accepts only regular files (a FIFO, a device or a folder is refused at once, never waited on)
//! and checks a file's size against its header before it reads or maps a byte more; a write goes
//! to a temporary file created exclusively (never through a symbolic link), synced, renamed over
//! the output (which must be a regular file or absent), then the folder is synced; a writer holds
//! a lock, so a second writer of the same output fails at once, naming the lock. Tiers are
//! memory-mapped and checked block by block, so a lookup touches a few pages, not the file.
//!
//! The encodings are plain functions of bytes (no I/O), so the fuzz targets and the "decoders
//! never panic" tests run the very code the readers run.

pub mod book;
pub mod database;
pub mod error;
pub mod file;
pub mod journal;
pub mod part;
pub mod sequence;
pub mod tier;

pub use error::StoreError;
