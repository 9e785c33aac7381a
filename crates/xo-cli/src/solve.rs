//! `xo solve`: the value of a position, its remoteness, and every move's value, from the engine
//! that fits the game: the bitboard negamax for boards of up to 64 cells, the component solver for
//! LOL-like strips, Grundy values for Treblecross strips and sums of octal-game heaps.

use crate::game::{read_position, GameArg};
use crate::render::{draw_text, move_name, to_move, value_word};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::io::IsTerminal;
use std::time::Duration;
use xo_core::budget::{Budget, Meter};
use xo_core::games::board::Board;
use xo_core::games::lol::LolStrip;
use xo_core::games::octal::OctalGame;
use xo_core::games::treblecross::TreblecrossStrip;
use xo_core::rules::{Goal, Marks, Position, Rules};
use xo_core::solve::grundy::{analyse_sum, NimSequence};
use xo_core::solve::lol::LolSolver;
use xo_core::solve::negamax::{Aborted, Limits, Searcher};

/// How `xo solve` should work and report.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveOptions {
    /// Report just the value, as fast as possible.
    pub value_only: bool,
    /// The search budget.
    pub limits: Limits,
    /// Transposition table size in MiB.
    pub table_mib: usize,
}

/// One move in a report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveReport {
    /// The move's name (cell index, plus letter where the player chooses it; column under gravity).
    #[serde(rename = "move")]
    pub name: String,
    /// Its value for the player making it.
    pub value: String,
    /// Plies to the end after perfect play, counting this move; `null` when the engine does not
    /// tell it.
    pub remoteness: Option<u32>,
}

/// A winning move in a sum of heaps.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct HeapMoveReport {
    /// 1-based index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub removed: usize,
    /// Heaps left in its place.
    pub leaves: Vec<usize>,
}

/// What `xo solve` found.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SolveReport {
    /// The game's name.
    pub game: String,
    /// The position, as text.
    pub position: String,
    /// Who is to move.
    pub to_move: String,
    /// `win`, `loss`, `draw`, or `unknown` when the budget ran out.
    pub value: String,
    /// Plies to the end under perfect play, when known and asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u32>,
    /// Every legal move, unless `--value-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveReport>>,
    /// For sums of heaps: each heap's Grundy value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heap_values: Option<Vec<u32>>,
    /// For impartial games: the position's Grundy value (nim-sum of its parts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nim_sum: Option<u32>,
    /// For sums of heaps: every winning move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves: Option<Vec<HeapMoveReport>>,
    /// Which engine answered.
    pub engine: String,
    /// Anything the reader should know (a budget hit, a limit of the engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SolveReport {
    fn new(rules_name: &str, position: String, to_move: String, engine: &str) -> Self {
        SolveReport {
            game: rules_name.to_string(),
            position,
            to_move,
            value: "unknown".into(),
            remoteness: None,
            moves: None,
            heap_values: None,
            nim_sum: None,
            winning_moves: None,
            engine: engine.into(),
            note: None,
        }
    }

    fn aborted(&mut self, a: Aborted) {
        self.value = "unknown".into();
        self.remoteness = None;
        self.moves = None;
        self.note = Some(a.to_string());
    }
}

/// Solves `position` (empty board when `None`) of `game`.
///
/// ```
/// use xo_cli::game::GameArg;
/// use xo_cli::solve::{solve, SolveOptions};
/// let game = GameArg::parse("tictactoe").unwrap();
/// let r = solve(&game, Some("XX.OO...."), SolveOptions { table_mib: 16, ..Default::default() }).unwrap();
/// assert_eq!((r.value.as_str(), r.remoteness), ("win", Some(1)));
/// assert_eq!(r.moves.unwrap().iter().filter(|m| m.value == "win").count(), 1);
/// ```
pub fn solve(game: &GameArg, position: Option<&str>, opts: SolveOptions) -> Result<SolveReport> {
    match game {
        GameArg::Octal(octal) => solve_heaps(octal, position.unwrap_or(""), opts),
        GameArg::Placement(rules) => {
            let pos = read_position(rules, position)?;
            solve_placement(rules, &pos, opts)
        }
    }
}

/// When the game is LOL up to renaming letters (a strip, two shared letters, the word `pqp`, normal
/// play), the letter playing L's part.
fn lol_outer_letter(rules: &Rules) -> Option<char> {
    match (&rules.marks, &rules.goal) {
        (Marks::Shared(letters), Goal::Word(w))
            if rules.height == 1
                && !rules.gravity
                && !rules.misere
                && letters.len() == 2
                && w.len() == 3
                && w[0] == w[2]
                && w[0] != w[1] =>
        {
            Some(w[0])
        }
        _ => None,
    }
}

/// Whether the game is Treblecross: one shared mark, three in a row on a strip, normal play.
fn is_treblecross(rules: &Rules) -> bool {
    matches!((&rules.marks, &rules.goal), (Marks::Same(_), Goal::InRow(3)))
        && rules.height == 1
        && !rules.gravity
        && !rules.misere
}

fn solve_placement(rules: &Rules, pos: &Position, opts: SolveOptions) -> Result<SolveReport> {
    let text = pos.to_text(rules);
    let mover = to_move(rules, pos);
    let fits = rules.cells() <= xo_core::games::board::MAX_BOARD_CELLS;
    if let Some(outer) = lol_outer_letter(rules) {
        if opts.value_only || !fits {
            // The strip in LOL's letters: the outer letter of the word is L, the other O.
            let letters: Vec<u8> = text
                .chars()
                .map(|c| match c {
                    '.' => b'*',
                    c if c == outer => b'L',
                    _ => b'O',
                })
                .collect();
            let mut report = SolveReport::new(&rules.name, text, mover, "lol-components");
            let strip = LolStrip::parse(&letters)?;
            let mut solver = LolSolver::new();
            solver.set_limits(opts.limits);
            solver.set_memory(opts.table_mib.max(1) << 20);
            match solver.value_within(&strip) {
                Ok(v) => report.value = value_word(v).into(),
                Err(a) => report.aborted(a),
            }
            if !opts.value_only {
                report.note = Some(
                    "strips over 64 cells get the value only (no remoteness, no moves)".into(),
                );
            }
            return Ok(report);
        }
    }
    if is_treblecross(rules) && (opts.value_only || !fits) {
        return Ok(solve_treblecross(rules, pos, text, mover, opts));
    }
    if !fits {
        bail!(
            "{} has {} cells; the general solver handles boards of at most 64",
            rules.name,
            rules.cells()
        );
    }
    let board = Board::new(rules)?;
    let mut searcher = Searcher::new(&board, table_bytes(rules, opts.table_mib));
    searcher.set_limits(opts.limits);
    let bar = progress_bar();
    if let Some(bar) = &bar {
        let bar = bar.clone();
        searcher.on_progress(move |p| {
            bar.set_message(format!("{} positions, {:.1?}", p.nodes, p.elapsed));
        });
    }
    let bits = board.encode(pos);
    let mut report = SolveReport::new(&rules.name, text, mover, "negamax");
    if opts.value_only {
        match searcher.value(&bits) {
            Ok(v) => report.value = value_word(v).into(),
            Err(a) => report.aborted(a),
        }
    } else {
        match searcher.analyse(&bits) {
            Ok(a) => {
                report.value = value_word(a.scored.value).into();
                report.remoteness = Some(a.scored.remoteness);
                report.moves = Some(
                    a.moves
                        .iter()
                        .map(|m| MoveReport {
                            name: move_name(rules, m.mv),
                            value: value_word(m.scored.value).into(),
                            remoteness: Some(m.scored.remoteness),
                        })
                        .collect(),
                );
            }
            Err(a) => report.aborted(a),
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(report)
}

/// The transposition table's size: the setting, but no larger than a small board can use (about
/// 32 bytes for each of its 3^cells positions).
pub fn table_bytes(rules: &Rules, table_mib: usize) -> usize {
    let most =
        3usize.checked_pow(rules.cells() as u32).map_or(usize::MAX, |n| n.saturating_mul(32));
    (table_mib.max(1) << 20).min(most)
}

/// Treblecross by Grundy values: any length, value and each move's value (no remoteness).
fn solve_treblecross(
    rules: &Rules,
    pos: &Position,
    text: String,
    mover: String,
    opts: SolveOptions,
) -> SolveReport {
    let value_only = opts.value_only;
    let bytes: Vec<u8> = pos.cells().iter().map(|&c| if c == 0 { b'.' } else { b'X' }).collect();
    let mut report = SolveReport::new(&rules.name, text, mover, "grundy");
    let Ok(strip) = TreblecrossStrip::parse(&bytes) else {
        // Strips under three cells: no three in a row can ever stand; the strip fills up.
        report.value = "draw".into();
        report.remoteness = Some(pos.cells().iter().filter(|&&c| c == 0).count() as u32);
        return report;
    };
    let mut seq = NimSequence::new(OctalGame::dot007());
    let analysis = match strip.analyse_within(&mut seq, &grundy_meter(opts)) {
        Ok(analysis) => analysis,
        Err(stopped) => {
            report.note = Some(stopped.to_string());
            return report;
        }
    };
    report.value = if analysis.winning { "win" } else { "loss" }.into();
    if !value_only && !strip.is_won() {
        let winning: std::collections::HashSet<usize> =
            analysis.winning_moves.iter().copied().collect();
        report.moves = Some(
            (0..strip.len())
                .filter(|&i| !strip.cells()[i])
                .map(|i| MoveReport {
                    name: (i + 1).to_string(),
                    value: if winning.contains(&i) { "win" } else { "loss" }.into(),
                    remoteness: None,
                })
                .collect(),
        );
        report.note = Some("Grundy analysis: values of moves, no remoteness".into());
    }
    report
}

/// A sum of heaps of an octal game, written as heap sizes separated by spaces.
fn solve_heaps(game: &OctalGame, heaps_text: &str, opts: SolveOptions) -> Result<SolveReport> {
    let heaps: Vec<usize> = heaps_text
        .split_whitespace()
        .map(|h| {
            h.parse::<usize>().with_context(|| format!("heap size {h:?} is not a whole number"))
        })
        .collect::<Result<_>>()?;
    let mut report = SolveReport::new(
        &format!("octal:{game}"),
        heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" "),
        "first player".into(),
        "grundy",
    );
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let limit = xo_core::solve::grundy::max_heap(game);
    if largest > limit {
        bail!("heap {largest} is too large: at most {limit} tokens for this game");
    }
    let mut seq = NimSequence::new(game.clone());
    if let Err(stopped) = seq.extend_within(largest, &grundy_meter(opts)) {
        report.note = Some(stopped.to_string());
        return Ok(report);
    }
    let a = analyse_sum(&mut seq, &heaps)?;
    report.value = value_word(a.value).into();
    report.heap_values = Some(a.heap_values.clone());
    report.nim_sum = Some(a.nim_sum);
    report.winning_moves = Some(
        a.winning_moves
            .iter()
            .map(|m| HeapMoveReport {
                heap: m.heap + 1,
                removed: m.removed,
                leaves: m.leaves.clone(),
            })
            .collect(),
    );
    Ok(report)
}

/// The budget of Grundy values: `--timeout` if given, else ten minutes, so no query runs on
/// unbounded.
fn grundy_meter(opts: SolveOptions) -> Meter<'static> {
    Meter::new(
        Budget::default().with_timeout(opts.limits.timeout.unwrap_or(Duration::from_secs(600))),
    )
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// The report as people read it.
/// `width` is the board's, for placement games; heap sums have none.
pub fn render_text(report: &SolveReport, width: Option<u32>) -> String {
    let mut out = format!("{}: {} to move\n", report.game, report.to_move);
    if let Some(width) = width {
        out.push_str(&draw_text(&report.position, width as usize));
    } else {
        out.push_str(&format!("  heaps: {}\n", report.position));
    }
    out.push_str(&format!("value: {}", report.value));
    if let Some(r) = report.remoteness {
        out.push_str(&format!(" in {r} {}", if r == 1 { "ply" } else { "plies" }));
    }
    out.push('\n');
    if let (Some(values), Some(nim)) = (&report.heap_values, report.nim_sum) {
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        out.push_str(&format!("heap values: {} (nim-sum {nim})\n", shown.join(" ")));
    }
    if let Some(moves) = &report.winning_moves {
        out.push_str(&format!("winning moves: {}\n", moves.len()));
        for m in moves {
            let leaves: Vec<String> = m.leaves.iter().map(|l| l.to_string()).collect();
            let left = if leaves.is_empty() { "nothing".into() } else { leaves.join(" + ") };
            out.push_str(&format!("  heap {}: remove {}, leaving {left}\n", m.heap, m.removed));
        }
    }
    if let Some(moves) = &report.moves {
        out.push_str("move    value  remoteness\n");
        for m in moves {
            let r = m.remoteness.map_or("-".to_string(), |r| r.to_string());
            out.push_str(&format!("{:<7} {:<6} {r}\n", m.name, m.value));
        }
    }
    if let Some(note) = &report.note {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}
