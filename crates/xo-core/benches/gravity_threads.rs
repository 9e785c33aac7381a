//! The gravity engine on one thread beside all the machine's threads (one shared table), on the
//! same work, every answer asserted equal: empty boards (the score), Pons' begin-hard positions
//! (the score) and his begin-easy and begin-medium positions (every move's score, which the
//! threads share out move by move).
//!
//! Run: `cargo bench -p xo-core --bench gravity_threads` (`XO_THREADS=N` to choose the threads;
//! `XO_C4_N` positions per set, 4 by default; `XO_EMPTY=6x6,7x5` to choose the empty boards).
//! Prints seconds per item and the speed-up.

use std::time::Instant;

use xo_core::budget::Meter;
use xo_core::games::gravity::GravityBoard;
use xo_core::solve::gravity::GravitySolver;

/// Runs `work` with a solver of `threads` threads and a `table_bytes` table (allocated first):
/// the seconds it took and what it returned.
fn timed<T>(
    board: &GravityBoard,
    table_bytes: usize,
    threads: usize,
    work: impl Fn(&mut GravitySolver) -> T,
) -> (f64, T) {
    let mut solver = GravitySolver::new(board, table_bytes);
    solver.set_threads(threads);
    solver.prepare(&Meter::default()).expect("no budget");
    let start = Instant::now();
    let out = work(&mut solver);
    (start.elapsed().as_secs_f64(), out)
}

fn main() {
    let threads: usize = std::env::var("XO_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let take: usize = std::env::var("XO_C4_N").ok().and_then(|v| v.parse().ok()).unwrap_or(4);
    let meter = Meter::default();
    println!(
        "{:<34} {:>10} {:>12} {:>8}",
        "work",
        "1 thread s",
        format!("{threads} threads s"),
        "speed-up"
    );
    let row = |name: &str, one: f64, many: f64| {
        println!("{name:<34} {one:>10.3} {many:>12.3} {:>7.2}x", one / many);
    };

    // `XO_EMPTY=6x6,7x5` to choose the empty boards.
    let empty: Vec<(u32, u32)> = std::env::var("XO_EMPTY")
        .unwrap_or_else(|_| "6x6,7x5,6x7".into())
        .split(',')
        .filter_map(|b| b.split_once('x'))
        .filter_map(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .collect();
    for (w, h) in empty {
        let board = GravityBoard::new(w, h, 4).expect("fits");
        let score = |s: &mut GravitySolver| s.score(&board.start(), &meter).expect("no budget");
        let (one, a) = timed(&board, 256 << 20, 1, score);
        let (many, b) = timed(&board, 256 << 20, threads, score);
        assert_eq!(a, b, "{w}x{h}");
        row(&format!("empty {w}x{h} (score {a})"), one, many);
    }

    let c4 = GravityBoard::new(7, 6, 4).expect("fits");
    for (set, every_move) in [("Test_L1_R3", false), ("Test_L1_R1", true), ("Test_L1_R2", true)] {
        let lines: Vec<(String, i32)> =
            xo_test_support::pons::pons_set(set).into_iter().take(take).collect();
        let run = |s: &mut GravitySolver| {
            let mut out = Vec::new();
            for (moves, want) in &lines {
                let (moves, want) = (moves.as_str(), *want);
                let pos = c4.from_moves(moves).expect("a legal game");
                if every_move {
                    let scores = s.move_scores(&pos, &meter).expect("no budget");
                    let best = scores.iter().filter_map(|&(_, s)| s).max().expect("a move");
                    assert_eq!(best, want, "{set}: {moves}");
                    out.push(scores);
                } else {
                    let score = s.score(&pos, &meter).expect("no budget");
                    assert_eq!(score, want, "{set}: {moves}");
                }
            }
            out
        };
        let (one, a) = timed(&c4, 4 << 20, 1, run);
        let (many, b) = timed(&c4, 4 << 20, threads, run);
        assert_eq!(a, b, "{set}: every move's score");
        let what = if every_move { "every move" } else { "score" };
        let n = lines.len() as f64;
        row(&format!("{set} {what} (per position)"), one / n, many / n);
    }
}
