//! `xo serve`: starts the HTTP API and the web page (the `xo-server` crate) with the budgets,
//! pool and databases given on the command line.

use crate::budget::parse_seconds;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use xo_core::budget::Budget;
use xo_server::{Config, Database};

/// Arguments of `xo serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// A strong database folder (made by `xo solve GAME --strong --db DIR`) to answer its game
    /// from; may be repeated.
    #[arg(long, value_name = "DIR")]
    pub db: Vec<PathBuf>,
    /// An opening book made by `xo book` (gravity games); may be repeated.
    #[arg(long, value_name = "FILE")]
    pub book: Vec<PathBuf>,
    /// The most memory the loaded databases may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub db_memory_mib: u64,
    /// The most time one request may compute, in seconds (requests may ask for less).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub timeout: Duration,
    /// The most positions one request may visit.
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    pub max_nodes: u64,
    /// The most memory one request's tables may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=crate::budget::MAX_MEMORY_MIB))]
    pub memory_mib: u64,
    /// Requests computing at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub workers: Option<u64>,
    /// Requests allowed to wait for a worker; more are refused with 429.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub queue: usize,
    /// The most memory kept for answers to repeated questions, in MiB (0: keep none).
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(0..=crate::budget::MAX_MEMORY_MIB))]
    pub cache_mib: u64,
    /// Seconds a connection has to send a request's headers (idle connections are closed then).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub header_timeout: Duration,
    /// Seconds a request has, once its headers are in, to send its whole body (408 after).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub body_timeout: Duration,
    /// Connections open at once; beyond that, a new one closes the one that has waited longest
    /// for its client (headers, body or next request), or waits while every one computes.
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
}

/// Runs the server until Ctrl-C, printing `listening on http://ADDR` first.
pub fn run(args: &ServeArgs, out: &mut impl Write) -> Result<()> {
    let mut config = Config {
        budget: Budget {
            max_nodes: args.max_nodes,
            timeout: args.timeout,
            memory_bytes: args.memory_mib << 20,
        },
        queue: args.queue,
        cache_bytes: usize::try_from(args.cache_mib << 20).unwrap_or(usize::MAX),
        header_timeout: args.header_timeout,
        body_timeout: args.body_timeout,
        max_connections: args.max_connections as usize,
        ..Config::default()
    };
    if let Some(workers) = args.workers {
        config.workers = workers as usize;
    }
    let mut left = args.db_memory_mib.saturating_mul(1 << 20);
    for dir in &args.db {
        let db = Database::load(dir, left).with_context(|| format!("--db {}", dir.display()))?;
        left = left.saturating_sub(db.positions().saturating_mul(2));
        config.databases.push(Arc::new(db));
    }
    for path in &args.book {
        config
            .books
            .push(crate::book::load(path).with_context(|| format!("--book {}", path.display()))?);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr().context("cannot read the address listened on")?;
        writeln!(out, "xo serve: listening on http://{addr}")?;
        for db in &config.databases {
            writeln!(
                out,
                "xo serve: {} answered from {} ({} positions)",
                db.rules().name,
                db.folder().display(),
                db.positions()
            )?;
        }
        out.flush()?;
        xo_server::serve(listener, config).await.context("the server stopped")
    })
}
