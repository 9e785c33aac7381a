//! What the README and the help say, done (#23): files the command would silently ignore or
//! misread are refused (exit 2) with one message naming them, and `xo query` obeys its budget
//! (exit 3). Every run is time-boxed: a child still running at its limit is killed and fails.

use std::process::Command;
use std::time::Duration;
use xo_test_support::bin::{self, Feed};
use xo_test_support::dirs::arg as s;

/// Exit status, stdout and stderr of `xo args...`, killed after `limit`.
fn xo_within(args: &[&str], limit: Duration) -> (i32, String, String) {
    let cmd = bin::command(env!("CARGO_BIN_EXE_xo"), args);
    let run =
        bin::run_within(cmd, Feed::Closed, limit).unwrap_or_else(|e| panic!("xo {args:?}: {e}"));
    (run.code().unwrap_or(-1), run.stdout_text(), run.stderr)
}

fn xo(args: &[&str]) -> (i32, String, String) {
    xo_within(args, Duration::from_secs(60))
}

/// Exit 2 with one `xo: ` line naming `words`.
fn refused(args: &[&str], words: &str) {
    let (code, _, err) = xo(args);
    assert_eq!(code, 2, "xo {args:?}: {err}");
    assert!(err.starts_with("xo: ") && err.lines().count() == 1, "xo {args:?}: {err:?}");
    assert!(err.contains(words), "xo {args:?}: {err:?} lacks {words:?}");
}

#[test]
fn rules_files_are_regular_files_and_every_field_is_used() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    // A folder and a FIFO named like rules files: refused at once (a FIFO would block the open).
    let folder = dir.path().join("folder.toml");
    std::fs::create_dir(&folder).unwrap();
    refused(&["solve", s(&folder)], "not a regular file");
    let fifo = dir.path().join("fifo.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|st| st.success());
    if made.is_ok_and(|ok| ok) {
        refused(&["solve", s(&fifo)], "not a regular file");
    } else {
        eprintln!("mkfifo is not available: the FIFO case is skipped");
    }
    // Fields the marks do not use.
    let own = dir.path().join("own.toml");
    std::fs::write(&own, "width = 3\nheight = 3\nmarks = \"own\"\nalphabet = \"SO\"\nk = 3\n")
        .unwrap();
    refused(&["solve", s(&own)], "alphabet is for shared marks");
    let shared = dir.path().join("shared.toml");
    std::fs::write(
        &shared,
        "width = 5\nmarks = \"shared\"\nalphabet = \"SO\"\nmark = \"S\"\nword = \"SOS\"\n",
    )
    .unwrap();
    refused(&["solve", s(&shared)], "mark is for marks = \"same\"");
}

#[test]
fn a_book_of_another_board_is_refused() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let book = dir.path().join("c544.book");
    let (code, _, err) = xo(&["book", "connect:5,4,4", "--depth", "2", "--out", s(&book)]);
    assert_eq!(code, 0, "{err}");
    let book = s(&book);
    refused(&["solve", "connect4", "--book", book], "a book of connect:5,4,4, not of connect4");
    refused(&["solve", "tictactoe", "--book", book], "not of tictactoe");
    refused(&["batch", "connect4-score", "--book", book], "not of connect4");
    refused(&["batch", "lol", "--example", "--book", book], "--book is for connect4-score");
    let (code, out, err) = xo(&["solve", "connect:5,4,4", "--moves", "3", "--book", book]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score"), "{out}");
    // xo serve (when built: feature `serve`): a second book of one board would never be
    // consulted.
    if cfg!(feature = "serve") {
        let serve = ["serve", "--addr", "127.0.0.1:0", "--book", book, "--book", book];
        refused(&serve, "given already");
    }
}

#[test]
fn the_same_database_twice_is_refused_and_query_obeys_its_budget() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let db = dir.path().join("ttt");
    let (code, _, err) = xo(&["solve", "tictactoe", "--strong", "--db", s(&db)]);
    assert_eq!(code, 0, "{err}");
    let copy = dir.path().join("ttt-copy");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(&db).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let same = format!("{}/", s(&db));
    // (xo serve when built: feature `serve`.)
    if cfg!(feature = "serve") {
        refused(&["serve", "--addr", "127.0.0.1:0", "--db", s(&db), "--db", &same], "given twice");
        refused(&["serve", "--addr", "127.0.0.1:0", "--db", s(&db), "--db", s(&copy)], "both hold");
    }
    // xo query takes the budget flags and obeys them.
    let (code, out, err) =
        xo(&["query", s(&db), "XX.OO....", "--timeout", "1", "--memory-mib", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: win"), "{out}");
    for args in [&["query", s(&db), "X........"][..], &["query", s(&db), "--info"]] {
        let (code, _, err) = xo(&[args, &["--timeout", "0.000001"]].concat());
        assert_eq!(code, 3, "{args:?}: {err}");
        assert!(err.contains("time budget") && err.contains("--timeout"), "{err}");
    }
    refused(&["query", s(&db), "--max-nodes", "0"], "--max-nodes");
}
