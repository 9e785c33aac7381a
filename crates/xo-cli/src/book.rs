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
    let board = GravityBoard::from_rules(&rules).with_context(|| rules.name.clone())?;
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
        args.budget.budget().memory_bytes / rayon_threads(),
    );
    let built = Book::build(&board, args.depth, table, &meter);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let book = built.map_err(OverBudget::from)?;
    let bytes = book.encode();
    let tmp = path.with_extension("book.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
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

fn rayon_threads() -> u64 {
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
