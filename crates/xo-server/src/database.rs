//! Strong databases served: every tier of a folder written by `xo solve GAME --strong --db DIR`,
//! opened through the store at start-up (each file's header, game and length checked, then
//! memory-mapped, and every block checked once), so a solve request on their game is a lookup in
//! a few pages instead of a search.

use std::path::{Path, PathBuf};
use xo_core::query::{Answer, Query, Question};
use xo_core::rules::Rules;
use xo_store::tier::TierFile;

/// One game's strong solution as the server holds it: every tier mapped once at start-up (where
/// [`xo_store::database::Database`] maps the tiers each query needs).
#[derive(Debug)]
pub struct ServedDatabase {
    rules: Rules,
    tiers: Vec<TierFile>,
    folder: PathBuf,
}

/// Why a database folder cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// A file cannot be read, or is not a valid tier of the database.
    #[error(transparent)]
    Store(#[from] xo_store::StoreError),
    /// The database is larger than the memory allowed for databases.
    #[error("{folder} needs {needed} MiB in memory, more than the {allowed} MiB allowed (xo serve --db-memory-mib)")]
    TooLarge {
        /// The folder.
        folder: PathBuf,
        /// MiB it needs.
        needed: u64,
        /// MiB allowed.
        allowed: u64,
    },
}

impl ServedDatabase {
    /// Opens every tier in `folder`, checking each file's header and length, within
    /// `memory_bytes` (the tiers' bytes, which the mapped files may bring into memory), then
    /// every block's checksum once (a damaged database is refused at start, not found by a
    /// request; the records stay in the files, not in this process's memory).
    pub fn load(folder: &Path, memory_bytes: u64) -> Result<ServedDatabase, DatabaseError> {
        let db = xo_store::database::Database::open(folder)?;
        let tiers = db.tiers()?;
        let bytes = tiers.iter().map(TierFile::bytes).fold(0u64, u64::saturating_add);
        if bytes > memory_bytes {
            return Err(DatabaseError::TooLarge {
                folder: folder.to_path_buf(),
                needed: bytes >> 20,
                allowed: memory_bytes >> 20,
            });
        }
        for tier in &tiers {
            tier.check_all()?;
        }
        Ok(ServedDatabase { rules: db.rules().clone(), tiers, folder: folder.to_path_buf() })
    }

    /// The game the database solves.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The folder it was loaded from.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Positions held.
    pub fn positions(&self) -> u64 {
        self.tiers.iter().map(TierFile::len).sum()
    }

    /// The answer to `query` from this database by the store's one way
    /// ([`xo_store::database::answer_from`]), when it is a solve question about its game
    /// (`None` otherwise); an error when a block the answer needs is damaged.
    pub fn answer(&self, query: &Query) -> Option<Result<Answer, xo_store::StoreError>> {
        if !matches!(
            query.question(),
            Question::Value | Question::Score | Question::Analysis { .. }
        ) || query.rules() != Some(&self.rules)
        {
            return None;
        }
        let plies = query.position()?.plies() as usize;
        let tier = self.tiers.get(plies)?;
        let next = match xo_store::database::needs_next(query) {
            true => Some(self.tiers.get(plies + 1)?),
            false => None,
        };
        Some(xo_store::database::answer_from(query, tier, next))
    }
}
