//! The page against the server started in this process: tic-tac-toe by clicking and keyboard,
//! undo and redo, the address bar round trip, paste, errors, play against perfect play,
//! Connect 4 by columns, LOL, Treblecross and Kayles, hints off, the page's size, a phone-sized
//! window and no request leaving the origin.

use crate::driver::{artifacts, browser_missing, connect, start_driver};
use crate::expected::{best_moves, core_report, heap_move_name};
use crate::page::{
    assert_local, board_at, check_board, click, keys, open, wait_for, DOWN, ENTER, HOME, LEFT,
    READ_BOARD, RIGHT, SPACE,
};
use crate::PAGE;
use fantoccini::Locator;
use serde_json::json;
use std::net::SocketAddr;
use std::time::Instant;
use xo_core::query::Question;
use xo_core::request::Request;
use xo_core::threads::Runner;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_plays_and_agrees_with_the_core() {
    if browser_missing() {
        return;
    }
    let started = Instant::now();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(xo_server::serve(listener, xo_server::Config::default()));
    let origin = format!("http://{addr}");

    let driver = start_driver();
    let c = connect(&driver).await;

    // Tic-tac-toe: the first load, its size, the empty board.
    open(&c, &origin, "game=tictactoe").await;
    check_board(&c, "tictactoe", ".........").await;
    let core = c.execute("return document.body.dataset.core", vec![]).await.unwrap();
    assert_eq!(core, "server", "the page found its server");
    let used = c
        .execute("return [window.xoCore.state.wasm, window.xoCore.state.last]", vec![])
        .await
        .unwrap();
    assert_eq!(used, json!([true, "browser"]), "tic-tac-toe is answered in the browser");
    let size = c
        .execute("const n = performance.getEntriesByType('navigation')[0]; return [n.decodedBodySize, n.transferSize];", vec![])
        .await
        .unwrap();
    let served = xo_server::page::served_index();
    assert_eq!(
        served,
        PAGE.replace(r#"content="no">"#, r#"content="yes">"#),
        "the page file, marked"
    );
    assert_eq!(size[0].as_u64(), Some(served.len() as u64), "the server serves the page file");
    assert!(size[1].as_u64().unwrap() < 200 * 1024, "first load {size}");

    // Keyboard alone: Tab from the top of the page reaches the board (one tab stop for it).
    let mut reached = None;
    for _ in 0..12 {
        reached = keys(&c, "\u{E004}").await;
        if reached.is_some() {
            break;
        }
    }
    assert_eq!(reached.as_deref(), Some("1"), "Tab reaches the board's first move");

    // By clicking: X in the centre.
    click(&c, r#"#board .mv[data-move="5"]"#).await;
    check_board(&c, "tictactoe", "....X....").await;
    // By keyboard: Home, arrows (the filled centre is skipped), Space and Enter play.
    assert_eq!(keys(&c, HOME).await.as_deref(), Some("1"));
    assert_eq!(keys(&c, DOWN).await.as_deref(), Some("4"));
    assert_eq!(keys(&c, RIGHT).await.as_deref(), Some("6"));
    keys(&c, SPACE).await;
    check_board(&c, "tictactoe", "....XO...").await;
    assert_eq!(keys(&c, LEFT).await.as_deref(), Some("3"), "focus stays in the board after a move");
    keys(&c, LEFT).await;
    keys(&c, ENTER).await;
    let mid = check_board(&c, "tictactoe", ".X..XO...").await;
    assert_eq!(mid["value"], "loss");

    // The value history has a point for each position so far.
    let points =
        c.execute("return document.querySelectorAll('#chart .pt').length", vec![]).await.unwrap();
    assert_eq!(points, 4);
    std::fs::create_dir_all(artifacts()).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(artifacts().join("midgame.png"), &png).unwrap();

    // Undo and redo: the button, u, r, Ctrl+Z.
    click(&c, "#undo").await;
    check_board(&c, "tictactoe", "....XO...").await;
    c.find(Locator::Css("#board .mv")).await.unwrap().send_keys("u").await.unwrap();
    check_board(&c, "tictactoe", "....X....").await;
    c.find(Locator::Css("#board .mv")).await.unwrap().send_keys("r").await.unwrap();
    check_board(&c, "tictactoe", "....XO...").await;
    click(&c, "#redo").await;
    check_board(&c, "tictactoe", ".X..XO...").await;
    c.find(Locator::Css("#board .mv")).await.unwrap().send_keys("\u{E009}z").await.unwrap();
    check_board(&c, "tictactoe", "....XO...").await;
    click(&c, "#redo").await;
    board_at(&c, ".X..XO...").await;

    // The address bar holds the position: a new load of it shows the same board.
    let url = c.current_url().await.unwrap().to_string();
    assert!(url.contains("game=tictactoe") && url.contains("position=.X..XO..."), "{url}");
    assert!(url.contains("moves=5+6+2"), "{url}");
    c.goto("about:blank").await.unwrap();
    c.goto(&url).await.unwrap();
    check_board(&c, "tictactoe", ".X..XO...").await;
    wait_for(
        &c,
        "the value history back",
        "return document.querySelectorAll('#chart .pt.v-unknown').length",
        |v| v == 0,
    )
    .await;
    let points =
        c.execute("return document.querySelectorAll('#chart .pt').length", vec![]).await.unwrap();
    assert_eq!(points, 4, "the whole game comes back with the link");
    // An older position of the game from a link (at=1), with the rest to redo.
    c.goto("about:blank").await.unwrap();
    c.goto(&format!("{origin}/#game=tictactoe&moves=5+6+2&at=1")).await.unwrap();
    check_board(&c, "tictactoe", "....X....").await;
    click(&c, "#redo").await;
    click(&c, "#redo").await;
    board_at(&c, ".X..XO...").await;
    let text = c.execute("return document.getElementById('postext').value", vec![]).await.unwrap();
    assert_eq!(text, ".X. .XO ...");

    // The game played to its end along best moves (a click each), checked at every position.
    let mut position = ".X..XO...".to_string();
    loop {
        let report = check_board(&c, "tictactoe", &position).await;
        let moves = report["moves"].as_array().unwrap();
        if moves.is_empty() {
            let status = c.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
            assert_eq!(status, "X won.", "{position}");
            break;
        }
        let best = &best_moves(moves)[0];
        click(&c, &format!(r#"#board .mv[data-move="{best}"]"#)).await;
        let cell: usize = best.parse().unwrap();
        let mark =
            if position.chars().filter(|&ch| ch != '.').count() % 2 == 0 { "X" } else { "O" };
        position.replace_range(cell - 1..cell, mark);
    }
    let points =
        c.execute("return document.querySelectorAll('#chart .pt').length", vec![]).await.unwrap();
    assert_eq!(points.as_u64(), Some(position.chars().filter(|&ch| ch != '.').count() as u64 + 1));

    // The position text is copied (to the clipboard, or selected for the user to copy).
    click(&c, "#copy").await;
    wait_for(&c, "the copy", "return document.getElementById('copied').textContent", |v| {
        v.as_str().is_some_and(|t| !t.is_empty())
    })
    .await;

    // A pasted position is loaded.
    let input = c.find(Locator::Id("postext")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys("XX. OO. ...").await.unwrap();
    click(&c, "#load").await;
    let won = check_board(&c, "tictactoe", "XX.OO....").await;
    assert_eq!((won["value"].as_str(), won["remoteness"].as_u64()), (Some("win"), Some(1)));

    // A position that cannot occur: the server's reason, readable on the page.
    open(&c, &origin, "game=tictactoe&position=XXXXXXXXX").await;
    wait_for(&c, "the error shown", READ_BOARD, |v| v["status"] == "error").await;
    let shown = c.find(Locator::Id("error")).await.unwrap().text().await.unwrap();
    let question = Question::Analysis { winning_only: false };
    let Err(reason) =
        Request::new("tictactoe").at("XXXXXXXXX").asking(question).prepare(&[], Runner::Pool)
    else {
        panic!("the core takes XXXXXXXXX");
    };
    let reason = reason.to_string();
    assert!(shown.contains(&reason), "shown: {shown:?}; the core's reason: {reason:?}");

    // Against perfect play: X (the page) takes the win at once.
    open(&c, &origin, "game=tictactoe&position=XX.OO....&mode=ai&side=second").await;
    board_at(&c, "XXXOO....").await;
    let status = c.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
    assert_eq!(status, "Perfect play won.", "the winner named from the player's side");

    // Connect 4 on 5x4 by column: a click, then digit keys.
    open(&c, &origin, "game=connect:5,4,4").await;
    check_board(&c, "connect:5,4,4", "....................").await;
    click(&c, r#"#board .cols .mv[data-move="3"]"#).await;
    check_board(&c, "connect:5,4,4", ".................X..").await;
    keys(&c, "2").await;
    check_board(&c, "connect:5,4,4", "................OX..").await;
    keys(&c, "3").await;
    let report = check_board(&c, "connect:5,4,4", "............X...OX..").await;
    assert!(report["moves"][0]["score"].is_i64(), "gravity reports carry scores");
    let used = c.execute("return window.xoCore.state.last", vec![]).await.unwrap();
    assert_eq!(used, "server", "a 20-cell gravity board is asked of the server");
    std::fs::write(artifacts().join("midgame-connect.png"), c.screenshot().await.unwrap()).unwrap();

    // A LOL strip: each empty cell offers both letters.
    open(&c, &origin, "game=lol:6&position=L.....").await;
    check_board(&c, "lol:6", "L.....").await;
    click(&c, r#"#board .mv[data-move="3O"]"#).await;
    check_board(&c, "lol:6", "L.O...").await;

    // Treblecross: values without remoteness (Grundy values tell no remoteness).
    open(&c, &origin, "game=treblecross:9&position=....X....").await;
    check_board(&c, "treblecross:9", "....X....").await;

    // Hints off (h): the colours and numbers go, the values stay readable for tests; h again.
    c.find(Locator::Css("#board .mv")).await.unwrap().send_keys("h").await.unwrap();
    let plain = c
        .execute("const e = document.querySelector('#board .mv'); return [document.getElementById('board').className, getComputedStyle(e).backgroundColor]", vec![])
        .await
        .unwrap();
    assert!(plain[0].as_str().unwrap().contains("nohints"), "{plain}");
    assert_eq!(plain[1], "rgb(244, 244, 244)");
    c.find(Locator::Css("#board .mv")).await.unwrap().send_keys("h").await.unwrap();
    check_board(&c, "treblecross:9", "....X....").await;

    // Kayles: every move listed, the winning ones (the core's winning moves) green.
    open(&c, &origin, "game=kayles&position=3+5").await;
    let shown = wait_for(&c, "the kayles heaps", READ_BOARD, |v| {
        v["position"] == "3 5" && v["status"] == "ready"
    })
    .await;
    let report = core_report("kayles", "3 5");
    let mut winning: Vec<String> =
        report["winning_moves"].as_array().unwrap().iter().map(heap_move_name).collect();
    winning.sort();
    let mut green: Vec<String> = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["value"] == "win")
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    green.sort();
    assert!(!winning.is_empty());
    assert_eq!(green, winning);
    // heap of 3: take 1 (leave 2 or 1+1), take 2 (leave 1); heap of 5: take 1 (4, 1+3, 2+2), take 2 (3, 1+2)
    assert_eq!(shown["moves"].as_array().unwrap().len(), 8);

    // A phone-sized window: nothing wider than the screen.
    c.set_window_size(375, 800).await.unwrap();
    open(&c, &origin, "game=connect4").await;
    wait_for(&c, "connect4 at 375 px", READ_BOARD, |v| v["game"] == "connect4").await;
    let widths = c
        .execute("return [document.documentElement.scrollWidth, window.innerWidth]", vec![])
        .await
        .unwrap();
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the page overflows a narrow window: {widths}"
    );

    // Every request the page made went to the server (also checked before each new load).
    assert_local(&c, &origin).await;

    c.close().await.unwrap();
    drop(driver);
    eprintln!("browser test: {:.1} s", started.elapsed().as_secs_f64());
}
