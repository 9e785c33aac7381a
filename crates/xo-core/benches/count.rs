//! Counting every game of 4x4 four-in-a-row from the empty board: xo's census against a plain
//! memoised C++ count keyed by the whole board in a hash map (compiled with g++ -O2 here), in one
//! run, as a ratio. Both answers are asserted. Run: `cargo bench -p xo-core --bench count`.

use std::process::Command;
use std::time::{Duration, Instant};
use xo_core::games::board::Board;
use xo_core::rules::parse_game;
use xo_core::solve::enumerate::{census, census_with};

/// The published total for 4x4 four-in-a-row.
const TOTAL: u128 = 15_038_733_958_272;

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (best, out.expect("at least one run"))
}

/// Peak resident memory of this process so far, in MiB (Linux).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let board = Board::new(&parse_game("mnk:4,4,4").expect("built-in")).expect("16 cells");
    let (xo_time, c) =
        best_of(3, || census(&board, &Default::default(), &Default::default()).expect("fits"));
    assert_eq!(c.games.total(), TOTAL, "xo's total");
    println!(
        "xo census      {:>8.3} s  games {} (first {}, second {}, draws {}), {} positions, peak {:.0} MiB",
        xo_time.as_secs_f64(),
        c.games.total(),
        c.games.first,
        c.games.second,
        c.games.draws,
        c.positions,
        peak_mib().unwrap_or(f64::NAN)
    );

    for dense in [false, true] {
        let (t, d) = best_of(3, || {
            census_with(&board, &Default::default(), dense, &Default::default()).expect("fits")
        });
        assert_eq!(d, c, "dense tables and hash maps agree");
        let how = if dense { "dense tables" } else { "hash maps" };
        println!("  merging in {how:<12} {:>8.3} s", t.as_secs_f64());
    }

    let dir = std::env::temp_dir().join("xo-count-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let exe = dir.join("count_plain");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/count_plain.cpp");
    let built = Command::new("g++").args(["-O2", "-o"]).arg(&exe).arg(src).status();
    if !matches!(built, Ok(s) if s.success()) {
        println!("g++ is not available: the C++ baseline was skipped");
        return;
    }
    let (cpp_time, out) = best_of(1, || Command::new(&exe).output().expect("baseline runs"));
    let text = String::from_utf8_lossy(&out.stdout);
    let nums: Vec<u128> = text.split_whitespace().map(|n| n.parse().expect("a number")).collect();
    assert_eq!(nums, vec![c.games.first, c.games.second, c.games.draws], "C++ agrees with xo");
    println!("C++ plain memo {:>8.3} s  same counts", cpp_time.as_secs_f64());
    println!(
        "ratio C++/xo   {:>8.1}x  (target: at least 20x, under 256 MiB)",
        cpp_time.as_secs_f64() / xo_time.as_secs_f64()
    );
}
