//! `xo`: solve, count and batch-answer placement games from the shell.

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{self, BufReader, BufWriter, Read};
use std::process::ExitCode;
use xo_cli::batch::{self, BatchError, LolAnswerer, TreblecrossAnswerer, TttCountAnswerer};

/// Plays noughts-and-crosses-like games perfectly.
#[derive(Parser)]
#[command(name = "xo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer a classic judge problem file: standard input to standard output.
    Batch {
        /// Which problem's format.
        format: BatchFormat,
        /// Answer the built-in sample input instead of reading standard input.
        #[arg(long)]
        example: bool,
    },
    /// The nim-sequence of an octal game, its proven period and summary figures.
    Grundy(xo_cli::grundy::GrundyArgs),
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

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Batch { format, example } => {
            let stdin = io::stdin();
            let input: Box<dyn Read> =
                if example { Box::new(format.sample().as_bytes()) } else { Box::new(stdin.lock()) };
            let input = BufReader::with_capacity(1 << 16, input);
            let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            match format {
                BatchFormat::TttCount => batch::run(&mut TttCountAnswerer::new(), input, output),
                BatchFormat::Lol => batch::run(&mut LolAnswerer::new(), input, output),
                BatchFormat::Treblecross => {
                    batch::run(&mut TreblecrossAnswerer::new(), input, output)
                }
            }?;
        }
        Command::Grundy(args) => xo_cli::grundy::run(&args)?,
    }
    Ok(ExitCode::SUCCESS)
}
