//! Crash tests: a strong solve and a book build killed with SIGKILL at random moments (while
//! they solve, write a tier, append to the journal or rename the book), each then run again to
//! the end, must leave exactly the files an uninterrupted run leaves, byte for byte.

use xo_test_support::dirs::files;

use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn xo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xo"))
}

fn run(args: &[&str]) {
    let out = xo().args(args).output().expect("xo runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Starts `xo ARGS`, kills it with SIGKILL after `after` (if it is still running).
fn kill_after(args: &[&str], after: Duration) {
    let mut child = xo()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("xo starts");
    // A fixed sleep on purpose, not a wait for a condition: the point is a kill at a random
    // moment (`after` is drawn from the seeded generator), whatever the run is doing then.
    std::thread::sleep(after);
    let _ = child.kill(); // SIGKILL on Unix
    child.wait().unwrap();
}

/// How long `xo ARGS` takes uninterrupted.
fn timed(args: &[&str]) -> Duration {
    let started = Instant::now();
    run(args);
    started.elapsed()
}

/// A seeded generator (the seed printed, and taken from XO_CRASH_SEED when set).
fn rng() -> rand::rngs::StdRng {
    let seed = std::env::var("XO_CRASH_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    eprintln!("XO_CRASH_SEED={seed}");
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Twelve kills of strong solves (two boards), some runs killed twice before the last one.
#[test]
fn killed_strong_solves_resume_to_the_same_files() {
    let mut rng = rng();
    let top = xo_test_support::dirs::tempdir().unwrap();
    for (game, rounds) in [("mnk:4,3,3", 8), ("mnk:5,3,3", 2)] {
        let whole: PathBuf = top.path().join(format!("{game}-whole"));
        let took = timed(&["solve", game, "--strong", "--db", path(&whole)]);
        let reference = files(&whole);
        for round in 0..rounds {
            let db = top.path().join(format!("{game}-{round}"));
            let args = ["solve", game, "--strong", "--db", path(&db)];
            let kills = if round % 3 == 2 { 2 } else { 1 };
            for _ in 0..kills {
                kill_after(&args, took.mul_f64(rng.random_range(0.0..1.1)));
            }
            run(&args);
            assert!(files(&db) == reference, "{game}, round {round}: other files after the kill");
            std::fs::remove_dir_all(&db).unwrap();
        }
    }
}

/// Ten kills of book builds, the journal resumed each time.
#[test]
fn killed_book_builds_resume_to_the_same_book() {
    let mut rng = rng();
    let top = xo_test_support::dirs::tempdir().unwrap();
    let whole = top.path().join("whole");
    std::fs::create_dir(&whole).unwrap();
    let args = |dir: &Path| {
        ["book", "connect:5,4,4", "--depth", "6", "--out", &format!("{}/c.book", path(dir))]
            .map(String::from)
    };
    let a = args(&whole);
    let took = timed(&a.each_ref().map(String::as_str));
    let reference = files(&whole);
    for round in 0..8 {
        let dir = top.path().join(format!("r{round}"));
        std::fs::create_dir(&dir).unwrap();
        let a = args(&dir);
        let a = a.each_ref().map(String::as_str);
        let kills = if round % 4 == 3 { 2 } else { 1 };
        for _ in 0..kills {
            kill_after(&a, took.mul_f64(rng.random_range(0.0..1.1)));
        }
        run(&a);
        assert!(files(&dir) == reference, "round {round}: other files after the kill");
    }
}
