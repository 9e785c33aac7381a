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

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u128,
    lower: i8,
    upper: i8,
    used: bool,
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
    entries: Vec<Entry>,
    shift: u32,
}

impl Table {
    /// A table using at most `bytes` bytes (a power of two number of entries, at least 1024).
    pub fn with_bytes(bytes: usize) -> Table {
        let want = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let bits = usize::BITS - 1 - want.leading_zeros();
        Table { entries: vec![Entry::default(); 1 << bits], shift: 64 - bits }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    fn slot(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 96) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> self.shift) as usize
    }

    /// The bounds stored for `key`, if its slot still holds it.
    pub fn get(&self, key: u128) -> Option<Bounds> {
        let e = &self.entries[self.slot(key)];
        (e.used && e.key == key).then_some(Bounds { lower: e.lower, upper: e.upper })
    }

    /// Stores bounds for `key`, tightening what is already known of the same key.
    pub fn store(&mut self, key: u128, bounds: Bounds) {
        let slot = self.slot(key);
        let e = &mut self.entries[slot];
        if e.used && e.key == key {
            e.lower = e.lower.max(bounds.lower);
            e.upper = e.upper.min(bounds.upper);
        } else {
            *e = Entry { key, lower: bounds.lower, upper: bounds.upper, used: true };
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}
