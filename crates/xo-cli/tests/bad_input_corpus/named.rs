//! What case files name: the inputs made when a case runs (too large for a file), and the further
//! checks on a run's output, each by its name.

use super::cases::Extra;
use xo_test_support::bin::{clip, Run};

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

/// The inputs made when a case runs, by name.
pub fn made(name: &str) -> Result<fn() -> Vec<u8>, String> {
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
pub fn then(name: &str) -> Result<Extra, String> {
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
