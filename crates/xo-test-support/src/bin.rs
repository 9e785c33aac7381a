//! Running the built binary (`env!("CARGO_BIN_EXE_xo")` in the calling test): with standard
//! input fed and standard output and error read on their own threads, so that neither a large
//! input nor a large output can deadlock the pipes, and time-boxed: a child still running at its
//! limit is killed.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    /// How it ended.
    pub status: ExitStatus,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error, as text.
    pub stderr: String,
    /// How long it ran.
    pub elapsed: Duration,
}

impl Run {
    /// The exit status (`None` when killed by a signal).
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Standard output as text.
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// What a run gets on standard input.
#[derive(Debug, Clone, Default)]
pub enum Feed {
    /// Nothing: standard input is `/dev/null`.
    #[default]
    Closed,
    /// These bytes, then end of input.
    Bytes(Vec<u8>),
    /// These bytes, then the second ones over and over (`yes`) until the child stops reading.
    Repeat(Vec<u8>, Vec<u8>),
}

/// `bin args...`, without the backtrace variables (a panic must not pass for a message).
pub fn command(bin: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(args).env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    cmd
}

/// `bin args...` run to its end with standard input closed.
pub fn output(bin: &str, args: &[&str]) -> Output {
    command(bin, args).stdin(Stdio::null()).output().expect("the binary runs")
}

/// Waits for `child` at most `limit`; kills it and returns `None` past that.
pub fn wait_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `cmd` with `feed` on standard input, reading its output on their own threads; `Err`
/// (naming the limit and the standard error so far) if it outlives `limit` (it is killed).
pub fn run_within(mut cmd: Command, feed: Feed, limit: Duration) -> Result<Run, String> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let input = match feed {
        Feed::Closed => None,
        Feed::Bytes(first) => Some((first, Vec::new())),
        Feed::Repeat(first, again) => Some((first, again)),
    };
    cmd.stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() });
    let start = Instant::now();
    let mut child = cmd.spawn().expect("the binary starts");
    let writer = child.stdin.take().map(|mut stdin| {
        let (first, again) = input.unwrap_or_default();
        // The child may stop reading early (bad input, a budget): a broken pipe here is expected.
        thread::spawn(move || {
            let again = again.repeat((1 << 16) / again.len().max(1));
            if stdin.write_all(&first).is_ok() && !again.is_empty() {
                while stdin.write_all(&again).is_ok() {}
            }
        })
    });
    let mut out = child.stdout.take().unwrap();
    let out_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let status = wait_within(&mut child, limit);
    let elapsed = start.elapsed();
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    let stdout = out_reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    match status {
        Some(status) => Ok(Run { status, stdout, stderr, elapsed }),
        None => Err(format!(
            "still running after {limit:?}: killed (stderr so far {:?})",
            clip(&stderr)
        )),
    }
}

/// `s` cut to its first 300 bytes, saying how long it was: for messages about large outputs.
pub fn clip(s: &str) -> String {
    if s.len() <= 300 {
        return s.to_string();
    }
    let mut end = 300;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}
