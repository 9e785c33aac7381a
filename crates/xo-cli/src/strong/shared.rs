//! What the strong solve's driver and its transports (the one process here, the MPI ranks in
//! `crate::distributed`) share: the game checked for a solve, the `made by` string, the peak memory.
//! In a file of its own so that `driver` and `single` take it from here rather than from the
//! module that runs them.

use crate::game::resolve_game;
use anyhow::{bail, Result};
use xo_core::games::board::{Board, MAX_BOARD_CELLS};
use xo_core::query::Game;
use xo_core::rules::Rules;
use xo_core::solve::strong::{tiers, Tier};

/// The `made by` string of every tier file this xo writes, single-process or distributed (the
/// two make the same bytes).
pub fn made_by() -> String {
    format!("xo {} (tiered retrograde solve)", env!("CARGO_PKG_VERSION"))
}

/// Peak resident memory of this process, from /proc (0 where unknown).
pub fn peak_memory_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The game `game` checked for a strong solve: its rules, board and tiers (bad input: an octal
/// game, a board too large, tiers that cannot be numbered).
pub fn prepare(game: &str) -> Result<(Rules, Board, Vec<Tier>)> {
    let Game::Placement(rules) = resolve_game(game, None)? else {
        bail!("--strong solves placement games; octal games have nim-sequences (xo grundy)");
    };
    if rules.cells() > MAX_BOARD_CELLS {
        bail!(
            "--strong takes boards of at most {MAX_BOARD_CELLS} cells; {} has {}",
            rules.name(),
            rules.cells()
        );
    }
    let board = Board::new(&rules)?;
    let Some(tiers) = tiers(&board) else {
        bail!(
            "{} has tiers of more than 2^64 positions: a strong solve of it is beyond any memory",
            rules.name()
        );
    };
    Ok((rules, board, tiers))
}
