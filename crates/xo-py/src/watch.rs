//! Running a job off the interpreter's thread, so that Ctrl-C stops it.
//!
//! CPython runs signal handlers only on its main thread, and only between bytecodes: a search
//! that holds the calling thread inside Rust would never see Ctrl-C. So every job runs on a
//! worker thread, and the calling thread, with the GIL released, waits for its answer in slices
//! of [`SLICE`], taking the GIL between slices to ask Python whether a signal came in
//! (`check_signals`, which runs the handler: `KeyboardInterrupt` for SIGINT). When one did, the
//! job's [`Meter`] is cancelled, so the engine stops at its next check, and the handler's
//! exception is returned at once; the worker finishes unwinding on its own.
//!
//! Most questions are answered in microseconds, and handing one to a worker costs a few
//! microseconds more than the answer: so a question is first tried on the calling thread, the
//! GIL released, within [`PROBE`] of its time budget ([`answer`]); only a job still running
//! then goes to a worker, asked again from the start, its clock counting the try (the engines
//! are deterministic: the answer is the one a single run gives). Ctrl-C during the try is seen
//! when it ends, at most [`PROBE`] later.
//!
//! Workers are kept between jobs (spawning a thread costs tens of microseconds on a loaded
//! machine, the hand-over to a waiting one a few), one per job running at once: a second Python
//! thread asking while the first job runs gets a second worker.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;
use xo_core::budget::{Budget, Limit, Meter, Stopped};
use xo_core::query::Answer;

/// How long a question runs on the calling thread before it is handed to a watched worker.
pub const PROBE: Duration = Duration::from_millis(10);

/// How long the calling thread waits for an answer before it looks for signals again.
const SLICE: Duration = Duration::from_millis(20);

/// A job for a worker: it sends its own result back.
type WorkerTask = Box<dyn FnOnce() + Send>;

/// Workers waiting for a job, each by the sender of its job queue.
static IDLE: Mutex<Vec<Sender<WorkerTask>>> = Mutex::new(Vec::new());

/// An idle worker, or a new one.
fn worker() -> PyResult<Sender<WorkerTask>> {
    if let Some(worker) = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop() {
        return Ok(worker);
    }
    let (jobs, queue) = mpsc::channel::<WorkerTask>();
    std::thread::Builder::new()
        .name("xo-worker".into())
        .spawn(move || {
            // Ends when the caller drops the sender (a job interrupted, or the pool's end).
            for job in queue {
                job();
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("xo: cannot start a worker thread: {e}")))?;
    Ok(jobs)
}

/// Runs `job` on a worker while this thread watches for signals; on one, cancels `meter` and
/// returns the signal handler's exception (`KeyboardInterrupt` for Ctrl-C).
pub fn run<T: Send + 'static>(
    py: Python<'_>,
    meter: &Meter,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let worker = worker()?;
    let (done, answer) = mpsc::sync_channel(1);
    let job: WorkerTask = Box::new(move || {
        // A panic is a bug; it is reported to the caller, and the worker lives on.
        let result = catch_unwind(AssertUnwindSafe(job)).map_err(|panic| {
            panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into())
        });
        let _ = done.send(result);
    });
    if worker.send(job).is_err() {
        return Err(PyRuntimeError::new_err("xo: a worker thread ended"));
    }
    let mut answer = answer;
    loop {
        // The receiver goes along to the wait (a receiver may move between threads, not be
        // shared by them) and comes back with what it got.
        let (got, back) = py.detach(move || (answer.recv_timeout(SLICE), answer));
        answer = back;
        match got {
            Ok(result) => {
                IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(worker);
                return result.map_err(|panic| {
                    PyRuntimeError::new_err(format!("xo: internal error (please report): {panic}"))
                });
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupted) = py.check_signals() {
                    // The worker stops at the engine's next check and is then dropped with its
                    // queue.
                    meter.cancel();
                    return Err(interrupted);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("xo: a worker thread ended"));
            }
        }
    }
}

/// Answers with `job` (an engine run within the meter it is given) within `budget`: first on
/// the calling thread within [`PROBE`], then, if the try stopped only because of that, from the
/// start on a worker while this thread watches for Ctrl-C, its clock counting the try.
pub fn answer(
    py: Python<'_>,
    budget: Budget,
    job: impl Fn(&Meter) -> Result<Answer, Stopped> + Send + Sync + 'static,
) -> PyResult<Result<Answer, Stopped>> {
    let started = Instant::now();
    if budget.timeout > PROBE {
        let tried = py.detach(|| job(&Meter::new(budget.with_timeout(PROBE))));
        let stopped = match &tried {
            Ok(answer) => answer.stopped(),
            Err(stopped) => Some(stopped),
        };
        if stopped.is_none_or(|s| s.limit != Limit::Time) {
            return Ok(tried);
        }
    }
    let meter = Meter::started_at(budget, started);
    let watched = meter.clone();
    run(py, &watched, move || job(&meter))
}
