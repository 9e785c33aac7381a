//! The API's endpoints. Each reads its parameters, builds the query the `xo` command would
//! build, runs it on the pool within the request's budget and returns the command's JSON:
//! 200 with the answer, 422 with the same report marked unknown (its `reason` and `stopped`)
//! when a budget ran out, 4xx with `{"error"}` for anything wrong in the request.

use crate::cache::AnswerCache;
use crate::error::ApiError;
use crate::jobs::Pool;
use crate::params::Params;
use crate::Config;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::query::{answer, describe, presets, sequence, Game, Query, Question, SequenceQuery};

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    config: Config,
    pool: Pool,
    cache: AnswerCache,
}

impl AppState {
    /// The state of a server with `config`.
    pub fn new(config: Config) -> AppState {
        let pool = Pool::new(config.workers, config.queue);
        let cache = AnswerCache::new(config.cache_bytes);
        AppState { config, pool, cache }
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
            "no such page: {} (the API: /api/games, /api/game, /api/solve, /api/count, /api/check, /api/grundy)",
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

/// The query a solve, count or check request asks, with its budget.
async fn read_query(
    state: &AppState,
    request: Request,
    endpoint: &'static str,
    names: &[&str],
    question: impl FnOnce(&Params) -> Result<Question, ApiError>,
) -> Result<(Query, Meter), ApiError> {
    let params = Params::read(request, endpoint, names, state.config.max_body).await?;
    let budget = params.budget(&state.config.budget)?;
    let name = params.required("game")?;
    let question = question(&params)?;
    // The game once: a strip named without its length takes it from the position; positions
    // given as columns are of gravity games.
    let (game, text) = match (params.get("position"), params.get("moves")) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request("give the position or the moves, not both"))
        }
        (position, None) => {
            (Game::parse_for(name, position).map_err(bad)?, position.map(str::to_string))
        }
        (None, Some(moves)) => {
            let game = Game::parse(name).map_err(bad)?;
            let Game::Placement(rules) = &game else {
                return Err(ApiError::bad_request("moves are for gravity games, not octal games"));
            };
            let position = xo_core::rules::Position::from_columns(rules, moves)
                .map_err(|e| ApiError::bad_request(format!("moves: {e}")))?;
            let text = position.to_text(rules);
            (game, Some(text))
        }
    };
    let position = text.as_deref();
    if question == Question::Reach && position.is_none() {
        return Err(ApiError::bad_request("missing parameter 'position' of /api/check"));
    }
    let mut query = Query::new(game, position, question).map_err(bad)?;
    if let Some(rules) = query.rules().filter(|r| r.gravity) {
        let shape = (rules.width, rules.height, rules.pattern_len());
        if let Some(book) = state.config.books.iter().find(|b| b.game() == shape) {
            query = query.with_book(book.clone());
        }
    }
    Ok((query, Meter::new(budget)))
}

/// Answers `query` (from a database when one holds its game) and renders it.
async fn respond(state: Arc<AppState>, query: Query, meter: Meter, started: Instant) -> Response {
    let key = format!("{}\n{}\n{:?}", query.game().name(), query.position_text(), query.question());
    if let Some(body) = state.cache.get(&key) {
        return body_response(StatusCode::OK, body.to_string(), started);
    }
    if let Some(answer) = state.config.databases.iter().find_map(|db| db.answer(&query)) {
        return json_response(StatusCode::OK, &answer, started);
    }
    let query = Arc::new(query);
    let asked = query.clone();
    match state.pool.run(&meter, move |m| answer(&asked, m)).await {
        Ok(Ok(answer)) => match to_json(&answer) {
            Ok(body) => {
                state.cache.put(key, Arc::from(body.as_str()));
                body_response(StatusCode::OK, body, started)
            }
            Err(e) => e.into_response(),
        },
        Ok(Err(stopped)) => {
            json_response(StatusCode::UNPROCESSABLE_ENTITY, &query.unanswered(&stopped), started)
        }
        Err(e) => e.into_response(),
    }
}

/// Reads the query a solve, count or check request asks and answers it.
async fn ask(
    state: Arc<AppState>,
    request: Request,
    endpoint: &'static str,
    names: &[&str],
    question: impl FnOnce(&Params) -> Result<Question, ApiError>,
) -> Response {
    let started = Instant::now();
    match read_query(&state, request, endpoint, names, question).await {
        Ok((query, meter)) => respond(state, query, meter, started).await,
        Err(e) => e.into_response(),
    }
}

/// `GET /api/solve?game=G&position=P`: what `xo solve G P --json` prints.
pub async fn solve(State(state): Shared, request: Request) -> Response {
    let names = ["game", "position", "moves", "winning", "value_only", "no_moves"];
    ask(state, request, "/api/solve", &names, |p| {
        let (winning, value_only, no_moves) =
            (p.flag("winning")?, p.flag("value_only")?, p.flag("no_moves")?);
        if [winning, value_only, no_moves].iter().filter(|&&f| f).count() > 1 {
            return Err(ApiError::bad_request(
                "winning, value_only and no_moves exclude each other",
            ));
        }
        Ok(if value_only {
            Question::Value
        } else if no_moves {
            Question::Score
        } else {
            Question::Analysis { winning_only: winning }
        })
    })
    .await
}

/// `GET /api/count?game=G&position=P`: what `xo count G P --json` prints.
pub async fn count(State(state): Shared, request: Request) -> Response {
    let names = ["game", "position", "moves", "by_length", "dense"];
    ask(state, request, "/api/count", &names, |p| {
        Ok(Question::Count { by_length: p.flag("by_length")?, dense: p.flag("dense")? })
    })
    .await
}

/// `GET /api/check?game=G&position=P`: what `xo check G P --json` prints.
pub async fn check(State(state): Shared, request: Request) -> Response {
    ask(state, request, "/api/check", &["game", "position", "moves"], |_| Ok(Question::Reach)).await
}

/// `GET /api/grundy?game=G&upto=N`: what `xo grundy G --upto N --json` prints.
pub async fn grundy(State(state): Shared, request: Request) -> Response {
    let started = Instant::now();
    let read = async {
        let params =
            Params::read(request, "/api/grundy", &["game", "upto"], state.config.max_body).await?;
        let budget = params.budget(&state.config.budget)?;
        let game = Game::parse(params.required("game")?).map_err(bad)?;
        let upto = params
            .number("upto")?
            .ok_or_else(|| ApiError::bad_request("missing parameter 'upto' of /api/grundy"))?;
        let upto = usize::try_from(upto).map_err(|_| bad(format!("upto={upto} is too large")))?;
        let query = SequenceQuery::new(&game, upto).map_err(bad)?;
        Ok::<_, ApiError>((query, Meter::new(budget)))
    }
    .await;
    let (query, meter) = match read {
        Ok(read) => read,
        Err(e) => return e.into_response(),
    };
    let asked = query.clone();
    match state.pool.run(&meter, move |m| sequence(&query, m)).await {
        Ok(Ok(report)) => json_response(StatusCode::OK, &report, started),
        Ok(Err(stopped)) => {
            json_response(StatusCode::UNPROCESSABLE_ENTITY, &asked.unanswered(&stopped), started)
        }
        Err(e) => e.into_response(),
    }
}
