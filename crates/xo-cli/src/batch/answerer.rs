//! What every batch format implements ([`Answerer`]) and the error of one case line, in a file of
//! their own so that the formats take them from here rather than from the module that runs them.

use xo_core::budget::Meter;

/// Why one case line got no answer: the core's judge error, shared by every batch format.
pub use xo_core::query::JudgeError as CaseError;

/// Something that answers the case lines of one format.
pub trait Answerer {
    /// The longest case line this format accepts (in bytes, after trimming; up to two more bytes of
    /// line ending such as `\r` or spaces are allowed before).
    const MAX_LINE: usize;

    /// Appends the answer to one case line (already stripped of its line ending and trailing
    /// spaces) to `out`, the run's output buffer: append only, never touch what is already there.
    /// `Err` carries what was expected, for the message, or the budget reached.
    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError>;

    /// The run's budget, consulted once per line (each line counts as a position, and the clock
    /// is read every [`Ticker::BATCH`] lines), so lines that need no search stop at it too.
    ///
    /// [`Ticker::BATCH`]: xo_core::budget::Ticker::BATCH
    fn meter(&self) -> &Meter;
}
