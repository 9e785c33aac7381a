//! The one thread policy every front end obeys: how many threads a job may use, decided here
//! and nowhere else. A request may ask for any number; it gets at most the cores this process
//! may run on (more threads than cores only take turns on them), at least one, and the front
//! end's default when it asks for nothing (the CLI: every core; the server: one, since its
//! requests already share a pool of workers).

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
