//! `xo book` and `--book`: a book is built, written and checked; solving with it gives the same
//! JSON as without; damaged or foreign books are refused (exit 2).

use std::process::Output;
use xo_test_support::bin;

fn xo(args: &[&str]) -> Output {
    bin::output(env!("CARGO_BIN_EXE_xo"), args)
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn a_book_is_built_and_changes_no_answer() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let book = dir.path().join("c544.book");
    let book = book.to_str().unwrap();
    let made = stdout(&xo(&["book", "connect:5,4,4", "--depth", "6", "--out", book]));
    assert!(
        made.contains("positions to depth 6") && made.contains("empty board score 0"),
        "{made}"
    );
    for moves in ["", "3", "33", "3324", "332415", "33241551", "3324155122"] {
        let mut plain = vec!["solve", "connect:5,4,4", "--json"];
        if !moves.is_empty() {
            plain.extend(["--moves", moves]);
        }
        let mut booked = plain.clone();
        booked.extend(["--book", book]);
        assert_eq!(stdout(&xo(&booked)), stdout(&xo(&plain)), "{moves}");
    }
    // The book of another board is not misused: refused, naming both boards (#23: it was
    // silently ignored).
    let out = xo(&["solve", "connect:4,5,4", "--json", "--book", book]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a book of connect:5,4,4, not of connect:4,5,4"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_books_and_bad_requests_are_refused() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let path = dir.path().join("b.book");
    let p = path.to_str().unwrap();
    stdout(&xo(&["book", "connect:4,4,3", "--depth", "3", "--out", p]));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[40] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["solve", "connect:4,4,3", "--book", p], "damaged"),
        (&["solve", "connect:4,4,3", "--book", "Cargo.toml"], "not an xo opening book"),
        (&["solve", "connect:4,4,3", "--book", "/nonexistent.book"], "cannot read"),
        (&["book", "tictactoe", "--depth", "2"], "gravity"),
        (&["book", "connect4", "--depth", "64"], "--depth"),
    ];
    for (args, words) in cases {
        let out = xo(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    // A book of another board or depth at --out is not overwritten; a damaged one is.
    let other = dir.path().join("other.book");
    let o = other.to_str().unwrap();
    stdout(&xo(&["book", "connect:4,4,3", "--depth", "2", "--out", o]));
    let out = xo(&["book", "connect:4,4,3", "--depth", "3", "--out", o]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not this one"), "{err}");
    stdout(&xo(&["book", "connect:4,4,3", "--depth", "3", "--out", p]));
    // Over budget: exit 3 naming the flag.
    let fresh = dir.path().join("c4.book");
    let f = fresh.to_str().unwrap();
    let out = xo(&["book", "connect4", "--depth", "8", "--max-nodes", "1000", "--out", f]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-nodes"));
}

#[test]
fn a_stopped_build_resumes_to_the_same_book() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let (resumed, fresh) = (dir.path().join("r.book"), dir.path().join("f.book"));
    let (r, f) = (resumed.to_str().unwrap(), fresh.to_str().unwrap());
    let partial = dir.path().join("r.book.partial");
    // Stopped twice at a node budget: the scores found are kept in the book of what is solved
    // (the checkpoint: no journal is left), and each stop keeps more.
    let mut kept = 0;
    for nodes in ["300000", "3000000"] {
        let out = xo(&["book", "connect:5,5,4", "--depth", "6", "--out", r, "--max-nodes", nodes]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains("resumes") && err.contains("positions of 6 moves are solved"),
            "{err}"
        );
        assert!(resumed.exists() && !partial.exists());
        let size = std::fs::metadata(&resumed).unwrap().len();
        assert!(size > kept, "nothing more was kept ({size} bytes)");
        kept = size;
    }
    // The resumed build equals one made in one go, and its partial file is gone.
    stdout(&xo(&["book", "connect:5,5,4", "--depth", "6", "--out", r]));
    stdout(&xo(&["book", "connect:5,5,4", "--depth", "6", "--out", f]));
    assert!(std::fs::read(&resumed).unwrap() == std::fs::read(&fresh).unwrap());
    assert!(!partial.exists());
    // Another book's partial file, or a damaged one, is refused (exit 2).
    std::fs::write(&partial, b"XOBOOKP\0not this book").unwrap();
    let out = xo(&["book", "connect:5,5,4", "--depth", "6", "--out", r]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another book"));
}

#[test]
fn the_shipped_book_changes_no_answer() {
    // Positions the shipped book holds children of (its first solved subtrees are the centre
    // column's), and others: the same JSON with the book (the default) and with --no-book.
    for moves in ["444444333333", "4444443333", "44444433335", "2577713147"] {
        let with = xo(&["solve", "connect4", "--moves", moves, "--json", "--timeout", "60"]);
        let without =
            xo(&["solve", "connect4", "--moves", moves, "--json", "--timeout", "60", "--no-book"]);
        assert_eq!(stdout(&with), stdout(&without), "{moves}");
    }
    let out = xo(&["solve", "connect4", "--no-book", "--book", "x.book"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-book"));
}
