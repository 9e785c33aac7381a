//! `xo serve`: xo's HTTP API and its web page, a thin layer over the core's one entry point.
//!
//! Every endpoint reads its parameters, builds the same [`xo_core::query::Query`] the `xo`
//! command builds, answers it with [`xo_core::query::answer`] (or from a loaded strong database)
//! and returns the same JSON the command prints with `--json`. The server adds only what a
//! network needs: per-request budgets capped by the server's, CPU work on a bounded pool of
//! blocking threads (a slow request never holds up the async threads or the others beyond the
//! pool), limits on the size of what a client may send, and JSON errors with 4xx statuses.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! xo_server::serve(listener, xo_server::Config::default()).await
//! # }
//! ```

mod cache;
mod database;
mod error;
mod handlers;
mod jobs;
pub mod load;
mod page;
mod params;

pub use database::{Database, DatabaseError};
pub use error::ApiError;

use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use xo_core::budget::Budget;

/// How a server answers: the budget of each request, its pool, its limits and its databases.
///
/// ```
/// let config = xo_server::Config::default();
/// assert_eq!(config.budget.timeout, std::time::Duration::from_secs(10));
/// assert!(config.workers >= 1);
/// ```
#[derive(Debug, Clone)]
pub struct Config {
    /// The most a request may spend (and what it gets when it asks for nothing less): time,
    /// positions and memory.
    pub budget: Budget,
    /// Requests computing at once (threads of the blocking pool).
    pub workers: usize,
    /// Requests allowed to wait for a worker; more get 429.
    pub queue: usize,
    /// The longest request target (path and query) accepted; longer ones get 414.
    pub max_uri: usize,
    /// The largest request body accepted (POST); larger ones get 413.
    pub max_body: usize,
    /// Strong databases answering the games they hold.
    pub databases: Vec<Arc<Database>>,
    /// Opening books for the gravity games they are of.
    pub books: Vec<Arc<xo_core::solve::book::Book>>,
    /// The most bytes of answers kept for repeated questions (0: keep none).
    pub cache_bytes: usize,
    /// The time a connection has to send a request's headers (idle keep-alive connections
    /// included).
    pub header_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget {
                max_nodes: 1_000_000_000,
                timeout: Duration::from_secs(10),
                memory_bytes: 256 << 20,
            },
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 1024,
            max_uri: 16 << 10,
            max_body: 1 << 20,
            databases: Vec::new(),
            books: Vec::new(),
            cache_bytes: 64 << 20,
            header_timeout: Duration::from_secs(10),
            max_connections: 4096,
        }
    }
}

/// The server's routes over `config`: the API under `/api/` and the page at `/`.
pub fn app(config: Config) -> Router {
    let state = Arc::new(handlers::AppState::new(config));
    Router::new()
        .route("/", get(page::index))
        .route("/api/games", get(handlers::games))
        .route("/api/game", get(handlers::game).post(handlers::game))
        .route("/api/solve", get(handlers::solve).post(handlers::solve))
        .route("/api/count", get(handlers::count).post(handlers::count))
        .route("/api/check", get(handlers::check).post(handlers::check))
        .route("/api/grundy", get(handlers::grundy).post(handlers::grundy))
        .fallback(handlers::not_found)
        .method_not_allowed_fallback(handlers::wrong_method)
        .layer(axum::middleware::from_fn_with_state(state.clone(), handlers::limit_uri))
        .with_state(state)
}

/// Serves [`app`] on `listener` until Ctrl-C. Each connection must send a request's headers
/// within [`Config::header_timeout`] (so idle or trickling connections are closed), and at most
/// [`Config::max_connections`] are open at once (beyond that, new ones wait to be accepted).
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let header_timeout = config.header_timeout;
    let open = Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    let app = app(config);
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    loop {
        let Ok(permit) = open.clone().acquire_owned().await else { return Ok(()) };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait a little, keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            _ = &mut shutdown => return Ok(()),
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _open = permit;
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
