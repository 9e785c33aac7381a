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
    /// The most bytes of answers kept for repeated questions (0: keep none).
    pub cache_bytes: usize,
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
            cache_bytes: 64 << 20,
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

/// Serves [`app`] on `listener` until the process ends (or Ctrl-C).
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    axum::serve(listener, app(config))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
