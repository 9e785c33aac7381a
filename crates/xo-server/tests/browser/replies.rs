//! The computer's reply within 2 s on every game of the picker (issue 45), with the server and
//! with none: it plays first from the empty position, then answers the test's move. Each reply
//! is timed in the page (from its turn to its move) and checked: a legal move, the core's own
//! best move when the page says it is exact, and, when it is the look-ahead's move, the page
//! says so.

use crate::driver::{browser_missing, connect, start_driver};
use crate::expected::{core_ask, core_ask_with_book};
use crate::page::{open, wait_for};
use crate::static_host::static_host;
use fantoccini::Client;
use serde_json::{json, Value};

/// The `n`-th reply the page made, once made.
async fn reply(c: &Client, game: &str, n: usize) -> Value {
    // (window.xoCore is there once the page's scripts have run.)
    let script = format!(
        "const r = window.xoCore ? window.xoCore.replies() : []; return r.length > {n} ? r[{n}] : null"
    );
    wait_for(c, &format!("{game}: reply {}", n + 1), &script, |v| !v.is_null()).await
}

/// Checks one reply: legal, exact when said to be, said to be a look-ahead's when it is not.
async fn check_reply(c: &Client, game: &str, r: &Value, core: &str) -> f64 {
    let position = r["position"].as_str().unwrap();
    let mv = r["move"].as_str().unwrap();
    let legal = core_ask(json!({"game": game, "position": position, "question": "moves"}));
    let legal: Vec<&str> =
        legal["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert!(legal.contains(&mv), "{core} {game} {position}: {mv} is not legal ({legal:?})");
    if r["proven"] == true {
        let best = core_ask_with_book(
            &json!({"game": game, "position": position, "question": "best", "timeout": 60}),
        );
        assert_eq!(best["best"]["move"], mv, "{core} {game} {position}: not the core's best");
    } else {
        let said =
            c.execute("return document.getElementById('error').textContent", vec![]).await.unwrap();
        assert!(
            said.as_str().unwrap().contains("comes from a look-ahead"),
            "{core} {game} {position}: a look-ahead's move, not said: {said}"
        );
    }
    r["ms"].as_f64().unwrap()
}

/// Every game of the picker, the computer first; then the test's move (the first legal one) and
/// its second reply. Returns each reply's game, exactness and milliseconds.
async fn every_game(c: &Client, origin: &str, core: &str) -> Vec<(String, bool, f64)> {
    let mut times = Vec::new();
    for game in xo_core::query::presets() {
        let name = game.name;
        open(c, origin, &format!("game={name}&mode=ai&side=second")).await;
        let first = reply(c, &name, 0).await;
        let ms = check_reply(c, &name, &first, core).await;
        times.push((name.clone(), first["proven"] == true, ms));
        // The test's move: the first legal one after the computer's (none when it won).
        let after = core_ask(
            json!({"game": name, "position": first["position"], "question": "after", "move": first["move"]}),
        );
        let now = after["after"].as_str().unwrap().to_string();
        let moves = core_ask(json!({"game": name, "position": now, "question": "moves"}));
        let Some(mv) = moves["moves"].as_array().unwrap().first() else { continue };
        let mv = mv["move"].as_str().unwrap();
        wait_for(
            c,
            "the board after the reply",
            "return document.getElementById('board').dataset.position",
            |v| v == now.as_str(),
        )
        .await;
        wait_for(
            c,
            "the move drawn",
            &format!(r#"return !!document.querySelector('#board .mv[data-move="{mv}"]')"#),
            |v| v == true,
        )
        .await;
        c.execute(
            &format!(r#"document.querySelector('#board .mv[data-move="{mv}"]').click()"#),
            vec![],
        )
        .await
        .unwrap();
        let second = reply(c, &name, 1).await;
        let ms = check_reply(c, &name, &second, core).await;
        times.push((name.clone(), second["proven"] == true, ms));
    }
    for (game, exact, ms) in &times {
        eprintln!(
            "{core}: {game} reply in {ms:.0} ms ({})",
            if *exact { "exact" } else { "look-ahead" }
        );
    }
    times
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow: every game of the picker against the computer, timed (in .ci/run's slow group)"]
async fn computer_replies_within_two_seconds() {
    if browser_missing() {
        return;
    }
    let _alone = crate::timed_alone().await;
    let driver = start_driver();
    let c = connect(&driver).await;
    let dir = std::env::temp_dir().join(format!("xo-static-replies-{}", std::process::id()));
    xo_server::page::write_static(&dir).unwrap();
    let mut times = every_game(&c, &static_host(dir.clone()), "browser").await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let books = xo_store::book::in_use(&[], false);
    tokio::spawn(xo_server::serve(listener, xo_server::Config { books, ..Default::default() }));
    times.extend(every_game(&c, &format!("http://{addr}"), "server").await);

    std::fs::create_dir_all(crate::driver::artifacts()).unwrap();
    std::fs::write(
        crate::driver::artifacts().join("reply-timings.json"),
        json!(times
            .iter()
            .map(|(g, e, ms)| json!({"game": g, "exact": e, "ms": ms}))
            .collect::<Vec<_>>())
        .to_string(),
    )
    .unwrap();
    for (game, _, ms) in &times {
        assert!(*ms < 2000.0, "{game}: the computer's reply took {ms:.0} ms");
    }
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
}
