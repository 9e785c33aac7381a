//! The position editor (issue 45), with the server and with none: cells clicked to set up a
//! position, used only when the core's check says it can arise (the board then as the core
//! answers it), else refused with the core's reason and the game kept.

use crate::driver::{browser_missing, connect, start_driver};
use crate::expected::core_ask;
use crate::page::{board_at, check_board, click, open, wait_for};
use crate::static_host::static_host;
use fantoccini::Client;
use serde_json::json;

/// Clicks each cell of the editor's grid as often as `clicks` says: (cell, times).
async fn click_cells(c: &Client, clicks: &[(usize, usize)]) {
    for &(cell, times) in clicks {
        for _ in 0..times {
            click(c, &format!(r#"#editgrid [data-cell="{cell}"]"#)).await;
        }
    }
}

/// Uses the position set up, expecting the core's refusal: its reason shown, the game kept.
async fn refused(c: &Client, game: &str, position: &str, kept: &str) {
    click(c, "#edituse").await;
    let want = core_ask(json!({"game": game, "position": position, "question": "check"}));
    assert_eq!(want["reachable"], false, "{game} {position}");
    let reason = want["reason"].as_str().unwrap();
    let said =
        wait_for(c, "the refusal", "return document.getElementById('error').textContent", |v| {
            v.as_str().is_some_and(|t| t.starts_with("That position"))
        })
        .await;
    assert_eq!(said, format!("That position cannot be set up: {reason}."));
    board_at(c, kept).await;
}

async fn editor(c: &Client, origin: &str) {
    // Tic-tac-toe from its position: four O's to three X's refused.
    open(c, origin, "game=tictactoe&position=X........").await;
    board_at(c, "X........").await;
    click(c, "#edit").await;
    click_cells(c, &[(1, 1), (2, 1), (4, 2), (5, 2), (7, 2), (8, 2)]).await;
    refused(c, "tictactoe", "XXX.OO.OO", "X........").await;
    // From an empty board: X in a corner, O in the centre, used and answered as the core does.
    click(c, "#editempty").await;
    click_cells(c, &[(0, 1), (4, 2)]).await;
    click(c, "#edituse").await;
    check_board(c, "tictactoe", "X...O....").await;
    // Another game closes the editor (lol:8 and sos:8 have boards of one size, not one alphabet).
    open(c, origin, "game=lol:8").await;
    board_at(c, "........").await;
    click(c, "#edit").await;
    click(c, r#"#gallery .game[data-game="sos:8"]"#).await;
    board_at(c, "........").await;
    let hidden = c.execute("return document.getElementById('editor').hidden", vec![]).await;
    assert_eq!(hidden.unwrap(), true, "the editor of another game left open");
    // Gravity: a stone over an empty cell refused.
    open(c, origin, "game=connect:5,4,4").await;
    board_at(c, &".".repeat(20)).await;
    click(c, "#editempty").await;
    click_cells(c, &[(0, 1)]).await;
    refused(c, "connect:5,4,4", &format!("X{}", ".".repeat(19)), &".".repeat(20)).await;
    // The stone taken off (X, O, empty) and one put on the bottom row: used.
    click_cells(c, &[(0, 2), (17, 1)]).await;
    click(c, "#edituse").await;
    check_board(c, "connect:5,4,4", &format!("{}X..", ".".repeat(17))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn position_editor_is_checked_by_the_core() {
    if browser_missing() {
        return;
    }
    let driver = start_driver();
    let c = connect(&driver).await;
    let dir = std::env::temp_dir().join(format!("xo-static-editor-{}", std::process::id()));
    xo_server::page::write_static(&dir).unwrap();
    editor(&c, &static_host(dir.clone())).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(xo_server::serve(listener, xo_server::Config::default()));
    editor(&c, &format!("http://{addr}")).await;
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
}
