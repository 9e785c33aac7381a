//! The three classic judge formats: `ttt-count`, `lol` and `treblecross`.
//!
//! Each reads a count line and that many case lines, answers every case from its own line alone
//! (the three judge problems through the core's [`Judge`](xo_core::query::Judge), `connect4-score`
//! through its one entry point),
//! and streams: input is read in large chunks and split into lines in place ([`LineReader`]),
//! answers are appended straight to one output buffer that is handed to the writer whenever it
//! fills, so memory does not grow with the number of lines. Bad input stops the run with a
//! [`BatchError`] naming the line.

mod answerer;
mod connect4;
mod lines;
mod lol;
mod treblecross;
mod ttt_count;

pub use answerer::{Answerer, CaseError};
pub use connect4::Connect4ScoreAnswerer;
pub use lines::{find_newline, BatchError, LineReader};
pub use lol::LolAnswerer;
pub use treblecross::TreblecrossAnswerer;
pub use ttt_count::TttCountAnswerer;
pub use xo_core::query::JudgeError as AnswerError;

use std::io::{Read, Write};
use xo_core::budget::Ticker;

/// Output bytes gathered before they are handed to the writer.
const OUT_CHUNK: usize = 256 * 1024;

/// Runs one batch: reads the count line and that many cases from `input`, writes the answers to
/// `output`. Lines after the announced cases are ignored. `input` is read in chunks of
/// 256 KiB, so it needs no buffering of its own; `output` receives writes of
/// about 256 KiB. On bad input the answers before the bad line are written, then the error is
/// returned.
///
/// ```
/// use xo_cli::batch::{run, TttCountAnswerer};
/// let mut out = Vec::new();
/// run(&mut TttCountAnswerer::new(), &b"1\n.........\n"[..], &mut out).unwrap();
/// assert_eq!(out, b"131184 77904\n");
/// ```
pub fn run<A: Answerer>(
    answerer: &mut A,
    input: impl Read,
    output: impl Write,
) -> Result<(), BatchError> {
    let mut lines = LineReader::new(input);
    let count = lines.count_line()?;
    drive(answerer, lines, Some(count), output)
}

/// Runs a batch of a format without a count line: every line of `input` (blank lines skipped) is
/// a case, answered to `output` in order. Bad input stops the run as in [`run`].
///
/// ```
/// use xo_cli::batch::{run_all, Connect4ScoreAnswerer};
/// let mut out = Vec::new();
/// run_all(&mut Connect4ScoreAnswerer::new(), &b"2252576253462244111563365343671351441 -1\n"[..], &mut out).unwrap();
/// assert_eq!(out, b"-1\n");
/// ```
pub fn run_all<A: Answerer>(
    answerer: &mut A,
    input: impl Read,
    output: impl Write,
) -> Result<(), BatchError> {
    drive(answerer, LineReader::new(input), None, output)
}

/// Answers the case lines of `lines` (`count` of them, or every line to the end of input, blank
/// ones skipped, when `None`), streaming the answers to `output`.
fn drive<A: Answerer, R: Read>(
    answerer: &mut A,
    mut lines: LineReader<R>,
    count: Option<u64>,
    mut output: impl Write,
) -> Result<(), BatchError> {
    let mut out = Vec::with_capacity(OUT_CHUNK + 64);
    let mut result = Ok(());
    let mut case = 0;
    let mut ticker = Ticker::default();
    loop {
        let line = match count {
            Some(count) if case == count => break,
            Some(count) => lines.case_line(case, count, A::MAX_LINE).map(Some),
            None => lines.next_case(A::MAX_LINE),
        };
        case += 1;
        if line.is_ok()
            && ticker.tick(answerer.meter())
            && let Err(stopped) = ticker.finish(answerer.meter(), ())
        {
            result = Err(lines.stopped(stopped));
            break;
        }
        let answered = match line {
            Ok(None) => break,
            Ok(Some(line)) if count.is_none() && line.iter().all(u8::is_ascii_whitespace) => {
                continue
            }
            Ok(Some(line)) => answerer.answer(line, &mut out).map_err(|e| match e {
                CaseError::Bad(expected) => lines.bad_line(expected),
                CaseError::Stopped(stopped) => lines.stopped(stopped),
            }),
            Err(e) => Err(e),
        };
        if let Err(e) = answered {
            result = Err(e);
            break;
        }
        if out.len() >= OUT_CHUNK {
            output.write_all(&out).map_err(BatchError::Io)?;
            out.clear();
        }
    }
    output.write_all(&out).map_err(BatchError::Io)?;
    output.flush().map_err(BatchError::Io)?;
    result
}
