//! The page's study tools (issue 45), with the server and with none: each move's remoteness
//! and delta-remoteness in the move history; the game record in (a
//! pasted move string sets the position, a bad one is refused naming its move) and out (the
//! record of the moves played); each move's line of perfect play; the count and the check of
//! the position shown; an octal game's nim-sequence. Every answer shown is compared with the
//! core's own.

use crate::driver::{browser_missing, connect, start_driver};
use crate::expected::core_ask;
use crate::page::{board_at, click, open, wait_for, READ_BOARD};
use crate::static_host::static_host;
use fantoccini::Client;
use serde_json::{json, Value};

/// Types `text` into the record box and plays it.
async fn play_record(c: &Client, text: &str) {
    c.execute(
        "document.getElementById('record').value = arguments[0]; document.getElementById('playrecord').click();",
        vec![json!(text)],
    )
    .await
    .unwrap();
}

async fn record(c: &Client) -> String {
    let v = c.execute("return document.getElementById('record').value", vec![]).await.unwrap();
    v.as_str().unwrap().to_string()
}

/// Clicks the tool `button` and waits for its answer (`kind`, or `kind-error`).
async fn ask_tool(c: &Client, button: &str, kind: &str) -> Value {
    click(c, &format!("#{button}")).await;
    let script = r#"
const out = document.getElementById('studyout');
return { kind: out.dataset.kind || null, text: out.textContent,
  fields: Object.fromEntries(Array.from(out.querySelectorAll('[data-field]')).map(e => [e.dataset.field, e.textContent])),
  lines: Array.from(out.querySelectorAll('li')).map(e => [e.dataset.move, e.dataset.line]) };
"#;
    wait_for(c, &format!("the {kind} answer"), script, |v| {
        v["kind"] == kind || v["kind"] == format!("{kind}-error").as_str()
    })
    .await
}

/// The text the page shows for a field of the core's answer (lists joined by ", ", null as
/// "none").
fn field_text(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(field_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// Every field of `want` but `skip` is shown as the page shows it.
fn assert_fields(shown: &Value, want: &Value, skip: &[&str], what: &str) {
    let want = want.as_object().unwrap();
    let shown = shown["fields"].as_object().unwrap();
    for (k, v) in want.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
        assert_eq!(
            shown.get(k).and_then(Value::as_str),
            Some(field_text(v).as_str()),
            "{what}: {k}"
        );
    }
    assert_eq!(shown.len(), want.len() - skip.len(), "{what}: fields {shown:?}");
}

/// As [`assert_fields`] (skipping `game`), but for the field `except`, checked by the caller.
fn shown_fields_but(shown: &Value, want: &Value, except: &str, what: &str) {
    let mut shown = shown.clone();
    shown["fields"][except] = json!("");
    assert_fields(&shown, want, &["game"], what);
}

/// The move history's remoteness and delta against the core's report of each position a move
/// was played in: the move's remoteness, and its remoteness less the best move's when both have
/// the same value (none for a mistake of value).
async fn history_remoteness(c: &Client, origin: &str, game: &str, moves: &[&str]) {
    open(c, origin, &format!("game={game}&moves={}", moves.join("+"))).await;
    let shown = wait_for(
        c,
        "every move's remoteness",
        "return Array.from(document.querySelectorAll('#moves .mvl')).map(b => [b.dataset.remoteness || null, b.dataset.delta || null, b.textContent])",
        |v| v.as_array().is_some_and(|a| a.len() == moves.len() && a.iter().all(|m| !m[0].is_null())),
    )
    .await;
    let mut position = core_ask(json!({"game": game, "question": "moves"}))["position"].clone();
    for (i, mv) in moves.iter().enumerate() {
        let report = core_ask(json!({"game": game, "position": position}));
        let all = report["moves"].as_array().unwrap();
        let played = all.iter().find(|m| m["move"] == *mv).unwrap();
        let best = all.iter().find(|m| m["best"] == true).unwrap();
        let delta = (best["value"] == played["value"]).then(|| {
            (played["remoteness"].as_i64().unwrap() - best["remoteness"].as_i64().unwrap())
                .to_string()
        });
        let what = format!("{game} move {} ({mv}): {}", i + 1, shown[i]);
        assert_eq!(shown[i][0], played["remoteness"].to_string(), "{what}");
        assert_eq!(shown[i][1], json!(delta), "{what}");
        position =
            core_ask(json!({"game": game, "position": position, "question": "after", "move": mv}))
                ["after"]
                .clone();
    }
}

async fn tools(c: &Client, origin: &str, core: &str) {
    // The move history: each move's remoteness and delta (a slow win, a mistake, best moves).
    history_remoteness(c, origin, "tictactoe", &["1", "2", "5", "3", "9"]).await;
    history_remoteness(c, origin, "connect:5,4,4", &["3", "3", "1", "2", "5"]).await;

    // The record out: the moves played, as the command takes them.
    open(c, origin, "game=tictactoe&moves=1+5").await;
    board_at(c, "X...O....").await;
    assert_eq!(record(c).await, "1 5", "{core}");

    // The record in: tic-tac-toe's moves by cell, Connect Four's columns run together.
    play_record(c, "1 5 9").await;
    let want = core_ask(json!({"game": "tictactoe", "position": "X...O...X", "question": "moves"}));
    board_at(c, want["position"].as_str().unwrap()).await;
    open(c, origin, "game=connect:5,4,4").await;
    board_at(c, &".".repeat(20)).await;
    play_record(c, "3324").await;
    let want = core_ask(json!({"game": "connect:5,4,4", "moves": "3324", "question": "moves"}));
    let at = want["position"].as_str().unwrap();
    board_at(c, at).await;
    assert_eq!(record(c).await, "3324");
    // A bad record: its move named, the position kept.
    play_record(c, "33x4").await;
    let said = wait_for(
        c,
        "the record refused",
        "return document.getElementById('error').textContent",
        |v| v.as_str().is_some_and(|t| t.starts_with("Move 3")),
    )
    .await;
    let after_33 = core_ask(json!({"game": "connect:5,4,4", "moves": "33", "question": "moves"}));
    assert_eq!(
        said,
        format!(
            "Move 3 of the record (x) cannot be played: x is not a legal move in {}",
            after_33["position"].as_str().unwrap()
        ),
        "{core}"
    );
    board_at(c, at).await;

    // Each move's line of perfect play, as the core gives it.
    open(c, origin, "game=tictactoe&position=X...O....").await;
    board_at(c, "X...O....").await;
    let shown = ask_tool(c, "lines", "lines").await;
    let want = core_ask(json!({"game": "tictactoe", "position": "X...O....", "line": true}));
    let lines: Vec<Value> = want["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let line: Vec<&str> =
                m["line"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
            json!([m["move"], line.join(" ")])
        })
        .collect();
    assert_eq!(shown["lines"], json!(lines), "{core}: lines");

    // Connect Four's threats and parity (#45), as the core tells them.
    open(c, origin, "game=connect4&moves=4+4+5+5+6+6").await;
    let want = core_ask(
        json!({"game": "connect4", "moves": "445566", "threats": true, "value_only": true}),
    );
    board_at(c, want["position"].as_str().unwrap()).await;
    let shown = ask_tool(c, "threats", "threats").await;
    let cells = |side: &str| {
        let cells = want["threats"][side]["cells"].as_array().unwrap();
        cells.iter().map(|v| v.as_str().unwrap()).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(cells("first"), "c1 g1");
    for side in ["first", "second"] {
        let text = shown["fields"][side].as_str().unwrap();
        assert!(text.contains(&cells(side)), "{core} {side}: {text}");
    }
    let parity = shown["fields"]["parity"].as_str().unwrap();
    assert!(parity.ends_with(&format!("{}.", want["threats"]["parity"].as_str().unwrap())));

    // The count and the check of the position shown.
    open(c, origin, "game=tictactoe&position=X...O....").await;
    board_at(c, "X...O....").await;
    let shown = ask_tool(c, "count", "count").await;
    let want = core_ask(json!({"game": "tictactoe", "position": "X...O....", "question": "count"}));
    assert_fields(&shown, &want, &["game", "position"], "count");
    open(c, origin, "game=tictactoe&position=XX.......").await;
    wait_for(c, "the unreachable position", READ_BOARD, |v| {
        v["position"] == "XX......." && v["status"] != "loading"
    })
    .await;
    let shown = ask_tool(c, "check", "check").await;
    let want = core_ask(json!({"game": "tictactoe", "position": "XX.......", "question": "check"}));
    assert_eq!(want["reachable"], false);
    assert_fields(&shown, &want, &["game", "position"], "check");

    // An octal game: its nim-sequence (to 300 tokens: Dawson's Kayles' period proven), and no
    // lines: the core's own refusal shown.
    open(c, origin, "game=octal:0.07").await;
    board_at(c, "10").await;
    let shown = ask_tool(c, "grundy", "grundy").await;
    let want = core_ask(json!({"game": "octal:0.07", "question": "grundy", "upto": 300}));
    assert_eq!(want["period"], 34);
    let values: Vec<String> =
        want["values"].as_array().unwrap().iter().map(|v| v.to_string()).collect();
    assert_eq!(shown["fields"]["values"], values.join(" "), "{core}: the nim-sequence");
    let mut rest = want.clone();
    rest["values"] = json!("");
    shown_fields_but(&shown, &rest, "values", "grundy");
    let shown = ask_tool(c, "lines", "lines").await;
    assert_eq!(shown["kind"], "lines-error", "{core}: {shown}");
    let mut asked = xo_core::request::Request::new("octal:0.07").at("10");
    asked.line = true;
    let message = asked.prepare(&[], xo_core::threads::Runner::Alone).unwrap_err().to_string();
    assert_eq!(shown["text"], format!("Each move's line of perfect play: {message}"), "{core}");
}

/// A long study search (mnk:5,5,4's lines) is stopped when another game is opened: the browser's
/// core answers the new game at once, not after the old search's budget.
async fn long_study_is_stopped(c: &Client, origin: &str) {
    open(c, origin, "game=mnk:5,5,4").await;
    wait_for(c, "the board", READ_BOARD, |v| v["game"] == "mnk:5,5,4").await;
    click(c, "#lines").await;
    wait_for(
        c,
        "the lines asked",
        "return document.getElementById('studyout').dataset.kind || null",
        |v| v == "lines-asking",
    )
    .await;
    let t0 = std::time::Instant::now();
    click(c, r#"#gallery .game[data-game="tictactoe"]"#).await;
    board_at(c, ".........").await;
    assert!(t0.elapsed() < std::time::Duration::from_secs(5), "the study search held the core");
    let out = c.execute("return document.getElementById('studyout').textContent", vec![]).await;
    assert_eq!(out.unwrap(), "", "the old answer's place cleared");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn study_tools_agree_with_the_core() {
    if browser_missing() {
        return;
    }
    let driver = start_driver();
    let c = connect(&driver).await;
    let dir = std::env::temp_dir().join(format!("xo-static-study-{}", std::process::id()));
    xo_server::page::write_static(&dir).unwrap();
    let origin = static_host(dir.clone());
    tools(&c, &origin, "browser").await;
    long_study_is_stopped(&c, &origin).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(xo_server::serve(listener, xo_server::Config::default()));
    tools(&c, &format!("http://{addr}"), "server").await;
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
}
