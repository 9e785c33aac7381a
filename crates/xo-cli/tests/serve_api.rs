//! The HTTP API over a real socket: every endpoint with good, bad and over-budget requests,
//! statuses and bodies asserted, and every answer equal, byte for byte, to what `xo ... --json`
//! prints for the same question.

mod serving;

use serde_json::Value as Json;
use serving::{encode, xo, Server};
use std::time::{Duration, Instant};

/// The API's answer to `endpoint` with `params` must equal `xo ARGS --json`'s output.
fn same_as_cli(server: &Server, endpoint: &str, params: &[(&str, &str)], cli: &[&str]) {
    let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
    let target = format!("/api/{endpoint}?{}", query.join("&"));
    let (status, body) = server.get(&target);
    let (printed, code) = xo(cli);
    assert!(code == 0 || code == 1, "xo {cli:?} exited {code}");
    assert_eq!(status, 200, "{target}: {body}");
    assert_eq!(body, printed, "{target} differs from xo {cli:?}");
}

#[test]
fn every_endpoint_answers_as_the_command_does() {
    let server = Server::start(&[]);
    let s = &server;
    same_as_cli(s, "solve", &[("game", "tictactoe")], &["solve", "tictactoe", "--json"]);
    same_as_cli(
        s,
        "solve",
        &[("game", "tictactoe"), ("position", "XX. OO. ...")],
        &["solve", "tictactoe", "XX. OO. ...", "--json"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "tictactoe"), ("position", "X...O...."), ("winning", "1")],
        &["solve", "tictactoe", "X...O....", "--json", "--winning"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "mnk:4,4,3"), ("position", "X..............O"), ("value_only", "true")],
        &["solve", "mnk:4,4,3", "X..............O", "--json", "--value-only"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "connect4"), ("moves", "44455554221")],
        &["solve", "connect4", "--moves", "44455554221", "--json"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "connect4"), ("moves", "52753311433677442422121"), ("no_moves", "1")],
        &["solve", "connect4", "--moves", "52753311433677442422121", "--json", "--no-moves"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "lol"), ("position", "*L**")],
        &["solve", "lol", "*L**", "--json"],
    );
    same_as_cli(s, "solve", &[("game", "sos:6")], &["solve", "sos:6", "--json"]);
    same_as_cli(
        s,
        "solve",
        &[("game", "treblecross"), ("position", ".X..X.")],
        &["solve", "treblecross", ".X..X.", "--json"],
    );
    same_as_cli(
        s,
        "solve",
        &[("game", "dawson-kayles"), ("position", "1000000 999999")],
        &["solve", "dawson-kayles", "1000000 999999", "--json"],
    );
    same_as_cli(s, "count", &[("game", "tictactoe")], &["count", "tictactoe", "--json"]);
    same_as_cli(
        s,
        "count",
        &[("game", "tictactoe"), ("position", "X...O...."), ("by_length", "1")],
        &["count", "tictactoe", "X...O....", "--json", "--by-length"],
    );
    same_as_cli(
        s,
        "check",
        &[("game", "tictactoe"), ("position", "XXXOO....")],
        &["check", "tictactoe", "XXXOO....", "--json"],
    );
    // Unreachable: the command exits 1; the API answers 200 with reachable false.
    same_as_cli(
        s,
        "check",
        &[("game", "tictactoe"), ("position", "XXX......")],
        &["check", "tictactoe", "XXX......", "--json"],
    );
    same_as_cli(
        s,
        "grundy",
        &[("game", "kayles"), ("upto", "200")],
        &["grundy", "kayles", "--upto", "200", "--json"],
    );
    same_as_cli(
        s,
        "grundy",
        &[("game", "treblecross"), ("upto", "50")],
        &["grundy", "treblecross", "--upto", "50", "--json"],
    );
}

#[test]
fn a_posted_json_body_is_the_same_question() {
    let server = Server::start(&[]);
    let (status, got) =
        server.post("/api/solve", r#"{"game":"tictactoe","position":"X...O....","winning":true}"#);
    assert_eq!(status, 200);
    assert_eq!(got, server.get("/api/solve?game=tictactoe&position=X...O....&winning=1").1);
    // A long strip fits a body where it would not fit a URL.
    let strip = ".".repeat(30_000);
    let (status, body) = server.post(
        "/api/solve",
        &format!(r#"{{"game":"treblecross","position":"{strip}","value_only":1}}"#),
    );
    assert_eq!(status, 200, "{body}");
    let (printed, _) =
        xo(&["solve", &format!("treblecross:{}", strip.len()), &strip, "--json", "--value-only"]);
    assert_eq!(body, printed);
}

#[test]
fn games_and_game_describe_boards_for_the_page() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/api/games");
    assert_eq!(status, 200);
    let games: Json = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> =
        games["games"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    for name in ["tictactoe", "connect4", "treblecross:12", "lol:8", "sos:8", "octal:0.77"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let (status, body) = server.get("/api/game?game=connect:6,5,4");
    assert_eq!(status, 200);
    let info: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (info["width"].as_u64(), info["height"].as_u64(), info["gravity"].as_bool()),
        (Some(6), Some(5), Some(true))
    );
    assert_eq!(info["empty"].as_str().unwrap().len(), 30);
    let (status, body) = server.get("/api/game?game=0.137");
    assert_eq!(status, 200);
    let info: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(info["kind"], "octal");
    assert_eq!(info["removals"][2]["leave"], serde_json::json!([0, 1, 2]));
}

/// `target` gets `status` and `{"error": ...}` containing `words`.
fn refused(server: &Server, target: &str, status: u16, words: &str) {
    let (got, body) = server.get(target);
    assert_eq!(got, status, "{target}: {body}");
    let json: Json =
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{target}: not JSON: {body}"));
    let error = json["error"].as_str().unwrap_or_else(|| panic!("{target}: no error: {body}"));
    assert!(error.contains(words), "{target}: {error:?} lacks {words:?}");
}

#[test]
fn bad_requests_get_4xx_naming_the_problem() {
    let server = Server::start(&["--timeout", "5"]);
    let s = &server;
    refused(s, "/api/solve?game=chess", 400, "unknown game \"chess\"");
    refused(s, "/api/solve", 400, "missing parameter 'game'");
    refused(s, "/api/solve?game=tictactoe&position=XX", 400, "cells");
    refused(s, "/api/solve?game=tictactoe&position=XXXOO.O..", 400, "moved after");
    refused(s, "/api/solve?game=tictactoe&position=XQ.......", 400, "'Q'");
    refused(s, "/api/solve?game=tictactoe&positon=X", 400, "no parameter 'positon'");
    refused(s, "/api/solve?game=tictactoe&game=mnk:4,4,4", 400, "given twice");
    refused(s, "/api/solve?game=tictactoe&winning=maybe", 400, "yes or no");
    refused(s, "/api/solve?game=tictactoe&winning=1&value_only=1", 400, "exclude each other");
    refused(s, "/api/solve?game=tictactoe&position=X........&moves=4", 400, "not both");
    refused(s, "/api/solve?game=connect4&moves=4448", 400, "moves");
    refused(s, "/api/solve?game=kayles&moves=1", 400, "gravity");
    refused(s, "/api/solve?game=mnk:1000,1000,5", 400, "1000000 cells");
    refused(s, "/api/solve?game=mnk:2000,2000,5", 400, "cells");
    refused(s, "/api/solve?game=tictactoe&timeout=60", 400, "above this server's limit of 5 s");
    refused(s, "/api/solve?game=tictactoe&timeout=-1", 400, "positive number");
    refused(s, "/api/solve?game=tictactoe&timeout=1e300", 400, "above");
    refused(s, "/api/solve?game=tictactoe&max_nodes=1e19", 400, "whole number");
    refused(s, "/api/solve?game=tictactoe&memory_mib=99999999999", 400, "memory_mib");
    refused(s, "/api/check?game=tictactoe", 400, "missing parameter 'position'");
    refused(s, "/api/grundy?game=kayles", 400, "missing parameter 'upto'");
    refused(s, "/api/grundy?game=tictactoe&upto=5", 400, "octal");
    refused(s, "/api/grundy?game=kayles&upto=99999999999999999", 400, "too large");
    refused(s, "/api/game?game=0.7x", 400, "'x'");
    refused(s, "/api/nothing", 404, "no such page");
    let long = format!("/api/solve?game=lol&position={}", ".".repeat(20_000));
    refused(s, &long, 414, "longer than");
    let (status, body) = s.post("/api/solve", "not json");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("JSON object"));
    let (status, body) = s.post("/api/solve", r#"{"game":["tictactoe"]}"#);
    assert_eq!(status, 400, "{body}");
    let big = format!(r#"{{"game":"lol","position":"{}"}}"#, ".".repeat(2 << 20));
    let (status, body) = s.post("/api/solve", &big);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than"));
    // Odd bytes: invalid UTF-8 and control characters are bad positions, never a 5xx.
    let (status, _) = s.get("/api/solve?game=tictactoe&position=%FF%FE%00");
    assert_eq!(status, 400);
}

#[test]
fn work_beyond_the_budget_is_422_with_the_reason_within_the_limit() {
    let server = Server::start(&["--timeout", "20"]);
    let (status, body) = server.get("/api/solve?game=connect4&max_nodes=1000");
    assert_eq!(status, 422, "{body}");
    let json: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(json["value"], "unknown");
    assert_eq!(json["stopped"]["limit"], "nodes");
    assert!(json["reason"].as_str().unwrap().contains("node budget"));
    // The same shape the command prints when it stops (exit 3).
    let (printed, code) = xo(&["solve", "connect4", "--json", "--max-nodes", "1000"]);
    assert_eq!(code, 3);
    let cli: Json = serde_json::from_str(&printed).unwrap();
    let keys = |j: &Json| j.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&json), keys(&cli));

    // A 10^6-cell strip and a 1 s timeout: stopped within the limit, not hung.
    let started = Instant::now();
    let (status, body) = server.get("/api/solve?game=treblecross:1000000&timeout=1");
    assert_eq!(status, 422, "{}", &body[..body.len().min(300)]);
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    let json: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(json["stopped"]["limit"], "time");
    // Memory: a huge LOL strip stops at the memory budget at once.
    let (status, body) = server.get("/api/solve?game=lol:1000000&memory_mib=64");
    assert_eq!(status, 422);
    assert!(body.contains("\"limit\":\"memory\""));
    // Grundy over budget: 422 with the stop.
    let (status, body) = server.get("/api/grundy?game=treblecross&upto=2000000&timeout=0.5");
    assert_eq!(status, 422, "{body}");
    let json: Json = serde_json::from_str(&body).unwrap();
    // The report's shape, every figure unknown, with the reason (was {"error"}: #23).
    assert!(json["reason"].as_str().unwrap().contains("time budget"), "{body}");
    assert_eq!(
        (&json["values"], &json["period"]),
        (&Json::from("unknown"), &Json::from("unknown"))
    );
    assert_eq!(json["stopped"]["limit"], "time");
    let (status, body) = server.get("/api/grundy?game=treblecross&upto=100000000");
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("memory budget"), "{body}");
}

#[test]
fn a_slow_request_does_not_hold_up_the_others() {
    let server = Server::start(&["--workers", "2", "--timeout", "30"]);
    let addr = server.addr;
    let slow = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(xo_server::load::request(
            addr,
            "/api/solve?game=treblecross:1000000&timeout=4",
            None,
        ))
    });
    std::thread::sleep(Duration::from_millis(300));
    // While it computes, the other worker, the page and bad requests answer.
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(server.get("/api/solve?game=tictactoe&position=X...O....").0, 200);
        assert_eq!(server.get("/api/solve?game=chess").0, 400);
    }
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        page.contains("<html")
            || page.contains("<!doctype html")
            || page.contains("<!DOCTYPE html")
    );
    let elapsed = started.elapsed();
    let (status, _) = slow.join().unwrap().unwrap();
    assert_eq!(status, 422);
    assert!(elapsed < Duration::from_secs(3), "the quick requests took {elapsed:?}");
}

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
fn a_client_that_goes_away_frees_its_worker() {
    let server = Server::start(&["--workers", "1", "--timeout", "30"]);
    // The only worker starts a 20 s job; its client gives up after 0.3 s.
    let gave_up = server.block_on(async {
        tokio::time::timeout(
            Duration::from_millis(300),
            xo_server::load::request(
                server.addr,
                "/api/solve?game=treblecross:1000000&timeout=20",
                None,
            ),
        )
        .await
    });
    assert!(gave_up.is_err(), "the slow request answered within 0.3 s");
    // The job was cancelled: the worker is free again at once, not in 20 s.
    let started = Instant::now();
    let (status, _) = server.get("/api/solve?game=tictactoe&position=XOX......");
    assert_eq!(status, 200);
    assert!(started.elapsed() < Duration::from_secs(5), "waited {:?}", started.elapsed());
}

#[test]
fn trickling_and_idle_connections_are_closed_and_do_not_starve_the_server() {
    use std::io::{Read, Write};
    let server = Server::start(&["--header-timeout", "1", "--max-connections", "64"]);
    // Forty connections that never finish their headers.
    let mut slow: Vec<std::net::TcpStream> = (0..40)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(server.addr).unwrap();
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n").unwrap();
            s
        })
        .collect();
    // The server still answers others at once.
    assert_eq!(server.get("/api/games").0, 200);
    // After the header timeout, the trickling connections are closed by the server.
    std::thread::sleep(Duration::from_millis(2500));
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut buf = Vec::new();
        let closed = s.read_to_end(&mut buf).is_ok();
        assert!(closed, "a trickling connection is still open");
    }
    // More connections than the limit wait to be accepted instead of failing anything.
    let held: Vec<std::net::TcpStream> =
        (0..100).map(|_| std::net::TcpStream::connect(server.addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(1500)); // the idle ones time out, making room
    assert_eq!(server.get("/api/solve?game=tictactoe&position=X........").0, 200);
    drop(held);
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

/// Reads what the server sends on `stream` until it closes the connection (at most `limit`):
/// the text, and whether it closed.
fn read_until_closed(stream: &mut std::net::TcpStream, limit: Duration) -> (String, bool) {
    use std::io::Read;
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let closed = stream.read_to_end(&mut got).is_ok();
    (String::from_utf8_lossy(&got).into_owned(), closed)
}

/// A POST whose headers promise `length` bytes of body, and `sent` of them.
fn post_promising(addr: std::net::SocketAddr, length: usize, sent: &[u8]) -> std::net::TcpStream {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(sent).unwrap();
    s
}

#[test]
fn stalled_and_trickling_bodies_get_408_and_are_closed() {
    use std::io::Write;
    let server = Server::start(&["--body-timeout", "1", "--header-timeout", "30"]);
    // Headers in at once, then 10 of the 100 bytes promised, then nothing.
    let mut stalled = post_promising(server.addr, 100, br#"{"game":"t"#);
    // A body trickling one byte every 200 ms: the timeout bounds the whole body, not each byte.
    let mut trickling = post_promising(server.addr, 100, b"{");
    let trickle = {
        let mut s = trickling.try_clone().unwrap();
        std::thread::spawn(move || {
            for _ in 0..60 {
                std::thread::sleep(Duration::from_millis(200));
                if s.write_all(b" ").is_err() {
                    return;
                }
            }
        })
    };
    // Either way: 408 naming the flag, and the connection closed (the test's bound: 10 s).
    for s in [&mut stalled, &mut trickling] {
        let (text, closed) = read_until_closed(s, Duration::from_secs(10));
        assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
        assert!(text.contains("--body-timeout"), "{text}");
        assert!(closed, "the connection is still open: {text:?}");
    }
    trickle.join().unwrap();
    // A body declared far larger than the limit is refused before it is sent.
    let mut large = post_promising(server.addr, 100 << 20, b"");
    let (text, _) = read_until_closed(&mut large, Duration::from_secs(10));
    assert!(text.starts_with("HTTP/1.1 413"), "{text:?}");
    // A whole body is answered as before.
    let body = r#"{"game":"tictactoe","position":"XX.OO...."}"#;
    let mut whole = post_promising(server.addr, body.len(), body.as_bytes());
    let (text, _) = read_until_closed(&mut whole, Duration::from_millis(1500));
    assert!(text.starts_with("HTTP/1.1 200"), "{text:?}");
}

#[test]
fn stalled_bodies_do_not_starve_other_clients() {
    // Bodies may take a minute, yet four stalled ones do not hold the four connections.
    let server = Server::start(&["--max-connections", "4", "--body-timeout", "60"]);
    let mut stalled: Vec<std::net::TcpStream> =
        (0..4).map(|_| post_promising(server.addr, 100, b"{")).collect();
    std::thread::sleep(Duration::from_millis(300));
    // A normal request is answered (the test gives up after 20 s, far below the body timeout).
    let addr = server.addr;
    let (done, answered) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let _ = done.send(rt.block_on(xo_server::load::request(
            addr,
            "/api/solve?game=tictactoe&position=X........",
            None,
        )));
    });
    let (status, body) = answered
        .recv_timeout(Duration::from_secs(20))
        .expect("a GET waited behind four stalled bodies")
        .unwrap();
    assert_eq!(status, 200, "{body}");
    // It took the place of the stalled client that had waited longest, which was closed.
    let (text, closed) = read_until_closed(&mut stalled[0], Duration::from_secs(5));
    assert!(closed && text.is_empty(), "{text:?}");
    // Many more clients, each answered in turn while stalled ones keep arriving.
    for _ in 0..10 {
        stalled.push(post_promising(server.addr, 100, b"{"));
        assert_eq!(server.get("/api/games").0, 200);
    }
}

#[test]
fn said_one_way_done_another_over_http() {
    let server = Server::start(&[]);
    let s = &server;
    // Parameters in two places, or a key given twice: refused, not silently one of them.
    let (status, body) = s.post("/api/solve?game=mnk:4,4,4", r#"{"game":"tictactoe"}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("not in the query string"), "{body}");
    let (status, body) =
        s.post("/api/solve", r#"{"game":"tictactoe","position":"X........","game":"kayles"}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("'game' is given twice"), "{body}");
    // Zero budgets are refused alike (timeout=0 always was).
    refused(s, "/api/solve?game=tictactoe&timeout=0", 400, "positive number");
    refused(s, "/api/solve?game=tictactoe&max_nodes=0", 400, "max_nodes must be at least 1");
    refused(s, "/api/solve?game=tictactoe&memory_mib=0", 400, "memory_mib must be at least 1");
    // Over budget, count and grundy keep their shapes, as the commands print them.
    let (status, body) = s.get("/api/count?game=lol:30&memory_mib=64");
    assert_eq!(status, 422, "{body}");
    let json: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (&json["games"], &json["positions"]),
        (&Json::from("unknown"), &Json::from("unknown"))
    );
    let (printed, code) = xo(&["count", "lol:30", "--memory-mib", "64", "--json"]);
    assert_eq!(code, 3);
    let cli: Json = serde_json::from_str(&printed).unwrap();
    let keys = |j: &Json| j.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&json), keys(&cli));
    let (status, body) = s.get("/api/grundy?game=kayles&upto=100000&max_nodes=10");
    assert_eq!(status, 422, "{body}");
    let json: Json = serde_json::from_str(&body).unwrap();
    let (printed, code) =
        xo(&["grundy", "kayles", "--upto", "100000", "--max-nodes", "10", "--json"]);
    assert_eq!(code, 3);
    let cli: Json = serde_json::from_str(&printed).unwrap();
    assert_eq!(keys(&json), keys(&cli));
    assert_eq!(json["stopped"]["limit"], "nodes");
}

/// Issue 20: one request, the same answer through `/api/ask` (every field of the core's request
/// by name) and the command, for every kind of question, the play ones among them.
#[test]
fn the_same_request_gets_the_same_answer_through_ask_and_the_command() {
    let server = Server::start(&[]);
    let s = &server;
    same_as_cli(
        s,
        "ask",
        &[("game", "treblecross"), ("position", ".X..X.")],
        &["solve", "treblecross", ".X..X.", "--json"],
    );
    same_as_cli(
        s,
        "ask",
        &[("game", "tictactoe"), ("position", "XX.OO...."), ("question", "best")],
        &["moves", "tictactoe", "XX.OO....", "--best", "--json"],
    );
    same_as_cli(
        s,
        "ask",
        &[("game", "connect:12,2,4"), ("moves", "11,3"), ("question", "moves")],
        &["moves", "connect:12,2,4", "--moves", "11,3", "--json"],
    );
    same_as_cli(
        s,
        "ask",
        &[("game", "lol:5"), ("position", "L...."), ("question", "after"), ("move", "3o")],
        &["moves", "lol:5", "L....", "--play", "3o", "--json"],
    );
    same_as_cli(
        s,
        "ask",
        &[("game", "tictactoe"), ("question", "count"), ("by_length", "1")],
        &["count", "tictactoe", "--by-length", "--json"],
    );
    same_as_cli(
        s,
        "ask",
        &[("game", "kayles"), ("question", "grundy"), ("upto", "80")],
        &["grundy", "kayles", "--upto", "80", "--json"],
    );
    same_as_cli(
        s,
        "grundy",
        &[("game", "kayles"), ("upto", "80")],
        &["grundy", "kayles", "--upto", "80", "--json"],
    );
    refused(s, "/api/ask?game=tictactoe&question=after&move=10", 400, "not a legal move");
    refused(s, "/api/ask?game=tictactoe&question=play", 400, "is not one of");
    refused(s, "/api/ask?game=tictactoe&question=best&winning=1", 400, "'winning'");
    refused(s, "/api/ask?game=connect:12,2,4&moves=1111", 400, "separated by commas");
    refused(s, "/api/ask?game=tictactoe&book=x", 400, "no parameter 'book'");
}

/// A game given as TOML rules text answers as the same game by name does.
#[test]
fn ask_takes_rules_as_text() {
    let server = Server::start(&[]);
    let rules = "name = \"t\"\nwidth = 3\nheight = 3\nmarks = \"own\"\nk = 3\n";
    let (status, body) =
        server.get(&format!("/api/ask?rules={}&position=XX.OO....", encode(rules)));
    assert_eq!(status, 200, "{body}");
    let by_name = server.get("/api/ask?game=tictactoe&position=XX.OO....").1;
    let strip = |b: &str| b.replacen("\"game\":\"t\"", "\"game\":\"tictactoe\"", 1);
    assert_eq!(strip(&body), by_name);
}

/// Issue 20's regression through both front ends: short Treblecross strips and small octal sums
/// answered with remoteness, the same JSON from the server and the command, on random positions.
#[test]
fn random_short_strips_and_small_sums_answer_alike_with_remoteness() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(20);
    let server = Server::start(&[]);
    for _ in 0..8 {
        let n = rng.random_range(3..=20);
        let strip: String = (0..n).map(|_| if rng.random_bool(0.15) { 'X' } else { '.' }).collect();
        let (status, body) = server.get(&format!("/api/ask?game=treblecross&position={strip}"));
        let (printed, code) = xo(&["solve", "treblecross", &strip, "--json"]);
        if code == 2 {
            assert_eq!(status, 400, "{strip}: {body}"); // a strip that cannot occur, refused by both
            continue;
        }
        assert_eq!((status, &body), (200, &printed), "{strip}");
        let json: Json = serde_json::from_str(&body).unwrap();
        assert!(json["remoteness"].is_u64(), "{strip}: {body}");
        assert!(json["moves"].as_array().unwrap().iter().all(|m| m["remoteness"].is_u64()));
    }
    for _ in 0..6 {
        let heaps: Vec<String> =
            (0..rng.random_range(1..=3)).map(|_| rng.random_range(0..=8).to_string()).collect();
        let heaps = heaps.join(" ");
        let (status, body) =
            server.get(&format!("/api/ask?game=kayles&position={}", encode(&heaps)));
        let (printed, _) = xo(&["solve", "kayles", &heaps, "--json"]);
        assert_eq!((status, &body), (200, &printed), "{heaps}");
        let json: Json = serde_json::from_str(&body).unwrap();
        assert!(json["remoteness"].is_u64() && json["heap_moves"].is_array(), "{heaps}: {body}");
    }
}
