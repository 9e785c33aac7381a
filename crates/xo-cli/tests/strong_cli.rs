//! `xo solve --strong --db DIR` and `xo query DIR`: answers equal `xo solve`'s, damaged or foreign
//! files are refused with a clear message (exit 2), and an interrupted solve resumes to the same
//! bytes.

use xo_test_support::bin;
use xo_test_support::dirs::arg as s;
use xo_test_support::dirs::files;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;
use xo_test_support::wait::wait_until;

fn xo(args: &[&str]) -> Output {
    bin::output(env!("CARGO_BIN_EXE_xo"), args)
}

fn temp(name: &str) -> PathBuf {
    xo_test_support::dirs::fresh("xo-strong", name)
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn queries_answer_as_solve_does() {
    for game in ["tictactoe", "connect:4,4,3", "lol:8"] {
        let db = temp(&game.replace([':', ','], "-"));
        let out = xo(&["solve", game, "--strong", "--db", s(&db)]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // The report's bytes are the tier files' (compressed, well under two a position).
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        let on_disk: u64 = std::fs::read_dir(&db)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".xot"))
            .map(|e| e.metadata().unwrap().len())
            .sum();
        let words: Vec<&str> = report.split_whitespace().collect();
        let at = |w: &str| words[words.iter().position(|x| *x == w).unwrap() - 1];
        let positions: f64 = at("positions").parse().unwrap();
        assert_eq!(at("bytes"), on_disk.to_string(), "{report}");
        let per = format!("({:.2} per position)", on_disk as f64 / positions);
        assert!(report.contains(&per) && on_disk as f64 / positions < 1.5, "{report}");
        let positions: &[&str] = match game {
            "tictactoe" => &["", "XX.OO....", "X...O...X", "XOXOOXOX."],
            "connect:4,4,3" => &["", "............X...", "........O...X..X"],
            _ => &["", "L.......", "L.O..L.."],
        };
        for p in positions {
            let with = |args: &[&str]| {
                let mut v: Vec<&str> = args.to_vec();
                v.insert(2, p);
                v.retain(|a| !a.is_empty());
                xo(&v)
            };
            let mut solve = json(&with(&["solve", game, "--json"]));
            let mut query = json(&with(&["query", s(&db), "--json"]));
            assert_eq!(query["engine"], "database");
            solve["engine"] = "x".into();
            query["engine"] = "x".into();
            solve.as_object_mut().unwrap().remove("note");
            assert_eq!(query, solve, "{game} {p:?}");
        }
        let info = xo(&["query", s(&db), "--info"]);
        let text = String::from_utf8_lossy(&info.stdout);
        assert!(info.status.success() && text.contains("positions:"), "{text}");
        std::fs::remove_dir_all(&db).unwrap();
    }
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let db = temp("damaged");
    assert!(xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]).status.success());
    let tier = db.join("tier-05.xot");
    let good = std::fs::read(&tier).unwrap();
    let bad = |what: &str, bytes: &[u8], needle: &str| {
        std::fs::write(&tier, bytes).unwrap();
        let out = xo(&["query", s(&db), "XOXOX...."]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(needle) && err.lines().count() == 1, "{what}: {err}");
    };
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    bad("flipped record", &flipped, "checksum");
    let mut header = good.clone();
    header[20] ^= 1;
    bad("flipped header", &header, "checksum");
    bad("truncated", &good[..good.len() - 3], "cut short");
    bad("not a database", b"hello", "not an xo database");
    // Another game's tier in its place.
    let other = temp("other");
    assert!(xo(&["solve", "mnk:3,3,2", "--strong", "--db", s(&other)]).status.success());
    bad("other game", &std::fs::read(other.join("tier-05.xot")).unwrap(), "not tictactoe");
    std::fs::write(&tier, &good).unwrap();
    assert!(xo(&["query", s(&db), "XOXOX...."]).status.success());
    // A missing folder.
    let out = xo(&["query", "/nonexistent/xo-db", "X........"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&db).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_bytes() {
    let whole = temp("whole");
    assert!(xo(&["solve", "mnk:4,3,3", "--strong", "--db", s(&whole)]).status.success());
    let cut = temp("cut");
    // Stopped part-way by its node budget: exit 3, some tiers written, none half-written.
    let out = xo(&["solve", "mnk:4,3,3", "--strong", "--db", s(&cut), "--max-nodes", "40000"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let written = files(&cut);
    assert!(!written.is_empty() && written.len() < 13, "{} tiers", written.len());
    assert!(
        written.iter().all(|(name, _)| name.ends_with(".xot") || name == "xo-db.toml"),
        "no temporary file or lock left: {:?}",
        written.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    // A damaged tier left by an earlier run is solved again, not trusted.
    let (name, _) = &written[0];
    std::fs::write(cut.join(name), b"garbage").unwrap();
    let out = xo(&["solve", "mnk:4,3,3", "--strong", "--db", s(&cut)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("resumed"));
    assert_eq!(files(&cut), files(&whole));
    // Killed outright part-way, once its first tier is written (it writes 17): the same.
    let killed = temp("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(["solve", "mnk:4,4,4", "--strong", "--db", s(&killed)])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let a_tier = || {
        std::fs::read_dir(&killed)
            .is_ok_and(|d| d.flatten().any(|e| e.file_name().to_string_lossy().ends_with(".xot")))
    };
    wait_until("a first tier of mnk:4,4,4 written", Duration::from_secs(60), || {
        a_tier() || child.try_wait().unwrap().is_some()
    });
    assert!(child.try_wait().unwrap().is_none(), "the solve ended before it could be killed");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(xo(&["solve", "mnk:4,4,4", "--strong", "--db", s(&killed)]).status.success());
    let again = temp("again");
    assert!(xo(&["solve", "mnk:4,4,4", "--strong", "--db", s(&again)]).status.success());
    assert_eq!(files(&killed), files(&again));
    for d in [whole, cut, killed, again] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn boards_beyond_any_budget_are_refused_before_anything_is_written() {
    let db = temp("huge");
    let out = xo(&["solve", "mnk:8,8,5", "--strong", "--db", s(&db)]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let out = xo(&["solve", "mnk:6,6,4", "--strong", "--db", s(&db)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("memory budget") && err.contains("--memory-mib"), "{err}");
    assert!(!db.exists(), "nothing written");
    let out = xo(&["solve", "kayles", "--strong", "--db", s(&db)]);
    assert_eq!(out.status.code(), Some(2));
}

/// Without the `mpi` feature, `--distributed` is refused with a message naming the missing build
/// option (exit 2), and nothing is written.
#[cfg(not(feature = "mpi"))]
#[test]
fn distributed_needs_an_mpi_build() {
    let db = temp("no-mpi");
    let out = xo(&["solve", "tictactoe", "--strong", "--db", s(&db), "--distributed"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("built without") && err.contains("--features mpi"), "{err}");
    assert!(!db.exists());
}

/// `--threads` is obeyed by the strong solve (the summary names the threads) and changes no
/// byte: one thread and two write the same tier files.
#[test]
fn one_thread_and_two_write_the_same_files() {
    let game = "connect:4,4,3";
    let mut folders = Vec::new();
    for threads in ["1", "2"] {
        let db = temp(&format!("threads-{threads}"));
        let out = xo(&["solve", game, "--strong", "--db", s(&db), "--threads", threads]);
        let report = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let named = if threads == "1" { " on 1 thread," } else { " on 2 threads," };
        // Two are asked for; a one-core machine gets one (the policy clamps to the cores).
        let one_core = std::thread::available_parallelism().map_or(1, |n| n.get()) == 1;
        assert!(report.contains(named) || one_core, "{report}");
        folders.push(db);
    }
    let (one, two) = (files(&folders[0]), files(&folders[1]));
    assert!(!one.is_empty());
    assert_eq!(one, two);
    for db in folders {
        std::fs::remove_dir_all(&db).unwrap();
    }
}
