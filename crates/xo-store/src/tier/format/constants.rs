//! The format's numbers (magic, version, block size, limits), in a file of their own so that the
//! parts of the format read them from here rather than from the module that re-exports them.

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
