//! The three classic judge formats: `ttt-count`, `lol` and `treblecross`.
//!
//! Each reads a count line and that many case lines, answers every case from its own line alone,
//! and streams: lines are read one at a time into a reused, length-capped buffer, so memory does
//! not grow with the number of lines. Bad input stops the run with a [`BatchError`] naming the line.

mod lines;
mod lol;
mod treblecross;
mod ttt_count;

pub use lines::{BatchError, LineReader};
pub use lol::LolAnswerer;
pub use treblecross::TreblecrossAnswerer;
pub use ttt_count::TttCountAnswerer;

use std::io::{BufRead, Write};

/// Something that answers the case lines of one format.
pub trait Answerer {
    /// The longest case line this format accepts (in bytes, before trimming).
    const MAX_LINE: usize;

    /// Writes the answer to one case line (already stripped of its line ending and trailing
    /// spaces). `Err` carries what was expected, for the message.
    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), String>;
}

/// Runs one batch: reads the count line and that many cases from `input`, writes the answers to
/// `output`. Lines after the announced cases are ignored.
///
/// ```
/// use xo_cli::batch::{run, TttCountAnswerer};
/// let mut out = Vec::new();
/// run(&mut TttCountAnswerer::new(), &b"1\n.........\n"[..], &mut out).unwrap();
/// assert_eq!(out, b"131184 77904\n");
/// ```
pub fn run<A: Answerer>(
    answerer: &mut A,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), BatchError> {
    let mut lines = LineReader::new(input);
    let count = lines.count_line()?;
    let mut answer = Vec::new();
    for case in 0..count {
        let line = lines.case_line(case, count, A::MAX_LINE)?;
        answer.clear();
        answerer.answer(line, &mut answer).map_err(|expected| lines.bad_line(expected))?;
        output.write_all(&answer).map_err(BatchError::Io)?;
    }
    output.flush().map_err(BatchError::Io)
}
