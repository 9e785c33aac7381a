//! `xo solve`, `xo count`, `xo check` and `xo moves`: the flags fill the core's one
//! [`Request`], which is prepared and answered through the core's one entry point, and the
//! report printed as text or JSON. With `--lines`,
//! many positions are read from standard input, one per line, and each gets its own report (one
//! JSON object per line with `--json`).

use crate::budget::{meter, OverBudget};
use crate::game::{position_arg, request_game};
use crate::render::render_answer;
use anyhow::{Context, Result};
use std::io::{BufRead, Write};
use xo_core::budget::{Budget, Meter};
use xo_core::query::{answer, Answer, Question};
use xo_core::request::Request;

/// What one of the query commands was asked: the core's request (filled from the flags), and
/// what only the command does with it (its output, its input lines, its loaded book).
#[derive(Debug, Clone)]
pub struct Job {
    /// The request, as the flags fill it; its position is `-` for standard input.
    pub request: Request,
    /// Print JSON.
    pub json: bool,
    /// Read positions from standard input, one per line.
    pub lines: bool,
    /// The opening book named by `request.book`, loaded (the books xo ships are added to it
    /// unless `request.no_book`).
    pub books: Vec<std::sync::Arc<xo_core::solve::book::Book>>,
}

impl Job {
    /// The request for `game` (a name, or a TOML rules file read into the request), answered as
    /// text.
    pub fn new(game: &str) -> Result<Job> {
        let mut request = Request::default();
        request_game(game, &mut request)?;
        Ok(Job { request, json: false, lines: false, books: Vec::new() })
    }
}

/// How a command ended, for its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ended {
    /// Some position checked could not occur (`check` exits 1).
    pub unreachable: bool,
}

/// Answers `request` and writes its report; `Err(OverBudget)` after writing the report (unknown,
/// or partial) when the budget ran out.
fn ask_one(ask: &Job, request: &Request, meter: &Meter, out: &mut impl Write) -> Result<Ended> {
    // The given --book (refused if of another board), else the shipped one unless --no-book.
    let query =
        xo_store::book::prepare(request, ask.books.first(), xo_core::threads::Runner::Alone)
            .map_err(|e| {
                anyhow::anyhow!("{}", e.to_string().replacen("book is", "--book is", 1))
            })?;
    let result = match answer(&query, meter) {
        Ok(a) => a,
        Err(s) => query.unanswered(&s),
    };
    if ask.json {
        let json = serde_json::to_string(&result).context("cannot write the answer")?;
        writeln!(out, "{json}").context("cannot write the answer")?;
    } else {
        let value_only = query.question() == Question::Value;
        out.write_all(render_answer(&query, &result, value_only).as_bytes())
            .context("cannot write the answer")?;
    }
    if let Some(stopped) = result.stopped() {
        out.flush().context("cannot write the answer")?;
        return Err(OverBudget::from(stopped.clone()).into());
    }
    let unreachable = matches!(&result, Answer::Check(r) if r.reachable == Some(false));
    Ok(Ended { unreachable })
}

/// Runs a query command, writing to `out`.
pub fn run(ask: &Job, out: &mut impl Write) -> Result<Ended> {
    // The request's own checks first (flags that do not go together), before reading anything.
    if !ask.lines {
        ask.request.question()?;
    }
    let (meter, bar) = meter(ask.request.budget(Budget::default())?);
    let result = if ask.lines {
        run_lines(ask, &meter, out)
    } else {
        let mut request = ask.request.clone();
        request.position = position_arg(request.position.take())?;
        ask_one(ask, &request, &meter, out)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    out.flush().context("cannot write the answer")?;
    result
}

/// The longest line `--lines` reads.
const MAX_LINE: u64 = 64 << 20;

fn run_lines(ask: &Job, meter: &Meter, out: &mut impl Write) -> Result<Ended> {
    if ask.request.position.is_some() {
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
        let mut request = ask.request.clone();
        request.position = Some(text.to_string());
        match ask_one(ask, &request, meter, out) {
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
