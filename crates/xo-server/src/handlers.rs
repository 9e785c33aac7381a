//! The API's endpoints. Each reads its parameters into the core's one request (the same the
//! `xo` command fills from its flags), prepares it, runs it on the pool within the request's
//! budget and returns the command's JSON:
//! 200 with the answer, 422 with the same report marked unknown (its `reason` and `stopped`)
//! when a budget ran out, 4xx with `{"error"}` for anything wrong in the request.

use crate::cache::AnswerCache;
use crate::config::Config;
use crate::error::ApiError;
use crate::jobs::Pool;
use crate::params::Params;
use crate::send::{render, InFlight, RenderError};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::query::{answer, describe, presets, Answer, Game, Query, Question};
use xo_core::request::{Ask, Request as XoRequest, FIELDS};

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    config: Config,
    pool: Pool,
    cache: AnswerCache,
    in_flight: InFlight,
}

impl AppState {
    /// The state of a server with `config`.
    pub fn new(config: Config) -> AppState {
        let pool = Pool::new(config.workers, config.queue);
        let cache = AnswerCache::new(config.cache_bytes);
        // Bodies on their way: as much memory as the workers may take computing.
        let workers = config.workers.max(1) as u64;
        let in_flight = InFlight::new(config.budget.memory_bytes.saturating_mul(workers));
        AppState { config, pool, cache, in_flight }
    }
}

type Shared = State<Arc<AppState>>;

/// `value` as the command prints it: one line of JSON.
fn to_json(value: &impl Serialize) -> Result<String, ApiError> {
    let mut body = serde_json::to_string(value).map_err(|e| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot write JSON: {e}"))
    })?;
    body.push('\n');
    Ok(body)
}

/// A JSON body with its status and the time spent (`server-timing`).
fn body_response(status: StatusCode, body: String, started: Instant) -> Response {
    timed(status, axum::body::Body::from(body), started)
}

/// [`body_response`] for a body of any kind.
fn timed(status: StatusCode, body: axum::body::Body, started: Instant) -> Response {
    let mut response = (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
    let timing = format!("app;dur={:.3}", started.elapsed().as_secs_f64() * 1000.0);
    if let Ok(v) = HeaderValue::from_str(&timing) {
        response.headers_mut().insert("server-timing", v);
    }
    response
}

/// A JSON response exactly as the command prints it (one line), with the time spent.
fn json_response(status: StatusCode, value: &impl Serialize, started: Instant) -> Response {
    match to_json(value) {
        Ok(body) => body_response(status, body, started),
        Err(e) => e.into_response(),
    }
}

/// Refuses request targets longer than the server takes, before anything reads them.
pub async fn limit_uri(State(state): Shared, request: Request, next: Next) -> Response {
    let len = request.uri().path().len() + request.uri().query().map_or(0, |q| q.len() + 1);
    if len > state.config.max_uri {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request target is {len} bytes, longer than {} (POST the parameters as a JSON body for long positions)",
                state.config.max_uri
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// Any other path: 404 naming the endpoints.
pub async fn not_found(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such page: {} (the API: /api/games, /api/game, /api/solve, /api/count, /api/check, /api/grundy, /api/ask)",
            request.uri().path()
        ),
    )
}

/// `GET /api/games`: the games a picker offers first.
pub async fn games() -> Response {
    #[derive(Serialize)]
    struct Games {
        games: Vec<xo_core::query::GameInfo>,
    }
    json_response(StatusCode::OK, &Games { games: presets() }, Instant::now())
}

/// A method the path does not take: 405 naming the ones it does.
pub async fn wrong_method(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take {} (use GET, or POST a JSON object)",
            request.uri().path(),
            request.method()
        ),
    )
}

/// `GET /api/game?game=G`: one game described for drawing it.
pub async fn game(State(state): Shared, request: Request) -> Response {
    let started = Instant::now();
    let result = async {
        let params = Params::read(request, "/api/game", &["game"], state.config.max_body).await?;
        let game = Game::parse(params.required("game")?).map_err(bad)?;
        Ok::<_, ApiError>(describe(&game))
    }
    .await;
    match result {
        Ok(info) => json_response(StatusCode::OK, &info, started),
        Err(e) => e.into_response(),
    }
}

fn bad(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// The query a request asks, with its budget: the parameters read into the core's one
/// [`Request`] (the endpoint's question put in), prepared with the server's books and one
/// thread unless the request asks for more (the core's thread policy).
async fn read_query(
    state: &AppState,
    request: Request,
    endpoint: &'static str,
    names: &[&str],
    question: Option<Ask>,
) -> Result<(Query, Meter), ApiError> {
    let params = Params::read(request, endpoint, names, state.config.max_body).await?;
    let budget = params.budget(&state.config.budget)?;
    if params.get("rules").is_none() {
        params.required("game")?;
    }
    let mut asked = XoRequest::from_pairs(params.pairs()).map_err(bad)?;
    if let Some(question) = question {
        asked.question = question;
    }
    let mut query =
        asked.prepare(&state.config.books, xo_core::threads::Runner::Pool).map_err(bad)?;
    let sequences = state.config.sequences.iter().filter(|_| !asked.no_book);
    for stored in sequences {
        query = query.with_stored(stored.clone());
    }
    Ok((query, Meter::new(budget)))
}

/// Answers `query` (from a database when one holds its game) and renders it.
async fn respond(state: Arc<AppState>, query: Query, meter: Meter, started: Instant) -> Response {
    // Moves and the position after a move are answered at once; the rest is kept.
    let cached = !matches!(query.question(), Question::Moves | Question::After);
    // Everything the answer depends on: with lines or without is another answer.
    let key = format!(
        "{}\n{}\n{:?}\n{}",
        query.game().name(),
        query.position_text(),
        query.question(),
        query.lines()
    );
    if let Some(body) = state.cache.get(&key).filter(|_| cached) {
        return body_response(StatusCode::OK, body.to_string(), started);
    }
    // A database answers its game (lines, which it does not store, are searched); a damaged
    // one leaves the question to the search, which says so in its report's note.
    let mut damaged = None;
    let mut databases = state.config.databases.iter().filter(|_| !query.lines());
    match databases.find_map(|db| db.answer(&query)) {
        Some(Ok(answer)) => return json_response(StatusCode::OK, &answer, started),
        Some(Err(e)) => damaged = Some(format!("{e}: answered by search instead")),
        None => {}
    }
    let cached = cached && damaged.is_none();
    let query = Arc::new(query);
    let asked = query.clone();
    // The answer and its JSON, both on the worker and within the request's budget.
    let work = move |m: &Meter| {
        let mut answer = answer(&asked, m)?;
        if let (Answer::Solve(report), Some(damaged)) = (&mut answer, damaged) {
            report.note = Some(match report.note.take() {
                Some(note) => format!("{note}; {damaged}"),
                None => damaged,
            });
        }
        match render(&answer, m) {
            Ok(body) => Ok(Ok((answer.stopped().is_some(), body))),
            Err(RenderError::Stopped(stopped)) => Err(stopped),
            Err(RenderError::Failed(e)) => Ok(Err(e)),
        }
    };
    let (status, body) = match state.pool.run(&meter, work).await {
        // A best move found by the look-ahead after the budget ran out: the report, as over
        // budget.
        Ok(Ok(Ok((true, body)))) => (StatusCode::UNPROCESSABLE_ENTITY, body),
        Ok(Ok(Ok((false, body)))) => {
            if cached {
                state.cache.put(key, Arc::from(body.as_str()));
            }
            (StatusCode::OK, body)
        }
        Ok(Ok(Err(e))) | Err(e) => return e.into_response(),
        Ok(Err(stopped)) => {
            let stopped = naming_the_parameter(stopped, &state.config.budget);
            return json_response(
                StatusCode::UNPROCESSABLE_ENTITY,
                &query.unanswered(&stopped),
                started,
            );
        }
    };
    match state.in_flight.hold(body) {
        Ok(body) => timed(status, body, started),
        Err(e) => e.into_response(),
    }
}

/// The stop with the request parameter that raises its budget named, and how far this server
/// lets it go (its own `--timeout`, `--max-nodes`, `--memory-mib`): what the command's flag is
/// to `xo`.
fn naming_the_parameter(
    stopped: xo_core::budget::Stopped,
    most: &xo_core::budget::Budget,
) -> xo_core::budget::Stopped {
    use xo_core::budget::Limit;
    let how = match stopped.limit {
        Limit::Memory => {
            format!("the parameter memory_mib raises it, to {} MiB here", most.memory_bytes >> 20)
        }
        Limit::Nodes => format!("the parameter max_nodes raises it, to {} here", most.max_nodes),
        Limit::Time => {
            format!("the parameter timeout raises it, to {} s here", most.timeout.as_secs_f64())
        }
        Limit::Cancelled => return stopped,
    };
    stopped.raised_by(how)
}

/// Reads the query a request asks and answers it.
async fn ask(
    state: Arc<AppState>,
    request: Request,
    endpoint: &'static str,
    names: &[&str],
    question: Option<Ask>,
) -> Response {
    let started = Instant::now();
    match read_query(&state, request, endpoint, names, question).await {
        Ok((query, meter)) => respond(state, query, meter, started).await,
        Err(e) => e.into_response(),
    }
}

/// `GET /api/solve?game=G&position=P`: what `xo solve G P --json` prints.
pub async fn solve(State(state): Shared, request: Request) -> Response {
    let names = [
        "game",
        "position",
        "moves",
        "winning",
        "value_only",
        "no_moves",
        "line",
        "threats",
        "threads",
    ];
    ask(state, request, "/api/solve", &names, Some(Ask::Solve)).await
}

/// `GET /api/count?game=G&position=P`: what `xo count G P --json` prints.
pub async fn count(State(state): Shared, request: Request) -> Response {
    let names = ["game", "position", "moves", "by_length", "dense"];
    ask(state, request, "/api/count", &names, Some(Ask::Count)).await
}

/// `GET /api/check?game=G&position=P`: what `xo check G P --json` prints.
pub async fn check(State(state): Shared, request: Request) -> Response {
    ask(state, request, "/api/check", &["game", "position", "moves"], Some(Ask::Check)).await
}

/// `GET /api/grundy?game=G&upto=N`: what `xo grundy G --upto N --json` prints.
pub async fn grundy(State(state): Shared, request: Request) -> Response {
    ask(state, request, "/api/grundy", &["game", "upto"], Some(Ask::Grundy)).await
}

/// `GET /api/ask?game=G&question=Q&...`: any question, every field of the core's
/// [`Request`](xo_core::request::Request) by its name (but files: the server's own books and
/// databases answer). Among them the play questions the page asks instead of knowing the
/// rules: `question=moves` (the legal moves and the position after each, what `xo moves G P
/// --json` prints), `question=after&move=M` (`xo moves G P --play M`) and `question=best`
/// (`xo moves G P --best`).
pub async fn ask_any(State(state): Shared, request: Request) -> Response {
    let names: Vec<&str> = FIELDS
        .iter()
        .copied()
        .filter(|n| !["book", "database", "timeout", "max_nodes", "memory_mib"].contains(n))
        .collect();
    ask(state, request, "/api/ask", &names, None).await
}
