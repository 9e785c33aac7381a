//! `xo book GAME --depth D`: builds a gravity game's opening book (the exact score of every
//! position of the first D moves) into one checked file; `--book FILE` on `solve`, `batch
//! connect4-score` and `serve` loads it, and the gravity engine stops at the positions it holds.

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::resolve_game;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use xo_core::games::gravity::GravityBoard;
use xo_core::query::Game;
use xo_core::solve::book::Book;

/// The longest book file read (a book of 7x6 to depth 12 is about 100 MB).
const MAX_BOOK: u64 = 4 << 30;

/// Arguments of `xo book`.
#[derive(Debug, Clone, clap::Args)]
pub struct BookArgs {
    /// The gravity game (connect4, connect:W,H,K).
    pub game: String,
    /// Moves the book covers: every position of the first D moves gets its exact score.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=63))]
    pub depth: u32,
    /// The file to write (default: GAME.book, with ':' and ',' as '-').
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The budget of the build.
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// The board of a gravity game named `game`.
fn board_of(game: &str) -> Result<(String, GravityBoard)> {
    let Game::Placement(rules) = resolve_game(game, None)? else {
        bail!("opening books are for gravity games (connect4, connect:W,H,K), not octal games");
    };
    if !rules.gravity {
        bail!(
            "opening books are for gravity games (connect4, connect:W,H,K); {} has no gravity",
            rules.name
        );
    }
    let board = GravityBoard::from_rules(&rules).with_context(|| {
        format!(
            "{}: books keep 64-bit keys, so they are for boards of the 64-bit layout",
            rules.name
        )
    })?;
    Ok((rules.name.clone(), board))
}

/// Builds the book and writes it (atomically: a temporary file, then a rename).
pub fn run(args: &BookArgs, out: &mut impl Write) -> Result<()> {
    let (name, board) = board_of(&args.game)?;
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.book", name.replace([':', ','], "-"))));
    let (meter, bar) = args.budget.meter();
    let started = Instant::now();
    let table = xo_core::solve::gravity::GravitySolver::suggested_table_bytes(
        &board,
        args.depth,
        args.budget.budget().memory_bytes / cores(),
    );
    // The deepest level's scores are kept as they are found, so a stopped build resumes.
    let partial = partial_path(&path);
    let header = partial_header(&board, args.depth);
    let known = read_partial(&partial, &header)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&partial)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    let writer = std::sync::Mutex::new(std::io::BufWriter::new(file));
    {
        let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
        if w.get_ref().metadata().map(|m| m.len()).unwrap_or(0) == 0 {
            w.write_all(&header).with_context(|| format!("cannot write {}", partial.display()))?;
        }
    }
    let failed = std::sync::atomic::AtomicBool::new(false);
    let new_scores = std::sync::atomic::AtomicU64::new(0);
    let keep = |key: u64, score: i8| {
        new_scores.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut record = [0u8; RECORD];
        record[..8].copy_from_slice(&key.to_le_bytes());
        record[8] = score as u8;
        let crc = crc32fast::hash(&record[..9]);
        record[9..].copy_from_slice(&crc.to_le_bytes());
        let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
        if w.write_all(&record).is_err() {
            failed.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let built = Book::build_resuming(&board, args.depth, table, &meter, &known, &keep);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let flushed = writer.into_inner().unwrap_or_else(|e| e.into_inner()).flush();
    if flushed.is_err() || failed.load(std::sync::atomic::Ordering::Relaxed) {
        bail!("cannot write {}", partial.display());
    }
    let kept = known.len() as u64 + new_scores.load(std::sync::atomic::Ordering::Relaxed);
    let book = built.map_err(|stopped| {
        let mut over = OverBudget::from(stopped);
        if kept == 0 {
            // Nothing to resume from: leave no file behind.
            let _ = std::fs::remove_file(&partial);
        } else {
            over.context = Some(format!(
                "the {kept} positions solved so far are kept in {}; the same command resumes from them",
                partial.display()
            ));
        }
        over
    })?;
    let bytes = book.encode();
    let tmp = path.with_extension("book.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    let _ = std::fs::remove_file(&partial);
    let empty = book.get(&board, &board.start());
    writeln!(
        out,
        "{name}: {} positions to depth {} in {:.2} s, {} bytes in {}; empty board score {}",
        book.len(),
        book.depth(),
        started.elapsed().as_secs_f64(),
        bytes.len(),
        path.display(),
        empty.map_or("unknown".into(), |s| s.to_string())
    )?;
    Ok(())
}

/// Bytes of one kept score: key, score, CRC-32 of both.
const RECORD: usize = 13;

/// Where an unfinished build keeps its scores.
fn partial_path(book: &Path) -> PathBuf {
    let mut name = book.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The first bytes of a partial file: which board and depth its scores are of.
fn partial_header(board: &GravityBoard, depth: u32) -> Vec<u8> {
    let mut h = b"XOBOOKP\0".to_vec();
    for v in [board.width(), board.height(), board.k(), depth] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    h
}

/// The scores an earlier build kept (none when there is no partial file). A cut last record is
/// dropped (a build killed mid-write); a damaged one or another book's file is an error.
fn read_partial(path: &Path, header: &[u8]) -> Result<rustc_hash::FxHashMap<u64, i8>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if bytes.is_empty() {
        return Ok(Default::default());
    }
    if !bytes.starts_with(header) {
        bail!(
            "{} holds the scores of another book (another game or depth); remove it to start over",
            path.display()
        );
    }
    let mut known = rustc_hash::FxHashMap::default();
    for record in bytes[header.len()..].chunks_exact(RECORD) {
        if crc32fast::hash(&record[..9]).to_le_bytes() != record[9..] {
            bail!(
                "{} is damaged (a record fails its checksum); remove it to start over",
                path.display()
            );
        }
        let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
        known.insert(key, record[8] as i8);
    }
    Ok(known)
}

/// The cores the build's workers run on (each has its own table).
fn cores() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// Reads and checks a book file.
pub fn load(path: &Path) -> Result<Arc<Book>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BOOK + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read the opening book {}", path.display()))?;
    if bytes.len() as u64 > MAX_BOOK {
        bail!("{} is larger than 4 GiB: not an opening book xo writes", path.display());
    }
    let book = Book::decode(&bytes).with_context(|| format!("{}", path.display()))?;
    Ok(Arc::new(book))
}
