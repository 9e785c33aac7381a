//! xo's core in the browser. The web page runs this crate, compiled to WebAssembly
//! (`wasm32-unknown-unknown`, `wasm-bindgen`), in a Web Worker, so that it can answer the same
//! typed [`Request`] as the server's `/api/ask` with no server at all (`xo page --out DIR`), and
//! answer small positions without a round trip when it has one. The answers are the server's
//! JSON byte for byte: the same `Request::prepare`, the same `answer`, the same serialisation.
//!
//! Only the scalar, single-threaded paths of the core run here: the request's thread count is
//! forced to 1, and the budget's clock is the browser's (the core's `web-time` clock). No files:
//! a request may not name a book or a database. The opening books xo ships are handed over as
//! bytes instead ([`load_book`]; the static page fetches the one its game consults, named by
//! [`book_for`], only when that game is opened), decoded by the core's own reader and consulted
//! as the server consults its own: every request is prepared with them. A search of every
//! move's score past the book may be shared out among several workers ([`split`], [`join`]).
//!
//! The same functions build for the host (so the workspace's tests run them natively, see the
//! tests below); `scripts/wasm.sh` builds the WebAssembly file the page embeds.

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use xo_core::budget::{Budget, Meter};
use xo_core::query::{answer, describe, presets, Game};
use xo_core::request::Request;
use xo_core::solve::book::Book;

thread_local! {
    /// The books handed over by [`load_book`], given to every request as the server gives its
    /// own (a book of another board is not consulted, as there).
    static BOOKS: std::cell::RefCell<Vec<std::sync::Arc<Book>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

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
    answer_known(serde_json::from_str(request), &[])
}

/// [`answer_json`] of a request read, the engine told the exact scores `known` (position
/// text, score).
fn answer_known(request: serde_json::Result<Request>, known: &[(String, i32)]) -> Reply {
    let bad = |e: &dyn std::fmt::Display| Reply { status: 400, body: error_body(e) };
    let mut asked: Request = match request {
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
    let books = BOOKS.with(|b| b.borrow().clone());
    let query = match asked.prepare(&books, xo_core::threads::Runner::Alone) {
        Ok(q) if known.is_empty() => q,
        Ok(q) => match q.with_known_scores(known) {
            Ok(q) => q,
            Err(e) => return bad(&e),
        },
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

/// Takes a book file's bytes (one of the books xo ships, fetched by the page), read and checked by
/// the core's own reader ([`Book::decode`]), and keeps the book for every request after, in place
/// of any book of the same board before it. `status` 200 with `{"book":"connect:W,H,K",
/// "depth":D,"positions":N}`, or 400 naming what is wrong with the bytes (nothing kept).
pub fn load_book(bytes: &[u8]) -> Reply {
    #[derive(Serialize)]
    struct Loaded {
        book: String,
        depth: u32,
        positions: usize,
    }
    let book = match Book::decode(bytes) {
        Ok(b) => b,
        Err(e) => {
            return Reply { status: 400, body: error_body(format!("not a book xo reads: {e}")) }
        }
    };
    let (w, h, k) = book.game();
    let loaded =
        Loaded { book: format!("connect:{w},{h},{k}"), depth: book.depth(), positions: book.len() };
    BOOKS.with(|books| {
        let mut books = books.borrow_mut();
        books.retain(|b| b.game() != book.game());
        books.push(std::sync::Arc::new(book));
    });
    match serde_json::to_string(&loaded) {
        Ok(body) => Reply { status: 200, body },
        Err(e) => Reply { status: 500, body: error_body(e) },
    }
}

/// The file of the book xo ships that a game consults (`{"book":"connect4.book"}`, by the
/// core's one rule, [`xo_core::solve::book::shipped_name`]), or `{"book":null}`; `status` 400
/// for a name the core does not know.
///
/// ```
/// assert_eq!(xo_wasm::book_for("connect4").body, r#"{"book":"connect4.book"}"#);
/// assert_eq!(xo_wasm::book_for("tictactoe").body, r#"{"book":null}"#);
/// assert_eq!(xo_wasm::book_for("nosuchgame").status, 400);
/// ```
pub fn book_for(game: &str) -> Reply {
    #[derive(Serialize)]
    struct Wanted {
        book: Option<&'static str>,
    }
    let book = match Game::parse(game) {
        Ok(Game::Placement(rules)) => xo_core::solve::book::shipped_name(&rules),
        Ok(Game::Octal(_)) => None,
        Err(e) => return Reply { status: 400, body: error_body(e) },
    };
    match serde_json::to_string(&Wanted { book }) {
        Ok(body) => Reply { status: 200, body },
        Err(e) => Reply { status: 500, body: error_body(e) },
    }
}

/// Positions with at most this many empty cells are not split ([`split`]): their searches
/// take milliseconds.
pub const SPLIT_ABOVE_EMPTY: usize = 16;

/// How the page may share out the search of `request` (JSON, as [`answer_json`] takes) among
/// several workers: `{"children": [R, ...]}`, the requests of the score of the position after
/// each legal move (each answered by [`answer_json`] in any worker with the same books; its
/// `score`, with the child's `position`, goes to [`join`]), or `{"children": []}` when the
/// request is better answered whole. Shared out: every move's score of a gravity game (the
/// question `solve` with its moves, no `line`), with a book of its board loaded, the position
/// past the book (its moves are searched) and with more than [`SPLIT_ABOVE_EMPTY`] empty cells.
///
/// ```
/// let (_, bytes) = xo_store::book::shipped_files()[0];
/// assert_eq!(xo_wasm::load_book(bytes).status, 200);
/// let ten = xo_wasm::split(r#"{"game":"connect4","moves":"2167763261"}"#);
/// assert_eq!(ten.status, 200);
/// let v: serde_json::Value = serde_json::from_str(&ten.body).unwrap();
/// assert_eq!(v["children"].as_array().unwrap().len(), 7);
/// assert_eq!(v["children"][0]["no_moves"], true);
/// // In the book: answered whole, in milliseconds.
/// assert_eq!(xo_wasm::split(r#"{"game":"connect4","moves":"44"}"#).body, r#"{"children":[]}"#);
/// ```
pub fn split(request: &str) -> Reply {
    #[derive(Serialize)]
    struct Children {
        children: Vec<Request>,
    }
    let whole = || Reply { status: 200, body: r#"{"children":[]}"#.into() };
    let Ok(asked) = serde_json::from_str::<Request>(request) else { return whole() };
    let shared_out = asked.question == xo_core::request::Ask::Solve
        && !asked.value_only
        && !asked.no_moves
        && !asked.line
        && !asked.no_book
        && asked.book.is_none()
        && asked.database.is_none();
    let Ok(Game::Placement(rules)) = asked.game() else { return whole() };
    let board = xo_core::solve::book::board_of(&rules);
    let depth =
        BOOKS.with(|b| b.borrow().iter().find(|b| Some(b.game()) == board).map(|b| b.depth()));
    let (true, Some(depth)) = (shared_out && rules.gravity(), depth) else { return whole() };
    // The legal moves and the position after each, as the core lists them.
    let mut moves = asked.clone();
    moves.question = xo_core::request::Ask::Moves;
    (moves.winning, moves.threats) = (false, false);
    let Ok(query) = moves.prepare(&[], xo_core::threads::Runner::Alone) else { return whole() };
    let Ok(xo_core::query::Answer::Moves(listed)) = answer(&query, &Meter::default()) else {
        return whole();
    };
    let empty = listed.position.chars().filter(|&c| c == '.').count();
    let stones = listed.position.chars().filter(|&c| !c.is_whitespace() && c != '.').count();
    if listed.over
        || stones < depth as usize
        || empty <= SPLIT_ABOVE_EMPTY
        || listed.moves.len() < 2
    {
        return whole();
    }
    let children = listed
        .moves
        .into_iter()
        .map(|m| {
            let mut child = asked.clone();
            (child.position, child.moves) = (Some(m.position), None);
            (child.no_moves, child.winning, child.threats) = (true, false, false);
            child
        })
        .collect();
    match serde_json::to_string(&Children { children }) {
        Ok(body) => Reply { status: 200, body },
        Err(e) => Reply { status: 500, body: error_body(e) },
    }
}

/// Answers a request as [`answer_json`] does, told the exact scores of some positions (found
/// by other workers: the children [`split`] gave): `{"request": R, "known": [[P, S], ...]}`,
/// each `P` a position text and `S` its score from its `score` answer. The answer is the
/// core's to the request alone, byte for byte; positions told are not searched, any other
/// (a worker stopped at its budget) is.
pub fn join(text: &str) -> Reply {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Joined {
        request: Request,
        known: Vec<(String, i32)>,
    }
    match serde_json::from_str::<Joined>(text) {
        Ok(joined) => answer_known(Ok(joined.request), &joined.known),
        Err(e) => Reply { status: 400, body: error_body(format!("not a join xo reads: {e}")) },
    }
}

/// The page's one entry point into the core: `kind` is `ask` (`text`: a request as JSON),
/// `game` (`text`: a game's name), `book_for` (`text`: a game's name; [`book_for`]), `split`
/// and `join` (a search shared out among workers: [`split`], [`join`]) or `games`. Returns
/// `{"status": S, "body": B}` where `B` is the server's answer to the same question (JSON text)
/// and `S` its status.
#[wasm_bindgen]
pub fn xo(kind: &str, text: &str) -> String {
    let reply = match kind {
        "ask" => answer_json(text),
        "game" => game_json(text),
        "book_for" => book_for(text),
        "split" => split(text),
        "join" => join(text),
        "games" => Reply { status: 200, body: games_json() },
        other => Reply { status: 400, body: error_body(format!("no such call: {other}")) },
    };
    wrap(&reply)
}

fn wrap(reply: &Reply) -> String {
    format!("{{\"status\":{},\"body\":{}}}", reply.status, reply.body)
}

/// The page's way to hand over a book file's bytes ([`load_book`]), answered as [`xo`] answers.
#[wasm_bindgen]
pub fn book(bytes: &[u8]) -> String {
    wrap(&load_book(bytes))
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

    /// A search shared out ([`split`], each child's score answered alone, then [`join`]) is
    /// answered byte for byte as the request alone is, with every child told, or some (the
    /// others searched), and with the flags `split` keeps (`winning`, `threats`).
    #[test]
    fn a_split_search_joins_to_the_whole_answer() {
        let (_, bytes) = xo_store::book::shipped_files()[0];
        assert_eq!(load_book(bytes).status, 200);
        for request in [
            r#"{"game":"connect4","moves":"3123342272"}"#,
            r#"{"game":"connect4","moves":"6621614741","winning":true}"#,
            r#"{"game":"connect4","moves":"5432447443","threats":true}"#,
            r#"{"game":"connect4","moves":"54324474431"}"#,
        ] {
            let whole = answer_json(request);
            assert_eq!(whole.status, 200, "{}", whole.body);
            let split: serde_json::Value = serde_json::from_str(&split(request).body).unwrap();
            let children = split["children"].as_array().unwrap();
            assert!(children.len() >= 2, "{request}: {split}");
            let known: Vec<(String, i64)> = children
                .iter()
                .map(|child| {
                    let r = answer_json(&child.to_string());
                    assert_eq!(r.status, 200, "{}", r.body);
                    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
                    (child["position"].as_str().unwrap().to_string(), v["score"].as_i64().unwrap())
                })
                .collect();
            let value = serde_json::json!({"request": serde_json::from_str::<serde_json::Value>(request).unwrap(), "known": known});
            assert_eq!(join(&value.to_string()), whole, "{request}");
            let some = serde_json::json!({"request": value["request"], "known": known[1..]});
            assert_eq!(join(&some.to_string()), whole, "{request}, the first child searched");
        }
        // Not shared out: in the book, other questions, few empty cells, other games.
        for request in [
            r#"{"game":"connect4","moves":"443"}"#,
            r#"{"game":"connect4","moves":"3123342272","no_moves":true}"#,
            r#"{"game":"connect4","moves":"3123342272","line":true}"#,
            r#"{"game":"connect4","moves":"3123342272","question":"best"}"#,
            r#"{"game":"connect4","moves":"3123342272","no_book":true}"#,
            r#"{"game":"connect4","moves":"2252576253462244111563365343671351441"}"#,
            r#"{"game":"tictactoe"}"#,
            r#"{"game":"connect:6,5,4","moves":"3123342272"}"#,
        ] {
            assert_eq!(split(request).body, r#"{"children":[]}"#, "{request}");
        }
        assert_eq!(join(r#"{"request":{"game":"connect4"},"known":[["X",0]]}"#).status, 400);
        // A score no position of that many stones can have is refused, naming it.
        let beyond = join(&format!(
            r#"{{"request":{{"game":"connect4"}},"known":[["{}X",{}]]}}"#,
            ".".repeat(41),
            i32::MIN
        ));
        assert_eq!(beyond.status, 400, "{}", beyond.body);
        assert!(beyond.body.contains("-2147483648"), "{}", beyond.body);
    }

    /// The shipped Connect Four book, handed over as bytes, answers as the core with the book
    /// does (`xo_store::book::prepare`, the command's way); damaged bytes are refused.
    #[test]
    fn answers_with_a_book_as_the_core_does() {
        use xo_core::query::Question;
        let bad = load_book(b"not a book");
        assert_eq!(bad.status, 400, "{}", bad.body);
        let (name, bytes) = xo_store::book::shipped_files()[0];
        assert_eq!(book_for("connect4").body, format!(r#"{{"book":"{name}"}}"#));
        let loaded = load_book(bytes);
        assert_eq!(loaded.status, 200, "{}", loaded.body);
        assert!(loaded.body.starts_with(r#"{"book":"connect:7,6,4","depth":"#), "{}", loaded.body);
        for moves in ["", "4", "443"] {
            let r = answer_json(&format!(r#"{{"game":"connect4","moves":"{moves}"}}"#));
            assert_eq!(r.status, 200, "{moves}: {}", r.body);
            let request = Request::new("connect4")
                .columns(moves)
                .asking(Question::Analysis { winning_only: false });
            let query =
                xo_store::book::prepare(&request, None, xo_core::threads::Runner::Alone).unwrap();
            let want = answer(&query, &Meter::new(Budget::default())).unwrap();
            assert_eq!(r.body, serde_json::to_string(&want).unwrap(), "{moves}");
        }
    }
}
