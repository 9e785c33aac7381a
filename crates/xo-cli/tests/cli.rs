//! End-to-end tests of `xo solve`, `xo count`, `xo check` and `xo play`, and agreement between the
//! batch formats and the general commands.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use xo_test_support::bin;
use xo_test_support::pons::pons_set;

fn xo(args: &[&str]) -> Output {
    bin::output(env!("CARGO_BIN_EXE_xo"), args)
}

fn xo_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xo runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("xo finishes")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = xo(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Exit status 2, one line on stderr mentioning `needle`, no panic.
fn bad_input(args: &[&str], needle: &str) {
    let out = xo(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} should mention {needle:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one message, got {err:?}");
}

#[test]
fn solve_reports_value_remoteness_and_moves() {
    let j = json(&["solve", "tictactoe", "--json"]);
    assert_eq!(j["value"], "draw");
    assert_eq!(j["remoteness"], 9);
    assert_eq!(j["moves"].as_array().unwrap().len(), 9);

    let j = json(&["solve", "tictactoe", "XX.OO....", "--json"]);
    assert_eq!((j["value"].as_str(), j["remoteness"].as_u64()), (Some("win"), Some(1)));
    let moves = j["moves"].as_array().unwrap();
    let win: Vec<_> = moves.iter().filter(|m| m["value"] == "win").collect();
    assert_eq!(win.len(), 1);
    assert_eq!((win[0]["move"].as_str(), win[0]["remoteness"].as_u64()), (Some("3"), Some(1)));

    let j = json(&["solve", "mnk:4,4,4", "--value-only", "--json"]);
    assert_eq!(j["value"], "draw");
    assert!(j.get("remoteness").is_none() && j.get("moves").is_none());

    let j = json(&["solve", "lol:5", "L.L..", "--json"]);
    assert_eq!(j["value"], "win");
    assert!(j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["move"] == "2O" && m["value"] == "win"));

    let text = String::from_utf8(xo(&["solve", "connect:4,4,3"]).stdout).unwrap();
    assert!(text.contains("value:") && text.contains("move"), "{text}");
}

/// Grundy values of a run of `m` safe cells (cells at distance 3 or more from every X): a move
/// takes a cell and makes its two neighbours on each side unsafe, leaving two runs.
fn safe_run_grundy(max: usize) -> Vec<u32> {
    let mut g = vec![0u32; max + 1];
    for m in 1..=max {
        let options: Vec<u32> =
            (0..m).map(|j| g[j.saturating_sub(2)] ^ g[(m - 1 - j).saturating_sub(2)]).collect();
        g[m] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    g
}

/// Treblecross (`X` and `.`) with no two X's within two cells, where no one can win at once:
/// whoever places an X within two cells of another hands the opponent XXX, so only safe cells
/// are played and whoever has none left loses. The game is the sum of the runs of safe cells;
/// returns whether the mover wins, and the winning cells (1-based): safe cells whose play leaves
/// Grundy sum 0.
fn treblecross_by_heaps(strip: &[u8]) -> (bool, Vec<usize>) {
    let n = strip.len();
    let xs: Vec<usize> = (0..n).filter(|&i| strip[i] == b'X').collect();
    assert!(xs.windows(2).all(|w| w[1] - w[0] >= 3), "no immediate win in {strip:?}");
    let safe: Vec<bool> = (0..n).map(|i| xs.iter().all(|&x| i.abs_diff(x) >= 3)).collect();
    let g = safe_run_grundy(n);
    let total_of = |safe: &[bool]| safe.split(|&s| !s).fold(0, |acc, run| acc ^ g[run.len()]);
    let total = total_of(&safe);
    let winning = (0..n)
        .filter(|&i| safe[i])
        .filter(|&i| {
            let after: Vec<bool> = (0..n).map(|c| safe[c] && c.abs_diff(i) >= 3).collect();
            total_of(&after) == 0
        })
        .map(|i| i + 1)
        .collect();
    (total != 0, winning)
}

/// Plain Treblecross minimax on a bitmask of X's (no memo): whether the mover wins.
fn treblecross_plain(n: usize, mask: u32) -> bool {
    let xxx = |m: u32| (0..n - 2).any(|i| m >> i & 0b111 == 0b111);
    (0..n)
        .any(|i| mask >> i & 1 == 0 && (xxx(mask | 1 << i) || !treblecross_plain(n, mask | 1 << i)))
}

#[test]
fn treblecross_heap_model_matches_plain_minimax() {
    // The model behind the treblecross:200 expectation, on every strip of 3..=11 cells with at
    // most one X (values) and the winning cells against plain minimax's.
    for n in 3..=11usize {
        for x in std::iter::once(None).chain((0..n).map(Some)) {
            let mask = x.map_or(0u32, |x| 1 << x);
            let strip: Vec<u8> = (0..n).map(|i| if Some(i) == x { b'X' } else { b'.' }).collect();
            let (value, winning) = treblecross_by_heaps(&strip);
            assert_eq!(value, treblecross_plain(n, mask), "{}", String::from_utf8_lossy(&strip));
            let plain: Vec<usize> = (0..n)
                .filter(|&i| mask >> i & 1 == 0)
                .filter(|&i| {
                    let next = mask | 1 << i;
                    (0..n - 2).any(|k| next >> k & 0b111 == 0b111) || !treblecross_plain(n, next)
                })
                .map(|i| i + 1)
                .collect();
            assert_eq!(winning, plain, "{}", String::from_utf8_lossy(&strip));
        }
    }
}

#[test]
fn solve_handles_long_strips_and_heaps() {
    assert_eq!(json(&["solve", "lol:20", "--value-only", "--json"])["value"], "loss");
    assert_eq!(json(&["solve", "lol:21", "--value-only", "--json"])["value"], "win");
    // One X on cell 101 of 200: the one right value, and the winning cells, by the safe-cell
    // heaps of `treblecross_by_heaps` (checked against plain minimax below): runs of 98 and 97
    // safe cells, Grundy values 0 and 4, so a win, by cells 112, 117, 152, 187 and 192.
    let strip = format!("{}X{}", ".".repeat(100), ".".repeat(99));
    let j = json(&["solve", "treblecross:200", &strip, "--json"]);
    let (value, winning) = treblecross_by_heaps(strip.as_bytes());
    assert_eq!(j["value"], if value { "win" } else { "loss" }, "treblecross:200 {strip}");
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 199);
    let solve_wins: Vec<usize> = moves
        .iter()
        .filter(|m| m["value"] == "win")
        .map(|m| m["move"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(solve_wins, winning, "treblecross:200 winning cells (1-based)");

    let j = json(&["solve", "kayles", "5 7 12", "--json"]);
    assert_eq!((j["nim_sum"].as_u64(), j["value"].as_str()), (Some(2), Some("win")));
    assert!(!j["winning_moves"].as_array().unwrap().is_empty());
}

#[test]
fn solve_stops_at_its_budget() {
    /// Exit status 3, the JSON's answer unknown with the reason, and one message naming `flag`.
    fn stopped(args: &[&str], flag: &str) -> serde_json::Value {
        let out = xo(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains("budget"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        if args[0] == "solve" {
            assert_eq!(j["value"], "unknown", "{args:?}");
        } else {
            // No counts when stopped: the field is kept, unknown (#23: it was left out).
            assert_eq!(j["games"], "unknown", "{args:?}: no counts when stopped");
        }
        assert!(j["reason"].as_str().unwrap().contains("budget"), "{args:?}");
        j
    }
    let j = stopped(
        &["solve", "connect4", "--max-nodes", "20000", "--json", "--no-book"],
        "--max-nodes",
    );
    assert_eq!(j["stopped"]["limit"], "nodes");
    stopped(&["solve", "lol:60", "--value-only", "--timeout", "0.2", "--json"], "--timeout");
    stopped(
        &["solve", "treblecross:3000000", "--value-only", "--timeout", "0.2", "--json"],
        "--timeout",
    );
    // .007 has no known period: a heap of 2*10^7 needs every value below it.
    stopped(&["solve", "octal:0.007", "20000000", "--timeout", "0.2", "--json"], "--timeout");
    // Counting: a depth that would not fit the memory budget stops before it is expanded.
    let j = stopped(&["count", "lol:30", "--memory-mib", "64", "--json"], "--memory-mib");
    assert!(j["stopped"]["reached"].as_str().unwrap().contains("depth"), "{j}");
    assert!(j.get("by_length").is_none(), "not asked for: {j}");
    // Asked for the split by length: the field is kept, unknown (#23: it was left out).
    let j = stopped(
        &["count", "tictactoe", "--by-length", "--max-nodes", "10", "--json"],
        "--max-nodes",
    );
    assert_eq!(j["by_length"], "unknown", "{j}");
    // Deeper than the LOL solver's recursion may go: stopped, not crashed.
    stopped(&["solve", "lol:200000", "--value-only", "--json"], "--memory-mib");
    let out =
        xo_stdin(&["batch", "lol", "--memory-mib", "16"], &format!("1\n{}\n", "*".repeat(20_000)));
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2: stopped at the memory budget"));
}

#[test]
fn a_stopped_score_tells_the_value_it_proved() {
    // The empty 6x4 board, a loss on the last stone (score -1): its searches prove "no win",
    // then "a loss", before the score; a budget between the two stops with the value told.
    let mut told = 0;
    for nodes in (8_192..400_000).step_by(4_096) {
        let n = nodes.to_string();
        let args = ["solve", "connect:6,4,4", "--no-moves", "--threads", "1", "--json"];
        let out = xo(&[&args[..], &["--max-nodes", &n]].concat());
        if out.status.code() == Some(0) {
            break;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{n}: {err}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let proven = &j["stopped"]["proven"];
        if !proven.is_null() {
            assert!(proven["at_least"].as_i64() <= Some(-1), "{j}");
            assert!(proven["at_most"].as_i64() >= Some(-1), "{j}");
        }
        if j["value"] != "unknown" {
            assert_eq!(j["value"], "loss", "{n}: {j}");
            assert!(j.get("remoteness").is_none() && j.get("score").is_none(), "{j}");
            assert!(err.contains("proven: a loss for the player to move"), "{n}: {err}");
            assert!(err.contains("raise it with --max-nodes"), "{n}: {err}");
            told += 1;
        }
    }
    assert!(told >= 1, "no budget stopped between the value and the score");
}

#[test]
fn solve_reads_rules_files() {
    let dir = std::env::temp_dir().join(format!("xo-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sos.toml");
    std::fs::write(
        &path,
        "name = \"sos7\"\nwidth = 7\nmarks = \"shared\"\nalphabet = \"SO\"\nword = \"SOS\"\n",
    )
    .unwrap();
    let via_file = json(&["solve", path.to_str().unwrap(), "--json"]);
    let builtin = json(&["solve", "sos:7", "--json"]);
    assert_eq!(via_file["value"], builtin["value"]);
    assert_eq!(via_file["moves"], builtin["moves"]);
    std::fs::write(&path, "width = 7\nmarks = \"shared\"\n").unwrap();
    bad_input(&["solve", path.to_str().unwrap()], "alphabet");
}

#[test]
fn bad_input_is_named_with_exit_status_2() {
    bad_input(&["solve", "chess"], "unknown game");
    bad_input(&["solve", "mnk:3,3"], "3 numbers");
    bad_input(&["solve", "tictactoe", "XXXX"], "expected 9 cells");
    bad_input(&["solve", "tictactoe", "XX?......"], "cell 3");
    bad_input(&["solve", "tictactoe", "OO......."], "X moves first");
    bad_input(&["solve", "connect:3,2,3", "X....."], "floats");
    bad_input(&["solve", "mnk:9,9,5"], "at most 64");
    bad_input(&["solve", "tictactoe", "--timeout=-1"], "--timeout");
    bad_input(&["solve", "tictactoe", "--timeout", "nan"], "--timeout");
    bad_input(&["solve", "kayles", "5 x"], "\"x\"");
    bad_input(&["count", "mnk:4,4,4", "--memory-mib", "0"], "--memory-mib");
    bad_input(&["check", "tictactoe", "XO"], "expected 9 cells");
    bad_input(&["play", "kayles"], "octal game");
}

#[test]
fn count_reports_games_positions_and_lengths() {
    let j = json(&["count", "tictactoe", "--json", "--by-length"]);
    assert_eq!(j["first_player_wins"], 131184);
    assert_eq!(j["second_player_wins"], 77904);
    assert_eq!(j["draws"], 46080);
    assert_eq!(j["games"], 255168);
    assert_eq!(j["positions"], 5478);
    let lengths: Vec<(u64, u64)> = j["by_length"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["moves"].as_u64().unwrap(), l["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(lengths, vec![(5, 1440), (6, 5328), (7, 47952), (8, 72576), (9, 127872)]);
    let dense = json(&["count", "tictactoe", "--json", "--by-length", "--dense"]);
    assert_eq!(dense, j, "dense tables and hash maps agree");
    // The census obeys --threads, with the same counts on one thread as on every core.
    for threads in ["1", "2"] {
        let t = json(&["count", "tictactoe", "--json", "--by-length", "--threads", threads]);
        assert_eq!(t, j, "--threads {threads}");
    }
    let big = json(&["count", "mnk:4,3,3", "--json", "--threads", "1"]);
    assert_eq!(big, json(&["count", "mnk:4,3,3", "--json"]));
    // A finished position is one game.
    let j = json(&["count", "tictactoe", "XXXOO....", "--json"]);
    assert_eq!((j["games"].as_u64(), j["first_player_wins"].as_u64()), (Some(1), Some(1)));
}

#[test]
fn check_exits_0_1_or_2_with_reasons() {
    let ok = xo(&["check", "tictactoe", "XO......."]);
    assert_eq!(ok.status.code(), Some(0));
    for (pos, reason) in [
        ("OO.X.....", "too many O's"),
        ("XXX......", "too many X's"),
        ("XXXOOO...", "both players"),
        ("XXXOO.O..", "X has a line but O moved after it"),
    ] {
        let out = xo(&["check", "tictactoe", pos]);
        assert_eq!(out.status.code(), Some(1), "{pos}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(reason), "{pos}");
    }
    let out = xo(&["check", "lol:7", "LOL.LOL", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["reachable"], false);
    let out = xo(&["check", "connect:3,3,3", "X........"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("floats"));
}

/// The batch formats and the general commands give the same answers.
#[test]
fn batch_modes_agree_with_solve_and_count() {
    // LOL strips of 6 cells: batch value vs solve (negamax) and solve --value-only (components).
    let strips = ["******", "L****L", "*O**L*", "LO****", "**L*O*", "L*O*L*", "O****O"];
    let input = format!("{}\n{}\n", strips.len(), strips.join("\n"));
    let out = xo_stdin(&["batch", "lol"], &input);
    let answers: Vec<String> =
        String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect();
    for (strip, answer) in strips.iter().zip(&answers) {
        let full = json(&["solve", "lol:6", strip, "--json"]);
        let fast = json(&["solve", "lol:6", strip, "--json", "--value-only"]);
        let want = match answer.as_str() {
            "1" => "win",
            "0" => "draw",
            _ => "loss",
        };
        assert_eq!(
            (full["value"].as_str(), fast["value"].as_str()),
            (Some(want), Some(want)),
            "{strip}"
        );
    }
    // Treblecross: batch winning moves vs solve (negamax on 12 cells).
    for strip in ["............", "X...........", "....X....X..", ".X.........."] {
        let out = xo_stdin(&["batch", "treblecross"], &format!("1\n{strip}\n"));
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        let winning = lines.next().unwrap() == "WINNING";
        let cells: Vec<String> =
            lines.next().unwrap_or("").split_whitespace().map(String::from).collect();
        let j = json(&["solve", "treblecross:12", strip, "--json"]);
        assert_eq!(j["value"] == "win", winning, "{strip}");
        let solve_wins: Vec<String> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == "win")
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(solve_wins, cells, "{strip}");
    }
    // ttt-count vs count.
    for grid in ["XX..O....", "X...OX...", "OOOX.X.X."] {
        let out = xo_stdin(&["batch", "ttt-count"], &format!("1\n{grid}\n"));
        let text = String::from_utf8(out.stdout).unwrap();
        let j = json(&["count", "tictactoe", grid, "--json"]);
        assert_eq!(text.trim(), format!("{} {}", j["first_player_wins"], j["second_player_wins"]));
    }
}

#[test]
fn play_takes_moves_hints_undo_and_ends_cleanly() {
    let out = xo_stdin(&["play", "tictactoe", "--as", "first"], "undo\nhint\nfoo\n5\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nothing to undo"), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("\"foo\" is not a legal move"), "{text}");
    assert!(text.contains("xo plays"), "{text}");

    let out = xo_stdin(&["play", "tictactoe", "XX.OO....", "--as", "first"], "3\n");
    assert!(String::from_utf8(out.stdout).unwrap().contains("You win!"));

    // Perfect play never loses: whatever X does, O at least draws.
    let out = xo_stdin(&["play", "tictactoe", "--as", "first"], "1\n2\n3\n4\n6\n7\n8\n9\n5\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("You win"), "{text}");

    let out = xo_stdin(&["play", "tictactoe"], "second\n");
    assert!(String::from_utf8(out.stdout).unwrap().contains("xo plays"));
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["solve", "play", "count", "check", "batch", "grundy"] {
        let out = xo(&[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
    }
}

#[test]
fn connect_four_positions_by_columns_and_pons_scores() {
    // The first lines of Pons' end-game set: the batch mode answers each with his score.
    let set = pons_set("Test_L3_R1");
    let lines: Vec<String> = set.iter().take(60).map(|(m, s)| format!("{m} {s}")).collect();
    let out = xo_stdin(&["batch", "connect4-score"], &lines.join("\n"));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let want: Vec<String> = set.iter().take(60).map(|(_, s)| s.to_string()).collect();
    let got = String::from_utf8(out.stdout).unwrap();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    // A bad line is named.
    let out = xo_stdin(&["batch", "connect4-score"], &format!("{}\n4444444\n", lines[0]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2: "), "{out:?}");
    // --moves gives the same position as its text, and the score in the JSON.
    let (moves, score) = &set[0];
    let j = json(&["solve", "connect4", "--moves", moves, "--json"]);
    assert_eq!(j["score"].as_i64(), Some(i64::from(*score)));
    let text = j["position"].as_str().unwrap().to_string();
    let k = json(&["solve", "connect4", &text, "--json"]);
    assert_eq!(j, k);
    // Every move is named by its column, in column order, with its own score.
    let cols: Vec<u64> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(cols.windows(2).all(|w| w[0] < w[1]), "{cols:?}");
    let best = j["moves"].as_array().unwrap().iter().filter_map(|m| m["score"].as_i64()).max();
    assert_eq!(best, j["score"].as_i64());
}

#[test]
fn threads_and_wide_boards_change_no_answer() {
    // Pons' begin-medium positions, every move: the same report on 1, 2 and 3 threads.
    for (moves, score) in pons_set("Test_L1_R2").into_iter().take(3) {
        let moves = moves.as_str();
        let one = json(&["solve", "connect4", "--moves", moves, "--json", "--threads", "1"]);
        assert_eq!(one["score"].as_i64(), Some(i64::from(score)), "{moves}");
        for threads in ["2", "3"] {
            let many =
                json(&["solve", "connect4", "--moves", moves, "--json", "--threads", threads]);
            assert_eq!(one, many, "{moves} on {threads} threads");
        }
    }
    // A board past the 64-bit layout takes the gravity engine.
    let j = json(&["solve", "connect:8,8,4", "--moves", "445566", "--json"]);
    assert_eq!((j["engine"].as_str(), j["value"].as_str()), (Some("gravity"), Some("win")));
    assert_eq!(j["remoteness"].as_u64(), Some(1));
}

#[test]
fn messages_quoting_huge_input_are_cut() {
    let name = format!("mnk:3,3,3{}", "x".repeat(100_000));
    let out = xo(&["solve", &name]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 1000 && err.contains("(cut)"), "{} bytes", err.len());
}

#[cfg(feature = "serve")]
#[test]
fn page_writes_a_static_copy() {
    let dir = std::env::temp_dir().join(format!("xo-page-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = xo(&["page", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (name, _, bytes) in xo_server::page::FILES {
        let written = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(written == bytes, "{name} is the page's own");
    }
    for (name, bytes) in xo_store::book::shipped_files() {
        let written = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(written == bytes, "{name} is the book xo ships");
    }
    let wasm = std::fs::read(dir.join("xo_wasm_bg.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm");
    std::fs::remove_dir_all(&dir).unwrap();
    // A folder that cannot be made: exit status 1 or 2 with the reason.
    let bad = xo(&["page", "--out", "/proc/xo-no/such"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot write the page"));
}

/// Issue 46: `xo page --out DIR` wrote through a symbolic link inside DIR (a link `index.html`
/// to a file outside was overwritten). Every file now goes through the store's atomic writer,
/// all names checked before the first is written.
#[cfg(all(unix, feature = "serve"))]
#[test]
fn page_writes_through_no_link() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let (out_dir, outside) = (dir.path().join("out"), dir.path().join("outside.txt"));
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::write(&outside, "keep").unwrap();
    std::os::unix::fs::symlink(&outside, out_dir.join("worker.js")).unwrap();
    let out = xo(&["page", "--out", out_dir.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("worker.js is a symbolic link, not a regular file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep");
    // Nothing was written: the names are checked before the first file.
    assert!(!out_dir.join("index.html").exists());
}

/// Built without the `serve` feature (`cargo test -p xo-cli --no-default-features --test cli`):
/// `xo serve` and `xo page` still parse (and are in the help), and are refused with one line
/// naming the feature, exit 2; bad arguments are still usage errors first.
#[cfg(not(feature = "serve"))]
#[test]
fn without_the_serve_feature_serve_and_page_are_refused_by_name() {
    let dir = xo_test_support::dirs::tempdir().unwrap();
    let page = dir.path().join("page");
    for args in [
        vec!["serve"],
        vec!["serve", "--addr", "127.0.0.1:0"],
        vec!["page", "--out", page.to_str().unwrap()],
    ] {
        let out = xo(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err,
            "xo: error: this xo was built without the `serve` feature; rebuild with --features serve\n",
            "{args:?}"
        );
    }
    assert!(!page.exists());
    let help = String::from_utf8_lossy(&xo(&["--help"]).stdout).into_owned();
    assert!(help.contains("serve") && help.contains("page"), "{help}");
    bad_input(&["serve", "--no-such-flag"], "--no-such-flag");
}

/// `--threats` (#45): X threatens c1 and g1 (both playable, on the odd row 1), O c2 and g2 (even
/// row 2, not playable yet): each holds threats on its own parity of rows. Refused where the
/// gravity engine does not answer.
#[test]
fn threats_name_the_cells_rows_and_parity() {
    let v = json(&["solve", "connect4", "--moves", "445566", "--threats", "--no-moves", "--json"]);
    let t = &v["threats"];
    assert_eq!(t["first"]["cells"], serde_json::json!(["c1", "g1"]));
    assert_eq!(t["first"]["playable"], serde_json::json!(["c1", "g1"]));
    assert_eq!((t["first"]["odd"].as_u64(), t["first"]["even"].as_u64()), (Some(2), Some(0)));
    assert_eq!(t["second"]["cells"], serde_json::json!(["c2", "g2"]));
    assert_eq!(t["second"]["playable"], serde_json::json!([]));
    assert_eq!(t["parity"], "both");
    // On a board of five rows there is no parity rule to tell.
    let odd = json(&["solve", "connect:5,5,3", "--moves", "2233", "--threats", "--json"]);
    assert!(odd["threats"]["parity"].is_null() && odd["threats"]["first"]["cells"].is_array());
    let text =
        String::from_utf8(xo(&["solve", "connect4", "--moves", "445566", "--threats"]).stdout)
            .unwrap();
    assert!(
        text.contains(
            "threats of the second player: c2 g2 (odd rows 0, even rows 2; playable now: none)"
        ),
        "{text}"
    );
    bad_input(&["solve", "tictactoe", "--threats"], "threats are told for gravity games");
    // Facts of the position: told though the search stops at its budget (exit 3).
    let args = ["solve", "connect:9,7,4", "--moves", "5", "--threats", "--max-nodes", "10"];
    let out = xo(&[&args[..], &["--value-only", "--json"]].concat());
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value"], "unknown");
    assert!(v["threats"]["first"]["cells"].is_array() && v["threats"]["parity"].is_null(), "{v}");
}
