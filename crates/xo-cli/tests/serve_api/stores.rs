//! A server started with a solved database or an opening book: the same answers as the command
//! gives, and a damaged file refused at start.

use crate::serving::{xo, Server};
use serde_json::Value as Json;

#[test]
fn a_loaded_database_answers_its_game() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let db = dir.path().join("ttt");
    let db_text = db.to_str().unwrap();
    let (_, code) = xo(&["solve", "tictactoe", "--strong", "--db", db_text]);
    assert_eq!(code, 0);
    let server = Server::start(&["--db", db_text]);
    for position in [".........", "X...O....", "XX.OO....", "XOXOOXOX.", "XXXOO...."] {
        let (status, body) = server.get(&format!("/api/solve?game=tictactoe&position={position}"));
        assert_eq!(status, 200);
        let mut from_db: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(from_db["engine"], "database", "{body}");
        // The same answer `xo query` gives, and the search's answer but for the engine's name.
        let (queried, _) = xo(&["query", db_text, position, "--json"]);
        assert_eq!(body, queried);
        let (searched, _) = xo(&["solve", "tictactoe", position, "--json"]);
        let mut searched: Json = serde_json::from_str(&searched).unwrap();
        from_db["engine"] = Json::Null;
        searched["engine"] = Json::Null;
        assert_eq!(from_db, searched, "{position}");
    }
    // Other games still go to the engines.
    let (status, body) = server.get("/api/solve?game=mnk:4,3,3");
    assert_eq!(status, 200);
    assert!(body.contains("\"engine\":\"negamax\""));
    // A damaged database is refused at start with a clear message (exit 2).
    let tier = db.join("tier-05.xot");
    let mut bytes = std::fs::read(&tier).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&tier, bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db_text])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tier-05.xot") && err.contains("checksum"), "{err}");
}

#[test]
fn an_opening_book_serves_the_same_answers() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let book = dir.path().join("c544.book");
    let book = book.to_str().unwrap();
    let (_, code) = xo(&["book", "connect:5,4,4", "--depth", "5", "--out", book]);
    assert_eq!(code, 0);
    let server = Server::start(&["--book", book]);
    for moves in ["", "3", "332", "33241", "3324155"] {
        let target = format!("/api/solve?game=connect:5,4,4&moves={moves}");
        let (status, body) = server.get(&target);
        assert_eq!(status, 200, "{body}");
        let mut args = vec!["solve", "connect:5,4,4", "--json"];
        if !moves.is_empty() {
            args.extend(["--moves", moves]);
        }
        assert_eq!(body, xo(&args).0, "{target}");
    }
    // A damaged book is refused at start (exit 2).
    let mut bytes = std::fs::read(book).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(book, bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(["serve", "--addr", "127.0.0.1:0", "--book", book])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged"));
}
