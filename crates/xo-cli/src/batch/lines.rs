//! Reading a batch file line by line, with bounded memory and errors that name the line.

use std::io::{self, BufRead, Read};

/// Why a batch run stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input is not in the format; `line` is 1-based.
    #[error("line {line}: {message}")]
    Input {
        /// The 1-based line number.
        line: u64,
        /// What was expected and what was found.
        message: String,
    },
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[source] io::Error),
}

/// Reads lines into one reused buffer, tolerating `\r\n`, trailing spaces and a missing final
/// newline, and refusing lines longer than the format allows.
pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
    line: u64,
}

impl<R: BufRead> LineReader<R> {
    /// A reader at the start of `input`.
    pub fn new(input: R) -> Self {
        LineReader { input, buf: Vec::new(), line: 0 }
    }

    /// Reads the next line, at most `max` bytes before trimming. `Ok(None)` at end of input.
    fn next_line(&mut self, max: usize) -> Result<Option<&[u8]>, BatchError> {
        self.buf.clear();
        self.line += 1;
        let limit = max as u64 + 2; // room for "\r\n"
        let n = (&mut self.input)
            .take(limit + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(BatchError::Io)?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if n as u64 > limit {
            return Err(self.bad_line(format!("line longer than the {max} characters allowed")));
        }
        while matches!(self.buf.last(), Some(b'\r' | b' ' | b'\t')) {
            self.buf.pop();
        }
        if self.buf.len() > max {
            return Err(self.bad_line(format!("line longer than the {max} characters allowed")));
        }
        Ok(Some(&self.buf))
    }

    /// Reads the first line: the number of cases.
    pub fn count_line(&mut self) -> Result<u64, BatchError> {
        if self.next_line(64)?.is_none() {
            return Err(self.bad_line("expected the number of cases, found end of input"));
        }
        let line = self.buf.trim_ascii();
        std::str::from_utf8(line).ok().and_then(|s| s.parse::<u64>().ok()).ok_or_else(|| {
            let shown = String::from_utf8_lossy(line).into_owned();
            self.bad_line(format!("expected the number of cases, found {shown:?}"))
        })
    }

    /// Reads case `case` (0-based) of `count`.
    pub fn case_line(&mut self, case: u64, count: u64, max: usize) -> Result<&[u8], BatchError> {
        let line = self.line + 1;
        match self.next_line(max)? {
            Some(_) => Ok(&self.buf),
            None => Err(BatchError::Input {
                line,
                message: format!(
                    "expected case {} of {count}, found end of input ({case} case lines given)",
                    case + 1
                ),
            }),
        }
    }

    /// An input error on the line just read.
    pub fn bad_line(&self, message: impl Into<String>) -> BatchError {
        BatchError::Input { line: self.line, message: message.into() }
    }
}
