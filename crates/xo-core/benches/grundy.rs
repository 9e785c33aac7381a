//! Benchmark: the .007 (Treblecross) nim-sequence to n = 2^17 by xo's engine, once per kernel
//! of the filtered pass that this CPU offers (AVX-512, AVX2, NEON), and once with none
//! (`XO_GRUNDY_KERNEL=scalar`: the engine's other methods, as on a CPU without a vector kernel),
//! each side by side with a plain O(n^2) mex loop in C++ (benches/grundy_plain.cpp, compiled here
//! with `g++ -O2`) in one run, and against `ogsolve` (Piotr Beling's octal-game solver from
//! crates.io, the fastest open-source one we know: its naive, RC and RC2 methods), checking that
//! all give the same values and the published facts. Each xo run is a child process of this
//! bench with `XO_GRUNDY_KERNEL` naming its kernel (what a user of `xo` gets with that variable
//! set), and reports its own user and system time (Linux). xo's runs and the C++ loop's run
//! in turn, three rounds, and each is timed by its best run (the speed of the machine drifts).
//! `ogsolve` is taken from `XO_OGSOLVE` (a path), else from `PATH`, else installed from
//! crates.io into `target/ogsolve` (built with `-C target-cpu=native`, as its README advises);
//! without it (no network, say) that comparison is skipped with a note. Environment switches:
//!
//! - `XO_GRUNDY_UPTO=N`: heaps `0..=N` instead of 2^17 (the published facts are checked only
//!   from 2^17 on). The values are checked against the .007 values xo ships as far as both go:
//!   `XO_GRUNDY_UPTO=1048576` checks that file to its end.
//! - `XO_GRUNDY_KERNELS=avx2,scalar`: only these kernels (names as `XO_GRUNDY_KERNEL` takes).
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
use xo_core::solve::grundy::{pass_kernel, Grundy, Method, NimSequence, PassKernel};

/// Heaps by default.
const N: usize = 1 << 17;
/// Runs of each side, taken in turn; each is timed by its best.
const ROUNDS: usize = 3;
/// Set in the environment of the bench's own child runs.
const CHILD: &str = "XO_GRUNDY_BENCH_CHILD";

fn time_engine(method: Method, n: usize) -> (Vec<Grundy>, f64) {
    let start = Instant::now();
    let mut seq = NimSequence::with_method(OctalGame::dot007(), method);
    seq.extend_to(n, &Meter::unlimited()).unwrap();
    let secs = start.elapsed().as_secs_f64();
    (seq.values().to_vec(), secs)
}

/// The heaps to compute: `XO_GRUNDY_UPTO`, else 2^17.
fn upto() -> usize {
    std::env::var("XO_GRUNDY_UPTO").ok().map_or(N, |s| s.parse().expect("XO_GRUNDY_UPTO=N"))
}

/// This process's user and system CPU seconds so far (Linux: `/proc/self/stat`).
fn cpu_times() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command (which may hold spaces) in parentheses; utime and stime are the
    // 14th and 15th fields, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok().map(|t| t / 100.0);
    Some((ticks(11)?, ticks(12)?))
}

/// The child side: .007 to `n` by the default method under this process's `XO_GRUNDY_KERNEL`;
/// prints the kernel used, the values, the time, and the CPU times.
fn child(n: usize) {
    let (values, secs) = time_engine(Method::Auto, n);
    let kernel = pass_kernel().map_or("none".to_string(), |k| k.to_string());
    let (user, sys) = cpu_times().unwrap_or((f64::NAN, f64::NAN));
    println!("kernel {kernel}");
    println!("seconds {secs} user {user} sys {sys}");
    let text: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    println!("values {}", text.join(" "));
}

/// One run of xo in a child process with `XO_GRUNDY_KERNEL=kernel`: the kernel it reports, its
/// values, its time, and its user and system CPU seconds.
fn xo_run(kernel: PassKernel, n: usize) -> (String, Vec<Grundy>, f64, f64, f64) {
    let out = Command::new(std::env::current_exe().expect("the bench's path"))
        .env(CHILD, "1")
        .env("XO_GRUNDY_KERNEL", kernel.name())
        .env("XO_GRUNDY_UPTO", n.to_string())
        .output()
        .expect("the bench's child runs");
    assert!(out.status.success(), "the child run with {kernel} failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("the child reports {key}"))
            .to_string()
    };
    let used = line("kernel ");
    let values = line("values ").split(' ').map(|v| v.parse().expect("a value")).collect();
    let times: Vec<f64> = line("seconds ").split(' ').filter_map(|w| w.parse().ok()).collect();
    (used, values, times[0], times[1], times[2])
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
fn cpp_run(exe: &PathBuf, n: usize) -> (Vec<Grundy>, f64) {
    let out =
        Command::new(exe).args(["0.007", &n.to_string()]).output().expect("the C++ baseline runs");
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

/// Runs `ogsolve` on .007 to `n` with `method`: its values and its own calculation time.
fn ogsolve_run(exe: &PathBuf, method: &str, n: usize) -> Option<(Vec<Grundy>, f64)> {
    let csv = std::env::temp_dir().join(format!("xo-ogsolve-{}-{method}.csv", std::process::id()));
    let out = Command::new(exe)
        .args(["0.007", "-m", method, "-n", &n.to_string(), "-p", "-b"])
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
    if std::env::var_os(CHILD).is_some() {
        child(upto());
        return;
    }
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
        println!("kernel {:?}", pass_kernel());
        if let Some(cells) = treblecross_cells() {
            treblecross(cells);
        }
        return;
    }
    let n = upto();
    let wanted: Option<Vec<PassKernel>> = std::env::var("XO_GRUNDY_KERNELS").ok().map(|list| {
        list.split(',').map(|k| k.parse().expect("XO_GRUNDY_KERNELS names kernels")).collect()
    });
    // Every vector kernel this CPU has, fastest first, then none (the other methods).
    let kernels: Vec<PassKernel> = PassKernel::available()
        .into_iter()
        .filter(|k| wanted.as_ref().is_none_or(|w| w.contains(k)))
        .collect();
    let cores = xo_core::threads::cores();
    println!(
        ".007 nim-sequence for heaps 0..={n} ({cores} cores; best of {ROUNDS} runs each, in turn \
         with the C++ plain loop)"
    );
    let cpp = cpp_build();
    let mut best = vec![(f64::MAX, f64::NAN, f64::NAN); kernels.len()];
    let mut used = vec![String::new(); kernels.len()];
    let (mut auto, mut t_cpp) = (Vec::new(), f64::MAX);
    for _ in 0..ROUNDS {
        for (i, &kernel) in kernels.iter().enumerate() {
            let (name, values, secs, user, sys) = xo_run(kernel, n);
            if !auto.is_empty() {
                assert_eq!(values, auto, "the {kernel} kernel disagrees");
            }
            auto = values;
            used[i] = name;
            if secs < best[i].0 {
                best[i] = (secs, user, sys);
            }
        }
        if let Some(exe) = &cpp {
            let (values_cpp, secs) = cpp_run(exe, n);
            assert_eq!(values_cpp, auto, "the C++ baseline disagrees");
            t_cpp = t_cpp.min(secs);
        }
    }
    if let Some(exe) = &cpp {
        let _ = std::fs::remove_file(exe);
    }
    // The .007 values xo ships (crates/xo-store/sequences/dot007.seq, to 2^20): the same as far
    // as both go (`XO_GRUNDY_UPTO=1048576` checks the file to its end).
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../xo-store/sequences/dot007.seq");
    let stored = xo_core::solve::grundy::StoredSequence::decode(&std::fs::read(shipped).unwrap())
        .expect("the shipped .007 values decode");
    let both = auto.len().min(stored.values().len());
    assert_eq!(&auto[..both], &stored.values()[..both], "the shipped .007 values disagree");
    println!("  the shipped .007 values agree to heap {}", both - 1);
    // Published facts: the first values, and the largest value below 2^17 is 1024, first at 109362.
    assert_eq!(&auto[..16], &[0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]);
    if n >= N {
        let largest = auto[..N].iter().copied().max().unwrap_or(0);
        assert_eq!(largest, 1024);
        assert_eq!(auto.iter().position(|&v| v == largest), Some(109_362));
    }
    println!(
        "  XO_GRUNDY_KERNEL  kernel used  xo best (s)  user (s)  sys (s)  sys/user  vs C++ plain"
    );
    for (i, kernel) in kernels.iter().enumerate() {
        let (secs, user, sys) = best[i];
        let ratio = if cpp.is_some() { format!("{:.2}x", t_cpp / secs) } else { "-".to_string() };
        println!(
            "  {:<16}  {:<11}  {secs:11.3}  {user:8.2}  {sys:7.2}  {:7.1}%  {ratio}",
            kernel.name(),
            used[i],
            100.0 * sys / user,
        );
    }
    if cpp.is_some() {
        println!("  C++ plain -O2 (one thread)                {t_cpp:8.3} s");
    }
    // The bitset mex (no kernel), once, in this process.
    if n <= N {
        let (bitset, t_bitset) = time_engine(Method::Bitset, n);
        assert_eq!(bitset, auto);
        println!("  xo (bitset mex, one run)      {t_bitset:8.3} s");
    }
    let t_auto = best.first().map_or(f64::NAN, |b| b.0);
    if let Some(exe) = ogsolve() {
        let mut best: Option<(&str, f64)> = None;
        for method in ["naive", "rc", "rc2"] {
            let Some((values, secs)) = ogsolve_run(&exe, method, n) else {
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
