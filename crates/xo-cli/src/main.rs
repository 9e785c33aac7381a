//! `xo`: solve, count and batch-answer placement games from the shell.
//!
//! This file only parses arguments, calls the library, and turns errors into exit statuses:
//! 0 answered, 1 `check` found the position unreachable, 2 bad input (or output that cannot be
//! written), 3 stopped at a budget.

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;
use xo_cli::ask::{self, Job};
use xo_cli::batch::{
    self, BatchError, Connect4ScoreAnswerer, LolAnswerer, TreblecrossAnswerer, TttCountAnswerer,
};
use xo_cli::budget::{BudgetArgs, OverBudget};
use xo_cli::play::{play, Side};
use xo_core::query::Question;
use xo_core::request::Ask;

/// Plays noughts-and-crosses-like games perfectly.
///
/// Exit status: 0 answered, 1 `check` says unreachable, 2 bad input, 3 stopped at a budget
/// (--timeout, --max-nodes, --memory-mib).
#[derive(Parser)]
#[command(name = "xo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The position arguments the query commands share.
#[derive(clap::Args)]
struct PositionArgs {
    /// The game: a built-in name (tictactoe, mnk:M,N,K, connect:M,N,K, connect4, treblecross[:N],
    /// lol[:N], sos[:N]; strips take their length from the position when it is left out), an
    /// octal game (octal:0.77, 0.77, kayles, dawson-kayles) or a TOML rules file.
    game: String,
    /// The cells in reading order, '.' for empty, or heap sizes for an octal game (default: the
    /// empty board; '-': read it from standard input).
    position: Option<String>,
    /// Read many positions from standard input, one per line; one report (JSON object) each.
    #[arg(long)]
    lines: bool,
    /// The position as the 1-based columns played from the empty board (gravity games): digits
    /// on boards of up to 9 columns (4453), numbers separated by commas past 9 (10,11,3).
    #[arg(long, value_name = "COLUMNS", conflicts_with_all = ["position", "lines"])]
    moves: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a position: its value, remoteness, and every move's value.
    Solve {
        #[command(flatten)]
        at: PositionArgs,
        /// Report just the value, as fast as possible.
        #[arg(long)]
        value_only: bool,
        /// List only the winning moves.
        #[arg(long, conflicts_with = "value_only")]
        winning: bool,
        /// Report the value and remoteness (and Pons' score in gravity games), not the moves.
        #[arg(long, conflicts_with_all = ["value_only", "winning"])]
        no_moves: bool,
        /// Give each move's principal variation: the move, then perfect play to the end of the
        /// game (as long as the move's remoteness; boards the search or the gravity engine
        /// answers).
        #[arg(long, conflicts_with_all = ["value_only", "no_moves"])]
        line: bool,
        /// Tell each side's threats (the empty cells that would complete a line, by row parity,
        /// those playable at once) and who holds the parity (gravity games: Connect Four's
        /// family).
        #[arg(long)]
        threats: bool,
        /// Strong-solve the whole game into the database folder given by --db (every position,
        /// tier by tier; a re-run resumes from the tiers already written).
        #[arg(long, requires = "db")]
        strong: bool,
        /// The database folder for --strong.
        #[arg(long, value_name = "DIR", requires = "strong")]
        db: Option<std::path::PathBuf>,
        /// An opening book made by `xo book` (gravity games): its positions are not searched
        /// (for connect4, in place of the book xo ships).
        #[arg(long, value_name = "FILE")]
        book: Option<std::path::PathBuf>,
        /// Consult no opening book, not even the one xo ships for connect4 (nor its stored .007
        /// values for Treblecross).
        #[arg(long, conflicts_with = "book")]
        no_book: bool,
        /// Threads for gravity games (one shared table; the answer is the same with any number),
        /// at most the cores this process may use [default: those cores].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
        /// Solve --strong over MPI, every tier split among the ranks (run under mpirun; needs an
        /// xo built with --features mpi). The files are the single-process solve's, byte for
        /// byte.
        #[arg(long, requires = "strong")]
        distributed: bool,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Answer a position from a strong database (made by solve --strong --db DIR), as solve does.
    Query {
        /// The database folder.
        db: std::path::PathBuf,
        /// The position (default: the empty board; '-': standard input).
        position: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// List only the winning moves.
        #[arg(long)]
        winning: bool,
        /// Describe the database: game, positions and values per tier, bytes, how it was made.
        #[arg(long, conflicts_with = "position")]
        info: bool,
        /// The budget of the lookup (the tiers read must fit --memory-mib).
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// The legal moves of a position and the position after each; with --play, the position
    /// after one move; with --best, the best move (best value, then the quickest win or the
    /// longest draw or loss, then board order).
    Moves {
        #[command(flatten)]
        at: PositionArgs,
        /// Play this move (its name as solve lists it: 5, 3L, a column under gravity).
        #[arg(long, value_name = "MOVE", conflicts_with = "best")]
        play: Option<String>,
        /// The best move, from the exact answer (over the budget: from the deepest look-ahead
        /// that finished in 200,000 positions, marked not proven, and exit 3).
        #[arg(long)]
        best: bool,
        /// With --best: a weaker player's move, the best of a look-ahead at most N plies deep
        /// (1 to 64) instead of the exact answer (marked not proven).
        #[arg(long, value_name = "N", requires = "best")]
        depth: Option<u32>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Count the games continuing from a position by outcome, and the distinct positions.
    Count {
        #[command(flatten)]
        at: PositionArgs,
        /// Also split the games by their number of moves.
        #[arg(long)]
        by_length: bool,
        /// Merge each depth in a dense table indexed by position rank where it fits.
        #[arg(long)]
        dense: bool,
        /// Threads for the census's layers (the counts are the same with any number), at most
        /// the cores this process may use [default: those cores].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Check whether a position can arise in a legal game (exit 0 yes, 1 no, 2 bad input).
    #[command(mut_arg("position", |a| a
        .help("The cells in reading order, '.' for empty ('-': read it from standard input); \
               required unless --lines or --moves gives the positions")
        .required_unless_present_any(["lines", "moves"])))]
    Check {
        #[command(flatten)]
        at: PositionArgs,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Play against perfect play in the terminal (commands: a move, hint, undo, quit).
    Play {
        /// The game (a board of at most 64 cells).
        game: String,
        /// The starting position (default: the empty board; '-': standard input).
        position: Option<String>,
        /// Your side: first (X) or second (O); asked for when omitted.
        #[arg(long = "as", value_enum)]
        side: Option<SideArg>,
        /// The budget of each of xo's replies.
        #[command(flatten)]
        budget: BudgetArgs,
        /// Consult no opening book, not even the one xo ships for connect4 (nor its stored .007
        /// values for Treblecross).
        #[arg(long)]
        no_book: bool,
    },
    /// Answer a classic judge problem file: standard input to standard output.
    Batch {
        /// Which problem's format.
        format: BatchFormat,
        /// Answer the built-in sample input instead of reading standard input.
        #[arg(long)]
        example: bool,
        /// An opening book made by `xo book` (connect4-score; in place of the one xo ships).
        #[arg(long, value_name = "FILE")]
        book: Option<std::path::PathBuf>,
        /// Consult no opening book, not even the one xo ships for connect4 (nor its stored .007
        /// values for Treblecross).
        #[arg(long, conflicts_with = "book")]
        no_book: bool,
        /// The budget of the whole run.
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// The nim-sequence of an octal game, its proven period and summary figures.
    Grundy(xo_cli::grundy::GrundyArgs),
    /// Serve the HTTP API (/api/solve, /api/count, /api/check, /api/grundy, /api/games) and the
    /// web page to play and study every game against perfect play (needs the `serve` feature,
    /// on by default).
    Serve(xo_cli::serve::ServeArgs),
    /// Write a static copy of the web page (HTML and scripts, worker, the core in WebAssembly,
    /// the Connect Four book) that works from any static file host with no xo server: it solves
    /// in the browser (needs the `serve` feature, on by default).
    Page {
        /// The folder to write into (created when missing).
        #[arg(long, value_name = "DIR")]
        out: std::path::PathBuf,
    },
    /// Build a gravity game's opening book: the exact score of every position of its first
    /// moves, for --book.
    Book(xo_cli::book::BookArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum SideArg {
    /// Move first (X).
    First,
    /// Move second (O).
    Second,
}

#[derive(Clone, Copy, ValueEnum)]
enum BatchFormat {
    /// Tic-tac-toe continuations by winner (ICPC NAC 2022).
    TttCount,
    /// The LOL letter game (Lanqiao 43695).
    Lol,
    /// Treblecross winning moves (UVa 10561).
    Treblecross,
    /// Connect Four scores (Pascal Pons' test sets: a line of columns played, the score out).
    Connect4Score,
}

impl BatchFormat {
    fn sample(self) -> &'static str {
        match self {
            BatchFormat::TttCount => include_str!("../samples/ttt-count.sample.in"),
            BatchFormat::Lol => include_str!("../samples/lol.sample.in"),
            BatchFormat::Treblecross => include_str!("../samples/treblecross.sample.in"),
            BatchFormat::Connect4Score => include_str!("../samples/connect4-score.sample.in"),
        }
    }
}

/// Exit status for bad input (and output that cannot be written).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit status for a job stopped at its budget.
const EXIT_OVER_BUDGET: u8 = 3;
/// Exit status for a job cancelled before its end (128 + SIGINT, as a shell reports an
/// interrupted command).
const EXIT_CANCELLED: u8 = 130;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print and succeed (quietly on a closed pipe); output that
            // cannot be written is exit 2, as for every answer.
            let mut stdout = io::stdout().lock();
            return match write!(stdout, "{}", e.render()).and_then(|()| stdout.flush()) {
                Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
                    eprintln!("xo: error: cannot write the help: {err}");
                    ExitCode::from(EXIT_BAD_INPUT)
                }
                _ => ExitCode::SUCCESS,
            };
        }
        Err(e) => {
            // Usage errors: one line, like every other bad input (clap's own lines up to the
            // usage, joined).
            let text = e.render().to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            eprintln!("xo: {}", lines.join(" "));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) => exit_for(&err),
    }
}

/// A message cut to 600 characters: input quoted in it can be arbitrarily long.
fn clip(message: &str) -> String {
    match message.char_indices().nth(600) {
        Some((at, _)) => format!("{}... (cut)", &message[..at]),
        None => message.to_string(),
    }
}

/// The one place errors become messages and exit statuses.
fn exit_for(err: &anyhow::Error) -> ExitCode {
    // A closed pipe (`xo ... | head -1`): the reader has what it wanted; end quietly.
    let broken_pipe = err.chain().any(|e| {
        let io = e.downcast_ref::<io::Error>().or_else(|| match e.downcast_ref::<BatchError>() {
            Some(BatchError::Io(io)) => Some(io),
            _ => None,
        });
        io.is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    let over =
        err.downcast_ref::<OverBudget>().or_else(|| match err.downcast_ref::<BatchError>() {
            Some(BatchError::Stopped(over)) => Some(over),
            _ => None,
        });
    if let Some(over) = over {
        match &over.context {
            Some(at) => eprintln!("xo: {at}: {over}"),
            None => eprintln!("xo: {over}"),
        }
        if over.stopped.limit == xo_core::budget::Limit::Cancelled {
            return ExitCode::from(EXIT_CANCELLED);
        }
        return ExitCode::from(EXIT_OVER_BUDGET);
    }
    eprintln!("xo: error: {}", clip(&format!("{err:#}")));
    ExitCode::from(EXIT_BAD_INPUT)
}

fn run(cli: Cli) -> Result<ExitCode> {
    // The Grundy engine's kernel cap (for timing a weaker kernel): a value naming no kernel is
    // bad input, not silently ignored.
    xo_core::solve::grundy::PassKernel::cap_from_env().map_err(anyhow::Error::msg)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let query = |at: PositionArgs, question, budget: &BudgetArgs| -> Result<Job> {
        let mut ask = Job::new(&at.game)?;
        let request = &mut ask.request;
        (request.position, request.moves, request.question) = (at.position, at.moves, question);
        budget.fill(request);
        (ask.json, ask.lines) = (at.json, at.lines);
        Ok(ask)
    };
    match cli.command {
        Command::Solve {
            ref at,
            strong: true,
            value_only,
            winning,
            no_moves,
            line,
            threats,
            ref book,
            no_book,
            ..
        } if at.position.is_some()
            || at.moves.is_some()
            || at.lines
            || at.json
            || value_only
            || winning
            || no_moves
            || line
            || threats
            || book.is_some()
            || no_book =>
        {
            anyhow::bail!(
                "--strong solves the whole game from the empty board into --db (every position, \
                 on --threads threads); it takes no POSITION, --moves, --lines, --json, --value-only, \
                 --winning, --no-moves, --line, --threats, --book or --no-book (ask the database with \
                 xo query)"
            );
        }
        Command::Solve { at, strong: true, db: Some(db), distributed: true, budget, .. } => {
            #[cfg(feature = "mpi")]
            xo_cli::distributed::solve(&at.game, &db, &budget, &mut out)?;
            #[cfg(not(feature = "mpi"))]
            {
                let _ = (at, db, budget);
                anyhow::bail!(
                    "--distributed needs MPI, and this xo was built without it (cargo build --release --features mpi)"
                );
            }
        }
        Command::Solve { at, strong: true, db: Some(db), budget, threads, .. } => {
            let threads = xo_core::threads::allowed(
                threads.map(usize::from),
                xo_core::threads::Runner::Alone.default_threads(),
            );
            xo_cli::strong::solve(&at.game, &db, &budget, threads, &mut out)?;
        }
        Command::Query { db, info: true, budget, .. } => {
            xo_cli::strong::info(&db, &mut out, &xo_core::budget::Meter::new(budget.budget()))?
        }
        Command::Query { db, position, json, winning, budget, .. } => {
            let position = xo_cli::game::position_arg(position)?;
            let question = Question::Analysis { winning_only: winning };
            let meter = xo_core::budget::Meter::new(budget.budget());
            let (query, answer) =
                xo_cli::strong::query(&db, position.as_deref(), question, &meter)?;
            if json {
                writeln!(out, "{}", serde_json::to_string(&answer)?)?;
            } else {
                write!(out, "{}", xo_cli::render::render_answer(&query, &answer, false))?;
            }
        }
        Command::Solve {
            at,
            value_only,
            winning,
            no_moves,
            line,
            threats,
            budget,
            book,
            no_book,
            threads,
            ..
        } => {
            let mut ask = query(at, Ask::Solve, &budget)?;
            let request = &mut ask.request;
            (request.value_only, request.winning, request.no_moves, request.line) =
                (value_only, winning, no_moves, line);
            request.threats = threats;
            // The core's thread policy clamps this to the cores (every core when not given).
            request.threads = threads.map(usize::from);
            request.book = book.as_ref().map(|b| b.display().to_string());
            request.no_book = no_book;
            ask.books = book.as_deref().map(xo_cli::book::load).transpose()?.into_iter().collect();
            ask::run(&ask, &mut out)?;
        }
        Command::Moves { at, play, best, depth, budget } => {
            let question = match (&play, best) {
                (Some(_), _) => Ask::After,
                (None, true) => Ask::Best,
                (None, false) => Ask::Moves,
            };
            let mut ask = query(at, question, &budget)?;
            ask.request.play = play;
            ask.request.depth = depth;
            ask::run(&ask, &mut out)?;
        }
        Command::Count { at, by_length, dense, threads, budget } => {
            let mut ask = query(at, Ask::Count, &budget)?;
            (ask.request.by_length, ask.request.dense) = (by_length, dense);
            ask.request.threads = threads.map(usize::from);
            ask::run(&ask, &mut out)?;
        }
        Command::Check { at, budget } => {
            if ask::run(&query(at, Ask::Check, &budget)?, &mut out)?.unreachable {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Play { game, position, side, budget, no_book } => {
            let side = side.map(|s| match s {
                SideArg::First => Side::First,
                SideArg::Second => Side::Second,
            });
            // With '-', the position is the first line of standard input; the moves follow it.
            let input = io::stdin().lock();
            play(&game, position.as_deref(), side, input, &mut out, budget, !no_book)?;
        }
        Command::Batch { format, example, budget, book, no_book } => {
            let book = book.as_deref().map(xo_cli::book::load).transpose()?;
            // A book the format would not consult: refused, not silently ignored.
            match (&book, format) {
                (Some(book), BatchFormat::Connect4Score) if book.game() != (7, 6, 4) => {
                    let (w, h, k) = book.game();
                    anyhow::bail!("--book is a book of connect:{w},{h},{k}, not of connect4");
                }
                (Some(_), BatchFormat::TttCount | BatchFormat::Lol | BatchFormat::Treblecross) => {
                    anyhow::bail!("--book is for connect4-score (opening books of Connect Four)");
                }
                _ => {}
            }
            let stdin = io::stdin();
            let input: Box<dyn Read> =
                if example { Box::new(format.sample().as_bytes()) } else { Box::new(stdin.lock()) };
            let input = BufReader::with_capacity(1 << 16, input);
            let (meter, bar) = budget.meter();
            let result = match format {
                BatchFormat::TttCount => {
                    batch::run(&mut TttCountAnswerer::with_meter(meter), input, &mut out)
                }
                BatchFormat::Lol => {
                    batch::run(&mut LolAnswerer::with_meter(meter), input, &mut out)
                }
                BatchFormat::Treblecross => {
                    let mut answerer = TreblecrossAnswerer::with_meter(meter);
                    if let Some(stored) = xo_store::sequence::shipped_dot007().filter(|_| !no_book)
                    {
                        answerer = answerer.with_stored(stored);
                    }
                    batch::run(&mut answerer, input, &mut out)
                }
                BatchFormat::Connect4Score => {
                    let mut answerer = Connect4ScoreAnswerer::with_meter(meter);
                    let connect4 = xo_core::rules::parse_game("connect4")?;
                    // The given book is of connect4 (checked above).
                    if let Some(book) = xo_store::book::for_game(book.as_ref(), no_book, &connect4)
                    {
                        answerer = answerer.with_book(book);
                    }
                    batch::run_all(&mut answerer, input, &mut out)
                }
            };
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            result?;
        }
        Command::Grundy(args) => xo_cli::grundy::run(&args, &mut out)?,
        Command::Serve(args) => xo_cli::serve::run(&args, &mut out)?,
        Command::Page { out: dir } => xo_cli::serve::page(&dir, &mut out)?,
        Command::Book(args) => xo_cli::book::run(&args, &mut out)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
