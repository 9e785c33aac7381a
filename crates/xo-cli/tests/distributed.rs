//! `mpirun -np 3 xo solve GAME --strong --db DIR --distributed` makes the single-process solve's
//! files byte for byte; a rank killed mid-tier fails the job with no file for that tier, and a
//! re-run (with another number of ranks) resumes to the same bytes.
//!
//! Needs `mpirun` (OpenMPI) on the path: `cargo test -p xo-cli --features mpi --test distributed`.
#![cfg(feature = "mpi")]

use xo_test_support::bin;
use xo_test_support::dirs::arg as s;
use xo_test_support::dirs::files;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// One MPI job at a time: the machine has few cores and every job oversubscribes them.
static ONE_JOB: Mutex<()> = Mutex::new(());

fn xo(args: &[&str]) -> Output {
    bin::output(env!("CARGO_BIN_EXE_xo"), args)
}

/// `xo ARGS` under `mpirun -np RANKS`, with extra environment variables passed to every rank.
fn mpirun(ranks: usize, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--allow-run-as-root", "--oversubscribe", "-np", &ranks.to_string()]);
    for (k, v) in env {
        cmd.args(["-x", &format!("{k}={v}")]);
    }
    cmd.arg(env!("CARGO_BIN_EXE_xo")).args(args);
    cmd.output().expect("mpirun runs (install OpenMPI: apt-get install openmpi-bin)")
}

fn temp(name: &str) -> PathBuf {
    xo_test_support::dirs::fresh("xo-mpi", name)
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The second line of a solve's summary: the empty board's value.
fn value_line(stdout: &str) -> &str {
    stdout.lines().nth(1).unwrap_or("")
}

/// Same files and same answers as the single-process solve, with three ranks and with one (run
/// without mpirun, as a job of one).
#[test]
fn three_ranks_make_the_single_process_files() {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    for game in ["tictactoe", "mnk:4,4,4", "connect:4,4,4", "lol:9"] {
        let name = game.replace([':', ','], "-");
        let (single, three, one) =
            (temp(&format!("{name}-1p")), temp(&format!("{name}-3")), temp(&format!("{name}-1")));
        let want = ok(&xo(&["solve", game, "--strong", "--db", s(&single)]));
        let got =
            ok(&mpirun(3, &[], &["solve", game, "--strong", "--db", s(&three), "--distributed"]));
        assert!(got.contains("distributed over 3 ranks"), "{got}");
        assert_eq!(value_line(&got), value_line(&want), "{game}");
        let reference = files(&single);
        let tier_files = reference.iter().filter(|(n, _)| n.ends_with(".xot")).count();
        assert_eq!(tier_files, xo_tiers(game));
        assert!(reference.iter().any(|(n, _)| n == "xo-db.toml"), "the manifest");
        assert!(files(&three) == reference, "{game}: three ranks wrote other bytes");
        if game != "mnk:4,4,4" {
            let alone = ok(&xo(&["solve", game, "--strong", "--db", s(&one), "--distributed"]));
            assert!(alone.contains("distributed over 1 ranks"), "{alone}");
            assert!(files(&one) == reference, "{game}: one rank wrote other bytes");
        }
        // The database answers queries as the single-process one does.
        let q = ok(&xo(&["query", s(&three), "--json"]));
        assert_eq!(q, ok(&xo(&["query", s(&single), "--json"])));
        for d in [single, three, one] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// Tier files of `game`: one per number of marks.
fn xo_tiers(game: &str) -> usize {
    match game {
        "tictactoe" => 10,
        "lol:9" => 10,
        "connect:5,4,4" => 21,
        _ => 17,
    }
}

/// A rank that dies in the middle of tier 10 fails the job (non-zero status) and leaves no file
/// for tier 10, only the tiers committed before it, each equal to the single-process one; a
/// re-run with two ranks resumes from them to the same bytes and cleans up the dead job's parts.
#[test]
fn a_killed_rank_fails_cleanly_and_the_rerun_resumes() {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    let (single, db) = (temp("kill-1p"), temp("kill"));
    ok(&xo(&["solve", "mnk:4,4,4", "--strong", "--db", s(&single)]));
    let reference = files(&single);
    let args = ["solve", "mnk:4,4,4", "--strong", "--db", s(&db), "--distributed"];
    let killed = mpirun(3, &[("XO_MPI_FAIL_AT", "10:1")], &args);
    assert!(!killed.status.success(), "the job with a dead rank succeeded");
    let left = files(&db);
    let committed: Vec<&(String, Vec<u8>)> =
        left.iter().filter(|(n, _)| n.ends_with(".xot")).collect();
    let names: Vec<&str> = committed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        (11..=16).map(|t| format!("tier-{t:02}.xot")).collect::<Vec<_>>(),
        "only the tiers above the one in progress are committed"
    );
    for (name, bytes) in &committed {
        assert!(reference.iter().any(|(n, b)| n == name && b == bytes), "{name} differs");
    }
    let resumed = ok(&mpirun(2, &[], &args));
    assert!(resumed.contains("(6 resumed)"), "{resumed}");
    assert!(files(&db) == reference, "the resumed database differs from the single-process one");
    for d in [single, db] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Bad input under mpirun: every rank refuses it with the single-process message (exit 2), and
/// nothing is written.
#[test]
fn bad_input_fails_on_every_rank() {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    let db = temp("bad");
    let out = mpirun(2, &[], &["solve", "kayles", "--strong", "--db", s(&db), "--distributed"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--strong solves placement games"));
    assert!(!db.exists());
}

/// A budget reached on the ranks stops every rank with the single-process message and exit 3,
/// leaving only committed tiers; a memory budget too small for a rank's share is refused before
/// anything is solved.
#[test]
fn budgets_stop_every_rank() {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    let db = temp("budget");
    let args = ["solve", "mnk:4,4,4", "--strong", "--db", s(&db), "--distributed"];
    let nodes = mpirun(2, &[], &[&args[..], &["--max-nodes", "3000000"]].concat());
    assert_eq!(nodes.status.code(), Some(3), "{}", String::from_utf8_lossy(&nodes.stderr));
    assert!(String::from_utf8_lossy(&nodes.stderr).contains("raise it with --max-nodes"));
    assert!(
        files(&db).iter().all(|(n, _)| n.ends_with(".xot") || n == "xo-db.toml"),
        "parts, temporary files or the lock left"
    );
    let memory = mpirun(2, &[], &[&args[..], &["--memory-mib", "20"]].concat());
    assert_eq!(memory.status.code(), Some(3), "{}", String::from_utf8_lossy(&memory.stderr));
    assert!(String::from_utf8_lossy(&memory.stderr).contains("raise it with --memory-mib"));
    let _ = std::fs::remove_dir_all(db);
}

/// The mid-sized board: connect:5,4,4 (741 million positions, 1.48 GB of tiers) on
/// three ranks writes the single-process solve's files byte for byte (compared a tier at a time,
/// so the test holds two files in memory, not two databases). A few minutes on two cores.
#[test]
#[ignore = "heavy proof: about 17 minutes on two cores; run by hand with -- --ignored"]
fn connect_5_4_4_on_three_ranks_is_the_single_process_database() {
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    let (single, three) = (temp("c544-1p"), temp("c544-3"));
    let game = "connect:5,4,4";
    // A generous time budget: on a loaded host the single process has taken over 500 s (the
    // default 300 s is a job's budget, not what this comparison is about).
    let want = ok(&xo(&["solve", game, "--strong", "--db", s(&single), "--timeout", "3600"]));
    let got = ok(&mpirun(
        3,
        &[],
        &["solve", game, "--strong", "--db", s(&three), "--distributed", "--timeout", "3600"],
    ));
    assert_eq!(value_line(&got), value_line(&want));
    let names = |dir: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let tiers = names(&single);
    assert_eq!(tiers.iter().filter(|n| n.ends_with(".xot")).count(), xo_tiers(game));
    assert_eq!(names(&three), tiers);
    for name in &tiers {
        let a = std::fs::read(single.join(name)).unwrap();
        let b = std::fs::read(three.join(name)).unwrap();
        assert!(a == b, "{name}: three ranks wrote other bytes");
    }
    for d in [single, three] {
        let _ = std::fs::remove_dir_all(d);
    }
}
