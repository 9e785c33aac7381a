//! `xo play`: a game against perfect play in the terminal, with `hint` and `undo`.
//!
//! The loop reads one command per line from any reader and writes to any writer, so tests drive it
//! with strings. Bad commands re-prompt; end of input ends the session cleanly.

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::{read_line_within, resolve_game};
use crate::render::{draw_board, plies};
use anyhow::Result;
use std::io::{BufRead, Write};

/// The longest line `play` reads (the position with `-`, then one command a line).
const MAX_LINE: u64 = 1 << 20;
use xo_core::game::GameTree as _;
use xo_core::games::board::BoardMove;
use xo_core::query::{answer, Answer, Game, MoveReport, Question};
use xo_core::request::Request;
use xo_core::rules::{parse_move, Position, Rules};
use xo_core::threads::Runner;

/// Which side the person plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player who moves first from the empty board (X).
    First,
    /// The other player (O).
    Second,
}

/// Plays `game` from `position` (the empty board when `None`; `-` reads it from the first line of
/// `input`, the moves following it), the person taking `side` (asked for when `None`); each of
/// xo's replies (and hints) runs within `budget`, consulting the opening book xo ships for the
/// game (Connect Four's) when `book`.
///
/// ```
/// use clap::Parser;
/// use xo_cli::budget::BudgetArgs;
/// use xo_cli::play::{play, Side};
/// #[derive(Parser)]
/// struct Args { #[command(flatten)] budget: BudgetArgs }
/// let budget = Args::parse_from(["xo"]).budget;
/// let mut out = Vec::new();
/// let (input, book) = (&b"3\n"[..], true);
/// play("tictactoe", Some("XX.OO...."), Some(Side::First), input, &mut out, budget, book).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("You win"));
/// ```
pub fn play(
    game: &str,
    position: Option<&str>,
    side: Option<Side>,
    mut input: impl BufRead,
    mut out: impl Write,
    budget: BudgetArgs,
    book: bool,
) -> Result<()> {
    // Lines of standard input read so far (for messages), each at most MAX_LINE bytes.
    let mut number = 0;
    let mut read = |line: &mut String| -> Result<bool> {
        number += 1;
        read_line_within(&mut input, line, MAX_LINE, number)
    };
    let first_line;
    let position = match position {
        Some("-") => {
            let mut line = String::new();
            read(&mut line)?;
            first_line = line;
            Some(first_line.as_str())
        }
        other => other,
    };
    let game = resolve_game(game, position)?;
    // The same checks as `xo solve`: the position can occur, and the board fits the search.
    let mut request = Request::for_game(&game).asking(Question::Analysis { winning_only: false });
    request.position = position.map(str::to_string);
    let query = request.prepare(&[], Runner::Pool)?;
    let (Game::Placement(rules), Some(start)) = (query.game(), query.position()) else {
        anyhow::bail!("xo play takes a placement game, not an octal game");
    };
    if rules.cells() > xo_core::games::board::MAX_BOARD_CELLS {
        anyhow::bail!(
            "xo play takes boards of at most 64 cells; {} has {}",
            rules.name(),
            rules.cells()
        );
    }
    let (rules, start) = (rules.clone(), start.clone());
    let rules = &rules;
    let mut line = String::new();
    let side = match side {
        Some(s) => s,
        None => loop {
            write!(out, "Play first (X) or second (O)? [1/2] ")?;
            out.flush()?;
            if !read(&mut line)? {
                writeln!(out)?;
                return Ok(());
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "1" | "first" | "x" => break Side::First,
                "2" | "second" | "o" => break Side::Second,
                other => writeln!(out, "Please answer 1 or 2, not {other:?}.")?,
            }
        },
    };
    let mut history = vec![start];
    let human_moves = |pos: &Position| pos.plies().is_multiple_of(2) == (side == Side::First);
    loop {
        let pos = history.last().expect("history starts with the start").clone();
        write!(out, "\n{}", draw_board(&pos))?;
        if let Some(value) = rules.outcome(&pos) {
            let person_to_move = human_moves(&pos);
            let verdict = match (value, person_to_move) {
                (xo_core::Value::Draw, _) => "Draw.",
                (xo_core::Value::Loss, true) | (xo_core::Value::Win, false) => "xo wins.",
                _ => "You win!",
            };
            writeln!(out, "{verdict}")?;
            return Ok(());
        }
        if !human_moves(&pos) {
            let (best, unproven) = best_move(rules, &pos, budget, book)?;
            match unproven {
                // Never a random move: the look-ahead's, said to be one, and the game goes on.
                Some(why) => writeln!(out, "xo plays {} ({why})", best.name)?,
                None => writeln!(out, "xo plays {}", describe(&best))?,
            }
            let mv = parse_move(rules, &pos, &best.name)
                .ok_or_else(|| anyhow::anyhow!("xo's move {} is not legal here", best.name))?;
            history.push(rules.play(&pos, (mv.cell as usize, mv.mark)));
            continue;
        }
        write!(out, "your move (or hint, undo, quit)> ")?;
        out.flush()?;
        if !read(&mut line)? {
            writeln!(out)?;
            return Ok(());
        }
        let command = line.trim();
        match command.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => writeln!(
                out,
                "Type a move (a cell number, a letter after it where you choose the letter, a \
                 column under gravity), hint, undo or quit."
            )?,
            "hint" => {
                let (best, unproven) = best_move(rules, &pos, budget, book)?;
                match unproven {
                    Some(why) => writeln!(out, "hint: {} ({why})", best.name)?,
                    None => writeln!(out, "hint: {}", describe(&best))?,
                }
            }
            "undo" => {
                // Back to the person's previous turn: their move and xo's reply.
                let mut undone = false;
                while history.len() > 1 {
                    history.pop();
                    if human_moves(history.last().expect("non-empty")) {
                        undone = true;
                        break;
                    }
                }
                if !undone {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            _ => match parse_move(rules, &pos, command) {
                Some(BoardMove { cell, mark, .. }) => {
                    history.push(rules.play(&pos, (cell as usize, mark)));
                }
                None => writeln!(out, "{command:?} is not a legal move here; type help.")?,
            },
        }
    }
}

/// A move with its value for the player making it: `5 (draw, 7 plies to go)`.
fn describe(m: &MoveReport) -> String {
    match m.remoteness {
        Some(n) => format!("{} ({}, {} to go)", m.name, m.value, plies(n)),
        None => format!("{} ({})", m.name, m.value),
    }
}

/// The best move for the player to move, within `budget`, by the core's one tie rule (best
/// value, then the quickest win or the longest draw or loss, then board order). Over the budget,
/// the core's look-ahead move with the stop (the caller shows it as unproven and stops).
/// The best move of `pos`, and, when it is not proven (the exact answer ran out of budget and a
/// look-ahead chose it), why, in words naming the budget and the flag that raises it.
fn best_move(
    rules: &Rules,
    pos: &Position,
    budget: BudgetArgs,
    book: bool,
) -> Result<(MoveReport, Option<String>)> {
    let text = pos.to_text();
    let request = Request { no_book: !book, ..Request::for_game(&Game::Placement(rules.clone())) }
        .at(&text)
        .asking(Question::Best);
    let query = xo_store::book::prepare(&request, None, Runner::Alone)?;
    let (meter, bar) = budget.meter();
    let answered = answer(&query, &meter);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = match answered.map_err(OverBudget::from)? {
        Answer::Best(report) => report,
        _ => anyhow::bail!("the core answered a best-move question with another report"),
    };
    let unproven = report.stopped.filter(|_| !report.proven).map(|stopped| {
        format!(
            "not proven: the best of a look-ahead {} deep, as {}",
            crate::render::plies(report.look_ahead_plies.unwrap_or(0)),
            OverBudget::from(stopped)
        )
    });
    match report.best {
        Some(best) => Ok((best, unproven)),
        None => anyhow::bail!("no legal move"),
    }
}
