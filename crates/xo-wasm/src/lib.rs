//! xo's core in the browser. The web page runs this crate, compiled to WebAssembly
//! (`wasm32-unknown-unknown`, `wasm-bindgen`), in a Web Worker, so that it can answer the same
//! typed [`Request`] as the server's `/api/ask` with no server at all (`xo page --out DIR`), and
//! answer small positions without a round trip when it has one. The answers are the server's
//! JSON byte for byte: the same `Request::prepare`, the same `answer`, the same serialisation.
//!
//! Only the scalar, single-threaded paths of the core run here: the request's thread count is
//! forced to 1, and the budget's clock is the browser's (the core's `web-time` clock). No files:
//! books and databases stay on the server.
//!
//! The same functions build for the host (so the workspace's tests run them natively, see the
//! tests below); `scripts/wasm.sh` builds the WebAssembly file the page embeds.

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use xo_core::budget::{Budget, Meter};
use xo_core::query::{answer, describe, presets, Game};
use xo_core::request::Request;

/// The memory a request may take in the browser unless it asks for less: a tab has far less
/// than a server.
pub const MEMORY_BYTES: u64 = 256 << 20;

/// What [`ask`] returns: `status` as the server's (200 answered, 422 stopped at the budget with
/// the report marked unknown, 400 a request the core refuses) and `body`, the server's JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The HTTP status the server would answer with.
    pub status: u16,
    /// The JSON body, one line.
    pub body: String,
}

fn error_body(message: impl std::fmt::Display) -> String {
    #[derive(Serialize)]
    struct ErrorBody {
        error: String,
    }
    serde_json::to_string(&ErrorBody { error: message.to_string() })
        .unwrap_or_else(|_| "{\"error\":\"cannot write JSON\"}".into())
}

/// Answers one request given as JSON (the fields of [`Request`]; unknown fields refused): the
/// status and the body the server's `/api/ask` would answer with. One thread; the budget is
/// the request's (`timeout` in seconds, `max_nodes`, `memory_mib`) within the core's defaults
/// and at most [`MEMORY_BYTES`] of tables unless the request asks for more.
///
/// ```
/// let r = xo_wasm::answer_json(r#"{"game":"tictactoe","position":"XX.OO....","question":"best"}"#);
/// assert_eq!(r.status, 200);
/// assert!(r.body.contains(r#""move":"3""#), "{}", r.body);
/// let bad = xo_wasm::answer_json(r#"{"game":"tictactoe","positon":"X"}"#);
/// assert_eq!(bad.status, 400);
/// ```
pub fn answer_json(request: &str) -> Reply {
    let bad = |e: &dyn std::fmt::Display| Reply { status: 400, body: error_body(e) };
    let mut asked: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return bad(&format!("the request is not one xo reads: {e}")),
    };
    if asked.book.is_some() || asked.database.is_some() {
        return bad(&"books and databases are on the server: the browser has no files");
    }
    asked.threads = Some(1);
    let base = Budget::default().with_memory(MEMORY_BYTES);
    let budget = match asked.budget(base) {
        Ok(b) => b,
        Err(e) => return bad(&e),
    };
    let query = match asked.prepare(&[], xo_core::threads::Runner::Alone) {
        Ok(q) => q,
        Err(e) => return bad(&e),
    };
    let (status, result) = match answer(&query, &Meter::new(budget)) {
        Ok(a) if a.stopped().is_some() => (422, serde_json::to_string(&a)),
        Ok(a) => (200, serde_json::to_string(&a)),
        Err(stopped) => (422, serde_json::to_string(&query.unanswered(&stopped))),
    };
    match result {
        Ok(body) => Reply { status, body },
        Err(e) => Reply { status: 500, body: error_body(format!("cannot write JSON: {e}")) },
    }
}

/// The games a picker offers first, as the server's `/api/games` lists them.
///
/// ```
/// assert!(xo_wasm::games_json().contains(r#""name":"tictactoe""#));
/// ```
pub fn games_json() -> String {
    #[derive(Serialize)]
    struct Games {
        games: Vec<xo_core::query::GameInfo>,
    }
    serde_json::to_string(&Games { games: presets() }).unwrap_or_else(error_body)
}

/// One game described for drawing it, as the server's `/api/game?game=NAME`; `status` 400 for
/// a name the core does not know.
///
/// ```
/// assert_eq!(xo_wasm::game_json("treblecross:20").status, 200);
/// assert_eq!(xo_wasm::game_json("nosuchgame").status, 400);
/// ```
pub fn game_json(name: &str) -> Reply {
    match Game::parse(name) {
        Ok(game) => match serde_json::to_string(&describe(&game)) {
            Ok(body) => Reply { status: 200, body },
            Err(e) => Reply { status: 500, body: error_body(e) },
        },
        Err(e) => Reply { status: 400, body: error_body(e) },
    }
}

/// The page's one entry point into the core: `kind` is `ask` (`text`: a request as JSON),
/// `game` (`text`: a game's name) or `games`. Returns `{"status": S, "body": B}` where `B` is
/// the server's answer to the same question (JSON text) and `S` its status.
#[wasm_bindgen]
pub fn xo(kind: &str, text: &str) -> String {
    let reply = match kind {
        "ask" => answer_json(text),
        "game" => game_json(text),
        "games" => Reply { status: 200, body: games_json() },
        other => Reply { status: 400, body: error_body(format!("no such call: {other}")) },
    };
    format!("{{\"status\":{},\"body\":{}}}", reply.status, reply.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_the_server_does() {
        let r = answer_json(
            r#"{"game":"treblecross:20","position":"....................","value_only":true}"#,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.body.contains(r#""value":"win""#), "{}", r.body);
        let r = answer_json(r#"{"game":"lol:4","position":"l.o.","question":"moves"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.body.contains(r#""position":"L.O.""#), "{}", r.body);
        let over = answer_json(r#"{"game":"connect4","max_nodes":10}"#);
        assert_eq!(over.status, 422, "{}", over.body);
        assert!(over.body.contains(r#""value":"unknown""#), "{}", over.body);
        let wrapped = xo("ask", r#"{"game":"nosuch"}"#);
        let v: serde_json::Value = serde_json::from_str(&wrapped).unwrap();
        assert_eq!(v["status"], 400);
        assert!(v["body"]["error"].is_string());
    }
}
