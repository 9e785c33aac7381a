//! Opening books: what a book buys and what one for Connect Four would cost.
//!
//! 1. connect:6,5,4: a book to depth `XO_BOOK_DEPTH` (6) is built; then the exact score of every
//!    move of every position of the first 3 moves, with and without it (the same answers,
//!    asserted), side by side as a ratio.
//! 2. Connect Four 7x6: the distinct positions per depth (counted up to `XO_BOOK_COUNT_UPTO`, 10),
//!    and the mean time to solve `XO_BOOK_SAMPLES` (8) random positions at each of the depths in
//!    `XO_BOOK_SAMPLE_DEPTHS` (8,10,12): the projected cost of a book of that depth on this
//!    machine's cores.
//!
//! Run: `cargo bench -p xo-core --bench book`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::gravity::{GravityBoard, GravityPosition};
use xo_core::solve::book::Book;
use xo_core::solve::gravity::GravitySolver;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Every position of the first `depth` moves of `board` (not mirror-merged), unfinished.
fn openings(board: &GravityBoard, depth: u32) -> Vec<GravityPosition> {
    let mut out = vec![board.start()];
    let mut level = vec![board.start()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for pos in &level {
            for c in 0..board.width() {
                if board.can_play(pos, c) {
                    let mut child = *pos;
                    board.play(&mut child, c);
                    if board.outcome(&child).is_none() {
                        next.push(child);
                    }
                }
            }
        }
        out.extend(next.iter().copied());
        level = next;
    }
    out
}

fn main() {
    let meter = Meter::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;

    // 1. What a book buys, on a board where building one is cheap.
    let board = GravityBoard::new(6, 5, 4).unwrap();
    let depth = env("XO_BOOK_DEPTH", 6u32);
    let started = Instant::now();
    let book = Arc::new(Book::build(&board, depth, 8 << 20, &meter).unwrap());
    let build_s = started.elapsed().as_secs_f64();
    let positions = openings(&board, 3);
    let timed = |with_book: bool| {
        let mut solver = GravitySolver::new(&board, 8 << 20);
        if with_book {
            solver.set_book(book.clone());
        }
        let started = Instant::now();
        let scores: Vec<_> =
            positions.iter().map(|p| solver.move_scores(p, &meter).unwrap()).collect();
        (started.elapsed().as_secs_f64(), scores)
    };
    let (plain_s, plain) = timed(false);
    let (book_s, booked) = timed(true);
    assert_eq!(plain, booked, "the book changed an answer");
    println!(
        "connect:6,5,4 book to depth {depth}: {} positions built in {build_s:.2} s; every move of the {} positions of the first 3 moves: {:.3} ms/position without, {:.4} ms with the book ({:.0}x)",
        book.len(),
        positions.len(),
        plain_s * 1e3 / positions.len() as f64,
        book_s * 1e3 / positions.len() as f64,
        plain_s / book_s.max(1e-9)
    );

    // 2. What a Connect Four book would cost.
    let c4 = GravityBoard::new(7, 6, 4).unwrap();
    let count_upto = env("XO_BOOK_COUNT_UPTO", 10u32);
    let sizes = Book::level_sizes(&c4, count_upto, &meter).unwrap();
    println!(
        "Connect Four: distinct positions (mirror-merged) by moves 0..={count_upto}: {sizes:?}"
    );
    let samples = env("XO_BOOK_SAMPLES", 8usize);
    let depths: Vec<u32> = std::env::var("XO_BOOK_SAMPLE_DEPTHS")
        .unwrap_or_else(|_| "8,10,12".into())
        .split(',')
        .filter_map(|d| d.trim().parse().ok())
        .collect();
    let mut rng = StdRng::seed_from_u64(0xB00C);
    for d in depths {
        let mut times = Vec::new();
        while times.len() < samples {
            let mut pos = c4.start();
            for _ in 0..d {
                let cols: Vec<u32> = (0..7).filter(|&c| c4.can_play(&pos, c)).collect();
                c4.play(&mut pos, cols[rng.random_range(0..cols.len())]);
                if c4.outcome(&pos).is_some() {
                    break;
                }
            }
            if pos.moves != d || c4.outcome(&pos).is_some() {
                continue;
            }
            let mut solver = GravitySolver::new(&c4, 64 << 20);
            let started = Instant::now();
            let score = solver.score(&pos, &meter).unwrap();
            assert!(score.abs() <= 21);
            times.push(started.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let level =
            sizes.get(d as usize).map(|&n| format!("{n}")).unwrap_or("(not counted)".into());
        let projected = sizes
            .get(d as usize)
            .map(|&n| format!("{:.1} days", n as f64 * mean / cores / 86400.0))
            .unwrap_or_else(|| "-".into());
        println!(
            "  depth {d}: {samples} random positions, mean {:.1} ms, median {:.1} ms; level of {level} positions: a book to depth {d} needs about {projected} on {cores} cores",
            mean * 1e3,
            times[times.len() / 2] * 1e3
        );
    }
}
