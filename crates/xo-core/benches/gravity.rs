//! The dedicated gravity solver on Pascal Pons' six Connect 4 test sets (`tests/data/connect4`),
//! every answer asserted: mean time per position for the exact score and for every move's score,
//! beside the general negamax (`Searcher`) on the sets where it is fast.
//!
//! Run: `cargo bench -p xo-core --bench gravity` (`XO_C4_N=N` positions per set, 10 by default;
//! `XO_C4_SETS=Test_L3_R1,Test_L2_R1` to choose sets). Each engine keeps one table per set and
//! pass, allocated (and its pages written) before the clock starts, as Pons' own harness does.

use std::time::Instant;

use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::games::gravity::GravityBoard;
use xo_core::rules::parse_game;
use xo_core::solve::gravity::GravitySolver;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

/// 4 MiB, the size the engine picks for these positions: on this machine a table that stays in
/// cache beats a bigger one on every set (2^23 bytes is 1.2-1.7 times slower on the middle sets,
/// 2^26 about 2.5 times); `XO_C4_TABLE_LOG2` to try others.
const TABLE_LOG2: u32 = 22;

/// Sets where the general negamax answers in reasonable time.
const GENERAL_SETS: [&str; 2] = ["Test_L3_R1", "Test_L2_R1"];

fn pons_score(plies: u32, value: Value, remoteness: u32) -> i32 {
    let end = (plies + remoteness) as i32;
    match value {
        Value::Win => (44 - end) / 2,
        Value::Loss => -(44 - end) / 2,
        Value::Draw => 0,
    }
}

fn ms(secs: f64, n: usize) -> f64 {
    secs * 1e3 / n as f64
}

fn main() {
    let take: usize = std::env::var("XO_C4_N").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    let chosen = std::env::var("XO_C4_SETS").ok();
    let board = GravityBoard::new(7, 6, 4).expect("7x6 fits");
    let general = Board::new(&parse_game("connect4").expect("built in")).expect("42 cells");
    let meter = Meter::default();
    let log2: u32 =
        std::env::var("XO_C4_TABLE_LOG2").ok().and_then(|v| v.parse().ok()).unwrap_or(TABLE_LOG2);
    let table_bytes = 1usize << log2;
    println!(
        "{:<11} {:>5} {:>12} {:>12} {:>12} | {:>12} {:>9} {:>12} {:>9}",
        "set",
        "n",
        "score ms",
        "nodes",
        "moves ms",
        "old score ms",
        "ratio",
        "old moves ms",
        "ratio"
    );
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
    {
        if chosen.as_ref().is_some_and(|c| !c.split(',').any(|s| s == set)) {
            continue;
        }
        let lines: Vec<(String, i32)> =
            xo_test_support::pons::pons_set(set).into_iter().take(take).collect();
        let n = lines.len();

        // (a) the exact score.
        let mut solver = GravitySolver::new(&board, table_bytes);
        solver.prepare(&meter).expect("no budget");
        let mut nodes = 0u64;
        let start = Instant::now();
        for (moves, want) in &lines {
            let (moves, want) = (moves.as_str(), *want);
            let pos = board.from_moves(moves).expect("a legal game");
            let got = solver.score(&pos, &meter).expect("no budget");
            assert_eq!(got, want, "{set}: {moves}");
            nodes += solver.nodes();
        }
        let score_ms = ms(start.elapsed().as_secs_f64(), n);

        // (b) every move's score (a fresh table).
        let mut solver = GravitySolver::new(&board, table_bytes);
        solver.prepare(&meter).expect("no budget");
        let start = Instant::now();
        for (moves, want) in &lines {
            let (moves, want) = (moves.as_str(), *want);
            let pos = board.from_moves(moves).expect("a legal game");
            let scores = solver.move_scores(&pos, &meter).expect("no budget");
            let best = scores.iter().filter_map(|&(_, s)| s).max().expect("a move");
            assert_eq!(best, want, "{set}: best move of {moves}");
        }
        let moves_ms = ms(start.elapsed().as_secs_f64(), n);

        let old = if GENERAL_SETS.contains(&set) {
            let mut searcher = Searcher::new(&general, table_bytes);
            let start = Instant::now();
            for (moves, want) in &lines {
                let (moves, want) = (moves.as_str(), *want);
                let pos = general.play_columns(moves).expect("a legal game");
                let s = searcher.score(&pos, &Meter::unlimited()).expect("no budget");
                assert_eq!(pons_score(pos.plies(), s.value, s.remoteness), want, "{set}: {moves}");
            }
            let old_score = ms(start.elapsed().as_secs_f64(), n);
            let mut searcher = Searcher::new(&general, table_bytes);
            let start = Instant::now();
            for (moves, want) in &lines {
                let (moves, want) = (moves.as_str(), *want);
                let pos = general.play_columns(moves).expect("a legal game");
                let a = searcher.analyse(&pos, &Meter::unlimited()).expect("no budget");
                let s = a.scored;
                assert_eq!(pons_score(pos.plies(), s.value, s.remoteness), want, "{set}: {moves}");
            }
            let old_moves = ms(start.elapsed().as_secs_f64(), n);
            Some((old_score, old_moves))
        } else {
            None
        };
        match old {
            Some((os, om)) => println!(
                "{set:<11} {n:>5} {score_ms:>12.4} {:>12} {moves_ms:>12.4} | {os:>12.4} {:>8.1}x {om:>12.4} {:>8.1}x",
                nodes / n as u64,
                os / score_ms,
                om / moves_ms
            ),
            None => println!(
                "{set:<11} {n:>5} {score_ms:>12.4} {:>12} {moves_ms:>12.4} | {:>12} {:>9} {:>12} {:>9}",
                nodes / n as u64,
                "-",
                "-",
                "-",
                "-"
            ),
        }
    }
}
