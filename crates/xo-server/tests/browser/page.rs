//! Driving the page and reading it: keys, clicks and loads; waiting for a board and checking
//! every move it shows (value, colour, remoteness, best mark) against the core's answer; and
//! that no request left the page's origin.

use crate::expected::{best_moves, core_report, heap_move_name};
use fantoccini::{Client, Locator};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

// WebDriver's codes for the keys the page listens to.
pub const HOME: &str = "\u{E011}";
pub const LEFT: &str = "\u{E012}";
pub const RIGHT: &str = "\u{E014}";
pub const DOWN: &str = "\u{E015}";
pub const ENTER: &str = "\u{E007}";
pub const SPACE: &str = "\u{E00D}";

/// Background colours of the three values, as the page's CSS gives them.
fn colour(value: &str) -> &'static str {
    match value {
        "win" => "rgb(27, 122, 51)",
        "draw" => "rgb(242, 195, 24)",
        "loss" => "rgb(122, 16, 16)",
        _ => panic!("no colour for {value}"),
    }
}

/// Runs `script` until it returns something `ready` accepts; the last value otherwise.
pub async fn wait_for(
    c: &Client,
    what: &str,
    script: &str,
    ready: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("run a script in the page, waiting for {what}: {e}"));
        if ready(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited 20 s for {what}; last seen: {v}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

pub const READ_BOARD: &str = r#"
const b = document.getElementById('board');
const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.move : null;
return {
  status: b.dataset.status, position: b.dataset.position, game: b.dataset.game, focused: focused || null,
  tabstops: b.querySelectorAll('.mv[tabindex="0"]').length,
  moves: Array.from(b.querySelectorAll('.mv')).map(e => ({
    move: e.dataset.move, value: e.dataset.value, remoteness: e.dataset.remoteness,
    cls: e.className, text: e.querySelector('.r').textContent.trim(),
    bg: getComputedStyle(e).backgroundColor })) };
"#;

/// Waits until the board shows `position` solved, and returns what it shows.
pub async fn board_at(c: &Client, position: &str) -> Value {
    let script = READ_BOARD.to_string();
    wait_for(c, &format!("the board at {position}"), &script, |v| {
        v["position"] == position && (v["status"] == "ready" || v["status"] == "over")
    })
    .await
}

/// Every move the page shows against the core's report: same moves, value (attribute, class and
/// colour), remoteness (attribute and the number shown) and best marks. Returns the report.
pub async fn check_board(c: &Client, game: &str, position: &str) -> Value {
    let report = core_report(game, position);
    check_board_against(c, game, position, &report).await;
    report
}

/// Every move the page shows against `report`, the core's report of `position`.
pub async fn check_board_against(c: &Client, game: &str, position: &str, report: &Value) {
    let shown = board_at(c, position).await;
    let want = report["moves"].as_array().expect("the core lists the moves").clone();
    let best = best_moves(&want);
    let got: BTreeMap<String, &Value> = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m))
        .collect();
    assert_eq!(
        got.len(),
        want.len(),
        "{game} {position}: the page shows {:?}, the core {want:?}",
        got.keys()
    );
    for m in &want {
        let name = m["move"].as_str().unwrap();
        let g =
            got.get(name).unwrap_or_else(|| panic!("{game} {position}: move {name} is not shown"));
        let value = m["value"].as_str().unwrap();
        let remoteness = m["remoteness"].as_u64().map(|r| r.to_string()).unwrap_or_default();
        let what = format!("{game} {position} move {name}: {g}");
        assert_eq!(g["value"], value, "{what}");
        let classes: Vec<&str> = g["cls"].as_str().unwrap().split_whitespace().collect();
        assert!(classes.contains(&format!("v-{value}").as_str()), "{what}");
        assert_eq!(g["bg"], colour(value), "{what}");
        assert_eq!(g["remoteness"], remoteness.as_str(), "{what}");
        assert_eq!(g["text"], remoteness.as_str(), "{what}: the remoteness is shown on the move");
        assert_eq!(
            classes.contains(&"best"),
            best.iter().any(|b| b == name),
            "{what}: best moves {best:?}"
        );
    }
    if !want.is_empty() {
        assert_eq!(shown["tabstops"], 1, "{game} {position}: one tab stop in the board");
    }
}

pub async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("find {css}: {e}"))
        .click()
        .await
        .unwrap();
}

/// Sends keys to the focused element and returns the move it focuses then.
pub async fn keys(c: &Client, keys: &str) -> Option<String> {
    c.active_element().await.unwrap().send_keys(keys).await.unwrap();
    let v = c
        .execute(
            "const a = document.activeElement; return (a && a.dataset && a.dataset.move) || null",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().map(str::to_string)
}

/// Checks that every request of the page shown so far went to the server.
pub async fn assert_local(c: &Client, origin: &str) {
    let script = "return [location.origin].concat(performance.getEntriesByType('resource').map(e => e.name))";
    let names = c.execute(script, vec![]).await.unwrap();
    let names = names.as_array().unwrap();
    if names[0] != origin {
        return; // about:blank
    }
    for name in names {
        assert!(name.as_str().unwrap().starts_with(origin), "a request left the server: {name}");
    }
}

pub async fn open(c: &Client, origin: &str, hash: &str) {
    assert_local(c, origin).await;
    // A page of another document first, so that a change of hash alone still reloads.
    c.goto("about:blank").await.unwrap();
    c.goto(&format!("{origin}/#{hash}")).await.unwrap();
}

/// An octal game's board against the core: every move the core lists (`heap_moves`) shown with
/// its value, colour and remoteness, and the winning ones exactly the core's winning moves.
pub async fn check_heaps(c: &Client, game: &str, position: &str) -> Value {
    let shown = board_at(c, position).await;
    let report = core_report(game, position);
    let key = heap_move_name;
    let got: BTreeMap<String, &Value> = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m))
        .collect();
    let want = report["heap_moves"].as_array().expect("small sums list every move");
    assert_eq!(got.len(), want.len(), "{game} {position}: shown {:?}", got.keys());
    for m in want {
        let g =
            got.get(&key(m)).unwrap_or_else(|| panic!("{game} {position}: {} not shown", key(m)));
        let value = m["value"].as_str().unwrap();
        assert_eq!(g["value"], value, "{game} {position} {}", key(m));
        assert_eq!(g["bg"], colour(value), "{game} {position} {}", key(m));
        let r = m["remoteness"].as_u64().map(|r| r.to_string()).unwrap_or_default();
        assert_eq!(g["remoteness"], r.as_str(), "{game} {position} {}", key(m));
    }
    let mut winning: Vec<String> =
        report["winning_moves"].as_array().unwrap().iter().map(key).collect();
    winning.sort();
    let green: Vec<String> =
        got.iter().filter(|(_, m)| m["value"] == "win").map(|(k, _)| k.clone()).collect();
    assert_eq!(green, winning, "{game} {position}");
    report
}
