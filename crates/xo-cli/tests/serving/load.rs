//! A load client for the API: many requests from many concurrent clients over keep-alive
//! connections, each answer checked against what it should be, with throughput and latency
//! percentiles (as the client sees them, and as the server reports in its `server-timing`
//! header). The load test, the API tests and the load bench drive it: it lives beside them, not
//! in the server library, so that the library ships only the server.

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One kind of request and what its answer must be.
#[derive(Debug, Clone)]
pub struct LoadCase {
    /// Path and query, such as `/api/solve?game=tictactoe&position=X........`.
    pub target: String,
    /// The status it must get.
    pub status: u16,
    /// The exact body it must get, when known in advance.
    pub body: Option<String>,
    /// Text the body must contain (for answers that vary, like a budget's elapsed time).
    pub contains: Option<String>,
    /// Another answer that is also right, as a status and its exact body: a request over its
    /// budget may be answered once earlier requests have left table entries that let it finish
    /// within the budget (the gravity engine keeps a query's table for the next).
    pub also: Option<(u16, String)>,
}

/// A load: `requests` requests from `clients` concurrent clients, cycling through `cases`.
#[derive(Debug, Clone)]
pub struct LoadPlan {
    /// Requests in all.
    pub requests: usize,
    /// Concurrent clients.
    pub clients: usize,
    /// The requests, used in turn.
    pub cases: Vec<LoadCase>,
}

/// What a load run measured.
#[derive(Debug, Clone, Default)]
pub struct LoadReport {
    /// Requests sent.
    pub requests: usize,
    /// Answers that were not what the case says (wrong status or body).
    pub wrong: usize,
    /// Answers with a 5xx status, or no answer at all.
    pub server_errors: usize,
    /// Answers by status.
    pub statuses: BTreeMap<u16, usize>,
    /// The first wrong answer, described.
    pub first_wrong: Option<String>,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Requests per second.
    pub throughput: f64,
    /// Median and 99th percentile latency seen by the clients, in ms.
    pub client_ms: (f64, f64),
    /// Median and 99th percentile time the server reports spending, in ms.
    pub server_ms: (f64, f64),
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} requests in {:.2} s ({:.0}/s); wrong {}, 5xx {}; statuses {:?}; client p50 {:.3} ms p99 {:.3} ms; server p50 {:.3} ms p99 {:.3} ms",
            self.requests,
            self.elapsed.as_secs_f64(),
            self.throughput,
            self.wrong,
            self.server_errors,
            self.statuses,
            self.client_ms.0,
            self.client_ms.1,
            self.server_ms.0,
            self.server_ms.1
        )
    }
}

/// The `p`-th percentile (0..=100) of sorted samples.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((sorted.len() - 1) as f64 * p / 100.0).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

#[derive(Default)]
struct LoadTally {
    wrong: usize,
    server_errors: usize,
    statuses: BTreeMap<u16, usize>,
    first_wrong: Option<String>,
    client: Vec<f64>,
    server: Vec<f64>,
}

/// Runs `plan` against the server at `addr`.
pub async fn run(addr: SocketAddr, plan: &LoadPlan) -> LoadReport {
    let client: Client<_, Empty<Bytes>> =
        Client::builder(TokioExecutor::new()).pool_max_idle_per_host(plan.clients).build_http();
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Mutex::new(LoadTally::default()));
    let cases = Arc::new(plan.cases.clone());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..plan.clients {
        let (client, next, tally, cases) =
            (client.clone(), next.clone(), tally.clone(), cases.clone());
        let requests = plan.requests;
        tasks.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests || cases.is_empty() {
                    break;
                }
                let case = &cases[i % cases.len()];
                let sent = Instant::now();
                let outcome = fetch(&client, addr, &case.target).await;
                let client_ms = sent.elapsed().as_secs_f64() * 1000.0;
                let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                t.client.push(client_ms);
                match outcome {
                    Ok((status, server_ms, body)) => {
                        *t.statuses.entry(status).or_default() += 1;
                        if let Some(ms) = server_ms {
                            t.server.push(ms);
                        }
                        if status >= 500 {
                            t.server_errors += 1;
                        }
                        let right = (status == case.status
                            && case.body.as_ref().is_none_or(|b| *b == body)
                            && case.contains.as_ref().is_none_or(|c| body.contains(c.as_str())))
                            || case.also.as_ref().is_some_and(|(s, b)| *s == status && *b == body);
                        if !right {
                            t.wrong += 1;
                            if t.first_wrong.is_none() {
                                t.first_wrong = Some(format!(
                                    "{}: got {status} {}, expected {} {}",
                                    case.target,
                                    body.trim_end(),
                                    case.status,
                                    case.body
                                        .as_deref()
                                        .or(case.contains.as_deref())
                                        .unwrap_or("")
                                        .trim_end()
                                ));
                            }
                        }
                    }
                    Err(e) => {
                        t.server_errors += 1;
                        t.wrong += 1;
                        if t.first_wrong.is_none() {
                            t.first_wrong = Some(format!("{}: no answer: {e}", case.target));
                        }
                    }
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    let elapsed = started.elapsed();
    let mut t = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
    t.client.sort_by(f64::total_cmp);
    t.server.sort_by(f64::total_cmp);
    let requests = plan.requests;
    LoadReport {
        requests,
        wrong: t.wrong,
        server_errors: t.server_errors,
        statuses: t.statuses,
        first_wrong: t.first_wrong,
        elapsed,
        throughput: requests as f64 / elapsed.as_secs_f64().max(1e-9),
        client_ms: (percentile(&t.client, 50.0), percentile(&t.client, 99.0)),
        server_ms: (percentile(&t.server, 50.0), percentile(&t.server, 99.0)),
    }
}

/// One request and its answer, for tests and scripts: `GET target`, or `POST target` with a
/// JSON `body`. Returns the status and the body.
///
/// ```no_run
/// # async fn f(addr: std::net::SocketAddr) {
/// let (status, body) = serving::load::request(addr, "/api/games", None).await.unwrap();
/// assert_eq!(status, 200);
/// # }
/// ```
pub async fn request(
    addr: SocketAddr,
    target: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    let client: Client<_, http_body_util::Full<Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();
    let uri: hyper::Uri = format!("http://{addr}{target}").parse().map_err(|e| format!("{e}"))?;
    let (method, payload) = match body {
        Some(b) => (hyper::Method::POST, Bytes::from(b.to_string())),
        None => (hyper::Method::GET, Bytes::new()),
    };
    let req = hyper::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(http_body_util::Full::new(payload))
        .map_err(|e| format!("{e}"))?;
    let response = client.request(req).await.map_err(|e| format!("{e}"))?;
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.map_err(|e| format!("{e}"))?.to_bytes();
    Ok((status, String::from_utf8_lossy(&bytes).into_owned()))
}

/// One GET: its status, the server's reported time (ms) and the body.
async fn fetch(
    client: &Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>,
    addr: SocketAddr,
    target: &str,
) -> Result<(u16, Option<f64>, String), String> {
    let uri: hyper::Uri = format!("http://{addr}{target}").parse().map_err(|e| format!("{e}"))?;
    let response = client.get(uri).await.map_err(|e| format!("{e}"))?;
    let status = response.status().as_u16();
    let server_ms = response
        .headers()
        .get("server-timing")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split("dur=").nth(1))
        .and_then(|v| v.parse::<f64>().ok());
    let body = response.into_body().collect().await.map_err(|e| format!("{e}"))?.to_bytes();
    Ok((status, server_ms, String::from_utf8_lossy(&body).into_owned()))
}
