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
use xo_core::budget::Meter;
use xo_core::games::gravity::GravityBoard;
use xo_core::query::Game;
use xo_core::solve::book::Book;
use xo_store::journal::{self, Journal};

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
    if !rules.gravity() {
        bail!(
            "opening books are for gravity games (connect4, connect:W,H,K); {} has no gravity",
            rules.name()
        );
    }
    let board = GravityBoard::from_rules(&rules).with_context(|| {
        format!(
            "{}: books keep 64-bit keys, so they are for boards of the 64-bit layout",
            rules.name()
        )
    })?;
    Ok((rules.name().to_string(), board))
}

/// Builds the book and writes it (atomically, over a regular file or a new one), keeping the
/// deepest level's scores in a journal beside it as they are found, so a stopped or killed build
/// resumes; the journal is the build's lock. A build resumes from the journal and from the book
/// already at `--out` (of the same board and depth): a stopped build writes the book of what it
/// solved, so that file, committed, is the checkpoint the next machine resumes from.
pub fn run(args: &BookArgs, out: &mut impl Write) -> Result<()> {
    let (meter, bar) = args.budget.meter();
    build(args, &meter, bar, out)
}

/// [`run`] within `meter` (made for `args.budget`, shown on `bar` when there is one): what the
/// Python package calls with a meter of its own, which Ctrl-C cancels there.
///
/// ```
/// use std::time::Duration;
/// use xo_cli::book::{build, BookArgs};
/// use xo_cli::budget::BudgetArgs;
/// use xo_core::budget::Meter;
/// let dir = xo_test_support::dirs::tempdir().unwrap();
/// let budget = BudgetArgs { timeout: Duration::from_secs(60), max_nodes: 1 << 30, memory_mib: 64 };
/// let out = dir.path().join("c443.book");
/// let args = BookArgs { game: "connect:4,4,3".into(), depth: 2, out: Some(out.clone()), budget };
/// build(&args, &Meter::new(budget.budget()), None, &mut Vec::new()).unwrap();
/// assert_eq!(xo_store::book::read(&out).unwrap().depth(), 2);
/// ```
pub fn build(
    args: &BookArgs,
    meter: &Meter,
    bar: Option<indicatif::ProgressBar>,
    out: &mut impl Write,
) -> Result<()> {
    let (name, board) = board_of(&args.game)?;
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.book", name.replace([':', ','], "-"))));
    // Before anything is created: the output must be a regular file or a new one.
    xo_store::file::check_output(&path)?;
    let started = Instant::now();
    let table = xo_core::solve::gravity::GravitySolver::suggested_book_table_bytes(
        &board,
        args.depth,
        args.budget.budget().memory_bytes / cores(),
    );
    let partial = partial_path(&path);
    let header = journal::header(board.width(), board.height(), board.k(), args.depth);
    let (journal, found) = Journal::open(&partial, &header, &path)?;
    // Holding the journal, no other build writes the book: what a killed one left goes.
    xo_store::file::remove_stale_temporaries(&path);
    if found.skipped > 0 {
        eprintln!(
            "xo: {}: {} damaged bytes skipped, the {} valid scores kept",
            partial.display(),
            found.skipped,
            found.scores.len()
        );
    }
    let mut known: rustc_hash::FxHashMap<u64, i8> = found.scores.into_iter().collect();
    let from_journal = known.len();
    let earlier = earlier_book(&path, &board, args.depth)?;
    if let Some(book) = &earlier {
        known.extend(book.deepest_scores(&board, meter).map_err(OverBudget::from)?);
    }
    if !known.is_empty() {
        eprintln!(
            "xo: resuming from {} solved positions ({from_journal} in {}{})",
            known.len(),
            partial.display(),
            if earlier.is_some() {
                format!(", the rest in {}", path.display())
            } else {
                String::new()
            }
        );
    }
    let keep = |key: u64, score: i8| journal.append(key, score);
    let built = Book::build_resuming(&board, args.depth, table, meter, &known, &keep);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    journal.flush()?;
    let build = match built {
        Ok(build) => build,
        Err(stopped) => {
            // Stopped before the levels were listed: nothing new was solved.
            if known.is_empty() {
                journal.remove();
            } else {
                journal.keep()?;
            }
            return Err(OverBudget::from(stopped).into());
        }
    };
    // The book so far, complete or not: written before the journal goes.
    let bytes = xo_store::book::write(&path, &build.book)?;
    journal.remove();
    let (solved, deepest) = build.book.progress();
    if let Some(stopped) = build.stopped {
        let mut over = OverBudget::from(stopped);
        over.context = Some(format!(
            "{solved} of the {deepest} positions of {} moves are solved, kept in {} \
             ({} positions, {bytes} bytes); the same command resumes from them",
            build.book.depth(),
            path.display(),
            build.book.len()
        ));
        return Err(over.into());
    }
    let empty = build.book.get(&board, &board.start());
    writeln!(
        out,
        "{name}: {} positions to depth {} in {:.2} s, {bytes} bytes in {}; empty board score {}",
        build.book.len(),
        build.book.depth(),
        started.elapsed().as_secs_f64(),
        path.display(),
        empty.map_or("unknown".into(), |s| s.to_string())
    )?;
    Ok(())
}

/// The book already at `path`, if it is one of `board` to `depth` (a build resumes from it).
/// A book of another board or depth is refused rather than overwritten (it may hold days of
/// work); any other regular file (not a book, or a damaged one) is replaced.
fn earlier_book(path: &Path, board: &GravityBoard, depth: u32) -> Result<Option<Book>> {
    if !path.exists() {
        return Ok(None);
    }
    let Ok(book) = xo_store::book::read(path) else {
        return Ok(None);
    };
    let (w, h, k) = book.game();
    if !book.fits(board) || book.depth() != depth {
        bail!(
            "{} is a book of connect:{w},{h},{k} to depth {}, not this one: remove it or choose another --out",
            path.display(),
            book.depth()
        );
    }
    Ok(Some(book))
}

/// Where an unfinished build keeps its scores.
fn partial_path(book: &Path) -> PathBuf {
    let mut name = book.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The cores the build's workers run on (each has its own table).
fn cores() -> u64 {
    xo_core::threads::cores() as u64
}

/// Reads and checks a book file.
pub fn load(path: &Path) -> Result<Arc<Book>> {
    Ok(Arc::new(xo_store::book::read(path)?))
}
