//! Files read and written as a hostile user would arrange them: outputs that are devices, FIFOs
//! or folders, symbolic links planted at temporary names, a database folder of another game, two
//! writers at once, damaged journals, FIFOs, devices and huge sparse files where tiers and books
//! should be, and databases of the previous format. Each is refused with exit 2 and one message
//! naming the file (nothing else touched, nothing left behind, no hang), or handled as documented.

use std::path::Path;
use std::process::Output;
#[cfg(unix)]
use std::process::{Command, Stdio};
#[cfg(unix)]
use std::time::{Duration, Instant};
use xo_test_support::bin;
use xo_test_support::dirs::arg as s;
#[cfg(unix)]
use xo_test_support::wait::wait_until;

fn xo(args: &[&str]) -> Output {
    bin::output(env!("CARGO_BIN_EXE_xo"), args)
}

/// `xo ARGS`, failing the test if it runs past `limit` (a hang).
#[cfg(unix)]
fn xo_within(args: &[&str], limit: Duration) -> Output {
    let cmd = bin::command(env!("CARGO_BIN_EXE_xo"), args);
    let run =
        bin::run_within(cmd, bin::Feed::Closed, limit).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    Output { status: run.status, stdout: run.stdout, stderr: run.stderr.into_bytes() }
}

/// Exit 2 with one line naming `needle`.
fn refused(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(needle) && err.lines().count() == 1, "wanted {needle:?}: {err}");
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// FIFOs, devices and symbolic links are Unix's (Windows has no FIFO in a folder, no /dev, and
// makes links only with a privilege): the tests that plant them run on Unix.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[test]
#[cfg(unix)]
fn book_outputs_replace_only_regular_files() {
    use std::os::unix::fs::FileTypeExt;
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let book = |out: &str| xo(&["book", "connect:4,4,3", "--depth", "2", "--out", out]);
    refused(&book("/dev/null"), "/dev/null is a character device");
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    refused(&book(s(&fifo)), "is a FIFO");
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    refused(&book(s(&folder)), "is a directory");
    let link = dir.path().join("link.book");
    std::os::unix::fs::symlink("/etc/hostname", &link).unwrap();
    refused(&book(s(&link)), "symbolic link");
    assert_eq!(names(dir.path()), ["fifo", "folder", "link.book"], "nothing left behind");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A regular file is replaced, and nothing else is left.
    let file = dir.path().join("b.book");
    std::fs::write(&file, b"old").unwrap();
    assert!(book(s(&file)).status.success());
    assert!(xo_store::book::read(&file).is_ok());
    assert_eq!(names(dir.path()), ["b.book", "fifo", "folder", "link.book"]);
}

#[test]
#[cfg(unix)]
fn planted_links_and_temporaries_are_never_followed() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let precious = dir.path().join("precious.txt");
    std::fs::write(&precious, b"keep me").unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    for name in ["tier-09.xot.tmp", "tier-08.xot.tmp", "xo-db.toml.tmp"] {
        std::os::unix::fs::symlink(&precious, db.join(name)).unwrap();
    }
    assert!(xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]).status.success());
    assert_eq!(std::fs::read(&precious).unwrap(), b"keep me");
    assert!(
        names(&db).iter().all(|n| n.ends_with(".xot") || n == "xo-db.toml"),
        "{:?}",
        names(&db)
    );
    // A journal planted as a link is refused, not appended to.
    let book = dir.path().join("c.book");
    std::os::unix::fs::symlink(&precious, dir.path().join("c.book.partial")).unwrap();
    let out = xo(&["book", "connect:4,4,3", "--depth", "2", "--out", s(&book)]);
    refused(&out, "c.book.partial");
    assert_eq!(std::fs::read(&precious).unwrap(), b"keep me");
}

#[test]
fn a_database_folder_keeps_its_game() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let db = dir.path().join("ttt");
    assert!(xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]).status.success());
    let before: Vec<_> = names(&db).iter().map(|n| std::fs::read(db.join(n)).unwrap()).collect();
    refused(
        &xo(&["solve", "mnk:3,3,2", "--strong", "--db", s(&db)]),
        "holds the database of tictactoe",
    );
    let after: Vec<_> = names(&db).iter().map(|n| std::fs::read(db.join(n)).unwrap()).collect();
    assert!(before == after, "the folder changed");
    // A folder made before manifests: its tiers name the game.
    std::fs::remove_file(db.join("xo-db.toml")).unwrap();
    refused(
        &xo(&["solve", "mnk:3,3,2", "--strong", "--db", s(&db)]),
        "holds the database of tictactoe",
    );
    let again = xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("(10 resumed)"));
    assert!(db.join("xo-db.toml").exists());
}

/// Stops `child` (SIGSTOP) so that it keeps its lock for as long as the test needs, and says
/// whether it was still running (a writer that had already finished held no lock to test).
#[cfg(unix)]
fn hold(child: &mut std::process::Child) -> bool {
    let stopped = Command::new("kill").args(["-STOP", &child.id().to_string()]).status();
    assert!(stopped.unwrap().success(), "kill -STOP");
    child.try_wait().unwrap().is_none()
}

/// Issue 46: this test passed asserting nothing when the first writer finished before the
/// second tried (`if running { refused(..) }`). The first writer is now stopped, lock held, as
/// soon as its lock appears, and a first writer that had already ended fails the test.
#[cfg(unix)]
#[test]
fn a_second_writer_fails_at_once_naming_the_lock() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    // A database folder: the lock is held while the first solve runs.
    let db = dir.path().join("db");
    let mut first = Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(["solve", "mnk:4,4,3", "--strong", "--db", s(&db)])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // The manifest is written with the lock held (the lock file alone may not be locked yet);
    // a first writer that ended before it is caught by `hold`, without waiting out the limit.
    wait_until("the first solve's manifest, or its end", Duration::from_secs(20), || {
        db.join("xo-db.toml").exists() || first.try_wait().unwrap().is_some()
    });
    assert!(hold(&mut first), "the first solve ended before its lock could be tested");
    let second =
        xo_within(&["solve", "mnk:4,4,3", "--strong", "--db", s(&db)], Duration::from_secs(20));
    first.kill().unwrap();
    first.wait().unwrap();
    refused(&second, "xo-db.lock");
    // A book: its journal is the lock.
    let book = dir.path().join("c.book");
    let args = ["book", "connect:5,5,4", "--depth", "7", "--out", s(&book)];
    let mut first =
        Command::new(env!("CARGO_BIN_EXE_xo")).args(args).stdout(Stdio::null()).spawn().unwrap();
    let partial = dir.path().join("c.book.partial");
    // The journal's first bytes are written with it locked.
    let written = || std::fs::metadata(&partial).is_ok_and(|m| m.len() > 0);
    wait_until("the first book build's journal, or its end", Duration::from_secs(20), || {
        written() || first.try_wait().unwrap().is_some()
    });
    assert!(hold(&mut first), "the first book build ended before its lock could be tested");
    let second = xo_within(&args, Duration::from_secs(20));
    first.kill().unwrap();
    first.wait().unwrap();
    refused(&second, "c.book.partial");
    // The killed build's journal is taken over and resumed.
    let out = xo(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!partial.exists());
}

#[test]
fn a_damaged_journal_keeps_every_valid_record() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let (book, fresh) = (dir.path().join("r.book"), dir.path().join("f.book"));
    let partial = dir.path().join("r.book.partial");
    let args = |out: &Path| {
        xo(&["book", "connect:5,5,4", "--depth", "6", "--out", s(out), "--max-nodes", "3000000"])
    };
    // A stopped build writes the book of what it solved; a killed one leaves its journal:
    // made here from that book's deepest scores, as a killed build would have written them.
    assert_eq!(args(&book).status.code(), Some(3));
    let board = xo_core::games::gravity::GravityBoard::new(5, 5, 4).unwrap();
    let made = xo_store::book::read(&book).unwrap();
    let mut solved: Vec<(u64, i8)> = made
        .deepest_scores(&board, &xo_core::budget::Meter::default())
        .unwrap()
        .into_iter()
        .collect();
    solved.sort_unstable();
    std::fs::remove_file(&book).unwrap();
    let mut bytes = xo_store::journal::header(5, 5, 4, 6);
    for (key, score) in solved {
        bytes.extend_from_slice(&xo_store::journal::record(key, score));
    }
    let records = (bytes.len() - 24) / 13;
    assert!(records > 10, "{records} records kept");
    // A flipped byte in the fifth record, stray bytes after the seventh, a cut record at the end.
    bytes[24 + 4 * 13 + 3] ^= 0x10;
    bytes.splice(24 + 7 * 13..24 + 7 * 13, *b"garbage");
    bytes.extend_from_within(24..30);
    std::fs::write(&partial, &bytes).unwrap();
    let out = xo(&["book", "connect:5,5,4", "--depth", "6", "--out", s(&book), "--max-nodes", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("damaged bytes skipped"), "{err}");
    assert!(err.contains(&format!("resuming from {} solved positions", records - 1)), "{err}");
    let out = xo(&["book", "connect:5,5,4", "--depth", "6", "--out", s(&book)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(xo(&["book", "connect:5,5,4", "--depth", "6", "--out", s(&fresh)]).status.success());
    assert!(std::fs::read(&book).unwrap() == std::fs::read(&fresh).unwrap());
}

#[test]
#[cfg(unix)]
fn fifos_devices_and_sparse_files_are_refused_at_once() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let db = dir.path().join("db");
    assert!(xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]).status.success());
    let quick = Duration::from_secs(20);
    // A FIFO named like a tier: query and serve refuse it instead of waiting on it.
    let tier1 = db.join("tier-01.xot");
    let good = std::fs::read(&tier1).unwrap();
    std::fs::remove_file(&tier1).unwrap();
    mkfifo(&tier1);
    refused(&xo_within(&["query", s(&db), "X........"], quick), "tier-01.xot is a FIFO");
    // (xo serve's refusals are checked when it is built: feature `serve`.)
    if cfg!(feature = "serve") {
        let serve = xo_within(&["serve", "--db", s(&db), "--addr", "127.0.0.1:0"], quick);
        refused(&serve, "tier-01.xot is a FIFO");
    }
    // A symbolic link to a device.
    std::fs::remove_file(&tier1).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &tier1).unwrap();
    if cfg!(feature = "serve") {
        let serve = xo_within(&["serve", "--db", s(&db), "--addr", "127.0.0.1:0"], quick);
        refused(&serve, "tier-01.xot is a character device");
    }
    std::fs::remove_file(&tier1).unwrap();
    std::fs::write(&tier1, &good).unwrap();
    // A tier made 2 GB long (sparse): refused from its header, before a byte more is read.
    let tier4 = db.join("tier-04.xot");
    std::fs::OpenOptions::new().write(true).open(&tier4).unwrap().set_len(2 << 30).unwrap();
    let started = Instant::now();
    refused(&xo_within(&["query", s(&db), "XOXO....."], quick), "longer than its header says");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // Books that are devices or FIFOs, on every command that takes --book.
    let fifo = dir.path().join("fifo.book");
    mkfifo(&fifo);
    for book in ["/dev/zero", s(&fifo)] {
        refused(
            &xo_within(&["solve", "connect:4,4,3", "--book", book], quick),
            "not a regular file",
        );
        let batch = ["batch", "connect4-score", "--example", "--book", book];
        refused(&xo_within(&batch, quick), "not a regular file");
        if cfg!(feature = "serve") {
            let serve = ["serve", "--book", book, "--addr", "127.0.0.1:0"];
            refused(&xo_within(&serve, quick), "not a regular file");
        }
    }
    // A sparse book with a valid header: its length is checked before it is read.
    let book = dir.path().join("b.book");
    assert!(xo(&["book", "connect:4,4,3", "--depth", "2", "--out", s(&book)]).status.success());
    std::fs::OpenOptions::new().write(true).open(&book).unwrap().set_len(2 << 30).unwrap();
    let started = Instant::now();
    refused(&xo_within(&["solve", "connect:4,4,3", "--book", s(&book)], quick), "length disagrees");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[test]
fn databases_of_the_previous_formats_are_read_and_upgraded() {
    use xo_store::tier::format::{encode_tier_v1, encode_tier_v2};
    use xo_store::tier::TierFile;
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let db = dir.path().join("db");
    assert!(xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]).status.success());
    let encoders = [("v1", encode_tier_v1 as fn(&_, _, &_, &_) -> _), ("v2", encode_tier_v2)];
    for (version, encode) in encoders {
        let old = dir.path().join(version);
        std::fs::create_dir(&old).unwrap();
        for t in 0..=9 {
            let name = format!("tier-{t:02}.xot");
            let tier = TierFile::open(&db.join(&name), None, Some(t)).unwrap();
            let records = tier.records(0..tier.len()).unwrap();
            let h = tier.header();
            std::fs::write(old.join(&name), encode(&h.rules, t, &records, &h.made_by)).unwrap();
        }
        for p in ["", "XX.OO....", "XOXOOXOX."] {
            let mut args = vec!["query", s(&old), "--json"];
            if !p.is_empty() {
                args.insert(2, p);
            }
            let from_old = xo(&args);
            args[1] = s(&db);
            assert_eq!(from_old.stdout, xo(&args).stdout, "{version} {p:?}");
        }
        // A solve into it solves every tier again in the current format: the same files.
        let out = xo(&["solve", "tictactoe", "--strong", "--db", s(&old)]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("(0 resumed)"), "{version}");
        for name in names(&db) {
            assert!(
                std::fs::read(db.join(&name)).unwrap() == std::fs::read(old.join(&name)).unwrap()
            );
        }
    }
}
