//! The bounded pool CPU work runs on. Solving is blocking work: it runs on tokio's blocking
//! threads, at most `workers` at once, so the async threads keep accepting and answering other
//! requests (bad ones, the page, database lookups) however slow one position is. Requests beyond
//! the workers wait, at most `queue` of them, and their wait counts against their own time
//! budget. A request whose client goes away cancels its meter, so its engine stops at its next
//! check instead of computing for nobody.

use crate::error::ApiError;
use axum::http::StatusCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::Semaphore;
use xo_core::budget::{Meter, Stopped};

/// Workers and the queue in front of them.
#[derive(Debug)]
pub struct Pool {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    queue: usize,
}

/// Cancels the meter of a request dropped before its work ended (its client went away).
struct CancelOnDrop(Option<Meter>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(meter) = self.0.take() {
            meter.cancel();
        }
    }
}

/// Counts a waiting request for as long as it waits.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool of `workers` (at least one) with `queue` places to wait.
    pub fn new(workers: usize, queue: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            waiting: AtomicUsize::new(0),
            queue,
        }
    }

    /// Runs `work` on a worker within `meter`: `Err` (429) when the queue is full, `Ok(Err)`
    /// when the time budget ran out while waiting or the work stopped at a budget.
    pub async fn run<T: Send + 'static>(
        &self,
        meter: &Meter,
        work: impl FnOnce(&Meter) -> Result<T, Stopped> + Send + 'static,
    ) -> Result<Result<T, Stopped>, ApiError> {
        let permit = {
            if self.waiting.fetch_add(1, Ordering::Relaxed) >= self.queue {
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "the server is busy: {} waiting; try again",
                        match self.queue {
                            1 => "1 request is".to_string(),
                            n => format!("{n} requests are"),
                        }
                    ),
                ));
            }
            let _waiting = Waiting(&self.waiting);
            let left = meter.budget().timeout.saturating_sub(meter.elapsed());
            match tokio::time::timeout(left, self.permits.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                _ => {
                    let stopped = meter.halt(xo_core::budget::Limit::Time);
                    return Ok(Err(stopped.reaching("waiting for a free worker")));
                }
            }
        };
        let mut guard = CancelOnDrop(Some(meter.clone()));
        let worker_meter = meter.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&worker_meter)
        })
        .await;
        guard.0 = None;
        result.map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the work failed: {e}"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits until `ready(pool)` holds, polling every millisecond; panics naming `what` after 10 s.
    async fn until(pool: &Pool, what: &str, ready: impl Fn(&Pool) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !ready(pool) {
            assert!(std::time::Instant::now() < deadline, "waited 10 s for {what}, in vain");
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    /// A full queue is refused with 429, its size in words ("1 request is", not "1 requests").
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_queue_says_how_many_wait() {
        let pool = Arc::new(Pool::new(1, 1));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let busy = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(&Meter::default(), move |_| {
                    let _ = rx.recv();
                    Ok(())
                })
                .await
            })
        };
        // The only worker taken (and its taker no longer counted as waiting), then the only
        // place in the queue.
        until(&pool, "the worker taken", |p| {
            p.permits.available_permits() == 0 && p.waiting.load(Ordering::Relaxed) == 0
        })
        .await;
        let waiting = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.run(&Meter::default(), |_| Ok(())).await })
        };
        until(&pool, "a request waiting", |p| p.waiting.load(Ordering::Relaxed) == 1).await;
        let refused = pool.run(&Meter::default(), |_| Ok(())).await.unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.message, "the server is busy: 1 request is waiting; try again");
        tx.send(()).unwrap();
        busy.await.unwrap().unwrap().unwrap();
        waiting.await.unwrap().unwrap().unwrap();
        let none = Pool::new(1, 0).run(&Meter::default(), |_| Ok(())).await.unwrap_err();
        assert_eq!(none.message, "the server is busy: 0 requests are waiting; try again");
    }
}
