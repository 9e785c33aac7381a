//! Strong databases held in memory: every tier of a folder written by
//! `xo solve GAME --strong --db DIR`, read and checked once at start-up, so a solve request on
//! their game is a lookup instead of a search.

use std::path::{Path, PathBuf};
use xo_core::query::{from_database, Answer, Query, Question};
use xo_core::rules::Rules;
use xo_core::solve::strong::format::{decode_header, decode_tier, tier_file_name};
use xo_core::solve::strong::Record;

/// One game's strong solution, every tier in memory.
#[derive(Debug)]
pub struct Database {
    rules: Rules,
    tiers: Vec<Vec<Record>>,
    folder: PathBuf,
}

/// Why a database folder cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// A file cannot be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not a valid tier of the database.
    #[error("{path}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: xo_core::solve::strong::format::DbError,
    },
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

impl Database {
    /// Loads every tier in `folder`, checking each file, within `memory_bytes`.
    pub fn load(folder: &Path, memory_bytes: u64) -> Result<Database, DatabaseError> {
        let first = folder.join(tier_file_name(0));
        let head = std::fs::read(&first)
            .map_err(|source| DatabaseError::Io { path: first.clone(), source })?;
        let (header, _, _) = decode_header(&head)
            .map_err(|source| DatabaseError::Invalid { path: first.clone(), source })?;
        let rules = header.rules;
        let cells = rules.cells() as u32;
        // Check the total size from the files' lengths before reading them all.
        let mut bytes = 0u64;
        for t in 0..=cells {
            let path = folder.join(tier_file_name(t));
            let len = std::fs::metadata(&path)
                .map_err(|source| DatabaseError::Io { path: path.clone(), source })?
                .len();
            bytes = bytes.saturating_add(len);
        }
        if bytes > memory_bytes {
            return Err(DatabaseError::TooLarge {
                folder: folder.to_path_buf(),
                needed: bytes >> 20,
                allowed: memory_bytes >> 20,
            });
        }
        let mut tiers = Vec::with_capacity(cells as usize + 1);
        for t in 0..=cells {
            let path = folder.join(tier_file_name(t));
            let data = std::fs::read(&path)
                .map_err(|source| DatabaseError::Io { path: path.clone(), source })?;
            let (_, records) = decode_tier(&data, Some(&rules), Some(t))
                .map_err(|source| DatabaseError::Invalid { path: path.clone(), source })?;
            tiers.push(records);
        }
        Ok(Database { rules, tiers, folder: folder.to_path_buf() })
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
        self.tiers.iter().map(|t| t.len() as u64).sum()
    }

    /// The answer to `query` from this database, when it is a solve question about its game.
    pub fn answer(&self, query: &Query) -> Option<Answer> {
        if !matches!(
            query.question(),
            Question::Value | Question::Score | Question::Analysis { .. }
        ) || query.rules() != Some(&self.rules)
        {
            return None;
        }
        let plies = query.position()?.plies() as usize;
        let tier = self.tiers.get(plies)?;
        let next = self.tiers.get(plies + 1).map(Vec::as_slice);
        Some(Answer::Solve(from_database(query, tier, next)))
    }
}
