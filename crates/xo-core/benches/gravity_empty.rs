//! Empty boards of Connect Four's family (k = 4) solved exactly by the gravity engine, every
//! score asserted against the published tables (John Tromp's for widths and heights 4 to 7,
//! Christophe Steininger's for the boards of width + height up to 16): seconds, positions and
//! the length of perfect play.
//!
//! Run: `cargo bench -p xo-core --bench gravity_empty` (the Connect Four sizes 6x6, 7x5, 6x7 and
//! 7x6); `XO_EMPTY=large` for the twelve boards of at most 45 cells past Tromp's table;
//! `XO_EMPTY=8x4,9x5` to choose; `XO_THREADS=N` (default: every core), `XO_TABLE_MIB=N` (default:
//! what `xo solve` takes with its default budget). The side-by-side comparison with
//! Steininger's solver is the whole command (`xo solve connect:W,H,4 --no-moves`) against his,
//! in one run, by the script docs/connect-four.md names.

use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::gravity::GravityBoard;
use xo_core::solve::gravity::{to_scored, GravitySolver};

/// Published results: (width, height, Pons' score of the empty board). A score `s > 0` is a
/// first-player win with their stone of ply `W*H + 2 - 2s` (or `+1`), `s < 0` a second-player
/// win, 0 a draw.
const PUBLISHED: [(u32, u32, i32); 16] = [
    (6, 6, -1),
    (7, 5, 0),
    (6, 7, 1),
    (7, 6, 1),
    (8, 4, -1),
    (9, 4, -1),
    (10, 4, -1),
    (11, 4, -1),
    (8, 5, 1),
    (9, 5, 3),
    (4, 8, 0),
    (5, 8, 0),
    (4, 9, 0),
    (5, 9, 0),
    (4, 10, 0),
    (4, 11, 0),
];

fn main() {
    let chosen = std::env::var("XO_EMPTY").unwrap_or_else(|_| "6x6,7x5,6x7,7x6".into());
    let boards: Vec<(u32, u32)> = if chosen == "large" {
        PUBLISHED[4..].iter().map(|&(w, h, _)| (w, h)).collect()
    } else {
        chosen
            .split(',')
            .filter_map(|b| b.split_once('x'))
            .filter_map(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .collect()
    };
    let threads: usize = std::env::var("XO_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let table_mib: Option<u64> = std::env::var("XO_TABLE_MIB").ok().and_then(|v| v.parse().ok());
    println!(
        "{:<6} {:>6} {:>22} {:>14} {:>10}",
        "board", "score", "result", "positions", "seconds"
    );
    for (w, h) in boards {
        let published = PUBLISHED.iter().find(|p| (p.0, p.1) == (w, h)).map(|p| p.2);
        let board = GravityBoard::new(w, h, 4).expect("the board fits the 64-bit layout");
        let bytes = match table_mib {
            Some(mib) => (mib << 20) as usize,
            None => GravitySolver::suggested_table_bytes(&board, 0, 2 << 30),
        };
        let mut solver = GravitySolver::new(&board, bytes);
        solver.set_threads(threads);
        let start = Instant::now();
        let score = solver.score(&board.start(), &Meter::default()).expect("no budget");
        let secs = start.elapsed().as_secs_f64();
        if let Some(p) = published {
            assert_eq!(score, p, "{w}x{h}: the published score is {p}");
        }
        let s = to_scored(&board, 0, score);
        let result = format!("{:?} in {} plies", s.value, s.remoteness);
        println!(
            "{:<6} {score:>6} {result:>22} {:>14} {secs:>10.2}",
            format!("{w}x{h}"),
            solver.nodes()
        );
    }
}
