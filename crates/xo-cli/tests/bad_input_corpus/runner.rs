//! Running the binary on a case, time-boxed, and checking everything the CLI contract says about
//! the run: the exit status, the one message, the answer, the further checks.

use super::cases::{corpus, Case, Expect::*, Input};
use std::process::Command;
use std::time::Duration;
use xo_test_support::bin::{self, clip, Feed, Run};

pub fn command(args: &[&str]) -> Command {
    bin::command(env!("CARGO_BIN_EXE_xo"), args)
}

/// Runs `xo args...` with `input`, reading and writing on their own threads so that neither large
/// inputs nor large outputs can deadlock; `Err` if it outlives `limit` (it is killed).
fn run(args: &[&str], input: Option<Vec<u8>>, limit: Duration) -> Result<Run, String> {
    run_fed(args, input.map(|bytes| (bytes, Vec::new())), limit)
}

/// Runs `xo args...` as [`run`] does, its standard input the first bytes of `input` and then its
/// second bytes over and over (when not empty) until xo stops reading.
fn run_fed(
    args: &[&str],
    input: Option<(Vec<u8>, Vec<u8>)>,
    limit: Duration,
) -> Result<Run, String> {
    let feed = match input {
        None => Feed::Closed,
        Some((first, again)) if again.is_empty() => Feed::Bytes(first),
        Some((first, again)) => Feed::Repeat(first, again),
    };
    bin::run_within(command(args), feed, limit)
}

/// Checks the one-message rule shared by exit statuses 2 and 3.
fn one_message(run: &Run, needle: &str) -> Result<(), String> {
    let err = &run.stderr;
    if err.lines().count() != 1 || !err.ends_with('\n') {
        return Err(format!("stderr should be exactly one line, got {:?}", clip(err)));
    }
    if !err.starts_with("xo: ") {
        return Err(format!("stderr should start with \"xo: \", got {:?}", clip(err)));
    }
    if !err.contains(needle) {
        return Err(format!("stderr should mention {needle:?}, got {:?}", clip(err)));
    }
    // The message names the problem; it does not echo megabytes of input back.
    if err.len() > 1024 {
        return Err(format!("a {}-byte message: {:?}", err.len(), clip(err)));
    }
    Ok(())
}

fn check_stopped(case: &Case, run: &Run, flag: &str) -> Result<(), String> {
    one_message(run, flag)?;
    if !run.stderr.contains("budget") {
        return Err(format!("stderr should name the budget: {:?}", clip(&run.stderr)));
    }
    if case.args.contains(&"--json") {
        let j: serde_json::Value = serde_json::from_slice(&run.stdout).map_err(|e| {
            format!("stdout should be one JSON object ({e}): {:?}", clip(&run.stdout_text()))
        })?;
        if case.args[0] == "solve" && j["value"] != "unknown" {
            return Err(format!("a stopped solve has \"value\":\"unknown\", got {}", j["value"]));
        }
        if !j["reason"].as_str().is_some_and(|r| r.contains("budget")) {
            return Err(format!("the JSON should give the reason: {}", clip(&j.to_string())));
        }
    }
    Ok(())
}

fn expect_code(run: &Run, code: i32) -> Result<(), String> {
    if run.status.code() == Some(code) {
        return Ok(());
    }
    Err(format!(
        "exit status {code} expected, got {:?}; stderr {:?}; stdout {:?}",
        run.status,
        clip(&run.stderr),
        clip(&run.stdout_text())
    ))
}

/// Runs one case and checks everything the contract says about it.
fn check_case(case: &Case) -> Result<Duration, String> {
    let (input, again) = match case.input {
        Input::None => (None, Vec::new()),
        Input::Bytes(b) => (Some(b.to_vec()), Vec::new()),
        Input::Made(make) => (Some(make()), Vec::new()),
        Input::Yes(first, line) => (Some(first.to_vec()), line.to_vec()),
    };
    let run = run_fed(case.args, input.clone().map(|i| (i, again)), case.limit)?;
    if run.stderr.contains("panicked") || run.stderr.contains("backtrace") {
        return Err(format!("panicked: {:?}", clip(&run.stderr)));
    }
    match case.expect {
        Answer(needle) | Exactly(needle) | Unreachable(needle) => {
            expect_code(&run, if matches!(case.expect, Unreachable(_)) { 1 } else { 0 })?;
            if !run.stderr.is_empty() {
                return Err(format!("unexpected stderr {:?}", clip(&run.stderr)));
            }
            let out = run.stdout_text();
            let ok = match case.expect {
                Exactly(want) => out == want,
                _ => out.contains(needle),
            };
            if !ok {
                return Err(format!("stdout should contain {needle:?}, got {:?}", clip(&out)));
            }
        }
        Bad(needle) => {
            expect_code(&run, 2)?;
            one_message(&run, needle)?;
            if !run.stdout.is_empty() {
                return Err(format!("bad input, yet stdout {:?}", clip(&run.stdout_text())));
            }
        }
        BadAfterAnswers(needle, answers) => {
            expect_code(&run, 2)?;
            one_message(&run, needle)?;
            if !answers.as_bytes().starts_with(&run.stdout) {
                return Err(format!(
                    "stdout {:?} is not a prefix of the answers {answers:?}",
                    clip(&run.stdout_text())
                ));
            }
        }
        BadAfter(needle, good_lines) => {
            expect_code(&run, 2)?;
            one_message(&run, needle)?;
            let input = input.unwrap_or_default();
            let good: Vec<u8> = input
                .split_inclusive(|&b| b == b'\n')
                .take(good_lines)
                .flatten()
                .copied()
                .collect();
            let reference = self::run(case.args, Some(good), case.limit)?;
            expect_code(&reference, 0).map_err(|e| format!("the good lines alone: {e}"))?;
            if !reference.stdout.starts_with(&run.stdout) {
                return Err(format!(
                    "stdout {:?} is not a prefix of the answers to the good lines {:?}",
                    clip(&run.stdout_text()),
                    clip(&reference.stdout_text())
                ));
            }
        }
        Stopped(flag) => {
            expect_code(&run, 3)?;
            check_stopped(case, &run, flag)?;
        }
        AnswerOrStopped(needle, flag) => match run.status.code() {
            Some(0) if run.stdout_text().contains(needle) => {}
            Some(3) => check_stopped(case, &run, flag)?,
            _ => return Err(format!("exit status 0 or 3 expected, got {:?}", run.status)),
        },
    }
    if let Some(extra) = case.extra {
        extra(&run)?;
    }
    Ok(run.elapsed)
}

/// Runs the quick cases whose first argument is one of `subcommands`, reporting every failure.
pub fn run_group(subcommands: &[&str]) {
    run_cases(corpus().iter().filter(|c| !c.slow && subcommands.contains(&c.args[0])).collect());
}

/// Runs `cases`, reporting every failure.
pub fn run_cases(cases: Vec<&Case>) {
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in cases {
        match check_case(case) {
            Ok(elapsed) => eprintln!("ok   {:<36} {:>8.2?}", case.name, elapsed),
            Err(e) => {
                eprintln!("FAIL {:<36} {e}", case.name);
                failures.push(format!("{} (xo {:?}): {e}", case.name, case.args));
            }
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}
