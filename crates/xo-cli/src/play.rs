//! `xo play`: a game against perfect play in the terminal, with `hint` and `undo`.
//!
//! The loop reads one command per line from any reader and writes to any writer, so tests drive it
//! with strings. Bad commands re-prompt; end of input ends the session cleanly.

use crate::render::{draw_board, move_name, parse_move, value_word};
use anyhow::Result;
use std::io::{BufRead, Write};
use xo_core::game::Game;
use xo_core::games::board::{Board, BoardMove};
use xo_core::rules::{Position, Rules};
use xo_core::solve::minimax::preference;
use xo_core::solve::negamax::{Limits, MoveScore, Searcher};

/// The most time xo takes to solve one position during a game.
const THINK: std::time::Duration = std::time::Duration::from_secs(120);

/// Which side the person plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player who moves first from the empty board (X).
    First,
    /// The other player (O).
    Second,
}

/// Plays from `start`, the person taking `side` (asked for when `None`).
///
/// ```
/// use xo_cli::play::{play, Side};
/// use xo_core::rules::{parse_game, Setup};
/// let ttt = parse_game("tictactoe").unwrap();
/// let start = Setup::parse(&ttt, "XX.OO....").unwrap().validate(&ttt).unwrap();
/// let mut out = Vec::new();
/// play(&ttt, start, Some(Side::First), &b"3\n"[..], &mut out, 16).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("You win"));
/// ```
pub fn play(
    rules: &Rules,
    start: Position,
    side: Option<Side>,
    mut input: impl BufRead,
    mut out: impl Write,
    table_mib: usize,
) -> Result<()> {
    let board = Board::new(rules)?;
    let mut searcher = Searcher::new(&board, crate::solve::table_bytes(rules, table_mib));
    searcher.set_limits(Limits { max_nodes: None, timeout: Some(THINK) });
    let mut line = String::new();
    let mut read = |line: &mut String| -> Result<bool> {
        line.clear();
        Ok(input.read_line(line)? > 0)
    };
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
        write!(out, "\n{}", draw_board(rules, &pos))?;
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
            let best = best_move(&board, &mut searcher, &pos)?;
            writeln!(out, "xo plays {}", describe(rules, &best))?;
            history.push(rules.play(&pos, (best.mv.cell as usize, best.mv.mark)));
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
                let best = best_move(&board, &mut searcher, &pos)?;
                writeln!(out, "hint: {}", describe(rules, &best))?;
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
                Some(BoardMove { cell, mark }) => {
                    history.push(rules.play(&pos, (cell as usize, mark)));
                }
                None => writeln!(out, "{command:?} is not a legal move here; type help.")?,
            },
        }
    }
}

/// A move with its value for the player making it: `5 (draw, 7 plies to go)`.
fn describe(rules: &Rules, m: &MoveScore) -> String {
    let plies = if m.scored.remoteness == 1 { "ply" } else { "plies" };
    format!(
        "{} ({}, {} {plies} to go)",
        move_name(rules, m.mv),
        value_word(m.scored.value),
        m.scored.remoteness
    )
}

/// The best move for the player to move: best value, then quickest win or slowest loss.
fn best_move(board: &Board, searcher: &mut Searcher, pos: &Position) -> Result<MoveScore> {
    let analysis = searcher.analyse(&board.encode(pos)).map_err(|_| {
        anyhow::anyhow!(
            "xo cannot solve this position within {} s; try a smaller game",
            THINK.as_secs()
        )
    })?;
    analysis
        .moves
        .into_iter()
        .max_by_key(|m| preference(m.scored))
        .ok_or_else(|| anyhow::anyhow!("no legal move"))
}
