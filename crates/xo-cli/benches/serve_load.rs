//! The load bench of `xo serve` (issue #12's figures): a real server process on loopback and the
//! load client of `tests/serving/load.rs`, every answer checked (a faster wrong server fails).
//!
//! - one client, tic-tac-toe positions: warm (answers kept) and cold (`--cache-mib 0`, every
//!   request searched), beside the baseline of one `xo solve --json` process per position;
//! - 200 concurrent clients mixing good, bad and over-budget requests: throughput, p50/p99;
//! - the server's resident memory across repeated runs.
//!
//! Run: `cargo bench -p xo-cli --bench serve_load`.

#[path = "../tests/serving/mod.rs"]
mod serving;

use serving::load::{run, LoadPlan, LoadReport};
use serving::{mixed_cases, Server};
use std::time::Instant;

fn checked(server: &Server, plan: &LoadPlan) -> LoadReport {
    let report = server.block_on(run(server.addr, plan));
    assert_eq!(report.wrong, 0, "{:?}", report.first_wrong);
    assert_eq!(report.server_errors, 0);
    report
}

fn main() {
    let positions: Vec<_> =
        mixed_cases(200).into_iter().filter(|c| c.status == 200).collect::<Vec<_>>();
    let one = |requests| LoadPlan { requests, clients: 1, cases: positions.clone() };

    let warm = Server::start(&[]);
    checked(&warm, &one(positions.len())); // fills the answer cache
    let w = checked(&warm, &one(5000));
    println!("warm, 1 client:  {w}");

    let cold_server = Server::start(&["--cache-mib", "0"]);
    let c = checked(&cold_server, &one(2000));
    println!("cold, 1 client:  {c}");

    // The baseline: one `xo solve --json` process per position, as a script would run it.
    let mut times = Vec::new();
    for case in positions.iter().take(100) {
        let position = case.target.rsplit('=').next().unwrap();
        let started = Instant::now();
        let (out, code) = serving::xo(&["solve", "tictactoe", position, "--json"]);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(code, 0);
        assert_eq!(Some(out), case.body, "the command and the cases disagree");
    }
    times.sort_by(f64::total_cmp);
    let process_ms = times[times.len() / 2];
    println!(
        "baseline: one xo process per position p50 {process_ms:.3} ms; warm request p50 (client) {:.3} ms: {:.0}x faster; cold {:.3} ms: {:.0}x",
        w.client_ms.0,
        process_ms / w.client_ms.0,
        c.client_ms.0,
        process_ms / c.client_ms.0
    );

    let mixed = LoadPlan { requests: 20_000, clients: 200, cases: mixed_cases(200) };
    let mut rss = Vec::new();
    for round in 0..5 {
        let r = checked(&warm, &mixed);
        println!("mixed, 200 clients, round {round}: {r}");
        rss.push(warm.rss_kib());
    }
    println!("server resident memory after each round (KiB): {rss:?}");
}
