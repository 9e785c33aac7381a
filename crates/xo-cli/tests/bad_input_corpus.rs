//! A corpus of bad, hostile and over-budget inputs for every subcommand, run against the real
//! binary. Each case is a small file, `tests/bad_input/NAME.json` (its keys: [`KEYS`]), naming
//! its arguments (and standard input), the exit status the CLI contract promises, and a
//! substring of the message (stderr) or of the answer (stdout); this file is the one runner:
//!
//! - 0 answered; 1 `check` says unreachable;
//! - 2 bad input: exactly one line on stderr starting `xo: ` that names what is wrong and where,
//!   no panic or backtrace, and nothing on stdout that looks like an answer (the streaming modes,
//!   `batch` and `--lines`, may have answered the lines before the bad one);
//! - 3 stopped at a budget: one line on stderr naming the budget and the flag that raises it; with
//!   `--json`, stdout is one JSON object with a "reason" (and `"value":"unknown"` for `solve`).
//!
//! Every run is time-boxed: a child still running at its limit is killed and the case fails.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;
use xo_test_support::bin::{self, clip, wait_within, Feed, Run};

/// The default time box of one run: far above any honest run of these cases.
const BOX: Duration = Duration::from_secs(20);

/// What a case feeds on standard input.
#[derive(Clone, Copy)]
enum Input {
    /// Standard input is closed (`/dev/null`).
    None,
    /// These bytes, then end of input.
    Bytes(&'static [u8]),
    /// Bytes made when the case runs (large inputs).
    Made(fn() -> Vec<u8>),
    /// These bytes, then the line after them over and over (`yes`), until xo stops reading.
    Yes(&'static [u8], &'static [u8]),
}

/// What the contract promises for a case.
#[derive(Clone, Copy)]
enum Expect {
    /// Exit 0 and stdout contains this.
    Answer(&'static str),
    /// Exit 0 and stdout is exactly this.
    Exactly(&'static str),
    /// Exit 1 (`check`: unreachable) and stdout contains this reason.
    Unreachable(&'static str),
    /// Exit 2 with one `xo: ` line on stderr containing this; stdout empty.
    Bad(&'static str),
    /// Exit 2 like `Bad`, but stdout may hold the answers to the lines before the bad one: it must
    /// be a prefix of what the same command prints for the first `n` lines of the input alone.
    BadAfter(&'static str, usize),
    /// Exit 2 like `Bad`, but stdout must be a prefix of the given answers (batch formats).
    BadAfterAnswers(&'static str, &'static str),
    /// Exit 3 with one `xo: ` line on stderr naming a budget and this flag.
    Stopped(&'static str),
    /// Exit 0 (stdout contains the first string) or exit 3 (stderr names the second), nothing else.
    AnswerOrStopped(&'static str, &'static str),
}

/// A further check on a run: `Err` says what is wrong.
type Extra = fn(&Run) -> Result<(), String>;

#[derive(Clone, Copy)]
struct Case {
    /// A short unique name, used by the known-failure tests.
    name: &'static str,
    args: &'static [&'static str],
    input: Input,
    expect: Expect,
    /// The time box of this run.
    limit: Duration,
    /// Further checks on a run that met `expect`.
    extra: Option<Extra>,
    /// In the slow group (see [`corpus_slow`]): not run by `cargo test --workspace`.
    slow: bool,
}

use Expect::*;

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

// ---------------------------------------------------------------------------------------------
// Inputs made at run time
// ---------------------------------------------------------------------------------------------

const TEN_MB: usize = 10_000_000;

fn ten_mb_dots() -> Vec<u8> {
    vec![b'.'; TEN_MB]
}
fn batch_ttt_huge_line() -> Vec<u8> {
    let mut v = b"1\n".to_vec();
    v.extend(std::iter::repeat_n(b'X', TEN_MB));
    v.push(b'\n');
    v
}
fn batch_lol_huge_line() -> Vec<u8> {
    let mut v = b"1\n".to_vec();
    v.extend(std::iter::repeat_n(b'*', TEN_MB));
    v.push(b'\n');
    v
}
fn batch_lol_20000_stars() -> Vec<u8> {
    format!("1\n{}\n", "*".repeat(20_000)).into_bytes()
}
fn batch_treblecross_bad_far_right() -> Vec<u8> {
    format!("1\n{}?\n", ".".repeat(5_000_000)).into_bytes()
}

// ---------------------------------------------------------------------------------------------
// Extra checks
// ---------------------------------------------------------------------------------------------

/// stdout is one JSON object with the fields of `keys`, each `"unknown"`, and the stop.
fn all_unknown(run: &Run, keys: &[&str]) -> Result<(), String> {
    let j: serde_json::Value = serde_json::from_slice(&run.stdout).map_err(|e| e.to_string())?;
    for key in keys {
        if j[key] != "unknown" {
            return Err(format!("{key} should be \"unknown\": {}", clip(&j.to_string())));
        }
    }
    if !j["stopped"]["limit"].is_string() {
        return Err(format!("no \"stopped\": {}", clip(&j.to_string())));
    }
    Ok(())
}

/// A count stopped at its budget keeps the answer's fields.
fn counts_unknown(run: &Run) -> Result<(), String> {
    all_unknown(run, &["first_player_wins", "second_player_wins", "draws", "games", "positions"])
}

/// A nim-sequence stopped at its budget keeps the report's fields.
fn sequence_unknown(run: &Run) -> Result<(), String> {
    all_unknown(run, &["values", "period", "preperiod", "largest", "rare_values"])
}

/// stdout is exactly one value: `win`, `loss` or `draw`, and a newline.
fn one_value(run: &Run) -> Result<(), String> {
    match run.stdout_text().as_str() {
        "win\n" | "loss\n" | "draw\n" => Ok(()),
        other => Err(format!("--value-only should print one value, got {:?}", clip(other))),
    }
}

/// `--winning --json` lists at least one move, and only winning ones.
fn only_winning_moves(run: &Run) -> Result<(), String> {
    let j: serde_json::Value =
        serde_json::from_slice(&run.stdout).map_err(|e| format!("one JSON object: {e}"))?;
    let moves = j["moves"].as_array().ok_or("no \"moves\" array")?;
    if j["value"] != "win" || moves.is_empty() {
        return Err(format!("expected a win with winning moves: {}", clip(&j.to_string())));
    }
    match moves.iter().find(|m| m["value"] != "win") {
        Some(m) => Err(format!("--winning listed a move that does not win: {m}")),
        None => Ok(()),
    }
}

/// stdout is three JSON objects, one a line, each with a value.
fn three_json_lines(run: &Run) -> Result<(), String> {
    let text = run.stdout_text();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != 3 {
        return Err(format!("expected 3 JSON lines, got {}: {:?}", lines.len(), clip(&text)));
    }
    for line in lines {
        let j: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{line:?} is not JSON: {e}"))?;
        if j["value"].as_str().is_none() {
            return Err(format!("{line:?} has no value"));
        }
    }
    Ok(())
}

/// Every line of stdout is one JSON object.
fn json_lines(run: &Run) -> Result<(), String> {
    for line in run.stdout_text().lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .map_err(|e| format!("{:?} is not JSON: {e}", clip(line)))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The corpus: one case file a case, in `tests/bad_input/NAME.json`
// ---------------------------------------------------------------------------------------------

/// The keys a case file may have. `args` (the arguments, a list of strings), `expect` (the
/// promise: `answer`, `exactly`, `unreachable` (exit 0, 0, 1); `bad`, `bad_after`,
/// `bad_after_answers` (exit 2); `stopped` (exit 3); `answer_or_stopped`) and `text` (the
/// fragment of the answer or message) are needed; `stdin` (text; `stdin_hex` for other bytes),
/// `stdin_repeat` (a line fed over and over after `stdin`), `stdin_made` (the name of an input
/// made when the case runs), `good_lines` (`bad_after`), `answers` (`bad_after_answers`),
/// `flag` (`answer_or_stopped`), `limit_s` (the time box, 20 s if not given), `then` (the name
/// of a further check) and `slow` (true: in the slow group) are optional; `note` says why.
const KEYS: &[&str] = &[
    "args",
    "expect",
    "text",
    "stdin",
    "stdin_hex",
    "stdin_repeat",
    "stdin_repeat_hex",
    "stdin_made",
    "good_lines",
    "answers",
    "flag",
    "limit_s",
    "then",
    "slow",
    "note",
];

/// The inputs made when a case runs, by name.
fn made(name: &str) -> Result<fn() -> Vec<u8>, String> {
    Ok(match name {
        "ten_mb_dots" => ten_mb_dots,
        "batch_ttt_huge_line" => batch_ttt_huge_line,
        "batch_lol_huge_line" => batch_lol_huge_line,
        "batch_lol_20000_stars" => batch_lol_20000_stars,
        "batch_treblecross_bad_far_right" => batch_treblecross_bad_far_right,
        _ => return Err(format!("no input made by the name {name:?}")),
    })
}

/// The further checks, by name.
fn then(name: &str) -> Result<Extra, String> {
    Ok(match name {
        "counts_unknown" => counts_unknown,
        "sequence_unknown" => sequence_unknown,
        "one_value" => one_value,
        "only_winning_moves" => only_winning_moves,
        "three_json_lines" => three_json_lines,
        "json_lines" => json_lines,
        _ => return Err(format!("no check by the name {name:?}")),
    })
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Reads one case file.
fn load(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let map = json.as_object().ok_or("not a JSON object")?;
    if let Some(key) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    let text_of = |key: &str| -> Result<Option<&'static str>, String> {
        match map.get(key) {
            None => Ok(None),
            Some(v) => v.as_str().map(|s| Some(leak(s))).ok_or(format!("{key} is not a string")),
        }
    };
    let bytes_of = |key: &str| -> Result<Option<&'static [u8]>, String> {
        if let Some(text) = text_of(key)? {
            return Ok(Some(text.as_bytes()));
        }
        let Some(hex) = text_of(&format!("{key}_hex"))? else { return Ok(None) };
        let bytes: Result<Vec<u8>, _> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("?"), 16))
            .collect();
        Ok(Some(Box::leak(bytes.map_err(|e| format!("{key}_hex: {e}"))?.into_boxed_slice())))
    };
    let needed = |key: &str| text_of(key)?.ok_or(format!("no {key}"));
    let name = leak(&path.file_stem().unwrap().to_string_lossy());
    let args: Vec<&'static str> = map
        .get("args")
        .and_then(|a| a.as_array())
        .ok_or("no args")?
        .iter()
        .map(|a| a.as_str().map(leak).ok_or("an argument is not a string"))
        .collect::<Result<_, _>>()?;
    let input = match (text_of("stdin_made")?, bytes_of("stdin")?, bytes_of("stdin_repeat")?) {
        (Some(make), None, None) => Input::Made(made(make)?),
        (None, first, Some(again)) => Input::Yes(first.unwrap_or_default(), again),
        (None, Some(bytes), None) => Input::Bytes(bytes),
        (None, None, None) => Input::None,
        _ => return Err("stdin_made goes with no other stdin".into()),
    };
    let number = |key: &str| map.get(key).map(|v| v.as_u64().ok_or(format!("{key}: a number")));
    let text = needed("text")?;
    let expect = match needed("expect")? {
        "answer" => Answer(text),
        "exactly" => Exactly(text),
        "unreachable" => Unreachable(text),
        "bad" => Bad(text),
        "bad_after" => BadAfter(text, number("good_lines").ok_or("no good_lines")?? as usize),
        "bad_after_answers" => BadAfterAnswers(text, needed("answers")?),
        "stopped" => Stopped(text),
        "answer_or_stopped" => AnswerOrStopped(text, needed("flag")?),
        other => return Err(format!("no promise {other:?}")),
    };
    Ok(Case {
        name,
        args: Box::leak(args.into_boxed_slice()),
        input,
        expect,
        limit: number("limit_s").transpose()?.map_or(BOX, secs),
        extra: text_of("then")?.map(then).transpose()?,
        slow: map.get("slow").map(|v| v.as_bool().ok_or("slow: true or false")).transpose()?
            == Some(true),
    })
}

/// Every case file, by name.
fn corpus() -> &'static [Case] {
    static CORPUS: OnceLock<Vec<Case>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bad_input");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        paths.iter().map(|p| load(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).collect()
    })
}

// ---------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------

fn command(args: &[&str]) -> Command {
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
fn run_group(subcommands: &[&str]) {
    run_cases(corpus().iter().filter(|c| !c.slow && subcommands.contains(&c.args[0])).collect());
}

/// Runs `cases`, reporting every failure.
fn run_cases(cases: Vec<&Case>) {
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

// ---------------------------------------------------------------------------------------------
// The corpus, by subcommand
// ---------------------------------------------------------------------------------------------

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
#[ignore = "slow: treblecross:1000000 takes 30-60 s in the test profile"]
fn corpus_slow() {
    run_cases(corpus().iter().filter(|c| c.slow).collect());
}

#[test]
fn corpus_count_check_play() {
    run_group(&["count", "check", "play", "moves"]);
}

#[test]
fn corpus_batch_grundy_serve_and_usage() {
    run_group(&["batch", "grundy", "serve", "book", "frobnicate"]);
}

// ---------------------------------------------------------------------------------------------
// Hostile output
// ---------------------------------------------------------------------------------------------

/// Reads one line of stdout, closes the pipe, and expects a quiet exit 0.
fn closed_pipe(args: &[&str], limit: Duration) -> Result<(), String> {
    let mut child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the xo binary starts");
    let mut err = child.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let read = out.read_line(&mut line);
    drop(out);
    let status = wait_within(&mut child, limit);
    let stderr = err_reader.join().unwrap();
    let status = status.ok_or_else(|| format!("xo {args:?} still running after {limit:?}"))?;
    match read {
        Ok(n) if n > 0 => {}
        other => return Err(format!("xo {args:?}: no first line ({other:?}); stderr {stderr:?}")),
    }
    if stderr.contains("panicked") {
        return Err(format!("xo {args:?} panicked: {}", clip(&stderr)));
    }
    if status.code() != Some(0) || !stderr.is_empty() {
        return Err(format!(
            "xo {args:?} on a closed pipe: expected a quiet exit 0, got {status:?}, stderr {:?}",
            clip(&stderr)
        ));
    }
    Ok(())
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut failures = Vec::new();
    for args in [
        &["grundy", "0.007", "--upto", "100000"][..],
        &["count", "tictactoe", "--by-length"],
        &["batch", "ttt-count", "--example"],
    ] {
        if let Err(e) = closed_pipe(args, secs(240)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A long solve's output pipe closed after its first line (in the slow group).
#[test]
#[ignore = "slow: treblecross:1000000 takes 30-60 s in the test profile"]
fn closed_pipe_after_a_long_solve_ends_quietly() {
    closed_pipe(&["solve", "treblecross:1000000"], secs(240)).unwrap();
}

/// Reads a few bytes of the one JSON line, then closes the pipe mid-line.
fn closed_pipe_mid_json(args: &[&str]) -> Result<(), String> {
    let mut child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the xo binary starts");
    let mut err = child.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    });
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    let read = out.read_exact(&mut first);
    drop(out);
    let status = wait_within(&mut child, BOX);
    let stderr = err_reader.join().unwrap();
    let status = status.ok_or_else(|| format!("xo {args:?} still running after {BOX:?}"))?;
    read.map_err(|e| format!("xo {args:?}: no output ({e}); stderr {stderr:?}"))?;
    if status.code() != Some(0) || !stderr.is_empty() {
        return Err(format!(
            "xo {args:?} on a pipe closed mid-JSON: expected a quiet exit 0, got {status:?}, \
             stderr {:?}",
            clip(&stderr)
        ));
    }
    Ok(())
}

#[test]
fn a_pipe_closed_mid_json_ends_quietly() {
    // treblecross:300000 --json is one 3 MB line, far more than a pipe holds.
    closed_pipe_mid_json(&["solve", "treblecross:300000", "--json"]).unwrap();
}

/// stdout is /dev/full: exit 2 and one message naming the failed write.
fn full_disk(args: &[&str]) -> Result<(), String> {
    let full = File::create("/dev/full").expect("/dev/full");
    let mut child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the xo binary starts");
    let mut err = child.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    });
    let status = wait_within(&mut child, BOX);
    let stderr = err_reader.join().unwrap();
    let status = status.ok_or_else(|| format!("xo {args:?} still running after {BOX:?}"))?;
    if stderr.contains("panicked") {
        return Err(format!("xo {args:?} panicked: {}", clip(&stderr)));
    }
    let one_line = stderr.lines().count() == 1 && stderr.starts_with("xo: ");
    if status.code() != Some(2) || !one_line || !stderr.contains("No space left on device") {
        return Err(format!(
            "xo {args:?} > /dev/full: expected exit 2 and one message about the failed write, \
             got {status:?}, stderr {:?}",
            clip(&stderr)
        ));
    }
    Ok(())
}

#[test]
fn full_disk_is_bad_output_not_a_panic() {
    let mut failures = Vec::new();
    for args in [
        &["--help"][..],
        &["--version"],
        &["solve", "--help"],
        &["solve", "tictactoe"],
        &["solve", "tictactoe", "--json"],
        &["count", "tictactoe"],
        &["check", "tictactoe", "X........"],
        &["batch", "ttt-count", "--example"],
        &["grundy", "0.07", "--upto", "100"],
    ] {
        if let Err(e) = full_disk(args) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
