//! End-to-end tests of `xo batch`: the binary is run as a subprocess on the judge samples, on
//! tolerated variations of the format, on every kind of bad input the spec names, and on whole
//! families of small positions checked against plain references written here.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;
use xo_test_support::bin::{self, Feed, Run};

/// A guard against a hung binary, far above any honest run; not a performance assertion.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// Runs `xo args...` with `input` on standard input (see [`bin::run_within`]: no deadlock on
/// large inputs or outputs, and a child that stops reading early, on bad input, is fine).
fn xo(args: &[&str], input: &[u8]) -> Run {
    let cmd = bin::command(env!("CARGO_BIN_EXE_xo"), args);
    bin::run_within(cmd, Feed::Bytes(input.to_vec()), HANG_GUARD)
        .unwrap_or_else(|e| panic!("xo {args:?}: {e}"))
}

fn batch(format: &str, input: &[u8]) -> Run {
    xo(&["batch", format], input)
}

/// Asserts a successful run whose output is exactly `want`.
fn assert_ok(run: &Run, want: &[u8], what: &str) {
    assert_eq!(run.code(), Some(0), "{what}: exit status; stderr: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{what}: unexpected stderr {:?}", run.stderr);
    assert_eq!(run.stdout_text(), String::from_utf8_lossy(want), "{what}: output");
}

/// Asserts the bad-input contract: exit status 2, one message on stderr naming `line`, no panic,
/// and at most the answers `prefix_of` begins with on stdout.
fn assert_bad(run: &Run, line: u64, prefix_of: &[u8], what: &str) {
    assert_eq!(run.code(), Some(2), "{what}: exit status; stderr: {}", run.stderr);
    assert_one_message(run, line, prefix_of, what);
}

/// The bad-input contract but for the exit status: one message naming `line`, no panic, and
/// stdout a prefix of `prefix_of`.
fn assert_one_message(run: &Run, line: u64, prefix_of: &[u8], what: &str) {
    assert!(!run.stderr.contains("panicked"), "{what}: panicked: {}", run.stderr);
    assert!(!run.stderr.contains("backtrace"), "{what}: backtrace: {}", run.stderr);
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{what}: one message: {:?}", run.stderr);
    assert!(
        run.stderr.contains(&format!("line {line}:")),
        "{what}: message should name line {line}: {:?}",
        run.stderr
    );
    assert!(
        prefix_of.starts_with(&run.stdout),
        "{what}: stdout {:?} is not a prefix of the answers {:?}",
        run.stdout_text(),
        String::from_utf8_lossy(prefix_of)
    );
}

fn sample(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const FORMATS: [&str; 3] = ["ttt-count", "lol", "treblecross"];

// ---------------------------------------------------------------------------------------------
// Samples and tolerated variations
// ---------------------------------------------------------------------------------------------

#[test]
fn samples_byte_for_byte() {
    for format in FORMATS {
        let run = batch(format, &sample(&format!("{format}.sample.in")));
        assert_ok(&run, &sample(&format!("{format}.sample.out")), format);
    }
}

#[test]
fn vendored_samples_are_present_and_well_formed() {
    // The samples live in the repository (`samples/`, embedded by `--example`): a missing or
    // truncated one fails here rather than skipping anything. Each input announces its number of
    // cases on line 1 and has that many case lines; each output has one answer per case (two
    // lines per case for Treblecross: the flag, then the winning cells).
    for format in FORMATS {
        let input = String::from_utf8(sample(&format!("{format}.sample.in"))).unwrap();
        let output = String::from_utf8(sample(&format!("{format}.sample.out"))).unwrap();
        let mut lines = input.lines();
        let cases: usize = lines.next().expect("a count line").trim().parse().expect("a count");
        assert!(cases > 0, "{format}: the sample has cases");
        assert_eq!(lines.count(), cases, "{format}: case lines");
        let per_case = if format == "treblecross" { 2 } else { 1 };
        assert!(output.ends_with('\n'), "{format}: the output ends with a newline");
        assert_eq!(output.split_terminator('\n').count(), cases * per_case, "{format}: answers");
    }
}

#[test]
fn example_flag_answers_the_sample() {
    for format in FORMATS {
        let run = xo(&["batch", format, "--example"], b"this input is not read\n");
        assert_ok(&run, &sample(&format!("{format}.sample.out")), format);
    }
}

/// The sample input with every line ending replaced and `pad` after every line's text.
fn reshaped(input: &[u8], ending: &str, pad: &str, final_newline: bool) -> Vec<u8> {
    let text = String::from_utf8(input.to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines.iter().map(|l| format!("{l}{pad}")).collect::<Vec<_>>().join(ending);
    if final_newline {
        out.push_str(ending);
    }
    out.into_bytes()
}

#[test]
fn crlf_trailing_spaces_and_missing_final_newline_are_tolerated() {
    for format in FORMATS {
        let input = sample(&format!("{format}.sample.in"));
        let want = sample(&format!("{format}.sample.out"));
        for (ending, pad, final_newline) in [
            ("\r\n", "", true),
            ("\n", "   ", true),
            ("\r\n", "  ", true),
            ("\n", "\t ", true),
            ("\n", "", false),
            ("\r\n", "", false),
            ("\r\n", " ", false),
        ] {
            let what =
                format!("{format} with ending {ending:?}, pad {pad:?}, final {final_newline}");
            assert_ok(&batch(format, &reshaped(&input, ending, pad, final_newline)), &want, &what);
        }
    }
}

#[test]
fn extra_lines_after_the_announced_cases_are_ignored() {
    let extra: &[u8] =
        b"this is not a case\n\xff\xfe\nXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n";
    for format in FORMATS {
        let mut input = sample(&format!("{format}.sample.in"));
        input.extend_from_slice(extra);
        assert_ok(&batch(format, &input), &sample(&format!("{format}.sample.out")), format);
    }
    // Announcing fewer cases than given answers only those.
    let run = batch("ttt-count", b"2\n.........\nXX..O....\nX...OX...\n");
    assert_ok(&run, b"131184 77904\n191 194\n", "ttt-count with count 2 of 3 lines");
    let run = batch("lol", b"1\nL*****L\nnot a strip\n");
    assert_ok(&run, b"1\n", "lol with count 1");
    let run = batch("treblecross", b"1\n.....\n..\n");
    assert_ok(&run, b"WINNING\n3\n", "treblecross with count 1");
}

#[test]
fn zero_cases_give_no_output() {
    for format in FORMATS {
        assert_ok(&batch(format, b"0\n"), b"", format);
        assert_ok(&batch(format, b"0"), b"", format);
        assert_ok(&batch(format, b"0\r\nignored\r\n"), b"", format);
    }
}

#[test]
fn special_answers_of_already_finished_strips() {
    assert_ok(&batch("lol", b"4\nLOL\n*LOL*\nLOLOL\nOOL*L\n"), b"-1\n-1\n-1\n1\n", "lol");
    let run = batch("treblecross", b"3\nXXX\n..XXX..\n.X.XXX.X.\n");
    assert_ok(&run, b"LOSING\n\nLOSING\n\nLOSING\n\n", "treblecross with XXX");
    let run = batch("ttt-count", b"3\nXXXOO....\nXXXOOO...\nOOO......\n");
    assert_ok(&run, b"1 0\n-1 -1\n-1 -1\n", "ttt-count finished and impossible grids");
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_input_is_bad_input_on_line_1() {
    for format in FORMATS {
        assert_bad(&batch(format, b""), 1, b"", format);
        assert_bad(&batch(format, b"\n"), 1, b"", format);
    }
}

#[test]
fn a_count_that_is_not_a_number_is_bad_input() {
    for format in FORMATS {
        for count in
            ["abc", "3x", "x3", "-1", "1.5", "1e3", "99999999999999999999999", "\u{663}", "\u{0}"]
        {
            let input = format!("{count}\n.........\n");
            assert_bad(
                &batch(format, input.as_bytes()),
                1,
                b"",
                &format!("{format} count {count:?}"),
            );
        }
        assert_bad(&batch(format, b"\xff\xfe\n"), 1, b"", &format!("{format} non-UTF-8 count"));
    }
}

#[test]
fn fewer_case_lines_than_announced_is_bad_input() {
    let run = batch("ttt-count", b"3\nXX..O....\nX...OX...\n");
    assert_bad(&run, 4, b"191 194\n232 200\n", "ttt-count 2 of 3");
    let run = batch("ttt-count", b"3\r\nXX..O....\r\nX...OX...");
    assert_bad(&run, 4, b"191 194\n232 200\n", "ttt-count 2 of 3, CRLF, no final newline");
    let run = batch("lol", b"2\n***\n");
    assert_bad(&run, 3, b"0\n", "lol 1 of 2");
    let run = batch("treblecross", b"5\n.....\n");
    assert_bad(&run, 3, b"WINNING\n3\n", "treblecross 1 of 5");
    for format in FORMATS {
        assert_bad(&batch(format, b"1\n"), 2, b"", format);
        assert_bad(&batch(format, b"1"), 2, b"", format);
    }
    // A huge announced count must not be allocated for up front.
    let run = batch("ttt-count", b"1000000000000000000\n.........\n");
    assert_bad(&run, 3, b"131184 77904\n", "ttt-count with a count of 10^18");
}

#[test]
fn ttt_count_bad_case_lines() {
    let answers = b"131184 77904\n";
    let bad: [&[u8]; 13] = [
        b"........",        // 8 cells
        b"..........",      // 10 cells
        b"",                // blank line
        b"xx..o....",       // lower case
        b"XX..0....",       // zero for O
        b"XX..O...*",       // the LOL alphabet
        b"XX..O...-",       // stray sign
        b" XX..O...",       // a leading space is not a cell
        b"XX.\tO....",      // tab inside
        b"XX..O...\xff",    // not UTF-8
        b"XX..O..\xc3\xa9", // a two-byte character
        b"XX..O....\0",     // NUL after the grid
        b"XXX\nOOO\n...",   // a grid over three lines
    ];
    for case in bad {
        let mut input = b"2\n.........\n".to_vec();
        input.extend_from_slice(case);
        input.extend_from_slice(b"\n.........\n");
        let what = format!("ttt-count case {:?}", String::from_utf8_lossy(case));
        assert_bad(&batch("ttt-count", &input), 3, answers, &what);
    }
}

#[test]
fn lol_bad_case_lines() {
    let answers = b"0\n";
    // The alphabet is `*LO`: `.` is the other formats' empty cell and is not accepted here.
    let bad: [&[u8]; 8] =
        [b"", b"L**l", b"LxL", b"L..L", b"L*O*X", b"L*\xffL", b"L* *L", b"\xc3\xa9**"];
    for case in bad {
        let mut input = b"2\n***\n".to_vec();
        input.extend_from_slice(case);
        input.push(b'\n');
        let what = format!("lol case {:?}", String::from_utf8_lossy(case));
        assert_bad(&batch("lol", &input), 3, answers, &what);
    }
}

/// The .007 values xo ships answer Treblecross as the engine does (`--no-book` computes them):
/// strips with long free runs and X's here and there.
#[test]
fn treblecross_from_the_stored_values_equals_computing_them() {
    let mut input = b"6\n".to_vec();
    for (len, every) in
        [(5000, 0), (12_345, 700), (30_000, 4001), (777, 50), (3, 0), (20_001, 9999)]
    {
        let strip: Vec<u8> = (0..len)
            .map(|i| if every > 0 && i % every == every / 2 { b'X' } else { b'.' })
            .collect();
        input.extend_from_slice(&strip);
        input.push(b'\n');
    }
    let stored = xo(&["batch", "treblecross"], &input);
    let computed = xo(&["batch", "treblecross", "--no-book"], &input);
    assert_eq!(stored.code(), Some(0), "{}", stored.stderr);
    assert_eq!(stored.stdout_text().lines().count(), 12);
    assert_eq!(stored.stdout_text(), computed.stdout_text());
    // With a budget of one heap valued, only the stored values can answer.
    let one = xo(&["batch", "treblecross", "--max-nodes", "1"], &input);
    assert_eq!(one.stdout_text(), computed.stdout_text(), "{}", one.stderr);
}

#[test]
fn treblecross_bad_case_lines() {
    let answers = b"WINNING\n3\n";
    let bad: [&[u8]; 9] =
        [b"", b"X", b"..", b"X.", b"..x..", b"..O..", b"..*..", b".. ..", b"..\xff.."];
    for case in bad {
        let mut input = b"2\n.....\n".to_vec();
        input.extend_from_slice(case);
        input.push(b'\n');
        let what = format!("treblecross case {:?}", String::from_utf8_lossy(case));
        assert_bad(&batch("treblecross", &input), 3, answers, &what);
    }
}

#[test]
fn treblecross_strips_beyond_the_time_budget_are_refused() {
    // Three million free cells need minutes of Grundy values; a budget of 0.3 s stops the run at
    // the strip (exit status 3), naming its line and the option, after answering the line before.
    let mut input = b"2
.....
"
    .to_vec();
    input.extend_from_slice(&vec![b'.'; 3_000_000]);
    input.push(b'\n');
    let run = xo(&["batch", "treblecross", "--timeout", "0.3"], &input);
    assert_eq!(run.code(), Some(3), "over budget: exit status 3; stderr: {}", run.stderr);
    // The rest of the bad-input contract holds as well.
    assert_one_message(&run, 3, b"WINNING\n3\n", "treblecross over budget");
    assert!(run.stderr.contains("free run of 3000000 cells"), "{}", run.stderr);
    assert!(run.stderr.contains("--timeout"), "{}", run.stderr);
    for bad in ["0", "-1", "nan", "soon", "1e300", "1e19"] {
        let run = xo(&["batch", "treblecross", &format!("--timeout={bad}")], b"1\n.....\n");
        assert_eq!(run.code(), Some(2), "--timeout {bad}: {}", run.stderr);
        assert!(run.stderr.contains("--timeout"), "--timeout {bad}: {}", run.stderr);
    }
}

#[test]
fn a_ten_megabyte_line_without_newline_is_refused_promptly() {
    let huge = vec![b'X'; 10 << 20];
    // As a case line.
    let mut input = b"1\n".to_vec();
    input.extend_from_slice(&huge);
    assert_bad(&batch("ttt-count", &input), 2, b"", "ttt-count 10 MB case line");
    // As the count line.
    let digits = vec![b'7'; 10 << 20];
    assert_bad(&batch("ttt-count", &digits), 1, b"", "ttt-count 10 MB count line");
    // After good answers.
    let mut input = b"3\n.........\n".to_vec();
    input.extend_from_slice(&huge);
    assert_bad(&batch("ttt-count", &input), 3, b"131184 77904\n", "ttt-count 10 MB third line");
}

#[test]
fn help_succeeds() {
    let run = xo(&["--help"], b"");
    assert_eq!(run.code(), Some(0), "xo --help: {}", run.stderr);
    assert!(run.stdout_text().contains("batch"), "xo --help lists batch: {}", run.stdout_text());
    let run = xo(&["batch", "--help"], b"");
    assert_eq!(run.code(), Some(0), "xo batch --help: {}", run.stderr);
    let text = run.stdout_text();
    for format in FORMATS {
        assert!(text.contains(format), "xo batch --help lists {format}: {text}");
    }
    assert!(text.contains("--example"), "xo batch --help lists --example: {text}");
    // An unknown format is a usage error, not a crash.
    let run = xo(&["batch", "chess"], b"");
    assert_ne!(run.code(), Some(0));
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

// ---------------------------------------------------------------------------------------------
// Whole families of positions against plain references
// ---------------------------------------------------------------------------------------------

const TTT_LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn ttt_line(g: &[u8; 9], mark: u8) -> bool {
    TTT_LINES.iter().any(|l| l.iter().all(|&c| g[c] == mark))
}

/// Every grid of every legal game, with its (X wins, O wins) continuation counts, by plain
/// forward enumeration and unmemoised counting.
fn ttt_reference() -> HashMap<[u8; 9], (u64, u64)> {
    fn count(g: &mut [u8; 9], table: &mut HashMap<[u8; 9], (u64, u64)>) -> (u64, u64) {
        let result = if ttt_line(g, b'X') {
            (1, 0)
        } else if ttt_line(g, b'O') {
            (0, 1)
        } else {
            let xs = g.iter().filter(|&&c| c == b'X').count();
            let os = g.iter().filter(|&&c| c == b'O').count();
            let mover = if xs == os { b'X' } else { b'O' };
            let mut total = (0, 0);
            for c in 0..9 {
                if g[c] == b'.' {
                    g[c] = mover;
                    let (x, o) = count(g, table);
                    g[c] = b'.';
                    total = (total.0 + x, total.1 + o);
                }
            }
            total
        };
        table.insert(*g, result);
        result
    }
    let mut table = HashMap::new();
    count(&mut [b'.'; 9], &mut table);
    table
}

#[test]
fn ttt_count_every_grid_against_plain_enumeration() {
    let reference = ttt_reference();
    assert_eq!(reference.len(), 5478);
    // All 3^9 grids, in a scrambled order (answers depend only on their own line).
    let mut grids: Vec<[u8; 9]> = (0..3u32.pow(9))
        .map(|mut r| {
            std::array::from_fn(|_| {
                let c = b".XO"[(r % 3) as usize];
                r /= 3;
                c
            })
        })
        .collect();
    let n = grids.len();
    for i in 0..n {
        grids.swap(i, (i * 7919 + 13) % n);
    }
    let mut input = format!("{n}\n").into_bytes();
    let mut want = Vec::new();
    for g in &grids {
        input.extend_from_slice(g);
        input.push(b'\n');
        match reference.get(g) {
            Some((x, o)) => want.extend_from_slice(format!("{x} {o}\n").as_bytes()),
            None => want.extend_from_slice(b"-1 -1\n"),
        }
    }
    assert_ok(&batch("ttt-count", &input), &want, "all 3^9 grids");
}

#[test]
fn ttt_count_many_lines_with_mixed_endings_across_read_chunks() {
    // Far more than one 256 KiB read, with line lengths varying so that lines are cut by the ends
    // of reads at every offset; then a bad line deep in the input is still named exactly.
    let reference = ttt_reference();
    let mut grids: Vec<([u8; 9], String)> =
        reference.iter().map(|(g, (x, o))| (*g, format!("{x} {o}\n"))).collect();
    grids.sort();
    grids.push((*b"OOO......", "-1 -1\n".to_string()));
    let endings = ["\n", "\r\n", " \n", "\t\r\n", "  \n"];
    let cases = 200_003;
    let mut input = format!("{cases}\r\n").into_bytes();
    let mut want = Vec::new();
    for k in 0..cases {
        let (grid, answer) = &grids[(k * 7919) % grids.len()];
        input.extend_from_slice(grid);
        input.extend_from_slice(endings[k % endings.len()].as_bytes());
        want.extend_from_slice(answer.as_bytes());
    }
    assert!(input.len() > 8 * 256 * 1024);
    let mut unterminated = input.clone();
    unterminated.truncate(unterminated.len() - 1);
    assert_ok(&batch("ttt-count", &input), &want, "200003 grids");
    assert_ok(&batch("ttt-count", &unterminated), &want, "200003 grids, no final newline");

    let bad_case = 150_001;
    let at = input
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(bad_case)
        .map(|(i, _)| i + 1)
        .unwrap();
    let mut bad = input.clone();
    bad[at + 4] = b'o';
    let run = batch("ttt-count", &bad);
    assert_bad(&run, bad_case as u64 + 2, &want, "a bad grid on line 150003");
    assert!(run.stderr.contains("character 'o' at column 5 is not one of '.XO'"), "{}", run.stderr);
}

/// Plain LOL minimax over a text strip (`*` empty), memoised on the strip.
fn lol_reference(strip: &mut Vec<u8>, memo: &mut HashMap<Vec<u8>, i8>) -> i8 {
    if let Some(&v) = memo.get(strip) {
        return v;
    }
    let v = if strip.windows(3).any(|w| w == b"LOL") {
        -1
    } else {
        let mut best: Option<i8> = None;
        for i in 0..strip.len() {
            if strip[i] != b'*' {
                continue;
            }
            for letter in [b'L', b'O'] {
                strip[i] = letter;
                let child = -lol_reference(strip, memo);
                strip[i] = b'*';
                best = Some(best.map_or(child, |b| b.max(child)));
            }
        }
        best.unwrap_or(0)
    };
    memo.insert(strip.clone(), v);
    v
}

#[test]
fn lol_every_strip_up_to_7_cells_against_plain_minimax() {
    let mut memo = HashMap::new();
    let mut input = Vec::new();
    let mut want = Vec::new();
    let mut cases = 0;
    for n in 1..=7u32 {
        for code in 0..3u32.pow(n) {
            let mut r = code;
            let mut strip: Vec<u8> = (0..n)
                .map(|_| {
                    let c = b"*LO"[(r % 3) as usize];
                    r /= 3;
                    c
                })
                .collect();
            input.extend_from_slice(&strip);
            input.push(b'\n');
            want.extend_from_slice(
                format!("{}\n", lol_reference(&mut strip, &mut memo)).as_bytes(),
            );
            cases += 1;
        }
    }
    let mut full = format!("{cases}\n").into_bytes();
    full.extend_from_slice(&input);
    assert_ok(&batch("lol", &full), &want, "every LOL strip of 1..=7 cells");
}

/// Plain Treblecross minimax on a bitmask of X's, memoised; returns the winning moves (0-based).
struct Treble {
    n: usize,
    memo: HashMap<u32, bool>,
}

impl Treble {
    fn xxx(&self, mask: u32) -> bool {
        (0..self.n - 2).any(|i| mask >> i & 0b111 == 0b111)
    }

    fn wins(&mut self, mask: u32) -> bool {
        if let Some(&w) = self.memo.get(&mask) {
            return w;
        }
        let w = !self.xxx(mask) && !self.winning_moves(mask).is_empty();
        self.memo.insert(mask, w);
        w
    }

    fn winning_moves(&mut self, mask: u32) -> Vec<usize> {
        if self.xxx(mask) {
            return Vec::new();
        }
        (0..self.n)
            .filter(|&i| mask >> i & 1 == 0)
            .filter(|&i| {
                let next = mask | 1 << i;
                self.xxx(next) || !self.wins(next)
            })
            .collect()
    }
}

#[test]
fn treblecross_every_strip_up_to_11_cells_against_plain_minimax() {
    let mut input = Vec::new();
    let mut want = Vec::new();
    let mut cases = 0;
    for n in 3..=11usize {
        let mut reference = Treble { n, memo: HashMap::new() };
        for mask in 0..1u32 << n {
            input.extend((0..n).map(|i| if mask >> i & 1 == 1 { b'X' } else { b'.' }));
            input.push(b'\n');
            let moves = reference.winning_moves(mask);
            want.extend_from_slice(if moves.is_empty() { b"LOSING\n" } else { b"WINNING\n" });
            let cells: Vec<String> = moves.iter().map(|m| (m + 1).to_string()).collect();
            want.extend_from_slice(cells.join(" ").as_bytes());
            want.push(b'\n');
            cases += 1;
        }
    }
    let mut full = format!("{cases}\n").into_bytes();
    full.extend_from_slice(&input);
    assert_ok(&batch("treblecross", &full), &want, "every Treblecross strip of 3..=11 cells");
}

#[test]
fn treblecross_long_strip_is_answered_consistently_with_its_mirror() {
    // A long strip and its mirror image: the winning cells must mirror too (cell c <-> n + 1 - c).
    let n = 20_000;
    let strip: Vec<u8> =
        (0..n).map(|i| if i % 997 == 5 || i % 1201 == 600 { b'X' } else { b'.' }).collect();
    let mirror: Vec<u8> = strip.iter().rev().copied().collect();
    let mut input = b"2\n".to_vec();
    input.extend_from_slice(&strip);
    input.push(b'\n');
    input.extend_from_slice(&mirror);
    input.push(b'\n');
    let run = batch("treblecross", &input);
    assert_eq!(run.code(), Some(0), "{}", run.stderr);
    let text = run.stdout_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "two answers of two lines each");
    assert_eq!(lines[0], lines[2], "the flag of a strip and of its mirror");
    let cells = |line: &str| -> Vec<usize> {
        line.split(' ').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect()
    };
    let (a, b) = (cells(lines[1]), cells(lines[3]));
    assert!(a.windows(2).all(|w| w[0] < w[1]), "cells increase");
    assert!(a.iter().all(|&c| (1..=n).contains(&c) && strip[c - 1] == b'.'), "cells are empty");
    let mut mirrored: Vec<usize> = b.iter().map(|&c| n + 1 - c).collect();
    mirrored.sort_unstable();
    assert_eq!(a, mirrored);
    assert_eq!(lines[0] == "WINNING", !a.is_empty());
}
