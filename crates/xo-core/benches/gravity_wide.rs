//! Boards past the 64-bit layout (8x8, 9x7, 10x6, 16x4, k = 4): the gravity engine in 128-bit
//! words beside the general negamax they went to before, on the same middle-game positions,
//! every score asserted equal. Positions come from a seeded random game in which neither side
//! ever leaves the other a win at once (so they are real fights, not one-move wins).
//!
//! Run: `cargo bench -p xo-core --bench gravity_wide` (`XO_WIDE_N` positions per board, 6 by
//! default). Prints the mean milliseconds per position of each engine and their ratio.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::games::gravity::{GravityBoard, GravityPosition};
use xo_core::rules::parse_game;
use xo_core::solve::gravity::{to_scored, GravitySolver};
use xo_core::solve::negamax::Searcher;

/// A position of `stones` stones where no move so far let the opponent win at once and nobody
/// can win at once now; `None` when the random game ran out of such moves.
fn quiet_position(
    board: &GravityBoard<u128>,
    rng: &mut StdRng,
    stones: u32,
) -> Option<GravityPosition<u128>> {
    let mut pos = board.start();
    for _ in 0..stones {
        let safe: Vec<u32> = (0..board.width())
            .filter(|&c| board.can_play(&pos, c) && !board.is_winning_move(&pos, c))
            .filter(|&c| {
                let mut child = pos;
                board.play(&mut child, c);
                !board.can_win_next(&child)
            })
            .collect();
        if safe.is_empty() {
            return None;
        }
        board.play(&mut pos, safe[rng.random_range(0..safe.len())]);
    }
    Some(pos)
}

fn main() {
    let n: usize = std::env::var("XO_WIDE_N").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    let meter = Meter::default();
    println!(
        "{:<16} {:>3} {:>7} {:>14} {:>16} {:>8}",
        "board", "n", "stones", "gravity ms", "negamax ms", "ratio"
    );
    for (game, stones) in [
        ("connect:8,8,4", 30),
        ("connect:9,7,4", 30),
        ("connect:10,6,4", 28),
        ("connect:16,4,4", 32),
    ] {
        let rules = parse_game(game).expect("built in");
        let board = GravityBoard::<u128>::for_rules(&rules).expect("128 bits hold it");
        let general = Board::new(&rules).expect("at most 64 cells");
        let mut rng = StdRng::seed_from_u64(0x128 ^ rules.cells() as u64);
        let mut positions = Vec::new();
        while positions.len() < n {
            if let Some(p) = quiet_position(&board, &mut rng, stones) {
                positions.push(p);
            }
        }
        let mut solver = GravitySolver::new(&board, 4 << 20);
        solver.prepare(&meter).expect("no budget");
        let start = Instant::now();
        let scores: Vec<i32> =
            positions.iter().map(|p| solver.score(p, &meter).expect("no budget")).collect();
        let fast = start.elapsed().as_secs_f64() * 1e3 / n as f64;
        let mut searcher = Searcher::new(&general, 4 << 20);
        let start = Instant::now();
        for (p, &s) in positions.iter().zip(&scores) {
            let want = searcher
                .score(&general.encode_cells(&board.to_cells(p)), &Meter::unlimited())
                .expect("no budget");
            assert_eq!(to_scored(&board, p.plies(), s), want, "{game}: {:?}", board.to_cells(p));
        }
        let slow = start.elapsed().as_secs_f64() * 1e3 / n as f64;
        println!("{game:<16} {n:>3} {stones:>7} {fast:>14.2} {slow:>16.2} {:>7.0}x", slow / fast);
    }
}
