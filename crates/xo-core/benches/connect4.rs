//! Exact scores of Pascal Pons' Connect 4 test sets (`tests/data/connect4`), every answer
//! asserted: mean time per position for each set. Run: `cargo bench -p xo-core --bench connect4`
//! (XO_C4_TAKE=N positions per set, 10 by default; the begin-game sets take seconds each).

use std::path::PathBuf;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::parse_game;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

fn main() {
    let take: usize = std::env::var("XO_C4_TAKE").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    let board = Board::new(&parse_game("connect4").expect("built in")).expect("42 cells");
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", "connect4"].iter().collect();
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
    {
        let path = dir.join(set);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the test set {} is vendored: {e}", path.display()));
        let mut searcher = Searcher::new(&board, 1 << 28);
        let (mut n, mut nodes) = (0u64, 0u64);
        let start = Instant::now();
        for line in text.lines().take(take) {
            let (moves, want) = line.split_once(' ').expect("moves and score");
            let want: i32 = want.trim().parse().expect("a score");
            let pos = board.play_columns(moves).expect("a legal game");
            let s = searcher.score(&pos, &Meter::unlimited()).expect("no budget");
            let end = (pos.plies() + s.remoteness) as i32;
            let got = match s.value {
                Value::Win => (44 - end) / 2,
                Value::Loss => -(44 - end) / 2,
                Value::Draw => 0,
            };
            assert_eq!(got, want, "{set}: {moves}");
            n += 1;
            nodes += searcher.nodes();
        }
        let mean = start.elapsed().as_secs_f64() / n as f64;
        println!(
            "{set}: {n} positions, mean {:.3} ms, {} positions searched each on average",
            mean * 1e3,
            nodes / n
        );
    }
}
