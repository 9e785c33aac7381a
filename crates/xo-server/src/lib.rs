//! `xo serve`: xo's HTTP API and its web page, a thin layer over the core's one entry point.
//!
//! Every endpoint reads its parameters into the core's [`xo_core::request::Request`] (the one
//! the `xo` command fills from its flags), prepares it into the same [`xo_core::query::Query`],
//! answers it with [`xo_core::query::answer`] (or from a loaded strong database)
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
mod config;
mod conn;
mod database;
mod error;
mod handlers;
mod jobs;
pub mod page;
mod params;
mod send;

pub use config::Config;
pub use conn::{read_body, BodyLimits, Connections};
pub use database::{DatabaseError, ServedDatabase};
pub use error::ApiError;

use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use std::time::Duration;

/// The server's routes over `config`: the API under `/api/` and the page at `/`.
pub fn app(config: Config) -> Router {
    let state = Arc::new(handlers::AppState::new(config));
    Router::new()
        .route("/", get(page::index))
        .route("/core.js", get(page::core))
        .route("/study.js", get(page::study))
        .route("/editor.js", get(page::editor))
        .route("/worker.js", get(page::worker))
        .route("/xo_wasm.js", get(page::glue))
        .route("/xo_wasm_bg.wasm", get(page::wasm))
        .route("/api/games", get(handlers::games))
        .route("/api/game", get(handlers::game).post(handlers::game))
        .route("/api/solve", get(handlers::solve).post(handlers::solve))
        .route("/api/count", get(handlers::count).post(handlers::count))
        .route("/api/check", get(handlers::check).post(handlers::check))
        .route("/api/grundy", get(handlers::grundy).post(handlers::grundy))
        .route("/api/ask", get(handlers::ask_any).post(handlers::ask_any))
        .fallback(handlers::not_found)
        .method_not_allowed_fallback(handlers::wrong_method)
        .layer(axum::middleware::from_fn_with_state(state.clone(), handlers::limit_uri))
        .with_state(state)
}

/// Serves [`app`] on `listener` until Ctrl-C. Each connection must send a request's headers
/// within [`Config::header_timeout`] (so idle or trickling connections are closed) and its body
/// within [`Config::body_timeout`] (read whole, at most [`Config::max_body`] bytes, before the
/// request is routed), and must take what it is sent within [`Config::send_timeout`]. At most [`Config::max_connections`] are open at once: beyond that, a new
/// connection closes the one that has waited longest for its client (never one whose request
/// computes), and waits only while every open connection computes.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let (header_timeout, send_timeout) = (config.header_timeout, config.send_timeout);
    let limits = BodyLimits { max_body: config.max_body, timeout: config.body_timeout };
    let open = Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    let connections = Arc::new(Connections::default());
    let app = hyper_util::service::TowerToHyperService::new(app(config));
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    loop {
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
        // Room for it: a free place, or the place of a connection waiting for its client.
        let permit = loop {
            if let Ok(permit) = open.clone().try_acquire_owned() {
                break permit;
            }
            if connections.evict_longest_waiting().is_some() {
                match open.clone().acquire_owned().await {
                    Ok(permit) => break permit,
                    Err(_) => return Ok(()),
                }
            }
            tokio::select! {
                permit = open.clone().acquire_owned() => match permit {
                    Ok(permit) => break permit,
                    Err(_) => return Ok(()),
                },
                _ = connections.someone_waits() => {}
            }
        };
        let (id, evict) = connections.open();
        let (app, connections) = (app.clone(), connections.clone());
        tokio::spawn(async move {
            let _open = permit;
            let requests = connections.clone();
            let service = hyper::service::service_fn(move |request| {
                let (app, connections) = (app.clone(), requests.clone());
                async move {
                    let response = match read_body(request, limits).await {
                        Ok(request) => {
                            connections.working(id);
                            let response = hyper::service::Service::call(&app, request).await;
                            connections.waiting(id);
                            response?
                        }
                        Err(refused) => refused,
                    };
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(
                    send::SendTimeout::new(TokioIo::new(stream), send_timeout),
                    service,
                );
            tokio::select! {
                _ = connection => {}
                _ = evict.notified() => {}
            }
            connections.close(id);
        });
    }
}
