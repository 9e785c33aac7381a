//! Connections, bounded whole: a request's body is read before any handler runs, within
//! [`Config::body_timeout`](crate::Config::body_timeout) and
//! [`Config::max_body`](crate::Config::max_body) (408 and 413 otherwise, and the connection is
//! closed), and when all [`Config::max_connections`](crate::Config::max_connections) are open, a
//! new connection takes the place of the one that has waited longest for its client (headers or
//! body still to come, or idle between requests). A connection is never evicted while its
//! request computes, so slow or stalled clients cannot hold the server's connections against
//! others; they only lose their own.

use crate::error::ApiError;
use axum::body::{Body, Bytes, HttpBody};
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use axum::response::IntoResponse;
use http_body_util::BodyExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// One open connection: since when it has waited for its client (`None` while its request
/// computes), and how to close it.
#[derive(Debug)]
struct Slot {
    waiting_since: Option<Instant>,
    evict: Arc<Notify>,
}

/// The open connections, for choosing which to close when a new one needs room.
///
/// ```
/// use xo_server::Connections;
/// let open = Connections::default();
/// let (a, _) = open.open();
/// let (b, _) = open.open();
/// open.working(a);
/// // Only the connection waiting for its client may be closed; then none is left to close.
/// assert_eq!(open.evict_longest_waiting(), Some(b));
/// assert_eq!(open.evict_longest_waiting(), None);
/// open.close(a);
/// open.close(b);
/// assert_eq!(open.len(), 0);
/// ```
#[derive(Debug, Default)]
pub struct Connections {
    slots: Mutex<HashMap<u64, Slot>>,
    next: AtomicU64,
    /// Signalled when a connection starts waiting for its client (it may be evicted now).
    waiting: Notify,
}

impl Connections {
    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Slot>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new connection, waiting for its first request; its id, and what is signalled
    /// when it is to be closed.
    pub fn open(&self) -> (u64, Arc<Notify>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let evict = Arc::new(Notify::new());
        let slot = Slot { waiting_since: Some(Instant::now()), evict: evict.clone() };
        self.slots().insert(id, slot);
        self.waiting.notify_one();
        (id, evict)
    }

    /// Connection `id` has its whole request and computes: it is not evicted.
    pub fn working(&self, id: u64) {
        if let Some(slot) = self.slots().get_mut(&id) {
            slot.waiting_since = None;
        }
    }

    /// Connection `id` waits for its client again (the next request's headers or body).
    pub fn waiting(&self, id: u64) {
        if let Some(slot) = self.slots().get_mut(&id) {
            slot.waiting_since = Some(Instant::now());
        }
        self.waiting.notify_one();
    }

    /// Connection `id` is closed.
    pub fn close(&self, id: u64) {
        self.slots().remove(&id);
    }

    /// Connections open.
    pub fn len(&self) -> usize {
        self.slots().len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Closes the connection that has waited longest for its client, if any waits; its id.
    pub fn evict_longest_waiting(&self) -> Option<u64> {
        let mut slots = self.slots();
        let (&id, _) = slots
            .iter()
            .filter_map(|(id, s)| Some((id, s.waiting_since?)))
            .min_by_key(|&(id, since)| (since, *id))?;
        let slot = slots.remove(&id)?;
        slot.evict.notify_one();
        Some(id)
    }

    /// Waits until some connection starts waiting for its client.
    pub async fn someone_waits(&self) {
        self.waiting.notified().await;
    }
}

/// Limits on what one request may send.
///
/// ```
/// use std::time::Duration;
/// let limits = xo_server::BodyLimits { max_body: 1 << 20, timeout: Duration::from_secs(10) };
/// assert_eq!(limits.max_body, 1 << 20);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// The largest body, in bytes.
    pub max_body: usize,
    /// The most time from the request's headers to the end of its body.
    pub timeout: Duration,
}

/// A refusal that also closes the connection (the rest of the body is never read).
fn closing(error: ApiError) -> Response<Body> {
    let mut response = error.into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Reads the whole body of `request` within `limits`: the request with its body in memory, or the
/// refusal to send (413 too large, 408 too slow, 400 unreadable). A body over the limit is read
/// on and dropped (up to sixteen times the limit, for at most half a second more) so that the
/// client, still sending, reads the 413 rather than a reset connection.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use std::time::Duration;
/// use xo_server::{read_body, BodyLimits};
/// let limits = BodyLimits { max_body: 4, timeout: Duration::from_secs(1) };
/// let small = axum::http::Request::new(axum::body::Body::from("{}"));
/// assert!(read_body(small, limits).await.is_ok());
/// let large = axum::http::Request::new(axum::body::Body::from("[1,2,3]"));
/// assert_eq!(read_body(large, limits).await.unwrap_err().status(), 413);
/// # });
/// ```
pub async fn read_body<B>(
    request: Request<B>,
    limits: BodyLimits,
) -> Result<Request<Body>, Response<Body>>
where
    B: HttpBody<Data = Bytes>,
    B::Error: std::fmt::Display,
{
    let deadline = tokio::time::Instant::now() + limits.timeout;
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let max = limits.max_body as u64;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {} bytes", limits.max_body),
        )
    };
    // Declared far beyond the limit: refused at once, the connection closed.
    if declared.is_some_and(|n| n > max.saturating_mul(DRAIN)) {
        return Err(closing(too_large()));
    }
    let mut body = std::pin::pin!(body);
    let (mut kept, mut read) = (Vec::new(), 0u64);
    // Once the body is past the limit it is drained only briefly: a client that stops sending
    // (a chunked body with no end in sight) gets its 413 now, not at the body timeout.
    let mut until = deadline;
    loop {
        let frame = match tokio::time::timeout_at(until, body.frame()).await {
            Ok(None) => break,
            Ok(Some(Ok(frame))) => frame,
            Ok(Some(Err(e))) => {
                let message = format!("the request body cannot be read: {e}");
                return Err(closing(ApiError::bad_request(message)));
            }
            Err(_) if read > max => return Err(closing(too_large())),
            Err(_) => {
                return Err(closing(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request body did not arrive within {} s (xo serve --body-timeout)",
                        limits.timeout.as_secs_f64()
                    ),
                )))
            }
        };
        let Ok(data) = frame.into_data() else { continue };
        read = read.saturating_add(data.len() as u64);
        if read > max.saturating_mul(DRAIN) {
            return Err(closing(too_large()));
        }
        if read <= max {
            kept.extend_from_slice(&data);
        } else if until == deadline {
            until = deadline.min(tokio::time::Instant::now() + DRAIN_GRACE);
        }
    }
    if read > max {
        // The whole body was read: the connection may serve the next request.
        return Err(too_large().into_response());
    }
    Ok(Request::from_parts(parts, Body::from(kept)))
}

/// How many times the body limit a body over it is read on (and dropped) for.
const DRAIN: u64 = 16;
/// How long a body over the limit is read on (and dropped) for, at most.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
