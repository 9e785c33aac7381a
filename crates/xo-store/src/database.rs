//! A strong database folder: one `tier-TT.xot` file per tier, a manifest naming the game
//! (`xo-db.toml`, the game's rules file), and while a solve writes it, a lock (`xo-db.lock`).
//!
//! A solve opens the folder with [`Writer::open`]: it takes the lock (a second solve into the
//! same folder fails at once, naming it), refuses a folder of another game (by its manifest, or
//! by its tiers' headers for folders made before manifests), writes the manifest, and removes the
//! temporary and part files a killed solve left. Queries open it with [`Database::open`] and map
//! the tiers they need.

use crate::file::{read_bounded, remove_stale_temporaries, AtomicFile, Lock};
use crate::tier::format::{decode_header, tier_file_name, DbError, VERSION};
use crate::tier::{write_tier, TierFile, TierWriter};
use crate::StoreError;
use std::io::Write;
use std::path::{Path, PathBuf};
use xo_core::budget::{Meter, Stopped};
use xo_core::query::{from_database, Answer, Game, InputError, Query, Question};
use xo_core::request::Request;
use xo_core::rules::Rules;
use xo_core::solve::strong::Record;
use xo_core::threads::Runner;

/// The manifest's file name.
pub const MANIFEST: &str = "xo-db.toml";
/// The lock's file name.
pub const LOCK: &str = "xo-db.lock";
/// The first line of every manifest.
const MANIFEST_HEAD: &str =
    "# xo strong database: the game of every tier-TT.xot file in this folder\n";

/// The file of tier `t` in `dir`.
///
/// ```
/// let p = xo_store::database::tier_path(std::path::Path::new("db"), 3);
/// assert_eq!(p, std::path::Path::new("db/tier-03.xot"));
/// ```
pub fn tier_path(dir: &Path, t: u32) -> PathBuf {
    dir.join(tier_file_name(t))
}

/// The manifest's text for `rules`: a comment line, then the game's rules file.
///
/// ```
/// let ttt = xo_core::rules::parse_game("tictactoe").unwrap();
/// let text = xo_store::database::manifest(&ttt);
/// assert_eq!(xo_core::rules::Rules::from_toml(&text).unwrap(), ttt);
/// ```
pub fn manifest(rules: &Rules) -> String {
    format!("{MANIFEST_HEAD}{}", rules.to_toml())
}

/// The game of the folder `dir`, from its manifest (`None` when it has none).
fn read_manifest(dir: &Path) -> Result<Option<Rules>, StoreError> {
    let path = dir.join(MANIFEST);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let text = read_bounded(&path, 1 << 20)?;
    let text = String::from_utf8(text)
        .map_err(|_| StoreError::Damaged { path: path.clone(), what: "not UTF-8 text".into() })?;
    Rules::from_toml(&text)
        .map(Some)
        .map_err(|e| StoreError::Damaged { path, what: format!("not a game's rules: {e}") })
}

/// The game of a folder without a manifest, from the first tier file in it that has a readable
/// header (`None` when none has).
fn game_of_tiers(dir: &Path, cells: u32) -> Option<Rules> {
    (0..=cells.max(64)).find_map(|t| {
        let path = tier_path(dir, t);
        let head = head_of(&path)?;
        decode_header(&head).ok().map(|(h, _)| h.rules)
    })
}

/// The first 64 KiB of a regular file.
fn head_of(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let (file, _) = crate::file::open_regular(path).ok()?;
    let mut head = Vec::new();
    file.take(1 << 16).read_to_end(&mut head).ok()?;
    Some(head)
}

/// A database folder open for a solve: locked, of the solve's game.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_store::database::Writer;
/// let dir = tempfile::tempdir().unwrap();
/// let db = dir.path().join("db");
/// let ttt = parse_game("tictactoe").unwrap();
/// let writer = Writer::open(&db, &ttt).unwrap();
/// assert!(Writer::open(&db, &ttt).unwrap_err().to_string().contains("xo-db.lock"));
/// drop(writer);
/// let other = parse_game("mnk:3,3,2").unwrap();
/// let err = Writer::open(&db, &other).unwrap_err().to_string();
/// assert!(err.contains("holds the database of tictactoe"), "{err}");
/// ```
#[derive(Debug)]
pub struct Writer {
    dir: PathBuf,
    rules: Rules,
    _lock: Lock,
}

impl Writer {
    /// Opens (creating it when absent) the folder `dir` for a strong solve of `rules`.
    pub fn open(dir: &Path, rules: &Rules) -> Result<Writer, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::io("create", dir, e))?;
        let lock = Lock::acquire(&dir.join(LOCK), dir)?;
        let found = match read_manifest(dir)? {
            Some(found) => Some(found),
            None => game_of_tiers(dir, rules.cells() as u32),
        };
        if let Some(found) = found.filter(|f| f != rules) {
            return Err(StoreError::OtherGame {
                dir: dir.into(),
                found: found.name().to_string(),
                expected: rules.name().to_string(),
            });
        }
        let path = dir.join(MANIFEST);
        if std::fs::symlink_metadata(&path).is_err() {
            let mut file = AtomicFile::create(&path)?;
            file.write_all(manifest(rules).as_bytes())
                .map_err(|e| StoreError::io("write", &path, e))?;
            file.commit()?;
        }
        for t in 0..=rules.cells() as u32 {
            remove_stale_temporaries(&tier_path(dir, t));
        }
        remove_stale_temporaries(&path);
        crate::part::remove_stale(dir);
        Ok(Writer { dir: dir.into(), rules: rules.clone(), _lock: lock })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Tier `t`, if a valid file of it with `positions` records is in the folder (every block
    /// checked): what a solve resumes from. Anything else (absent, damaged, of an older version,
    /// another game or size) is `None`: the tier is solved again.
    pub fn committed(&self, t: u32, positions: u64) -> Option<TierFile> {
        let tier = TierFile::open(&tier_path(&self.dir, t), Some(&self.rules), Some(t)).ok()?;
        let current = tier.header().positions == positions && tier.version() == VERSION;
        (current && tier.check_all().is_ok()).then_some(tier)
    }

    /// Writes tier `t`'s records.
    pub fn write(&self, t: u32, records: &[Record], made_by: &str) -> Result<(), StoreError> {
        write_tier(&tier_path(&self.dir, t), &self.rules, t, records, made_by)
    }

    /// Starts writing tier `t` of `positions` records in pieces.
    pub fn writer(&self, t: u32, positions: u64, made_by: &str) -> Result<TierWriter, StoreError> {
        TierWriter::create(&tier_path(&self.dir, t), &self.rules, t, positions, made_by)
    }

    /// Bytes of the tier files in the folder.
    pub fn bytes(&self) -> u64 {
        (0..=self.rules.cells() as u32)
            .filter_map(|t| std::fs::metadata(tier_path(&self.dir, t)).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// A database folder open for queries.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::Record;
/// use xo_store::database::{Database, Writer};
/// let dir = tempfile::tempdir().unwrap();
/// let ttt = parse_game("tictactoe").unwrap();
/// let w = Writer::open(dir.path(), &ttt).unwrap();
/// w.write(0, &[Record(0x8009)], "test").unwrap();
/// drop(w);
/// let db = Database::open(dir.path()).unwrap();
/// assert_eq!(db.rules(), &ttt);
/// assert_eq!(db.tier(0).unwrap().get(0).unwrap(), Some(Record(0x8009)));
/// assert!(db.tier(1).is_err());
/// ```
#[derive(Debug)]
pub struct Database {
    dir: PathBuf,
    rules: Rules,
}

impl Database {
    /// Opens the folder `dir`: its game from its manifest, or (folders made before manifests)
    /// from tier 0's header.
    pub fn open(dir: &Path) -> Result<Database, StoreError> {
        let rules = match read_manifest(dir)? {
            Some(rules) => rules,
            None => {
                let path = tier_path(dir, 0);
                let head =
                    head_of(&path).ok_or_else(|| match crate::file::open_regular(&path) {
                        Err(e) => e,
                        Ok(_) => {
                            StoreError::Tier { path: path.clone(), error: DbError::NotADatabase }
                        }
                    })?;
                decode_header(&head)
                    .map_err(|error| StoreError::Tier { path: path.clone(), error })?
                    .0
                    .rules
            }
        };
        Ok(Database { dir: dir.into(), rules })
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Tier `t`, mapped (its header, game and length checked; blocks as they are used).
    pub fn tier(&self, t: u32) -> Result<TierFile, StoreError> {
        TierFile::open(&tier_path(&self.dir, t), Some(&self.rules), Some(t))
    }

    /// Every tier, from the empty board to the full one.
    pub fn tiers(&self) -> Result<Vec<TierFile>, StoreError> {
        (0..=self.rules.cells() as u32).map(|t| self.tier(t)).collect()
    }

    /// Answers `position` (the empty board when `None`) as `xo solve` would, with the query (for
    /// rendering), within `meter` (its clock is read before each tier is opened): the two tiers
    /// are mapped, and only the blocks the answer reads (the position's, its children's) are
    /// read and checked, a few pages whatever the tiers' size, so no memory is reserved for
    /// them. Every front end that queries a database folder (`xo query`, Python's
    /// `xo.Database`) answers through here.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::{Answer, Question};
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::strong::Record;
    /// use xo_store::database::{Database, Writer};
    /// let dir = tempfile::tempdir().unwrap();
    /// let w = Writer::open(dir.path(), &parse_game("tictactoe").unwrap()).unwrap();
    /// w.write(0, &[Record(0x8009)], "test").unwrap();
    /// drop(w);
    /// let db = Database::open(dir.path()).unwrap();
    /// let (_, answer) = db.answer(None, Question::Value, &Meter::default()).unwrap();
    /// let Answer::Solve(report) = answer else { panic!() };
    /// assert_eq!(report.value, Some(xo_core::Value::Draw));
    /// assert!(db.answer(Some("XX"), Question::Value, &Meter::default()).is_err());
    /// ```
    pub fn answer(
        &self,
        position: Option<&str>,
        question: Question,
        meter: &Meter,
    ) -> Result<(Query, Answer), QueryError> {
        let mut request = Request::for_game(&Game::Placement(self.rules.clone())).asking(question);
        request.position = position.map(str::to_string);
        let query = request.prepare(&[], Runner::Pool)?;
        let plies = query.position().map_or(0, |p| p.plies());
        meter.check()?;
        let tier = self.tier(plies)?;
        let next = if needs_next(&query) {
            meter.check()?;
            Some(self.tier(plies + 1)?)
        } else {
            None
        };
        let answer = answer_from(&query, &tier, next.as_ref())?;
        Ok((query, answer))
    }
}

/// Whether a database answers `query` from the tier after its position's too: for every
/// move's value (an analysis), when a move is left.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{Game, Query, Question};
/// use xo_store::database::needs_next;
/// let ttt = || Game::parse("tictactoe").unwrap();
/// assert!(needs_next(&Request::for_game(&ttt()).asking(Question::Analysis { winning_only: false }).prepare(&[], Runner::Pool).unwrap()));
/// assert!(!needs_next(&Request::for_game(&ttt()).asking(Question::Value).prepare(&[], Runner::Pool).unwrap()));
/// ```
pub fn needs_next(query: &Query) -> bool {
    let plies = query.position().map_or(0, |p| p.plies()) as usize;
    let cells = query.rules().map_or(0, Rules::cells);
    matches!(query.question(), Question::Analysis { .. }) && plies < cells
}

/// The one way a strong database answers `query` (a question about its game): from `tier`,
/// its position's, and `next`, the tier after it where [`needs_next`] says so; both checked for
/// damage after the lookup, so that an answer read from a damaged block is never given. The
/// command, Python and the server all answer through here.
pub fn answer_from(
    query: &Query,
    tier: &TierFile,
    next: Option<&TierFile>,
) -> Result<Answer, StoreError> {
    let report = from_database(query, tier, next);
    tier.damage()?;
    if let Some(next) = next {
        next.damage()?;
    }
    Ok(Answer::Solve(report))
}

/// Why a database could not answer a position.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The position is not one of the database's game (malformed, or unreachable).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A tier file cannot be read or is damaged.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The budget ran out before the tiers were opened.
    #[error("{0}")]
    Stopped(#[from] Stopped),
}
