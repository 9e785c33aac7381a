//! `xo count` and `xo check`: games by outcome (and by length), distinct positions, and whether a
//! position can arise at all.

use crate::game::read_position;
use crate::render::draw_text;
use anyhow::Result;
use serde::Serialize;
use std::io::IsTerminal;
use xo_core::games::board::Board;
use xo_core::rules::{Rules, Setup};
use xo_core::solve::count::GameCounts;
use xo_core::solve::enumerate::census_with;
use xo_core::solve::reach::check_position;

/// Games by outcome, as `xo count --json` prints them.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct OutcomeCounts {
    /// Games the first player wins (X; in strip games the player to move at an even number of
    /// filled cells).
    pub first_player_wins: u128,
    /// Games the second player wins.
    pub second_player_wins: u128,
    /// Games nobody wins.
    pub draws: u128,
    /// All games.
    pub games: u128,
}

impl From<GameCounts> for OutcomeCounts {
    fn from(c: GameCounts) -> Self {
        OutcomeCounts {
            first_player_wins: c.first,
            second_player_wins: c.second,
            draws: c.draws,
            games: c.total(),
        }
    }
}

/// Games ending after a given number of moves.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LengthCounts {
    /// Moves in the whole game, counted from the empty board.
    pub moves: usize,
    /// The games of that length, by outcome.
    #[serde(flatten)]
    pub counts: OutcomeCounts,
}

/// What `xo count` found.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CountReport {
    /// The game's name.
    pub game: String,
    /// The position counted from.
    pub position: String,
    /// Games by outcome.
    #[serde(flatten)]
    pub counts: OutcomeCounts,
    /// Distinct positions reachable from the position, itself included.
    pub positions: u128,
    /// With `--by-length`: the split by game length (lengths with no game left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_length: Option<Vec<LengthCounts>>,
}

/// Counts the games from `position` (the empty board when `None`).
///
/// ```
/// use xo_cli::count::count;
/// use xo_core::rules::parse_game;
/// let r = count(&parse_game("tictactoe").unwrap(), None, true, 1 << 20, false).unwrap();
/// assert_eq!((r.counts.first_player_wins, r.counts.games, r.positions), (131_184, 255_168, 5_478));
/// assert_eq!(r.by_length.unwrap()[0].moves, 5);
/// ```
pub fn count(
    rules: &Rules,
    position: Option<&str>,
    by_length: bool,
    max_positions: usize,
    dense: bool,
) -> Result<CountReport> {
    let pos = read_position(rules, position)?;
    let board = Board::new(rules)?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(rules.cells() as u64 + 1);
        bar.set_message("depth");
        bar
    });
    let c = census_with(&board, &board.encode(&pos), max_positions, dense, |depth, n| {
        if let Some(bar) = &bar {
            bar.set_position(depth as u64);
            bar.set_message(format!("{n} positions at depth {depth}"));
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(CountReport {
        game: rules.name.clone(),
        position: pos.to_text(rules),
        counts: c.games.into(),
        positions: c.positions,
        by_length: by_length.then(|| {
            c.by_length
                .iter()
                .enumerate()
                .filter(|(_, g)| g.total() > 0)
                .map(|(moves, &g)| LengthCounts { moves, counts: g.into() })
                .collect()
        }),
    })
}

/// The count as people read it.
pub fn render_count(report: &CountReport, rules: &Rules) -> String {
    let c = &report.counts;
    let mut out = format!("{}\n", report.game);
    out.push_str(&draw_text(&report.position, rules.width as usize));
    out.push_str(&format!(
        "games: {}\n  first player wins:  {}\n  second player wins: {}\n  draws:              {}\npositions: {}\n",
        c.games, c.first_player_wins, c.second_player_wins, c.draws, report.positions
    ));
    if let Some(lengths) = &report.by_length {
        out.push_str("moves  games  first  second  draws\n");
        for l in lengths {
            let c = &l.counts;
            out.push_str(&format!(
                "{:<5}  {}  {}  {}  {}\n",
                l.moves, c.games, c.first_player_wins, c.second_player_wins, c.draws
            ));
        }
    }
    out
}

/// What `xo check` found.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CheckReport {
    /// The game's name.
    pub game: String,
    /// The position checked.
    pub position: String,
    /// Whether some legal game from the empty board reaches it.
    pub reachable: bool,
    /// Why not, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Checks whether `position` of `rules` can arise in a legal game.
///
/// ```
/// use xo_cli::count::check;
/// use xo_core::rules::parse_game;
/// let ttt = parse_game("tictactoe").unwrap();
/// assert!(check(&ttt, "XO.......").unwrap().reachable);
/// let r = check(&ttt, "OOOXXX...").unwrap();
/// assert_eq!(r.reason.unwrap(), "both players have a line; the game stops at the first");
/// ```
pub fn check(rules: &Rules, position: &str) -> Result<CheckReport> {
    let setup = Setup::parse(rules, position)?;
    let verdict = check_position(rules, &setup, 1 << 24)?;
    Ok(CheckReport {
        game: rules.name.clone(),
        position: setup.to_text(rules),
        reachable: verdict.is_none(),
        reason: verdict.map(|r| r.to_string()),
    })
}
