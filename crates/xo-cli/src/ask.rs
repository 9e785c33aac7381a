//! `xo solve`, `xo count` and `xo check`: read the game and position(s), build a query, answer it
//! through the core's one entry point, and print the report as text or JSON. With `--lines`,
//! many positions are read from standard input, one per line, and each gets its own report (one
//! JSON object per line with `--json`).

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::{position_arg, resolve_game};
use crate::render::render_answer;
use anyhow::{Context, Result};
use std::io::{BufRead, Write};
use xo_core::budget::Meter;
use xo_core::query::{answer, Answer, Game, Query, Question};

/// What one of the query commands was asked.
#[derive(Debug, Clone)]
pub struct Ask {
    /// The GAME argument.
    pub game: String,
    /// The POSITION argument (`-` for standard input), or `None`.
    pub position: Option<String>,
    /// The position as columns played (`--moves`), for gravity games.
    pub moves: Option<String>,
    /// The question.
    pub question: Question,
    /// Print JSON.
    pub json: bool,
    /// Read positions from standard input, one per line.
    pub lines: bool,
    /// The budget of the whole command.
    pub budget: BudgetArgs,
    /// An opening book for the gravity engine.
    pub book: Option<std::sync::Arc<xo_core::solve::book::Book>>,
    /// Threads the engine may use.
    pub threads: usize,
}

/// How a command ended, for its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ended {
    /// Some position checked could not occur (`check` exits 1).
    pub unreachable: bool,
}

/// Answers one position and writes its report; `Err(OverBudget)` after writing the unknown report
/// when the budget ran out.
fn ask_one(
    ask: &Ask,
    position: Option<&str>,
    meter: &Meter,
    out: &mut impl Write,
) -> Result<Ended> {
    let game = resolve_game(&ask.game, position)?;
    let mut query = Query::new(game, position, ask.question)?.with_threads(ask.threads);
    if let Some(book) = &ask.book {
        // A book of another board would never be consulted: refused, not silently ignored.
        let shape =
            query.rules().filter(|r| r.gravity).map(|r| (r.width, r.height, r.pattern_len()));
        if shape != Some(book.game()) {
            let (w, h, k) = book.game();
            anyhow::bail!(
                "--book is a book of connect:{w},{h},{k}, not of {}",
                query.game().name()
            );
        }
        query = query.with_book(book.clone());
    }
    let (result, stopped) = match answer(&query, meter) {
        Ok(a) => (a, None),
        Err(s) => (query.unanswered(&s), Some(s)),
    };
    if ask.json {
        let json = serde_json::to_string(&result).context("cannot write the answer")?;
        writeln!(out, "{json}").context("cannot write the answer")?;
    } else {
        let value_only = ask.question == Question::Value;
        out.write_all(render_answer(&query, &result, value_only).as_bytes())
            .context("cannot write the answer")?;
    }
    if let Some(stopped) = stopped {
        out.flush().context("cannot write the answer")?;
        return Err(OverBudget::from(stopped).into());
    }
    let unreachable = matches!(&result, Answer::Check(r) if r.reachable == Some(false));
    Ok(Ended { unreachable })
}

/// Runs a query command, writing to `out`.
pub fn run(ask: &Ask, out: &mut impl Write) -> Result<Ended> {
    let (meter, bar) = ask.budget.meter();
    let result = if ask.lines {
        run_lines(ask, &meter, out)
    } else if let Some(moves) = &ask.moves {
        let text = position_from_moves(&ask.game, moves)?;
        ask_one(ask, Some(&text), &meter, out)
    } else {
        let position = position_arg(ask.position.clone())?;
        ask_one(ask, position.as_deref(), &meter, out)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    out.flush().context("cannot write the answer")?;
    result
}

/// The position text after `moves` (1-based columns) of a gravity game.
fn position_from_moves(game: &str, moves: &str) -> Result<String> {
    let Game::Placement(rules) = resolve_game(game, None)? else {
        anyhow::bail!("--moves is for gravity games, not octal games");
    };
    let pos = xo_core::rules::Position::from_columns(&rules, moves).context("--moves")?;
    Ok(pos.to_text(&rules))
}

/// The longest line `--lines` reads.
const MAX_LINE: u64 = 64 << 20;

fn run_lines(ask: &Ask, meter: &Meter, out: &mut impl Write) -> Result<Ended> {
    if ask.position.is_some() {
        anyhow::bail!("--lines reads the positions from standard input; give no POSITION");
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut ended = Ended::default();
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let read = std::io::Read::take(&mut input, MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .context("cannot read standard input")?;
        if read == 0 {
            break;
        }
        // Each line counts as a position and reads the clock (a line costs a whole query, far
        // more), so lines that need no search (finished boards, blank lines) stop at the budget.
        if let Err(stopped) = meter.tick(1).and_then(|()| meter.check()) {
            let context = Some(format!("line {number}"));
            return Err(OverBudget { stopped, context }.into());
        }
        if line.len() as u64 > MAX_LINE {
            anyhow::bail!("line {number}: longer than 64 MiB");
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| anyhow::anyhow!("line {number}: not valid UTF-8"))?;
        if text.trim().is_empty() {
            continue;
        }
        match ask_one(ask, Some(text), meter, out) {
            Ok(e) => ended.unreachable |= e.unreachable,
            Err(e) => match e.downcast::<OverBudget>() {
                Ok(mut over) => {
                    over.context = Some(format!("line {number}"));
                    return Err(over.into());
                }
                Err(e) => return Err(e.context(format!("line {number}"))),
            },
        }
    }
    Ok(ended)
}
