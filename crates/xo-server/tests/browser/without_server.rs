//! The static copy (`xo page --out`) on a plain file host, no server: the WebAssembly core
//! answers; games played to the end against the page's perfect play, the answer times measured,
//! screenshots at two widths.

use crate::driver::{artifacts, browser_missing, connect, start_driver};
use crate::expected::{best_moves, core_ask, core_report, flip, heap_move_name};
use crate::page::{assert_local, check_board, check_heaps, click, open, wait_for, READ_BOARD};
use crate::static_host::static_host;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::Instant;

/// Plays `game` from `start` to its end against the page's perfect play (the page plays
/// second): the test plays the core's best move, checks the board after it against the core,
/// then checks that the page's reply kept the value (a winning reply wins one ply sooner, a
/// losing one loses no sooner) and is a legal move, and goes on from there. Returns the plies.
async fn play_out(c: &Client, origin: &str, game: &str, start: &str) -> usize {
    let octal = core_ask(json!({"game": game, "position": start}))["heap_values"].is_array();
    open(
        c,
        origin,
        &format!("game={game}&position={}&mode=ai&side=first", start.replace(' ', "+")),
    )
    .await;
    let mut position = start.to_string();
    let mut plies = 0;
    loop {
        let report = if octal {
            check_heaps(c, game, &position).await
        } else {
            check_board(c, game, &position).await
        };
        let chosen = if octal {
            let moves = report["heap_moves"].as_array().unwrap();
            let best = best_moves(
                &moves
                    .iter()
                    .map(|m| {
                        let mut m = m.clone();
                        m["move"] = json!(heap_move_name(&m));
                        m
                    })
                    .collect::<Vec<_>>(),
            );
            best.first().cloned()
        } else {
            best_moves(report["moves"].as_array().unwrap()).first().cloned()
        };
        let Some(mv) = chosen else {
            let status = c.find(Locator::Id("status")).await.unwrap().text().await.unwrap();
            assert!(
                ["You won.", "Perfect play won.", "Draw."].contains(&status.as_str()),
                "{game} {position}: over, status {status:?}"
            );
            return plies;
        };
        // The position after the move, from the core.
        let after =
            core_ask(json!({"game": game, "position": position, "question": "after", "move": mv}))
                ["after"]
                .as_str()
                .unwrap()
                .to_string();
        click(c, &format!(r#"#board .mv[data-move="{mv}"]"#)).await;
        plies += 1;
        let mid = core_report(game, &after);
        let over = if octal {
            mid["heap_values"].as_array().unwrap().is_empty()
        } else {
            mid["moves"].as_array().unwrap().is_empty()
        };
        if over {
            position = after;
            continue;
        }
        // The page's reply.
        let shown = wait_for(c, &format!("the reply in {game} {after}"), READ_BOARD, |v| {
            v["position"] != after.as_str()
                && v["position"] != position.as_str()
                && (v["status"] == "ready" || v["status"] == "over")
        })
        .await;
        let next = shown["position"].as_str().unwrap().to_string();
        let reply = core_report(game, &next);
        assert_eq!(
            reply["value"],
            flip(mid["value"].as_str().unwrap()),
            "{game}: the page's reply in {after} led to {next}"
        );
        if let (Some(r0), Some(r1)) = (mid["remoteness"].as_u64(), reply["remoteness"].as_u64()) {
            assert_eq!(
                r1 + 1,
                r0,
                "{game}: the page's reply in {after} (to {next}) is not the best"
            );
        }
        if !octal {
            let legal = core_ask(json!({"game": game, "position": after, "question": "moves"}));
            assert!(
                legal["moves"].as_array().unwrap().iter().any(|m| m["position"] == next.as_str()),
                "{game}: {next} does not follow {after}"
            );
        }
        plies += 1;
        position = next;
    }
}

/// Median milliseconds of `runs` answers to `request` by the page's core (the worker), after
/// one to warm it.
async fn time_in_page(c: &Client, request: &Value, runs: usize) -> f64 {
    let script = r#"
const [req, runs, done] = arguments;
(async () => {
  await window.xoCore.ask(req);
  const ms = [];
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await window.xoCore.ask(req); ms.push(performance.now() - t0); }
  ms.sort((a, b) => a - b);
  done(ms[Math.floor(ms.length / 2)]);
})().catch((e) => done(String(e)));
"#;
    let v = c.execute_async(script, vec![request.clone(), json!(runs)]).await.unwrap();
    v.as_f64().unwrap_or_else(|| panic!("timing {request}: {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_works_without_a_server() {
    if browser_missing() {
        return;
    }
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("xo-static-{}", std::process::id()));
    let written = xo_server::page::write_static(&dir).unwrap();
    assert_eq!(written.len(), 8);
    let origin = static_host(dir.clone());
    let driver = start_driver();
    let c = connect(&driver).await;

    // No server: the page says so and answers in the browser, as the core does.
    open(&c, &origin, "game=tictactoe").await;
    check_board(&c, "tictactoe", ".........").await;
    let core = c.execute("return document.body.dataset.core", vec![]).await.unwrap();
    assert_eq!(core, "browser");

    // Within 100 ms in the browser: a tic-tac-toe position, and a 20-cell Treblecross strip.
    let ttt = time_in_page(&c, &json!({"game": "tictactoe", "position": "X...O...."}), 5).await;
    let tc = time_in_page(&c, &json!({"game": "treblecross:20"}), 5).await;
    std::fs::create_dir_all(artifacts()).unwrap();
    std::fs::write(
        artifacts().join("wasm-timings.json"),
        json!({"tictactoe X...O.... ms": ttt, "treblecross:20 empty ms": tc}).to_string(),
    )
    .unwrap();
    eprintln!("in the browser: tic-tac-toe {ttt:.1} ms, treblecross:20 {tc:.1} ms");
    assert!(ttt < 100.0, "tic-tac-toe took {ttt} ms");
    assert!(tc < 100.0, "treblecross:20 took {tc} ms");

    // Games played to the end against the page's perfect play, every position checked.
    for (game, start) in [
        ("tictactoe", "........."),
        ("lol:8", "........"),
        ("treblecross:12", "............"),
        ("kayles", "3 5"),
        ("connect:5,4,4", "...................."),
    ] {
        let plies = play_out(&c, &origin, game, start).await;
        eprintln!("{game}: {plies} plies, checked");
    }

    // Screenshots at 1280 and 375 px.
    for (width, name) in [(1280, "static-1280.png"), (375, "static-375.png")] {
        c.set_window_size(width, 900).await.unwrap();
        open(&c, &origin, "game=connect:5,4,4&moves=3+3+2+4").await;
        check_board(&c, "connect:5,4,4", "............O...XXO.").await;
        let widths = c
            .execute("return [document.documentElement.scrollWidth, window.innerWidth]", vec![])
            .await
            .unwrap();
        assert!(widths[0].as_u64() <= widths[1].as_u64(), "{width} px: {widths}");
        if width == 1280 {
            // Every game of the picker in sight, none cut off.
            let cut = c
                .execute(
                    "const g = document.getElementById('gallery').getBoundingClientRect();                      return Array.from(document.querySelectorAll('#gallery .game')).filter(t => {                      const r = t.getBoundingClientRect(); return r.left < g.left || r.right > g.right; })                      .map(t => t.dataset.game)",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(cut, serde_json::json!([]), "games cut off at 1280 px");
        }
        std::fs::write(artifacts().join(name), c.screenshot().await.unwrap()).unwrap();
    }
    assert_local(&c, &origin).await;
    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("browser test without a server: {:.1} s", started.elapsed().as_secs_f64());
}
