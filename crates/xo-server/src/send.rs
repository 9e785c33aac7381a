//! What the server sends is bounded, as what it computes is. An answer's JSON body is counted
//! against its request's memory budget before it is written (with the answer's own values, so
//! the two together fit); the bodies on their way to clients together against the server's
//! total (its workers times a request's memory), held until each is sent or its connection
//! closes; and every write to a client against a send timeout, so a client that does not read
//! cannot keep a body (or its connection) in memory.

use crate::error::ApiError;
use axum::body::Body;
use axum::body::Bytes;
use axum::http::StatusCode;
use hyper::body::Frame;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use xo_core::budget::{Meter, Stopped};
use xo_core::query::Answer;
use xo_core::solve::grundy::Grundy;

/// Why an answer was not rendered: a budget (422, as the answer's own work), or another fault.
#[derive(Debug)]
pub(crate) enum RenderError {
    /// The body and the answer's values would not fit in the request's memory budget.
    Stopped(Stopped),
    /// Anything else (a fault of the server).
    Failed(ApiError),
}

/// `answer` as one line of JSON, within `meter`'s memory budget: its length is counted first
/// and reserved with the bytes of the answer's values, then the text is written into a buffer
/// of exactly that size.
pub(crate) fn render(answer: &Answer, meter: &Meter) -> Result<String, RenderError> {
    let failed = |e: serde_json::Error| {
        RenderError::Failed(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write JSON: {e}"),
        ))
    };
    let mut counted = Counter(0);
    serde_json::to_writer(&mut counted, answer).map_err(failed)?;
    let length = counted.0 + 1;
    let values = match answer {
        Answer::Sequence(s) => s.values.len() as u64 * std::mem::size_of::<Grundy>() as u64,
        _ => 0,
    };
    let _held = meter.reserve(values.saturating_add(length)).map_err(|s| {
        RenderError::Stopped(s.reaching(format!("an answer of {length} bytes of JSON")))
    })?;
    let mut body = Vec::new();
    body.try_reserve_exact(length as usize).map_err(|e| {
        RenderError::Failed(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no memory for an answer of {length} bytes: {e}"),
        ))
    })?;
    serde_json::to_writer(&mut body, answer).map_err(failed)?;
    body.push(b'\n');
    // serde_json writes UTF-8 only.
    String::from_utf8(body).map_err(|e| {
        RenderError::Failed(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    })
}

/// Counts the bytes written to it.
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bytes of the bodies on their way to clients, at most a total (in KiB).
#[derive(Debug)]
pub(crate) struct InFlight {
    kib: Arc<Semaphore>,
    total_kib: usize,
}

impl InFlight {
    /// Room for `total_bytes` of bodies at once.
    pub fn new(total_bytes: u64) -> InFlight {
        let total_kib = usize::try_from(total_bytes / 1024)
            .unwrap_or(usize::MAX)
            .clamp(1, Semaphore::MAX_PERMITS);
        InFlight { kib: Arc::new(Semaphore::new(total_kib)), total_kib }
    }

    /// `body` as a response body holding its room until it is sent (or dropped with its
    /// connection); 503 when the bodies already on their way leave no room for it.
    pub fn hold(&self, body: String) -> Result<Body, ApiError> {
        let kib = body.len().div_ceil(1024).max(1);
        let room = u32::try_from(kib)
            .ok()
            .filter(|&k| k as usize <= self.total_kib)
            .and_then(|k| self.kib.clone().try_acquire_many_owned(k).ok());
        let Some(room) = room else {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is sending other large answers ({} KiB on their way, at most {} KiB with this one of {kib} KiB); try again",
                    self.total_kib - self.kib.available_permits(),
                    self.total_kib
                ),
            ));
        };
        Ok(Body::new(Held { data: Some(Bytes::from(body)), _room: room }))
    }
}

/// A body of one piece that holds its room in [`InFlight`] for as long as it lives.
struct Held {
    data: Option<Bytes>,
    _room: OwnedSemaphorePermit,
}

impl hyper::body::Body for Held {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Poll::Ready(self.data.take().map(|d| Ok(Frame::data(d))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        hyper::body::SizeHint::with_exact(self.data.as_ref().map_or(0, |d| d.len() as u64))
    }
}

/// A connection whose writes fail (and so close it) when the client has not taken any of the
/// bytes waiting for it within `timeout`.
pub(crate) struct SendTimeout<T> {
    inner: T,
    timeout: Duration,
    /// Set while a write waits for the client.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> SendTimeout<T> {
    /// `inner` with writes bounded by `timeout`.
    pub fn new(inner: T, timeout: Duration) -> Self {
        SendTimeout { inner, timeout, deadline: None }
    }

    /// A write's outcome under the timeout: progress stops the clock; `Pending` starts it if it
    /// is not running, and fails once it has run out.
    fn timed<R>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<std::io::Result<R>>,
    ) -> Poll<std::io::Result<R>> {
        if polled.is_pending() {
            return self.waited(cx);
        }
        self.deadline = None;
        polled
    }

    /// `Pending` from the connection: starts the clock if it is not running, and fails once it
    /// has run out.
    fn waited<R>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<R>> {
        let timeout = self.timeout;
        let deadline = self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the client took nothing for {} s", timeout.as_secs_f64()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

use std::future::Future;

impl<T: hyper::rt::Read + Unpin> hyper::rt::Read for SendTimeout<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: hyper::rt::Write + Unpin> hyper::rt::Write for SendTimeout<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.timed(cx, polled)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(cx);
        self.timed(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.timed(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies hold their room until dropped; one that does not fit beside them gets 503, and
    /// one larger than the total never fits.
    #[test]
    fn bodies_on_their_way_stay_within_the_total() {
        let in_flight = InFlight::new(10 << 10);
        let first = in_flight.hold("x".repeat(8 << 10)).unwrap();
        let refused = in_flight.hold("y".repeat(4 << 10)).unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            refused.message.contains("8 KiB on their way, at most 10 KiB"),
            "{}",
            refused.message
        );
        drop(first);
        let second = in_flight.hold("y".repeat(4 << 10)).unwrap();
        assert!(in_flight.hold("z".repeat(11 << 10)).is_err());
        drop(second);
        assert_eq!(in_flight.kib.available_permits(), 10);
    }

    /// The rendered body is the answer's JSON and a newline; beyond the memory budget, the
    /// budget's report names the JSON's size.
    #[test]
    fn rendering_counts_the_body_and_the_values() {
        use xo_core::budget::{Budget, Limit};
        use xo_core::query::{answer, Question};
        use xo_core::request::Request;
        let q = Request::new("kayles").asking(Question::Grundy { upto: 1000 });
        let q = q.prepare(&[], xo_core::threads::Runner::Pool).unwrap();
        let answer = answer(&q, &Meter::default()).unwrap();
        let body = render(&answer, &Meter::default()).unwrap();
        assert_eq!(body, serde_json::to_string(&answer).unwrap() + "\n");
        // The values take 4,004 bytes: with the JSON they do not fit in 5,000.
        let small = Meter::new(Budget::default().with_memory(5000));
        match render(&answer, &small) {
            Err(RenderError::Stopped(s)) => {
                assert_eq!(s.limit, Limit::Memory);
                assert!(
                    s.reached.contains(&format!("{} bytes of JSON", body.len())),
                    "{}",
                    s.reached
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
