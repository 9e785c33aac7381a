//! `xo serve`: starts the HTTP API and the web page (the `xo-server` crate) with the budgets,
//! pool and databases given on the command line; and `xo page`, the page's static copy.
//!
//! Both need the server crate (axum, hyper, tokio), behind the cargo feature `serve` (on by
//! default). Without it the arguments still parse, and [`run`] and [`page`] refuse, naming the
//! feature.

use crate::budget::parse_seconds;
#[cfg(feature = "serve")]
use anyhow::Context;
use anyhow::Result;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
#[cfg(feature = "serve")]
use {
    std::sync::Arc,
    xo_core::budget::Budget,
    xo_server::{Config, ServedDatabase},
};

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
    /// Consult no opening book, not even the one xo ships for connect4 (nor its stored .007
    /// values for Treblecross).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// The most memory the loaded databases may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub db_memory_mib: u64,
    /// The most time one request may compute, in seconds (requests may ask for less).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub timeout: Duration,
    /// The most positions one request may visit (at least 1).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
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
    /// Seconds a client has to take any of an answer sent to it (the connection is closed
    /// then, and the answer dropped).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub send_timeout: Duration,
    /// Connections open at once; beyond that, a new one closes the one that has waited longest
    /// for its client (headers, body or next request), or waits while every one computes.
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
}

/// Runs the server until Ctrl-C, printing `listening on http://ADDR` first.
#[cfg(feature = "serve")]
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
        send_timeout: args.send_timeout,
        max_connections: args.max_connections as usize,
        ..Config::default()
    };
    if let Some(workers) = args.workers {
        config.workers = workers as usize;
    }
    let mut left = args.db_memory_mib.saturating_mul(1 << 20);
    for (i, dir) in args.db.iter().enumerate() {
        // The same folder twice would be loaded twice and answer nothing more.
        let same = |a: &PathBuf, b: &PathBuf| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => a == b,
        };
        if let Some(earlier) = args.db[..i].iter().find(|d| same(d, dir)) {
            anyhow::bail!("--db {} is given twice (as {})", dir.display(), earlier.display());
        }
        let db =
            ServedDatabase::load(dir, left).with_context(|| format!("--db {}", dir.display()))?;
        // Only the first database of a game would ever answer.
        if let Some(other) = config.databases.iter().find(|d| d.rules() == db.rules()) {
            anyhow::bail!(
                "--db {} and --db {} both hold {}: give one",
                other.folder().display(),
                dir.display(),
                db.rules().name()
            );
        }
        left = left.saturating_sub(db.positions().saturating_mul(2));
        config.databases.push(Arc::new(db));
    }
    for path in &args.book {
        let book = crate::book::load(path).with_context(|| format!("--book {}", path.display()))?;
        // Only the first book of a board would ever be consulted.
        if config.books.iter().any(|b| b.game() == book.game()) {
            let (w, h, k) = book.game();
            anyhow::bail!(
                "--book {}: a book of connect:{w},{h},{k} is given already",
                path.display()
            );
        }
        config.books.push(book);
    }
    // The books xo ships join, for the boards no --book is of.
    config.books = xo_store::book::in_use(&config.books, args.no_book);
    config.sequences =
        xo_store::sequence::shipped_dot007().filter(|_| !args.no_book).into_iter().collect();
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
                db.rules().name(),
                db.folder().display(),
                db.positions()
            )?;
        }
        out.flush()?;
        xo_server::serve(listener, config).await.context("the server stopped")
    })
}

/// Refuses `xo serve`: this `xo` was built without the server.
#[cfg(not(feature = "serve"))]
pub fn run(_args: &ServeArgs, _out: &mut impl Write) -> Result<()> {
    Err(crate::built_without("serve"))
}

/// Writes the page's static copy into `dir` (created when missing), listing each file written.
#[cfg(feature = "serve")]
pub fn page(dir: &Path, out: &mut impl Write) -> Result<()> {
    let written = xo_server::page::write_static(dir)
        .with_context(|| format!("cannot write the page into {}", dir.display()))?;
    for path in written {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        writeln!(out, "{} ({bytes} bytes)", path.display())?;
    }
    writeln!(out, "serve the folder from any static file host; the page solves in the browser")?;
    Ok(())
}

/// Refuses `xo page`: the page ships in the server crate, which this `xo` was built without.
#[cfg(not(feature = "serve"))]
pub fn page(_dir: &Path, _out: &mut impl Write) -> Result<()> {
    Err(crate::built_without("serve"))
}
