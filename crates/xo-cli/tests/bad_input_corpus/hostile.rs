//! Hostile output: stdout closed after the first line or mid-JSON (a quiet exit 0), and stdout a
//! full disk (exit 2 and one message, not a panic).

use super::cases::{secs, BOX};
use super::runner::command;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;
use std::thread;
use std::time::Duration;
use xo_test_support::bin::{clip, wait_within};

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

/// A long answer's output pipe closed after its first line: treblecross:300000 (from the stored
/// .007 values) writes its answer (300,005 lines, 5.7 MB, far more than a pipe holds) into a
/// pipe closed after the first line.
#[test]
fn closed_pipe_after_a_long_solve_ends_quietly() {
    closed_pipe(&["solve", "treblecross:300000"], secs(600)).unwrap();
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
