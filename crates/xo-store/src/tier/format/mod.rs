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
//!
//! The module is split by concern: `header` writes and reads the header and the layout it gives,
//! `blocks` streams records into checked blocks, `encode` makes whole files, `decode` reads
//! blocks and records back, checked, and `constants` and `error` hold the format's numbers and
//! its error (leaves the others read, so that no part reads from this module). Everything is
//! re-exported here, so callers name it `xo_store::tier::format::X`.

mod blocks;
mod constants;
mod decode;
mod encode;
mod error;
mod header;

pub use blocks::{BlockCrcs, Blocks};
pub use constants::{BLOCK, LEVEL, MAGIC, MAX_HEADER, VERSION};
pub use decode::{block_bytes, check_block, decode_tier, record_at};
pub use encode::{encode_tier, encode_tier_v1, encode_tier_v2, record_bytes};
pub use error::DbError;
pub use header::{check, decode_header, encode_head, head_len, Layout, TierHeader};

/// The name of tier `t`'s file in a database folder.
///
/// ```
/// assert_eq!(xo_store::tier::format::tier_file_name(7), "tier-07.xot");
/// ```
pub fn tier_file_name(t: u32) -> String {
    format!("tier-{t:02}.xot")
}
