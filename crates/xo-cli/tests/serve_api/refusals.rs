//! Bad and over-budget requests: 4xx naming the problem, 422 with the stop's reason within the
//! limit, and a question said one way but done another refused rather than guessed.

use crate::harness::refused;
use crate::serving::{xo, Server};
use serde_json::Value as Json;
use std::time::{Duration, Instant};

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
    // A position of 11 stones: past the shipped book (10), so it is searched.
    let (status, body) = server.get("/api/solve?game=connect4&moves=47744635572&max_nodes=1000");
    assert_eq!(status, 422, "{body}");
    let json: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(json["value"], "unknown");
    assert_eq!(json["stopped"]["limit"], "nodes");
    assert!(json["reason"].as_str().unwrap().contains("node budget"));
    // The same shape the command prints when it stops (exit 3).
    let (printed, code) =
        xo(&["solve", "connect4", "--moves", "47744635572", "--json", "--max-nodes", "1000"]);
    assert_eq!(code, 3);
    let cli: Json = serde_json::from_str(&printed).unwrap();
    let keys = |j: &Json| j.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&json), keys(&cli));

    // A strip of 3x10^6 cells (.007 computed beyond the 2^20 values xo ships) and a 1 s
    // timeout: stopped within the limit, not hung.
    let started = Instant::now();
    let (status, body) = server.get("/api/solve?game=treblecross:3000000&timeout=1");
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
