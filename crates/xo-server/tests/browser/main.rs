//! The page in a real headless browser (Debian's `chromium` and `chromium-driver`), two ways.
//! Against the server started in this process: it plays tic-tac-toe by clicking and by keyboard,
//! Connect 4 on 5x4 by column buttons and digit keys, LOL and Treblecross strips and Kayles heaps,
//! and checks every shown move's colour, value, remoteness and best-move mark against `xo_core`'s
//! own answer; undo/redo, the address bar round trip, paste, play against perfect play, errors,
//! the page's size, that no request left the server's origin, and a phone-sized window. As the
//! static copy `xo page --out` writes, served by a plain file host (no server: the WebAssembly
//! core answers): five games played to the end against the page's perfect play, every position
//! checked; the answer times measured; each defect of issue 21 reproduced. Screenshots are kept
//! in `target/xo-artifacts/` (`midgame*.png`, `static-1280.png`, `static-375.png`, `phone-*.png`;
//! under `$CARGO_TARGET_DIR` when set), and the times in `wasm-timings.json`.
//!
//! Without chromium or chromedriver the test says so loudly and passes, unless
//! `XO_REQUIRE_BROWSER` is set (as `.ci/run` does), when it fails.
//!
//! One test binary, by concern: [`driver`] (chromium and chromedriver, a WebDriver session, or
//! the loud skip), [`page`] (driving the page and reading its board), [`expected`] (what the
//! page should show, from `xo_core`), [`static_host`] (a plain file host for the static copy);
//! the tests: [`with_server`] (play against the server in this process), [`without_server`]
//! (the static copy, the WebAssembly core alone), [`book`] (the static copy's Connect Four book),
//! [`autoplay`] (the computer against itself, and at random), [`editor`] (the position editor),
//! [`console`] (no console error on loading any game, both ways), [`replies`] (the computer's
//! reply within 2 s on every game, both ways), [`study`] (the study tools against the core),
//! [`defects`] (issue 21's defects) and [`fallback`] (the server stopping under the page, and
//! replies beyond its budget). The two timed ones, [`book`] and [`replies`], are in the slow
//! group (`cargo test -p xo-server --test browser -- --ignored`, run by `.ci/run`), and take
//! turns ([`timed_alone`]): each times answers that need the machine's cores.

mod autoplay;
mod book;
mod console;
mod defects;
mod driver;
mod editor;
mod expected;
mod fallback;
mod page;
mod replies;
mod static_host;
mod study;
mod with_server;
mod without_server;

/// The page's file, as the server serves it.
const PAGE: &str = include_str!("../../page/index.html");

#[test]
fn page_is_small_and_self_contained() {
    assert!(PAGE.len() < 200 * 1024, "the page is {} bytes", PAGE.len());
    for (name, _, bytes) in xo_server::page::FILES {
        if name.ends_with(".wasm") {
            continue;
        }
        let text = std::str::from_utf8(bytes).unwrap();
        for external in ["http://", "https://", "@import", "src=\"//", "href=\"//"] {
            assert!(!text.contains(external), "{name} names an outside resource: {external}");
        }
    }
}

/// Held by each timed test while it runs, so that the timed tests of this binary never run
/// beside each other (the test harness runs tests on two threads here): the slowest Connect Four
/// search of the page's workers took 1.39 s with the other timed test's games beside it, 0.42-0.67
/// s alone (a 2-core Intel Xeon, 2026-12-07).
async fn timed_alone() -> tokio::sync::MutexGuard<'static, ()> {
    static TIMED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    TIMED.lock().await
}
