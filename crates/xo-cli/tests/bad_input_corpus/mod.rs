//! A corpus of bad, hostile and over-budget inputs for every subcommand, run against the real
//! binary. Each case is a small file, `tests/bad_input/NAME.json` (its keys: [`cases::KEYS`]),
//! naming its arguments (and standard input), the exit status the CLI contract promises, and a
//! substring of the message (stderr) or of the answer (stdout); this module is the one
//! runner:
//!
//! - 0 answered; 1 `check` says unreachable;
//! - 2 bad input: exactly one line on stderr starting `xo: ` that names what is wrong and where,
//!   no panic or backtrace, and nothing on stdout that looks like an answer (the streaming modes,
//!   `batch` and `--lines`, may have answered the lines before the bad one);
//! - 3 stopped at a budget: one line on stderr naming the budget and the flag that raises it; with
//!   `--json`, stdout is one JSON object with a "reason" (and `"value":"unknown"` for `solve`).
//!
//! Every run is time-boxed: a child still running at its limit is killed and the case fails.
//!
//! By concern: [`cases`] (what a case is, and reading the case files), [`named`] (the inputs and
//! further checks a case file names), [`runner`] (running the binary and checking the contract),
//! [`hostile`] (closed pipes and a full disk); the corpus's tests, by subcommand, are here.

mod cases;
mod hostile;
mod named;
mod runner;

use cases::corpus;
use runner::{run_cases, run_group};

#[test]
fn corpus_is_well_formed() {
    assert!(corpus().len() >= 60, "{} cases", corpus().len());
    let mut names: Vec<&str> = corpus().iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), corpus().len(), "case names are unique");
    for sub in ["solve", "count", "check", "play", "moves", "batch", "grundy", "serve", "book"] {
        assert!(corpus().iter().any(|c| c.args.first() == Some(&sub)), "no case for {sub}");
    }
}

#[test]
fn corpus_solve() {
    run_group(&["solve"]);
}

/// The slow group: cases that take minutes in the test profile on two cores (`.ci/run` runs it
/// with `cargo test --workspace --tests -- --ignored`).
#[test]
#[ignore = "slow: cases that take minutes in the test profile"]
fn corpus_slow() {
    run_cases(corpus().iter().filter(|c| c.slow).collect());
}

#[test]
fn corpus_count_check_play() {
    run_group(&["count", "check", "play", "moves"]);
}

/// (`serve`'s cases name the server's own refusals: run when it is built, feature `serve`.)
#[test]
fn corpus_batch_grundy_serve_and_usage() {
    if cfg!(feature = "serve") {
        run_group(&["batch", "grundy", "serve", "book", "frobnicate"]);
    } else {
        run_group(&["batch", "grundy", "book", "frobnicate"]);
    }
}
