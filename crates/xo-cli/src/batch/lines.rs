//! Reading a batch file line by line, with bounded memory and errors that name the line.
//!
//! Input is read in large chunks into one buffer and split into lines in place, so a line costs a
//! short scan for its newline rather than a read call. A line cut by the end of a chunk is moved to
//! the front of the buffer and completed by the next read; the buffer grows only while one line
//! does not fit, and never past the longest line the format allows (plus one byte to see that a
//! line is too long). Memory is therefore bounded by the format, not by the number of lines.

use std::io::{self, Read};

/// Bytes asked of the input per read.
pub const CHUNK: usize = 256 * 1024;

/// The index of the first `\n` in `bytes`, eight bytes at a time: a word's bytes equal to `\n`
/// become zero under XOR, and the lowest byte whose subtraction borrows is the first zero (higher
/// ones may be false alarms, never lower ones).
///
/// ```
/// use xo_cli::batch::find_newline;
/// assert_eq!(find_newline(b"XX..O....\r\n..."), Some(10));
/// assert_eq!(find_newline(b"no newline"), None);
/// ```
#[inline]
pub fn find_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().expect("8 bytes")) ^ NEWLINES;
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words.remainder().iter().position(|&b| b == b'\n').map(|i| at + i)
}

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
    /// The run reached its budget.
    #[error(transparent)]
    Stopped(crate::budget::OverBudget),
}

/// Reads lines out of one reused buffer, tolerating `\r\n`, trailing spaces and a missing final
/// newline, and refusing lines longer than the format allows.
pub struct LineReader<R> {
    input: R,
    /// Working buffer; the unread bytes are `buf[start..end]`.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The input has reported its end.
    eof: bool,
    /// 1-based number of the line last returned (or attempted).
    line: u64,
}

impl<R: Read> LineReader<R> {
    /// A reader at the start of `input`.
    pub fn new(input: R) -> Self {
        LineReader { input, buf: Vec::new(), start: 0, end: 0, eof: false, line: 0 }
    }

    /// Reads the next line, at most `max` bytes after trimming (and at most `max + 2` before, room
    /// for `"\r\n"`-like endings). `Ok(None)` at end of input.
    #[inline]
    fn next_line(&mut self, max: usize) -> Result<Option<&[u8]>, BatchError> {
        self.line += 1;
        let limit = max.saturating_add(2);
        let window = &self.buf[self.start..self.end];
        // The common case: the whole line is already in the buffer.
        let (from, to) = match find_newline(window) {
            Some(i) => {
                let from = self.start;
                self.start += i + 1;
                (from, from + i)
            }
            None => match self.fill_line(limit)? {
                Some(range) => range,
                None => return Ok(None),
            },
        };
        let mut line = &self.buf[from..to];
        if line.len() > limit {
            return Err(self.too_long(max));
        }
        while let [rest @ .., b'\r' | b' ' | b'\t'] = line {
            line = rest;
        }
        if line.len() > max {
            return Err(self.too_long(max));
        }
        Ok(Some(line))
    }

    /// The slow path of [`Self::next_line`]: reads until the current line is complete (newline or
    /// end of input) or known to be too long. Returns the line's range in `buf`, newline excluded.
    #[cold]
    fn fill_line(&mut self, limit: usize) -> Result<Option<(usize, usize)>, BatchError> {
        // Bytes from `start` already searched for a newline.
        let mut scanned = self.end - self.start;
        loop {
            if self.end - self.start > limit {
                // No newline within the allowed length: refuse without reading any further.
                return Ok(Some((self.start, self.end)));
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                let range = (self.start, self.end);
                self.start = self.end;
                return Ok(Some(range));
            }
            // Move the partial line to the front, growing only when it fills the buffer.
            let pending = self.end - self.start;
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.start = 0;
                self.end = pending;
            }
            if self.buf.len() < CHUNK {
                self.buf.resize(CHUNK, 0);
            } else if pending == self.buf.len() {
                // pending <= limit here, so the new length is larger.
                let grown = (self.buf.len() * 2).min(limit + 1);
                self.buf.resize(grown, 0);
            }
            let n = loop {
                match self.input.read(&mut self.buf[self.end..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(BatchError::Io(e)),
                }
            };
            if n == 0 {
                self.eof = true;
                continue;
            }
            self.end += n;
            if let Some(i) = find_newline(&self.buf[scanned..self.end]) {
                let nl = scanned + i;
                let range = (self.start, nl);
                self.start = nl + 1;
                return Ok(Some(range));
            }
            scanned = self.end;
        }
    }

    #[cold]
    fn too_long(&self, max: usize) -> BatchError {
        self.bad_line(format!("line longer than the {max} characters allowed"))
    }

    /// Reads the first line: the number of cases.
    pub fn count_line(&mut self) -> Result<u64, BatchError> {
        let parsed = match self.next_line(64)? {
            None => None,
            Some(line) => {
                let line = line.trim_ascii();
                Some(
                    std::str::from_utf8(line)
                        .ok()
                        .and_then(|s| s.parse::<u64>().ok())
                        .ok_or_else(|| format!("{:?}", String::from_utf8_lossy(line))),
                )
            }
        };
        match parsed {
            None => Err(self.bad_line("expected the number of cases, found end of input")),
            Some(Ok(count)) => Ok(count),
            Some(Err(shown)) => {
                Err(self.bad_line(format!("expected the number of cases, found {shown}")))
            }
        }
    }

    /// Reads the next line of a format without a count line; `Ok(None)` at end of input.
    pub fn next_case(&mut self, max: usize) -> Result<Option<&[u8]>, BatchError> {
        self.next_line(max)
    }

    /// Reads case `case` (0-based) of `count`.
    #[inline]
    pub fn case_line(&mut self, case: u64, count: u64, max: usize) -> Result<&[u8], BatchError> {
        let line = self.line + 1;
        match self.next_line(max)? {
            Some(text) => Ok(text),
            None => Err(BatchError::Input {
                line,
                message: format!(
                    "expected case {} of {count}, found end of input ({case} case lines given)",
                    case + 1
                ),
            }),
        }
    }

    /// The budget ran out on the line just read.
    pub fn stopped(&self, stopped: xo_core::budget::Stopped) -> BatchError {
        BatchError::Stopped(crate::budget::OverBudget {
            stopped,
            context: Some(format!("line {}", self.line)),
        })
    }

    /// An input error on the line just read.
    pub fn bad_line(&self, message: impl Into<String>) -> BatchError {
        BatchError::Input { line: self.line, message: message.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per read, to cut lines at every place.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn all_lines(data: &[u8], step: usize, max: usize) -> Result<Vec<Vec<u8>>, String> {
        let mut r = LineReader::new(Trickle { data, step });
        let mut lines = Vec::new();
        loop {
            match r.next_line(max) {
                Ok(Some(l)) => lines.push(l.to_vec()),
                Ok(None) => return Ok(lines),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    #[test]
    fn find_newline_finds_the_first() {
        for len in 0..40 {
            for nl in (0..len).chain([len]) {
                let mut bytes: Vec<u8> =
                    (0..len).map(|i| [b'.', b'X', 0x8a, 0x0b][i % 4]).collect();
                if nl < len {
                    bytes[nl] = b'\n';
                    for later in bytes.iter_mut().skip(nl + 1).step_by(3) {
                        *later = b'\n';
                    }
                }
                let want = bytes.iter().position(|&b| b == b'\n');
                assert_eq!(find_newline(&bytes), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn lines_are_the_same_however_the_input_is_cut() {
        let data = b"3\r\nabc  \n\n\t\nxyz\t \r\nlast";
        let want: Vec<Vec<u8>> =
            [&b"3"[..], b"abc", b"", b"", b"xyz", b"last"].iter().map(|l| l.to_vec()).collect();
        for step in [1, 2, 3, 5, 7, 1000] {
            assert_eq!(all_lines(data, step, 8).unwrap(), want, "step {step}");
        }
    }

    #[test]
    fn long_lines_are_refused_with_their_number() {
        // Exactly max after trimming, with up to two bytes of ending: fine.
        assert_eq!(all_lines(b"abcd \r\n", 3, 4).unwrap(), vec![b"abcd".to_vec()]);
        for data in [&b"ok\nabcde\n"[..], b"ok\nabcde", b"ok\nabcd   \n", b"ok\nabcd   "] {
            for step in [1, 4, 100] {
                assert_eq!(
                    all_lines(data, step, 4).unwrap_err(),
                    "line 2: line longer than the 4 characters allowed",
                    "{:?} step {step}",
                    String::from_utf8_lossy(data)
                );
            }
        }
    }

    #[test]
    fn a_huge_line_is_refused_with_bounded_reading() {
        let huge = vec![b'X'; 50 * CHUNK];
        let mut input = &huge[..];
        let mut r = LineReader::new(&mut input);
        assert!(r.next_line(64).is_err());
        assert!(r.buf.len() <= CHUNK, "buffer grew to {}", r.buf.len());
        assert!(input.len() >= 48 * CHUNK, "read too far");
        // A long allowed line grows the buffer just enough.
        let mut long = vec![b'.'; 3 * CHUNK];
        long.push(b'\n');
        let mut r = LineReader::new(&long[..]);
        assert_eq!(r.next_line(4 * CHUNK).unwrap().map(<[u8]>::len), Some(3 * CHUNK));
        assert!(r.buf.len() <= 4 * CHUNK + 3);
    }
}
