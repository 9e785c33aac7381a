//! Reports as people read them: boards drawn row by row, values, remoteness and moves in
//! columns. JSON needs no code here: the core's reports serialise themselves.

use xo_core::query::{Answer, CheckReport, CountReport, LengthSplit, Query, SolveReport};
use xo_core::rules::Position;

/// The board drawn row by row, with `.` for empty cells.
pub fn draw_board(pos: &Position) -> String {
    draw_text(&pos.to_text(), pos.rules().width() as usize)
}

/// Position text drawn as rows of `width` cells.
///
/// ```
/// use xo_cli::render::draw_text;
/// assert_eq!(draw_text("XO.....X.", 3), "  X O .\n  . . .\n  . X .\n");
/// ```
pub fn draw_text(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() * 2 + text.len() / width.max(1) * 3);
    for (i, c) in text.chars().enumerate() {
        let col = i % width.max(1);
        out.push_str(if col == 0 { "  " } else { " " });
        out.push(c);
        if col + 1 == width.max(1) {
            out.push('\n');
        }
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// "N ply" or "N plies".
pub fn plies(n: u32) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// The answer to `query` as text; with `value_only`, just the value.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_cli::render::render_answer;
/// use xo_core::budget::Meter;
/// use xo_core::query::{answer, Query, Question};
/// let q = Request::new("tictactoe").at("XX.OO....").asking(Question::Value).prepare(&[], Runner::Pool).unwrap();
/// let a = answer(&q, &Meter::new(Default::default())).unwrap();
/// assert_eq!(render_answer(&q, &a, true), "win\n");
/// ```
pub fn render_answer(query: &Query, answer: &Answer, value_only: bool) -> String {
    match answer {
        Answer::Solve(r) if value_only => {
            format!("{}\n", r.value.map_or("unknown".to_string(), |v| v.to_string()))
        }
        Answer::Solve(r) => render_solve(query, r),
        Answer::Count(r) => render_count(query, r),
        Answer::Check(r) => render_check(r),
        Answer::Sequence(r) => {
            let mut out = Vec::new();
            // Writing to memory cannot fail.
            let _ = crate::grundy::write_text(r, &mut out);
            String::from_utf8_lossy(&out).into_owned()
        }
        Answer::Moves(r) => {
            let mut out =
                heading(query, &format!("{}: {} to move", r.game, r.to_move), &r.position);
            if r.over {
                out.push_str("the game is over: no moves\n");
            }
            for m in &r.moves {
                out.push_str(&format!("{:<7} {}\n", m.name, m.position));
            }
            out
        }
        Answer::After(r) => {
            let width = query.rules().map_or(1, |rules| rules.width() as usize);
            let over = if r.over { " (the game is over)" } else { "" };
            format!(
                "{} after {}: {} to move{over}\n{}",
                r.game,
                r.name,
                r.to_move,
                draw_text(&r.after, width)
            )
        }
        Answer::Best(r) => {
            let mut out =
                heading(query, &format!("{}: {} to move", r.game, r.to_move), &r.position);
            match &r.best {
                Some(m) => {
                    let n = m.remoteness.map_or(String::new(), |n| format!(" in {}", plies(n)));
                    out.push_str(&format!("best move: {} ({}{n})\n", m.name, m.value));
                }
                None => out.push_str("best move: none\n"),
            }
            if query.depth().is_some() {
                out.push_str(&format!(
                    "note: not proven (the best of a look-ahead {} deep, as asked with --depth)\n",
                    plies(r.look_ahead_plies.unwrap_or(0))
                ));
            } else if !r.proven {
                out.push_str(&format!(
                    "note: not proven (the best of a look-ahead {} deep: the exact answer ran \
                     out of budget)\n",
                    plies(r.look_ahead_plies.unwrap_or(0))
                ));
            }
            if let Some(reason) = r.reason.as_ref().filter(|_| query.depth().is_none()) {
                out.push_str(&format!("note: {reason}\n"));
            }
            out
        }
        Answer::Stopped(r) => format!("unknown: {}\n", r.error),
        Answer::UnknownSequence(r) => format!("{}: unknown: {}\n", r.game, r.reason),
    }
}

fn heading(query: &Query, game: &str, position: &str) -> String {
    match query.rules() {
        Some(rules) => format!("{game}\n{}", draw_text(position, rules.width() as usize)),
        None => format!("{game}\n  heaps: {position}\n"),
    }
}

fn render_solve(query: &Query, r: &SolveReport) -> String {
    let mut out = heading(query, &format!("{}: {} to move", r.game, r.to_move), &r.position);
    out.push_str(&format!("value: {}", r.value.map_or("unknown".to_string(), |v| v.to_string())));
    if let Some(n) = r.remoteness {
        out.push_str(&format!(" in {}", plies(n)));
    }
    if let Some(score) = r.score {
        out.push_str(&format!(", score {score}"));
    }
    out.push('\n');
    if let (Some(values), Some(nim)) = (&r.heap_values, r.nim_sum) {
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        out.push_str(&format!("heap values: {} (nim-sum {nim})\n", shown.join(" ")));
    }
    if let Some(moves) = &r.winning_moves {
        out.push_str(&format!("winning moves: {}\n", moves.len()));
        for m in moves {
            let leaves: Vec<String> = m.leaves.iter().map(|l| l.to_string()).collect();
            let left = if leaves.is_empty() { "nothing".into() } else { leaves.join(" + ") };
            out.push_str(&format!("  heap {}: remove {}, leaving {left}\n", m.heap, m.removed));
        }
    }
    if let Some(moves) = &r.heap_moves {
        out.push_str(&format!("{:<32} value  remoteness\n", "move"));
        for m in moves {
            let leaves: Vec<String> = m.leaves.iter().map(|l| l.to_string()).collect();
            let left = if leaves.is_empty() { "nothing".into() } else { leaves.join(" + ") };
            let name = format!("heap {}: remove {}, leaving {left}", m.heap, m.removed);
            out.push_str(&format!("{name:<32} {:<6} {}\n", m.value.to_string(), m.remoteness));
        }
    }
    if let Some(moves) = &r.moves {
        // Gravity games tell Pons' score of every move too.
        let scored = moves.iter().any(|m| m.score.is_some());
        out.push_str(if scored {
            "move    value  remoteness  score\n"
        } else {
            "move    value  remoteness\n"
        });
        for m in moves {
            let n = m.remoteness.map_or("-".to_string(), |n| n.to_string());
            match m.score {
                Some(score) if scored => out.push_str(&format!(
                    "{:<7} {:<6} {n:<11} {score}\n",
                    m.name,
                    m.value.to_string()
                )),
                _ => out.push_str(&format!("{:<7} {:<6} {n}\n", m.name, m.value.to_string())),
            }
        }
        if moves.iter().any(|m| m.line.is_some()) {
            out.push_str("lines (the move, then perfect play to the end):\n");
            for m in moves {
                let line = m.line.as_deref().unwrap_or_default().join(" ");
                out.push_str(&format!("{:<7} {line}\n", m.name));
            }
        }
    }
    if let Some(t) = &r.threats {
        out.push_str(&threats_text(t));
    }
    if let Some(note) = &r.note {
        out.push_str(&format!("note: {note}\n"));
    }
    if let Some(reason) = &r.reason {
        out.push_str(&format!("note: {reason}\n"));
    }
    out
}

fn render_count(query: &Query, r: &CountReport) -> String {
    let mut out = heading(query, &r.game, &r.position);
    if let (Some(c), Some(positions)) = (&r.counts, r.positions) {
        out.push_str(&format!(
            "games: {}\n  first player wins:  {}\n  second player wins: {}\n  draws:              {}\npositions: {positions}\n",
            c.games, c.first_player_wins, c.second_player_wins, c.draws
        ));
    }
    if let Some(LengthSplit::Known(lengths)) = &r.by_length {
        out.push_str("moves  games  first  second  draws\n");
        for l in lengths {
            let c = &l.counts;
            out.push_str(&format!(
                "{:<5}  {}  {}  {}  {}\n",
                l.moves, c.games, c.first_player_wins, c.second_player_wins, c.draws
            ));
        }
    }
    if let Some(reason) = &r.reason {
        out.push_str(&format!("games: unknown\nnote: {reason}\n"));
    }
    out
}

fn render_check(r: &CheckReport) -> String {
    match (r.reachable, &r.reason) {
        (Some(true), _) => "reachable\n".into(),
        (Some(false), Some(reason)) => format!("unreachable: {reason}\n"),
        (Some(false), None) => "unreachable\n".into(),
        (None, reason) => format!("unknown: {}\n", reason.as_deref().unwrap_or("")),
    }
}

/// The threats of a solve report as text: each side's cells (odd and even rows, those playable
/// now) and who holds the parity.
///
/// ```
/// use xo_core::query::{answer, Answer};
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// let mut r = Request::new("connect4").columns("445566");
/// r.threats = true;
/// r.no_moves = true;
/// let q = r.prepare(&[], Runner::Pool).unwrap();
/// let Answer::Solve(report) = answer(&q, &Default::default()).unwrap() else { panic!() };
/// let text = xo_cli::render::threats_text(report.threats.as_ref().unwrap());
/// assert!(text.starts_with("threats of the first player: c1 g1 (odd rows 2, even rows 0; playable now: c1 g1)\n"), "{text}");
/// ```
pub fn threats_text(t: &xo_core::query::Threats) -> String {
    let side = |name: &str, s: &xo_core::query::SideThreats| {
        if s.cells.is_empty() {
            return format!("threats of the {name}: none\n");
        }
        let playable =
            if s.playable.is_empty() { "none".to_string() } else { s.playable.join(" ") };
        format!(
            "threats of the {name}: {} (odd rows {}, even rows {}; playable now: {playable})\n",
            s.cells.join(" "),
            s.odd,
            s.even
        )
    };
    let mut out = side("first player", &t.first) + &side("second player", &t.second);
    if let Some(parity) = t.parity {
        out.push_str(&format!(
            "parity (first player's odd-row threats, second player's even-row ones): {parity}\n"
        ));
    }
    out
}
