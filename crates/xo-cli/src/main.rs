//! `xo`: solve, count and batch-answer placement games from the shell.

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{self, BufReader, BufWriter, Read};
use std::process::ExitCode;
use std::time::Duration;
use xo_cli::batch::{self, BatchError, LolAnswerer, TreblecrossAnswerer, TttCountAnswerer};
use xo_cli::count::{check, count, render_count};
use xo_cli::game::{position_arg, read_position, GameArg};
use xo_cli::play::{play, Side};
use xo_cli::solve::{render_text, solve, SolveOptions};
use xo_core::solve::negamax::Limits;

/// Plays noughts-and-crosses-like games perfectly.
#[derive(Parser)]
#[command(name = "xo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a position: its value, remoteness, and every move's value.
    ///
    /// GAME is a built-in name (tictactoe, mnk:M,N,K, connect:M,N,K, connect4, treblecross:N,
    /// lol:N, sos:N), a TOML rules file, or an octal game (octal:0.77, kayles, dawson-kayles) whose
    /// POSITION is a list of heap sizes such as "5 7 12".
    Solve {
        /// The game.
        game: String,
        /// The cells in reading order, '.' for empty (default: the empty board; '-': read it from
        /// standard input).
        position: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Report just the value (no remoteness, no moves), as fast as possible.
        #[arg(long)]
        value_only: bool,
        #[command(flatten)]
        budget: Budget,
    },
    /// Count the games continuing from a position by outcome, and the distinct positions.
    Count {
        /// The game (a board of at most 64 cells).
        game: String,
        /// The position counted from (default: the empty board).
        position: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Also split the games by their number of moves.
        #[arg(long)]
        by_length: bool,
        /// The most positions held at one depth (bounds memory: about 200 bytes each).
        #[arg(long, default_value_t = 10_000_000)]
        max_positions: usize,
        /// Merge each depth in a dense table indexed by position rank where it fits (memory known
        /// in advance) instead of hash maps.
        #[arg(long)]
        dense: bool,
    },
    /// Check whether a position can arise in a legal game (exit 0 yes, 1 no, 2 bad input).
    Check {
        /// The game (a board of at most 64 cells).
        game: String,
        /// The position.
        position: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Play against perfect play in the terminal (commands: a move, hint, undo, quit).
    Play {
        /// The game (a board of at most 64 cells).
        game: String,
        /// The starting position (default: the empty board).
        position: Option<String>,
        /// Your side: first (X) or second (O); asked for when omitted.
        #[arg(long = "as", value_enum)]
        side: Option<SideArg>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        table_mib: usize,
    },
    /// Answer a classic judge problem file: standard input to standard output.
    Batch {
        /// Which problem's format.
        format: BatchFormat,
        /// Answer the built-in sample input instead of reading standard input.
        #[arg(long)]
        example: bool,
        /// Seconds one treblecross case may spend on Grundy values (a strip of 10^6 cells needs
        /// about 20 s); a case that needs more stops the run with a message.
        #[arg(long, default_value_t = 600.0)]
        timeout: f64,
    },
    /// The nim-sequence of an octal game, its proven period and summary figures.
    Grundy(xo_cli::grundy::GrundyArgs),
}

/// Bounds on a search; over them xo stops and reports the value as unknown.
#[derive(clap::Args)]
struct Budget {
    /// Stop after visiting this many positions.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    timeout: Option<f64>,
    /// Memory for the search's tables in MiB (the transposition table; the LOL solver's tables).
    #[arg(long, default_value_t = 1024)]
    table_mib: usize,
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
}

impl BatchFormat {
    fn sample(self) -> &'static str {
        match self {
            BatchFormat::TttCount => include_str!("../samples/ttt-count.sample.in"),
            BatchFormat::Lol => include_str!("../samples/lol.sample.in"),
            BatchFormat::Treblecross => include_str!("../samples/treblecross.sample.in"),
        }
    }
}

/// Exit status for bad input.
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            // The one place errors become messages and exit statuses.
            if let Some(BatchError::Io(e)) = err.downcast_ref::<BatchError>() {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return ExitCode::SUCCESS;
                }
                eprintln!("xo: error: {e}");
                return ExitCode::FAILURE;
            }
            eprintln!("xo: error: {err:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// A game argument that must be a placement game.
fn placement(name: &str) -> Result<xo_core::rules::Rules> {
    match GameArg::parse(name)? {
        GameArg::Placement(rules) => Ok(rules),
        GameArg::Octal(_) => {
            anyhow::bail!("{name} is an octal game; this command takes a placement game")
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve { game, position, json, value_only, budget } => {
            let position = position_arg(position)?;
            let timeout = match budget.timeout {
                Some(t) if !(t.is_finite() && t > 0.0) => {
                    anyhow::bail!("--timeout must be a positive number of seconds, not {t}")
                }
                t => t.map(Duration::from_secs_f64),
            };
            if !(1..=1 << 16).contains(&budget.table_mib) {
                anyhow::bail!("--table-mib must be between 1 and 65536");
            }
            let limits = Limits { max_nodes: budget.max_nodes, timeout };
            let opts = SolveOptions { value_only, limits, table_mib: budget.table_mib };
            let game = GameArg::parse(&game)?;
            let report = solve(&game, position.as_deref(), opts)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                let width = match &game {
                    GameArg::Placement(rules) => Some(rules.width),
                    GameArg::Octal(_) => None,
                };
                print!("{}", render_text(&report, width));
            }
        }
        Command::Count { game, position, json, by_length, max_positions, dense } => {
            let position = position_arg(position)?;
            let rules = placement(&game)?;
            let report = count(&rules, position.as_deref(), by_length, max_positions, dense)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print!("{}", render_count(&report, &rules));
            }
        }
        Command::Check { game, position, json } => {
            let rules = placement(&game)?;
            let report = check(&rules, &position)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else if let Some(reason) = &report.reason {
                println!("unreachable: {reason}");
            } else {
                println!("reachable");
            }
            if !report.reachable {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Play { game, position, side, table_mib } => {
            let GameArg::Placement(rules) = GameArg::parse(&game)? else {
                anyhow::bail!("xo play takes a placement game, not an octal game");
            };
            let start = read_position(&rules, position.as_deref())?;
            let side = side.map(|s| match s {
                SideArg::First => Side::First,
                SideArg::Second => Side::Second,
            });
            play(&rules, start, side, io::stdin().lock(), io::stdout().lock(), table_mib)?;
        }
        Command::Batch { format, example, timeout } => {
            if !(timeout.is_finite() && timeout > 0.0) {
                anyhow::bail!("--timeout must be a positive number of seconds, not {timeout}");
            }
            let stdin = io::stdin();
            let input: Box<dyn Read> =
                if example { Box::new(format.sample().as_bytes()) } else { Box::new(stdin.lock()) };
            let input = BufReader::with_capacity(1 << 16, input);
            let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            match format {
                BatchFormat::TttCount => batch::run(&mut TttCountAnswerer::new(), input, output),
                BatchFormat::Lol => batch::run(&mut LolAnswerer::new(), input, output),
                BatchFormat::Treblecross => {
                    let budget = Duration::from_secs_f64(timeout);
                    batch::run(&mut TreblecrossAnswerer::with_budget(budget), input, output)
                }
            }?;
        }
        Command::Grundy(args) => xo_cli::grundy::run(&args)?,
    }
    Ok(ExitCode::SUCCESS)
}
