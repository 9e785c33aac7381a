//! The block writers: records' bytes, streamed in pieces of any length, cut into blocks of
//! [`BLOCK`] records and checked block by block (compressed for version 3, as CRCs of
//! uncompressed blocks for version 2).

use super::constants::{BLOCK, LEVEL};

/// Records' bytes, streamed in pieces of any length, compressed block by block: the block index
/// and the blocks of a version-3 file.
///
/// ```
/// use xo_store::tier::format::Blocks;
/// let mut blocks = Blocks::default();
/// blocks.update(&[1, 2, 3, 4]);
/// let (index, packed) = blocks.finish();
/// assert_eq!(index[..8], (packed.len() as u64).to_le_bytes());
/// assert_eq!(index[8..], crc32fast::hash(&packed).to_le_bytes());
/// ```
#[derive(Debug, Default)]
pub struct Blocks {
    pending: Vec<u8>,
    ends: Vec<u8>,
    crcs: Vec<u8>,
    packed: Vec<u8>,
}

impl Blocks {
    /// Takes in the next record bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        let size = 2 * BLOCK as usize;
        while !bytes.is_empty() {
            let take = (size - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == size {
                self.seal();
            }
        }
    }

    /// Compresses the pending block.
    fn seal(&mut self) {
        let block = miniz_oxide::deflate::compress_to_vec(&self.pending, LEVEL);
        self.pending.clear();
        self.packed.extend_from_slice(&block);
        self.ends.extend_from_slice(&(self.packed.len() as u64).to_le_bytes());
        self.crcs.extend_from_slice(&crc32fast::hash(&block).to_le_bytes());
    }

    /// The bytes of compressed blocks so far (the last, shorter block not yet compressed).
    pub fn packed_len(&self) -> u64 {
        self.packed.len() as u64
    }

    /// The block index and the compressed blocks (the last, shorter block's included).
    pub fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        if !self.pending.is_empty() {
            self.seal();
        }
        let mut index = self.ends;
        index.extend_from_slice(&self.crcs);
        (index, self.packed)
    }
}

/// The CRC-32 of each block of uncompressed records (version 2), from the records' bytes
/// streamed in pieces of any length.
///
/// ```
/// use xo_store::tier::format::BlockCrcs;
/// let mut crcs = BlockCrcs::default();
/// crcs.update(&[1, 2, 3, 4]);
/// assert_eq!(crcs.finish(), crc32fast::hash(&[1, 2, 3, 4]).to_le_bytes());
/// ```
#[derive(Debug, Default)]
pub struct BlockCrcs {
    table: Vec<u8>,
    current: crc32fast::Hasher,
    in_block: u64,
}

impl BlockCrcs {
    /// Takes in the next record bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        let size = 2 * BLOCK;
        while !bytes.is_empty() {
            let take = ((size - self.in_block) as usize).min(bytes.len());
            self.current.update(&bytes[..take]);
            self.in_block += take as u64;
            bytes = &bytes[take..];
            if self.in_block == size {
                let done = std::mem::take(&mut self.current).finalize();
                self.table.extend_from_slice(&done.to_le_bytes());
                self.in_block = 0;
            }
        }
    }

    /// The table of block CRCs (the last, shorter block's included).
    pub fn finish(mut self) -> Vec<u8> {
        if self.in_block > 0 {
            self.table.extend_from_slice(&self.current.finalize().to_le_bytes());
        }
        self.table
    }
}
