//! Why bytes are not a usable tier: the one error of the format, in a file of its own so that the
//! parts of the format name it from here rather than from the module that re-exports them.

use super::constants::VERSION;

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
