//! Benchmark: the .007 (Treblecross) nim-sequence to n = 2^17 by xo's engine against a plain
//! O(n^2) mex loop in C++ (benches/grundy_plain.cpp, compiled here with `g++ -O2`) and against
//! `ogsolve` (Piotr Beling's octal-game solver from crates.io, the fastest open-source one we
//! know: its naive, RC and RC2 methods), checking that all give the same values and the
//! published facts. xo and the C++ loop run five times in turn, each timed by its best run (the
//! speed of the development machine drifts). `ogsolve` is taken from `XO_OGSOLVE` (a path), else from `PATH`, else
//! installed from crates.io into `target/ogsolve` (built with `-C target-cpu=native`, as its
//! README advises); without it (no network, say) that comparison is skipped with a note.
//! Environment switches:
//!
//! - `XO_GRUNDY_FAR=SECONDS`: also report how far .007 gets in that many seconds.
//! - `XO_GRUNDY_TREBLECROSS=CELLS`: also time the analysis of three Treblecross strips of `CELLS`
//!   cells (what `xo batch treblecross` does) with one shared nim-sequence, checking that a listed
//!   winning move leaves a lost strip.
//! - `XO_GRUNDY_PROBE=N,P`: instead of the comparison, compute .007 to `N` (P = 0: bitset,
//!   1: auto, else candidate testing with a prefix of P) and print the time and work counters
//!   (then the Treblecross part if asked).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use xo_core::budget::Meter;
use xo_core::games::octal::OctalGame;
use xo_core::games::treblecross::TreblecrossStrip;
use xo_core::solve::grundy::{Grundy, Method, NimSequence};

const N: usize = 1 << 17;
/// Runs of xo's engine and of the C++ loop, taken in turn; each is timed by its best.
const ROUNDS: usize = 5;

fn time_engine(method: Method) -> (Vec<Grundy>, f64) {
    let start = Instant::now();
    let mut seq = NimSequence::with_method(OctalGame::dot007(), method);
    seq.extend_to(N, &Meter::unlimited()).unwrap();
    let secs = start.elapsed().as_secs_f64();
    (seq.values().to_vec(), secs)
}

/// Compiles the C++ baseline; `None` (with a note) when g++ is missing.
fn cpp_build() -> Option<PathBuf> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/grundy_plain.cpp");
    let exe = std::env::temp_dir().join(format!("xo-grundy-plain-{}", std::process::id()));
    let built = Command::new("g++").args(["-O2", "-o"]).arg(&exe).arg(&src).status();
    if !matches!(built, Ok(s) if s.success()) {
        println!("note: g++ is not available; skipping the C++ baseline");
        return None;
    }
    Some(exe)
}

/// Runs the C++ baseline: its values and its own calculation time.
fn cpp_run(exe: &PathBuf) -> (Vec<Grundy>, f64) {
    let out =
        Command::new(exe).args(["0.007", &N.to_string()]).output().expect("the C++ baseline runs");
    assert!(out.status.success(), "the C++ baseline failed");
    let values = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.parse().expect("a value per line"))
        .collect();
    let err = String::from_utf8_lossy(&out.stderr);
    let secs = err.trim().strip_prefix("seconds ").and_then(|s| s.parse().ok());
    (values, secs.expect("the C++ baseline reports its time"))
}

/// The `ogsolve` binary, installed if need be; `None` (with a note) when there is none.
fn ogsolve() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("XO_OGSOLVE") {
        return Some(PathBuf::from(p));
    }
    let on_path = Command::new("ogsolve").arg("--version").output();
    if matches!(on_path, Ok(o) if o.status.success()) {
        return Some(PathBuf::from("ogsolve"));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/ogsolve");
    let exe = root.join("bin/ogsolve");
    if !exe.exists() {
        println!("  (installing ogsolve 0.0.7 from crates.io into {})", root.display());
        let installed = Command::new("cargo")
            .args(["install", "ogsolve", "--version", "0.0.7", "--locked", "--root"])
            .arg(&root)
            .env("RUSTFLAGS", "-C target-cpu=native")
            .output();
        if !matches!(installed, Ok(o) if o.status.success()) {
            println!("note: could not install ogsolve; skipping that comparison");
            return None;
        }
    }
    Some(exe)
}

/// Runs `ogsolve` on .007 to `N` with `method`: its values and its own calculation time.
fn ogsolve_run(exe: &PathBuf, method: &str) -> Option<(Vec<Grundy>, f64)> {
    let csv = std::env::temp_dir().join(format!("xo-ogsolve-{}-{method}.csv", std::process::id()));
    let out = Command::new(exe)
        .args(["0.007", "-m", method, "-n", &N.to_string(), "-p", "-b"])
        .arg(&csv)
        .output()
        .ok()?;
    assert!(out.status.success(), "ogsolve {method} failed");
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.lines().find_map(|l| l.trim().strip_prefix("nimbers:"))?;
    let values = line.split_whitespace().map(|v| v.parse().expect("a nimber")).collect();
    let table = std::fs::read_to_string(&csv).ok()?;
    let _ = std::fs::remove_file(&csv);
    // Columns: game, positions, method, checksum, ..., time_micros, zeros_count.
    let row = table.lines().last()?;
    let micros: f64 = row.split(',').rev().nth(1)?.trim().parse().ok()?;
    Some((values, micros / 1e6))
}

fn main() {
    if let Ok(p) = std::env::var("XO_GRUNDY_PROBE") {
        let mut parts = p.split(',').map(|x| x.parse::<usize>().expect("XO_GRUNDY_PROBE=N,P"));
        let (n, prefix) = (parts.next().unwrap_or(N), parts.next().unwrap_or(1));
        let method = match prefix {
            0 => Method::Bitset,
            1 => Method::Auto,
            p => Method::Candidates { prefix: p },
        };
        let start = Instant::now();
        let mut seq = NimSequence::with_method(OctalGame::dot007(), method);
        seq.extend_to(n, &Meter::unlimited()).unwrap();
        println!("{:.3} s {:?}", start.elapsed().as_secs_f64(), seq.stats());
        if let Some(cells) = treblecross_cells() {
            treblecross(cells);
        }
        return;
    }
    println!(".007 nim-sequence for heaps 0..={N} (2 cores; best of {ROUNDS} runs each, in turn)");
    // This machine's speed drifts from run to run (a shared host), so xo and the C++ loop run in
    // turn and each side is timed by its best run.
    let cpp = cpp_build();
    let (mut auto, mut t_auto, mut t_cpp) = (Vec::new(), f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        let (values, secs) = time_engine(Method::Auto);
        t_auto = t_auto.min(secs);
        if let Some(exe) = &cpp {
            let (values_cpp, secs) = cpp_run(exe);
            assert_eq!(values_cpp, values, "the C++ baseline disagrees");
            t_cpp = t_cpp.min(secs);
        }
        auto = values;
    }
    if let Some(exe) = &cpp {
        let _ = std::fs::remove_file(exe);
    }
    // Published facts: the first values, and the largest value below 2^17 is 1024, first at 109362.
    assert_eq!(&auto[..16], &[0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]);
    let largest = auto[..N].iter().copied().max().unwrap_or(0);
    assert_eq!(largest, 1024);
    assert_eq!(auto.iter().position(|&v| v == largest), Some(109_362));
    println!("  xo (auto)                     {t_auto:8.3} s");
    let (bitset, t_bitset) = time_engine(Method::Bitset);
    assert_eq!(bitset, auto);
    println!("  xo (bitset mex, one run)      {t_bitset:8.3} s");
    if cpp.is_some() {
        println!("  C++ plain -O2                 {t_cpp:8.3} s");
        println!("  speed-up of xo (auto) over the C++ plain mex loop:   {:.2}x", t_cpp / t_auto);
        println!("  speed-up of xo (bitset) over the C++ plain mex loop: {:.2}x", t_cpp / t_bitset);
    }
    if let Some(exe) = ogsolve() {
        let mut best: Option<(&str, f64)> = None;
        for method in ["naive", "rc", "rc2"] {
            let Some((values, secs)) = ogsolve_run(&exe, method) else {
                println!("note: could not read ogsolve's {method} output; skipping it");
                continue;
            };
            assert_eq!(values, auto, "ogsolve {method} disagrees");
            println!("  ogsolve -m {method:<5}               {secs:8.3} s");
            if best.is_none_or(|(_, b)| secs < b) {
                best = Some((method, secs));
            }
        }
        if let Some((method, secs)) = best {
            println!(
                "  speed-up of xo (auto) over ogsolve's fastest method ({method}): {:.2}x",
                secs / t_auto
            );
        }
    }
    if let Some(secs) = std::env::var("XO_GRUNDY_FAR").ok().and_then(|s| s.parse::<u64>().ok()) {
        let budget = Duration::from_secs(secs);
        let start = Instant::now();
        let mut seq = NimSequence::new(OctalGame::dot007());
        let mut upto = 0;
        while start.elapsed() < budget {
            upto += 1 << 14;
            seq.extend_to(upto, &Meter::unlimited()).unwrap();
        }
        println!(
            "  .007 in {secs} s: heaps 0..={upto} ({:.1} s), largest value {}",
            start.elapsed().as_secs_f64(),
            seq.values().iter().max().unwrap_or(&0)
        );
    }
    if let Some(cells) = treblecross_cells() {
        treblecross(cells);
    }
}

fn treblecross_cells() -> Option<usize> {
    std::env::var("XO_GRUNDY_TREBLECROSS").ok().and_then(|s| s.parse().ok())
}

/// Three strips of `cells` cells, analysed in turn with one shared .007 sequence, as
/// `xo batch treblecross` does; each listed winning move must leave a lost strip.
fn treblecross(cells: usize) {
    println!("Treblecross: three strips of {cells} cells, one shared nim-sequence");
    let mut seq = NimSequence::new(OctalGame::dot007());
    let total = Instant::now();
    // An empty strip, one with an X a third of the way in, and one with a few scattered X's.
    let mut strips = vec![vec![b'.'; cells]; 3];
    strips[1][cells / 3] = b'X';
    for i in 1..=5 {
        strips[2][i * cells / 7 + i] = b'X';
    }
    for (i, text) in strips.iter().enumerate() {
        let strip = TreblecrossStrip::parse(text).expect("a valid strip");
        let start = Instant::now();
        let a = strip.analyse(&mut seq, &Meter::unlimited()).unwrap();
        println!(
            "  strip {}: {:8.3} s ({} winning moves; sequence now to {})",
            i + 1,
            start.elapsed().as_secs_f64(),
            a.winning_moves.len(),
            seq.values().len() - 1
        );
        if let Some(&m) = a.winning_moves.first() {
            let mut after = text.clone();
            after[m] = b'X';
            let next = TreblecrossStrip::parse(&after)
                .expect("a valid strip")
                .analyse(&mut seq, &Meter::unlimited())
                .unwrap();
            assert!(!next.winning, "strip {}: the winning move {m} leaves a won strip", i + 1);
        }
    }
    println!("  total {:8.3} s", total.elapsed().as_secs_f64());
}
