//! Good requests: every endpoint, a posted JSON body, the games list and `/api/ask` (rules as
//! text, random short strips and small sums) answer as `xo ... --json` does, byte for byte.

use crate::harness::{refused, same_as_cli};
use crate::serving::{encode, xo, Server};
use serde_json::Value as Json;

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
    // Each move's principal variation (#45).
    same_as_cli(
        s,
        "solve",
        &[("game", "connect4"), ("moves", "44455554221"), ("line", "1")],
        &["solve", "connect4", "--moves", "44455554221", "--json", "--line"],
    );
    // Each side's threats and the parity (#45).
    same_as_cli(
        s,
        "solve",
        &[("game", "connect4"), ("moves", "4455662"), ("threats", "1")],
        &["solve", "connect4", "--moves", "4455662", "--json", "--threats"],
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
