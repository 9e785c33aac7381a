//! No console error on loading any game of the picker (issue 45), with the server and with
//! none: the page knows whether a server is there from the page itself (the server marks the
//! page it serves), so the static copy makes no request that fails (it probed `/api/games`,
//! a 404 Chromium logs), and the server is asked nothing it refuses on load.

use crate::driver::{browser_missing, connect, console_log, start_driver};
use crate::page::open;
use crate::static_host::static_host;
use fantoccini::Client;
use std::time::{Duration, Instant};

/// Opens each game of the picker (the core's own list) in a page of its own and waits until
/// its board is answered (or over, or unknown past the budget); the browser's console must have
/// nothing in it, and the page must say which core answers.
async fn load_every_game(c: &Client, origin: &str, core: &str) {
    for game in xo_core::query::presets() {
        let name = game.name;
        open(c, origin, &format!("game={name}")).await;
        let deadline = Instant::now() + Duration::from_secs(45);
        loop {
            let script = "const b = document.getElementById('board'); return [b.dataset.game, b.dataset.status, document.body.dataset.core]";
            let v = c.execute(script, vec![]).await.unwrap();
            if v[0] == name.as_str() && ["ready", "over", "unknown"].iter().any(|s| v[1] == *s) {
                assert_eq!(v[2], core, "{name}");
                break;
            }
            assert!(Instant::now() < deadline, "{core}: {name} not answered in 45 s: {v}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = console_log(c).await;
        assert!(log.is_empty(), "{core}: loading {name} logged {log:#?}");
        if core == "browser" {
            let script = "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/')).length";
            let api = c.execute(script, vec![]).await.unwrap();
            assert_eq!(api, 0, "the static copy asked for an API ({name})");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_console_error_on_any_load() {
    if browser_missing() {
        return;
    }
    let driver = start_driver();
    let c = connect(&driver).await;

    // The static copy: no request to an API, none that fails.
    let dir = std::env::temp_dir().join(format!("xo-static-console-{}", std::process::id()));
    xo_server::page::write_static(&dir).unwrap();
    let origin = static_host(dir.clone());
    load_every_game(&c, &origin, "browser").await;

    // The server in this process, with the books `xo serve` has.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let books = xo_store::book::in_use(&[], false);
    tokio::spawn(xo_server::serve(listener, xo_server::Config { books, ..Default::default() }));
    load_every_game(&c, &format!("http://{addr}"), "server").await;

    c.close().await.unwrap();
    drop(driver);
    let _ = std::fs::remove_dir_all(&dir);
}
