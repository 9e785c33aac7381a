//! When the server cannot answer: it stops under an open page (the browser's core goes on), or
//! a question is beyond its budget (the computer plays the core's look-ahead move, and says so).

use crate::driver::{browser_missing, connect, start_driver};
use crate::expected::core_ask;
use crate::page::{check_board, click, open, wait_for, READ_BOARD};
use fantoccini::Locator;
use serde_json::json;
use std::net::TcpStream;
use std::time::Duration;
use xo_core::budget::Budget;

/// The server stops under an open page: the page goes on in the browser (the WebAssembly core
/// it loaded), with every shown move still the core's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_goes_on_when_the_server_stops() {
    if browser_missing() {
        return;
    }
    // The server on a runtime of its own, so that stopping it closes every connection too.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            tokio::select! {
                _ = xo_server::serve(listener, xo_server::Config::default()) => {}
                _ = stopped => {}
            }
        });
        rt.shutdown_timeout(Duration::from_secs(5));
    });
    let driver = start_driver();
    let c = connect(&driver).await;
    open(&c, &origin, "game=connect:5,4,4&moves=3").await;
    check_board(&c, "connect:5,4,4", ".................X..").await;
    let used = c
        .execute("return [document.body.dataset.core, window.xoCore.state.last]", vec![])
        .await
        .unwrap();
    assert_eq!(used, json!(["server", "server"]));

    stop.send(()).unwrap();
    server.join().unwrap();
    assert!(
        TcpStream::connect(origin.trim_start_matches("http://")).is_err(),
        "the server stopped"
    );
    click(&c, r#"#board .cols .mv[data-move="3"]"#).await;
    check_board(&c, "connect:5,4,4", "............O....X..").await;
    click(&c, r#"#board .cols .mv[data-move="2"]"#).await;
    check_board(&c, "connect:5,4,4", "............O...XX..").await;
    let used = c
        .execute("return [document.body.dataset.core, window.xoCore.state.last]", vec![])
        .await
        .unwrap();
    assert_eq!(used, json!(["browser", "browser"]), "the browser answers once the server is gone");
    c.close().await.unwrap();
    drop(driver);
}

/// Issue 21, broken 1: Connect Four's first moves beyond the server's budget. The computer
/// plays the core's look-ahead move (never a random one) and says that it is not proven.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_budget_replies_are_the_look_ahead_and_said_so() {
    if browser_missing() {
        return;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let budget = Budget::default().with_max_nodes(20_000);
    let config = xo_server::Config { budget, ..xo_server::Config::default() };
    tokio::spawn(xo_server::serve(listener, config));
    let driver = start_driver();
    let c = connect(&driver).await;
    open(&c, &origin, "game=connect4&mode=ai&side=first").await;
    // The over-budget answer can come before the list of legal moves: wait for both (the board
    // shows the columns once the list is in).
    wait_for(&c, "connect4 over budget, its columns shown", READ_BOARD, |v| {
        v["status"] == "unknown" && v["moves"].as_array().is_some_and(|m| m.len() == 7)
    })
    .await;
    click(&c, r#"#board .cols .mv[data-move="4"]"#).await;
    let after = "......................................X...";
    let want = core_ask(
        json!({"game": "connect4", "position": after, "question": "best", "max_nodes": 20_000}),
    );
    assert_eq!(want["proven"], false, "{want}");
    let reply = core_ask(json!({
        "game": "connect4", "position": after, "question": "after",
        "move": want["best"]["move"].as_str().unwrap(),
    }));
    let next = reply["after"].as_str().unwrap().to_string();
    wait_for(&c, "the computer's reply", READ_BOARD, |v| v["position"] == next.as_str()).await;
    let notice = c.find(Locator::Id("error")).await.unwrap().text().await.unwrap();
    let plies = want["look_ahead_plies"].as_u64().unwrap();
    assert!(plies >= 2, "{want}");
    assert!(notice.contains(&format!("a look-ahead {plies} plies deep")), "{notice}");
    c.close().await.unwrap();
    drop(driver);
}
