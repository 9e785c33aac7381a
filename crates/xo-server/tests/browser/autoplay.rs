//! The computer against itself, and the computer at random (issue 45), with the server and with
//! none: tic-tac-toe played out by the page alone, every move the core's own best move and the
//! game a draw; the computer at random plays legal moves (the core's list) and says they are
//! random; the computer looking two plies ahead plays the core's move for that depth.

use crate::driver::{browser_missing, connect, start_driver};
use crate::expected::core_ask;
use crate::page::{open, wait_for, READ_BOARD};
use crate::static_host::static_host;
use fantoccini::Client;
use serde_json::json;

async fn autoplay(c: &Client, origin: &str, core: &str) {
    open(c, origin, "game=tictactoe&mode=auto").await;
    let end = wait_for(c, "the game played out", READ_BOARD, |v| v["status"] == "over").await;
    let replies = c.execute("return window.xoCore.replies()", vec![]).await.unwrap();
    let replies = replies.as_array().unwrap();
    assert_eq!(replies.len(), 9, "{core}: {replies:?}");
    let mut position = ".........".to_string();
    for r in replies {
        assert_eq!(r["position"], position.as_str(), "{core}: the replies follow one another");
        let best = core_ask(json!({"game": "tictactoe", "position": position, "question": "best"}));
        assert_eq!(r["move"], best["best"]["move"], "{core} {position}: the core's best move");
        assert_eq!(r["proven"], true);
        position = core_ask(
            json!({"game": "tictactoe", "position": position, "question": "after", "move": r["move"]}),
        )["after"]
            .as_str()
            .unwrap()
            .to_string();
    }
    assert_eq!(end["position"], position.as_str());
    let status = c.execute("return document.getElementById('status').textContent", vec![]).await;
    assert_eq!(status.unwrap(), "Draw.", "{core}: perfect play draws");

    // At random: a legal move, said to be random.
    open(c, origin, "game=connect:5,4,4&mode=ai&side=second&opponent=random").await;
    let r = wait_for(
        c,
        "the random reply",
        "return (window.xoCore && window.xoCore.replies()[0]) || null",
        |v| !v.is_null(),
    )
    .await;
    assert_eq!(r["random"], true, "{core}");
    let legal = core_ask(json!({"game": "connect:5,4,4", "question": "moves"}));
    assert!(
        legal["moves"].as_array().unwrap().iter().any(|m| m["move"] == r["move"]),
        "{core}: {r} is not a legal move"
    );
    let said = c.execute("return document.getElementById('error').textContent", vec![]).await;
    let said = said.unwrap();
    assert!(said.as_str().unwrap().starts_with("The computer plays at random: column "), "{said}");
    let hash = c.execute("return location.hash", vec![]).await.unwrap();
    assert!(hash.as_str().unwrap().contains("opponent=random"), "{hash}");

    // A look-ahead of two plies: the core's move for that depth, said to be a look-ahead's.
    open(c, origin, "game=tictactoe&position=OO..X...X&mode=ai&side=second&opponent=depth2").await;
    let r = wait_for(
        c,
        "the look-ahead's reply",
        "return (window.xoCore && window.xoCore.replies()[0]) || null",
        |v| !v.is_null(),
    )
    .await;
    let want = core_ask(
        json!({"game": "tictactoe", "position": "OO..X...X", "question": "best", "depth": 2}),
    );
    assert_eq!(r["move"], want["best"]["move"], "{core}: the depth-2 look-ahead's move");
    assert_eq!(r["move"], "3", "{core}: two plies see O's line");
    let said = c.execute("return document.getElementById('error').textContent", vec![]).await;
    let said = said.unwrap();
    assert!(said.as_str().unwrap().starts_with("The computer looks 2 plies ahead"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_plays_itself_and_at_random() {
    if browser_missing() {
        return;
    }
    let driver = start_driver();
    let c = connect(&driver).await;
    let dir = std::env::temp_dir().join(format!("xo-static-autoplay-{}", std::process::id()));
    xo_server::page::write_static(&dir).unwrap();
    autoplay(&c, &static_host(dir.clone()), "browser").await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(xo_server::serve(listener, xo_server::Config::default()));
    autoplay(&c, &format!("http://{addr}"), "server").await;
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
}
