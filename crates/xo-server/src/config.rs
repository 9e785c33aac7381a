//! How a server answers ([`Config`]), in a file of its own so that the handlers take it from here
//! rather than from the crate root, which builds the routes over them.

use crate::database::ServedDatabase;
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
    pub databases: Vec<Arc<ServedDatabase>>,
    /// Opening books for the gravity games they are of.
    pub books: Vec<Arc<xo_core::solve::book::Book>>,
    /// Stored nim-sequences for the games whose positions they value (xo's .007, for
    /// Treblecross, unless `--no-book`).
    pub sequences: Vec<Arc<xo_core::solve::grundy::StoredSequence>>,
    /// The most bytes of answers kept for repeated questions (0: keep none).
    pub cache_bytes: usize,
    /// The time a connection has to send a request's headers (idle keep-alive connections
    /// included).
    pub header_timeout: Duration,
    /// The time a request has, once its headers are in, to send its whole body (408 after).
    pub body_timeout: Duration,
    /// Connections open at once; when all are open, a new one takes the place of the one that
    /// has waited longest for its client.
    pub max_connections: usize,
    /// The time a client has to take any of the bytes sent to it (the connection is closed
    /// after, and what it was being sent dropped).
    pub send_timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget {
                max_nodes: 1_000_000_000,
                timeout: Duration::from_secs(10),
                memory_bytes: 256 << 20,
            },
            workers: xo_core::threads::cores(),
            queue: 1024,
            max_uri: 16 << 10,
            max_body: 1 << 20,
            databases: Vec::new(),
            books: Vec::new(),
            sequences: Vec::new(),
            cache_bytes: 64 << 20,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 4096,
            send_timeout: Duration::from_secs(10),
        }
    }
}
