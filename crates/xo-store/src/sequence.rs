//! Stored nim-sequences: read bounded, written atomically, and the one xo ships (.007 to heap
//! 2^20, for Treblecross strips of a million cells). The encoding is `xo_core`'s
//! ([`StoredSequence::encode`], [`StoredSequence::decode`]).

use crate::file::{read_bounded, AtomicFile};
use crate::StoreError;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use xo_core::solve::grundy::StoredSequence;

/// The longest nim-sequence file read: 2^28 values of 16 bits.
pub const MAX_SEQUENCE_FILE: u64 = 1 << 29;

/// Reads and checks the nim-sequence file `path` (see [`StoredSequence::decode`]).
///
/// ```
/// use xo_core::games::octal::OctalGame;
/// use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("kayles.seq");
/// let kayles = "0.77".parse::<OctalGame>().unwrap();
/// let stored = StoredSequence::new(kayles.clone(), nim_sequence_plain(&kayles, 500));
/// xo_store::sequence::write(&path, &stored).unwrap();
/// assert_eq!(xo_store::sequence::read(&path).unwrap(), stored);
/// std::fs::write(&path, b"XONIMSEQ...").unwrap();
/// let err = xo_store::sequence::read(&path).unwrap_err().to_string();
/// assert!(err.contains("kayles.seq") && err.contains("damaged"), "{err}");
/// ```
pub fn read(path: &Path) -> Result<StoredSequence, StoreError> {
    let bytes = read_bounded(path, MAX_SEQUENCE_FILE)?;
    StoredSequence::decode(&bytes)
        .map_err(|e| StoreError::Damaged { path: path.into(), what: e.to_string() })
}

/// Writes `stored` to `path` atomically (a regular file or a new one), returning its bytes.
pub fn write(path: &Path, stored: &StoredSequence) -> Result<u64, StoreError> {
    let bytes = stored.encode();
    let mut file = AtomicFile::create(path)?;
    file.write_all(&bytes).map_err(|e| StoreError::io("write", path, e))?;
    file.commit()?;
    Ok(bytes.len() as u64)
}

/// The nim-sequence of .007 (Treblecross) to heap 2^20, computed by xo's engine with
/// `xo grundy treblecross --upto 1048576 --save crates/xo-store/sequences/dot007.seq` and checked
/// against the engine (tests/shipped_sequence.rs: to 2^16, its slow test to 2^18) and to its end
/// by the Grundy bench (`cargo bench -p xo-core --bench grundy`).
const DOT007: &[u8] = include_bytes!("../sequences/dot007.seq");

/// The .007 values xo ships, decoded and checked at the first call (a few milliseconds), then
/// shared. [`crate::book::prepare`] hands them to Treblecross queries unless told `no_book`.
///
/// ```
/// let dot007 = xo_store::sequence::shipped_dot007().unwrap();
/// assert_eq!(dot007.game().to_string(), "0.007");
/// assert_eq!(dot007.values().len(), (1 << 20) + 1);
/// ```
pub fn shipped_dot007() -> Option<Arc<StoredSequence>> {
    static DOT: OnceLock<Option<Arc<StoredSequence>>> = OnceLock::new();
    DOT.get_or_init(|| {
        // Checked by the tests: a damaged copy fails them, and here it would only mean the values
        // are computed, never a wrong answer.
        StoredSequence::decode(DOT007).ok().map(Arc::new)
    })
    .clone()
}

/// The stored values a query of `game` takes, unless `no_book`: xo's .007 for Treblecross and
/// .007 heaps; none for other games.
///
/// ```
/// use xo_core::query::Game;
/// use xo_store::sequence::for_game;
/// assert!(for_game(&Game::parse("treblecross:100").unwrap(), false).is_some());
/// assert!(for_game(&Game::parse("treblecross:100").unwrap(), true).is_none());
/// assert!(for_game(&Game::parse("kayles").unwrap(), false).is_none());
/// ```
pub fn for_game(game: &xo_core::query::Game, no_book: bool) -> Option<Arc<StoredSequence>> {
    if no_book || game.octal() != Some(xo_core::games::octal::OctalGame::dot007()) {
        return None;
    }
    shipped_dot007()
}
