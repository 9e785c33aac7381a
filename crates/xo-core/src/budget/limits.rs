//! The bounds a job runs within, and the words a job uses when it stops at one of them.
//!
//! [`Budget`] is what a caller asks for; [`Limit`] and [`Stopped`] are what an engine reports when
//! it reaches one of the budget's bounds. These are plain values, apart from the meter that spends
//! them, so that callers building budgets and reading stops need nothing else.

use std::fmt;
use std::time::Duration;

/// The bounds a job must stay within. Every field has a default that keeps a job within minutes
/// and a few GiB.
///
/// ```
/// use std::time::Duration;
/// use xo_core::budget::Budget;
/// let b = Budget::default().with_timeout(Duration::from_secs(5));
/// assert_eq!(b.timeout, Duration::from_secs(5));
/// assert_eq!(b.memory_bytes, 2 << 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The most positions (search nodes, Grundy values, enumerated positions) to visit.
    pub max_nodes: u64,
    /// The most wall time to spend.
    pub timeout: Duration,
    /// The most memory the job's tables may take, in bytes.
    pub memory_bytes: u64,
}

impl Budget {
    /// The default time budget: five minutes.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
    /// The default memory budget: 2 GiB.
    pub const DEFAULT_MEMORY: u64 = 2 << 30;
    /// The default node budget: 10^11 positions (more than five minutes of any engine).
    pub const DEFAULT_NODES: u64 = 100_000_000_000;

    /// This budget with another time limit.
    pub fn with_timeout(self, timeout: Duration) -> Budget {
        Budget { timeout, ..self }
    }

    /// This budget with another node limit.
    pub fn with_max_nodes(self, max_nodes: u64) -> Budget {
        Budget { max_nodes, ..self }
    }

    /// This budget with another memory limit.
    pub fn with_memory(self, memory_bytes: u64) -> Budget {
        Budget { memory_bytes, ..self }
    }

    /// The memory limit as a `usize`, for sizing tables.
    pub fn memory_usize(&self) -> usize {
        usize::try_from(self.memory_bytes).unwrap_or(usize::MAX)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_nodes: Self::DEFAULT_NODES,
            timeout: Self::DEFAULT_TIMEOUT,
            memory_bytes: Self::DEFAULT_MEMORY,
        }
    }
}

/// Which limit of a [`Budget`] a job reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Limit {
    /// [`Budget::max_nodes`].
    Nodes,
    /// [`Budget::timeout`].
    Time,
    /// [`Budget::memory_bytes`].
    Memory,
    /// No budget: the job was cancelled from outside ([`Meter::cancel`]: a client went away,
    /// a search that no longer needs its helpers).
    ///
    /// [`Meter::cancel`]: super::Meter::cancel
    Cancelled,
}

impl Limit {
    pub(super) fn code(self) -> u8 {
        match self {
            Limit::Nodes => 1,
            Limit::Time => 2,
            Limit::Memory => 3,
            Limit::Cancelled => 4,
        }
    }

    pub(super) fn from_code(code: u8) -> Option<Limit> {
        match code {
            1 => Some(Limit::Nodes),
            2 => Some(Limit::Time),
            3 => Some(Limit::Memory),
            4 => Some(Limit::Cancelled),
            _ => None,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node",
            Limit::Time => "time",
            Limit::Memory => "memory",
            Limit::Cancelled => "cancelled",
        })
    }
}

/// A job stopped at its budget before it had an answer: which limit, and how far it got.
///
/// ```
/// use std::time::Duration;
/// use xo_core::budget::{Budget, Limit, Meter};
/// let meter = Meter::new(Budget::default().with_max_nodes(10));
/// let stopped = meter.tick(11).unwrap_err();
/// assert_eq!(stopped.limit, Limit::Nodes);
/// assert!(stopped.to_string().starts_with("stopped at the node budget (10 positions)"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stopped {
    /// The limit reached.
    pub limit: Limit,
    /// The limit's value: positions, milliseconds or bytes.
    pub budget: u64,
    /// Positions visited before stopping.
    pub nodes: u64,
    /// Wall time spent, in milliseconds.
    pub elapsed_ms: u64,
    /// How far the job got, in words (empty when there is nothing more to say).
    pub reached: String,
    /// What a gravity game's score or value search had proven of the score by then, when that
    /// tells something of the value (at least or at most a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven: Option<crate::value::ScoreBounds>,
    /// How the asker raises the budget, in words a front end puts in (the server's request
    /// parameter; empty when there is nothing to say).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub raised_by: String,
}

impl Stopped {
    /// The same stop, with what the engine reached in words.
    pub fn reaching(mut self, reached: impl Into<String>) -> Stopped {
        self.reached = reached.into();
        self
    }

    /// The same stop, saying how the asker raises the budget (the front end's flag or
    /// parameter).
    ///
    /// ```
    /// use xo_core::budget::{Budget, Meter};
    /// let stopped = Meter::new(Budget::default().with_max_nodes(10)).tick(11).unwrap_err();
    /// let stopped = stopped.raised_by("max_nodes raises it");
    /// assert!(stopped.to_string().ends_with("; the value is unknown; max_nodes raises it"));
    /// ```
    pub fn raised_by(mut self, how: impl Into<String>) -> Stopped {
        self.raised_by = how.into();
        self
    }

    /// The same stop, with the bounds a score search had proven on the score.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::value::ScoreBounds;
    /// let stopped = Meter::new(Budget::default().with_max_nodes(10)).tick(11).unwrap_err();
    /// let stopped = stopped.proving(ScoreBounds { at_least: 1, at_most: 4 });
    /// assert!(stopped.to_string().ends_with(
    ///     "proven: a win for the player to move, score 1 to 4; the exact score is unknown"
    /// ));
    /// ```
    pub fn proving(mut self, bounds: crate::value::ScoreBounds) -> Stopped {
        self.proven = Some(bounds);
        self
    }
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget = match self.limit {
            Limit::Nodes => format!("{} positions", self.budget),
            Limit::Time => format!("{} s", self.budget as f64 / 1000.0),
            Limit::Memory => format!("{} MiB", self.budget.div_ceil(1 << 20)),
            Limit::Cancelled => String::new(),
        };
        let (nodes, secs) = (self.nodes, self.elapsed_ms as f64 / 1000.0);
        if self.limit == Limit::Cancelled {
            write!(f, "cancelled after {nodes} positions in {secs:.1} s")?;
        } else {
            write!(
                f,
                "stopped at the {} budget ({budget}) after {nodes} positions in {secs:.1} s",
                self.limit
            )?;
        }
        if !self.reached.is_empty() {
            write!(f, ", {}", self.reached)?;
        }
        match self.proven {
            Some(bounds) if bounds.value().is_some() => {
                write!(f, ", proven: {bounds}; the exact score is unknown")?
            }
            Some(bounds) => write!(f, ", proven: {bounds}; the value is unknown")?,
            None => write!(f, "; the value is unknown")?,
        }
        if !self.raised_by.is_empty() {
            write!(f, "; {}", self.raised_by)?;
        }
        Ok(())
    }
}

impl std::error::Error for Stopped {}
