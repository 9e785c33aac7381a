//! A bounded transposition table: a fixed array of entries, so memory never grows past the size
//! it was given, whatever the search does.

/// What the table knows of a position's score: `lower <= score <= upper`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// A lower bound on the score.
    pub lower: i8,
    /// An upper bound on the score.
    pub upper: i8,
}

/// A transposition table of score bounds keyed by canonical position keys. A new position
/// replaces whatever occupied its slot.
///
/// ```
/// use xo_core::solve::table::{Bounds, Table};
/// let mut t = Table::with_bytes(1 << 16);
/// t.store(42, Bounds { lower: -3, upper: 5 });
/// t.store(42, Bounds { lower: 0, upper: 9 });
/// assert_eq!(t.get(42), Some(Bounds { lower: 0, upper: 5 }));
/// assert_eq!(t.get(7), None);
/// ```
#[derive(Debug, Clone)]
pub struct Table {
    /// Stored keys plus one (0 marks an empty slot; no valid key is `u128::MAX`). Zero-filled
    /// vectors come from zeroed pages, so untouched parts of a large table cost no memory.
    keys: Vec<u128>,
    /// Lower and upper bound of each slot.
    bounds: Vec<[i8; 2]>,
    shift: u32,
}

/// Bytes per slot.
const SLOT_BYTES: usize = std::mem::size_of::<u128>() + 2;

impl Table {
    /// A table using at most `bytes` bytes (a power of two number of entries, at least 1024).
    pub fn with_bytes(bytes: usize) -> Table {
        let want = (bytes / SLOT_BYTES).max(1024);
        let bits = usize::BITS - 1 - want.leading_zeros();
        Table { keys: vec![0; 1 << bits], bounds: vec![[0, 0]; 1 << bits], shift: 64 - bits }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.keys.len() * SLOT_BYTES
    }

    fn slot(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 96) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> self.shift) as usize
    }

    /// The bounds stored for `key`, if its slot still holds it.
    pub fn get(&self, key: u128) -> Option<Bounds> {
        let slot = self.slot(key);
        let [lower, upper] = self.bounds[slot];
        (self.keys[slot] == key.wrapping_add(1)).then_some(Bounds { lower, upper })
    }

    /// Stores bounds for `key`, tightening what is already known of the same key.
    pub fn store(&mut self, key: u128, bounds: Bounds) {
        let slot = self.slot(key);
        let stored = key.wrapping_add(1);
        let b = &mut self.bounds[slot];
        if self.keys[slot] == stored {
            b[0] = b[0].max(bounds.lower);
            b[1] = b[1].min(bounds.upper);
        } else {
            self.keys[slot] = stored;
            *b = [bounds.lower, bounds.upper];
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.keys.fill(0);
    }
}
