//! A real `xo serve` process on a free loopback port, for the API and load tests, killed when
//! dropped; and a blocking way to send it one request. [`load`] is the HTTP client they share.

#![allow(dead_code)]

pub mod load;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub child: Child,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Starts `xo serve --addr 127.0.0.1:0 ARGS` and waits for the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xo"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("xo serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("xo serve prints its address");
        let addr = line
            .trim()
            .strip_prefix("xo serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .parse()
            .expect("an address");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        Server { addr, child, runtime }
    }

    /// `GET target`: status and body.
    pub fn get(&self, target: &str) -> (u16, String) {
        self.runtime
            .block_on(load::request(self.addr, target, None))
            .unwrap_or_else(|e| panic!("GET {target}: {e}"))
    }

    /// `POST target` with a JSON body: status and body.
    pub fn post(&self, target: &str, body: &str) -> (u16, String) {
        self.runtime
            .block_on(load::request(self.addr, target, Some(body)))
            .unwrap_or_else(|e| panic!("POST {target}: {e}"))
    }

    /// Runs a future on the test's runtime.
    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.runtime.block_on(f)
    }

    /// The CPU time the server process has used so far (user and system), in clock ticks
    /// (hundredths of a second on Linux): it grows while a request computes, and barely when idle.
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("the server's /proc stat");
        // After the command name in parentheses: state (field 3), ..., utime (14), stime (15).
        let fields: Vec<&str> =
            stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
    }

    /// The server process's resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .expect("VmRSS")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `xo ARGS` prints on standard output, and its exit status.
pub fn xo(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_xo")).args(args).output().expect("xo runs");
    (String::from_utf8(out.stdout).expect("UTF-8"), out.status.code().unwrap_or(-1))
}

/// `text` percent-encoded for a query string.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A mixed load's requests: tic-tac-toe positions reached by seeded random play (their exact
/// bodies computed by the core here), bad requests (400) and over-budget ones (422, or
/// for Connect Four the exact answer once a kept table lets it finish).
pub fn mixed_cases(positions: usize) -> Vec<load::LoadCase> {
    use rand::{Rng, SeedableRng};
    use xo_core::budget::Meter;
    use xo_core::query::{answer, Game, Question};
    use xo_core::request::Request;
    use xo_core::threads::Runner;
    let analysis = Question::Analysis { winning_only: false };
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let mut cases = Vec::new();
    while cases.len() < positions {
        let plies = rng.random_range(0..9);
        let mut cells = ['.'; 9];
        for ply in 0..plies {
            let empty: Vec<usize> = (0..9).filter(|&i| cells[i] == '.').collect();
            cells[empty[rng.random_range(0..empty.len())]] = if ply % 2 == 0 { 'X' } else { 'O' };
        }
        let text: String = cells.iter().collect();
        let Ok(query) =
            Request::new("tictactoe").at(&text).asking(analysis).prepare(&[], Runner::Pool)
        else {
            continue; // a move after a line: not a position
        };
        let report = answer(&query, &Meter::default()).expect("tic-tac-toe answers");
        let body = serde_json::to_string(&report).unwrap() + "\n";
        cases.push(load::LoadCase {
            target: format!("/api/solve?game=tictactoe&position={text}"),
            status: 200,
            body: Some(body),
            contains: None,
            also: None,
        });
    }
    let bad = [
        ("/api/solve?game=chess", "unknown game"),
        ("/api/solve?game=tictactoe&position=XXXXXXXXXXXX", "cells"),
        ("/api/solve?game=tictactoe&positon=X", "no parameter"),
        ("/api/check?game=tictactoe", "missing parameter"),
    ];
    for (target, words) in bad {
        cases.push(load::LoadCase {
            target: target.to_string(),
            status: 400,
            body: None,
            contains: Some(words.to_string()),
            also: None,
        });
    }
    // A Connect Four position of 11 stones, past the shipped book (10 stones): searched,
    // over the budget, unless the table kept from earlier requests lets it finish; then its
    // answer must be the exact one.
    let columns = "47744635572";
    let c4 = Game::parse("connect4").expect("a built-in game");
    let exact = Request::for_game(&c4)
        .columns(columns)
        .asking(analysis)
        .prepare(&[], Runner::Pool)
        .expect("a position");
    let report = answer(&exact, &Meter::default()).expect("an 11-stone position answers");
    cases.push(load::LoadCase {
        target: format!("/api/solve?game=connect4&moves={columns}&max_nodes=1000"),
        status: 422,
        body: None,
        contains: Some("\"value\":\"unknown\"".to_string()),
        also: Some((200, serde_json::to_string(&report).unwrap() + "\n")),
    });
    cases
}
