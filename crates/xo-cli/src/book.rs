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

/// Builds the book and writes it (atomically, over a regular file or a new one), keeping the
/// deepest level's scores in a journal beside it as they are found, so a stopped or killed build
/// resumes; the journal is the build's lock.
pub fn run(args: &BookArgs, out: &mut impl Write) -> Result<()> {
    let (name, board) = board_of(&args.game)?;
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.book", name.replace([':', ','], "-"))));
    // Before anything is created: the output must be a regular file or a new one.
    xo_store::file::check_output(&path)?;
    let (meter, bar) = args.budget.meter();
    let started = Instant::now();
    let table = xo_core::solve::gravity::GravitySolver::suggested_table_bytes(
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
    let known: rustc_hash::FxHashMap<u64, i8> = found.scores.into_iter().collect();
    let keep = |key: u64, score: i8| journal.append(key, score);
    let built = Book::build_resuming(&board, args.depth, table, &meter, &known, &keep);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    journal.flush()?;
    let kept = known.len() as u64 + journal.added();
    let book = match built {
        Ok(book) => book,
        Err(stopped) => {
            let mut over = OverBudget::from(stopped);
            if kept == 0 {
                // Nothing to resume from: leave no file behind.
                journal.remove();
            } else {
                journal.keep()?;
                over.context = Some(format!(
                    "the {kept} positions solved so far are kept in {}; the same command resumes from them",
                    partial.display()
                ));
            }
            return Err(over.into());
        }
    };
    let bytes = xo_store::book::write(&path, &book)?;
    journal.remove();
    let empty = book.get(&board, &board.start());
    writeln!(
        out,
        "{name}: {} positions to depth {} in {:.2} s, {bytes} bytes in {}; empty board score {}",
        book.len(),
        book.depth(),
        started.elapsed().as_secs_f64(),
        path.display(),
        empty.map_or("unknown".into(), |s| s.to_string())
    )?;
    Ok(())
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
