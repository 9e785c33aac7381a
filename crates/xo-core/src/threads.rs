//! The one thread policy every front end obeys: how many threads a job may use, decided here
//! and nowhere else. A request may ask for any number; it gets at most the cores this process
//! may run on (more threads than cores only take turns on them), at least one, and the front
//! end's default when it asks for nothing, by who runs it ([`Runner`]: the command, alone,
//! every core; the server's requests, which already share a pool of workers, one).

/// Who runs a job, which decides its threads when it asks for none.
///
/// ```
/// use xo_core::threads::{cores, Runner};
/// assert_eq!(Runner::Alone.default_threads(), cores());
/// assert_eq!(Runner::Pool.default_threads(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// A job running alone (the command, a Python call, the page's worker): every core.
    Alone,
    /// One of many jobs running at once (the server's requests, Python's `solve_many`): one.
    Pool,
}

impl Runner {
    /// The threads a job gets when it asks for none.
    pub fn default_threads(self) -> usize {
        match self {
            Runner::Alone => cores(),
            Runner::Pool => 1,
        }
    }
}

/// The cores this process may run on (at least 1), read once: the system's answer reads the
/// affinity mask and the cgroup's quota files (tens of microseconds), and every request asks.
///
/// ```
/// assert!(xo_core::threads::cores() >= 1);
/// ```
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The threads a job gets: `requested` (or `default` when `None`), clamped to between 1 and
/// [`cores`].
///
/// ```
/// use xo_core::threads::{allowed, cores};
/// assert_eq!(allowed(Some(1), 8), 1);
/// assert_eq!(allowed(Some(10_000), 1), cores());
/// assert_eq!(allowed(None, usize::MAX), cores());
/// assert_eq!(allowed(Some(0), 4), 1);
/// ```
pub fn allowed(requested: Option<usize>, default: usize) -> usize {
    requested.unwrap_or(default).clamp(1, cores())
}

/// The threads each of `processes` processes sharing this machine (the ranks of an MPI job on
/// one node) gets: every core it may run on when the launcher bound it to fewer cores than the
/// machine has (`mpirun`'s default binding, SLURM's `--cpus-per-task`), else its share of them
/// (at least one), so that two processes on two cores run two threads, not four.
///
/// ```
/// use xo_core::threads::{cores, shared_by};
/// assert_eq!(shared_by(1), cores());
/// assert!(shared_by(usize::MAX) >= 1);
/// assert!(shared_by(2) <= cores());
/// ```
pub fn shared_by(processes: usize) -> usize {
    let allowed = cores();
    if allowed < online_cores().unwrap_or(allowed) {
        allowed
    } else {
        (allowed / processes.max(1)).max(1)
    }
}

/// The machine's online cores (Linux: `/sys/devices/system/cpu/online`, e.g. `0-3,8`).
fn online_cores() -> Option<usize> {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/online").ok()?;
    text.trim()
        .split(',')
        .map(|part| match part.split_once('-') {
            Some((a, b)) => Some(b.parse::<usize>().ok()? + 1 - a.parse::<usize>().ok()?),
            None => part.parse::<usize>().ok().map(|_| 1),
        })
        .sum()
}

/// Runs `job` with the engines' parallel loops (rayon) on `threads` threads: a pool of its own
/// when `threads` differs from the global pool's size, so a job asked to use one thread uses
/// one, whatever the machine. Where no thread can be started (WebAssembly), `job` runs on the
/// caller's thread with the global pool, as before.
///
/// ```
/// let (inside, answer) = xo_core::threads::run_on(1, || (rayon::current_num_threads(), 6 * 7));
/// assert_eq!((inside, answer), (1, 42));
/// ```
pub fn run_on<T: Send>(threads: usize, job: impl FnOnce() -> T + Send) -> T {
    let threads = threads.max(1);
    if threads == rayon::current_num_threads() {
        return job();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(job),
        Err(_) => job(),
    }
}
