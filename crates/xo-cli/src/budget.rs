//! The budget flags every long-running command takes (`--timeout`, `--max-nodes`,
//! `--memory-mib`), their checks, and the one error that says a job stopped at its budget and
//! which flag raises it.

use std::time::Duration;
use xo_core::budget::{Budget, Limit, Meter, Progress, Stopped};

/// The most seconds `--timeout` accepts (a year).
pub const MAX_TIMEOUT: f64 = 365.0 * 24.0 * 3600.0;

/// The most MiB `--memory-mib` accepts (1 TiB).
pub const MAX_MEMORY_MIB: u64 = 1 << 20;

/// Bounds on a job; over any of them xo stops, says which, and exits with status 3.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct BudgetArgs {
    /// Stop after this many seconds.
    #[arg(long, alias = "max-seconds", value_name = "SECONDS", default_value = "300", value_parser = parse_seconds,
          allow_hyphen_values = true)]
    pub timeout: Duration,
    /// Stop after visiting this many positions (at least 1, as --timeout is more than 0).
    #[arg(long, value_name = "N", default_value_t = Budget::DEFAULT_NODES, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// The most memory the job's tables may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = Budget::DEFAULT_MEMORY >> 20, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u64).range(1..=MAX_MEMORY_MIB))]
    pub memory_mib: u64,
}

impl BudgetArgs {
    /// The budget the flags describe.
    pub fn budget(&self) -> Budget {
        Budget {
            max_nodes: self.max_nodes,
            timeout: self.timeout,
            memory_bytes: self.memory_mib << 20,
        }
    }

    /// Puts the flags' budget into `request` (the request then carries the whole job).
    ///
    /// ```
    /// use clap::Parser;
    /// use xo_cli::budget::BudgetArgs;
    /// #[derive(Parser)]
    /// struct Args { #[command(flatten)] budget: BudgetArgs }
    /// let mut r = xo_core::request::Request::new("tictactoe");
    /// Args::parse_from(["xo", "--memory-mib", "64"]).budget.fill(&mut r);
    /// assert_eq!((r.memory_mib, r.timeout), (Some(64), Some(300.0)));
    /// ```
    pub fn fill(&self, request: &mut xo_core::request::Request) {
        request.timeout = Some(self.timeout.as_secs_f64());
        request.max_nodes = Some(self.max_nodes);
        request.memory_mib = Some(self.memory_mib);
    }

    /// A meter for the flags' budget, reporting progress on a spinner when standard error is a
    /// terminal.
    pub fn meter(&self) -> (Meter, Option<indicatif::ProgressBar>) {
        meter(self.budget())
    }
}

/// Reads `--timeout`: a positive number of seconds, at most a year.
///
/// ```
/// use xo_cli::budget::parse_seconds;
/// assert_eq!(parse_seconds("1.5").unwrap().as_millis(), 1500);
/// assert!(parse_seconds("1e300").unwrap_err().contains("at most"));
/// assert!(parse_seconds("-1").is_err() && parse_seconds("nan").is_err() && parse_seconds("x").is_err());
/// ```
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 =
        text.trim().parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("must be a positive number of seconds, not {text}"));
    }
    if seconds > MAX_TIMEOUT {
        return Err(format!("{text} seconds is too long: at most {MAX_TIMEOUT} (a year)"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("{text}: {e}"))
}

/// How to raise `limit`, after a stop's message (nothing for a cancelled job).
fn raise(limit: Limit) -> String {
    match limit {
        Limit::Cancelled => String::new(),
        limit => format!("; raise it with {}", flag(limit)),
    }
}

/// What raises `limit`: its flag (nothing does for a cancelled job).
pub fn flag(limit: Limit) -> &'static str {
    match limit {
        Limit::Nodes => "--max-nodes",
        Limit::Time => "--timeout",
        Limit::Memory => "--memory-mib",
        Limit::Cancelled => "no flag: it was cancelled",
    }
}

/// A job stopped at its budget: exit status 3, with the flag that raises the budget; or
/// cancelled (exit status 130, as for an interrupt), saying so and naming no budget.
///
/// ```
/// use xo_cli::budget::OverBudget;
/// use xo_core::budget::{Budget, Meter};
/// let meter = Meter::new(Budget::default().with_max_nodes(1));
/// let over = OverBudget::from(meter.tick(2).unwrap_err());
/// assert!(over.to_string().ends_with("raise it with --max-nodes"));
/// let meter = Meter::default();
/// meter.cancel();
/// let cancelled = OverBudget::from(meter.check().unwrap_err()).to_string();
/// assert!(cancelled.starts_with("cancelled after") && !cancelled.contains("raise"));
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{stopped}{raise}", raise = raise(stopped.limit))]
pub struct OverBudget {
    /// The stop, as the engine reported it.
    pub stopped: Stopped,
    /// Where it happened (a line of input), if anywhere in particular.
    pub context: Option<String>,
}

impl From<Stopped> for OverBudget {
    fn from(stopped: Stopped) -> Self {
        OverBudget { stopped, context: None }
    }
}

/// A meter for `budget`, with a spinner on standard error when it is a terminal.
pub fn meter(budget: Budget) -> (Meter, Option<indicatif::ProgressBar>) {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return (Meter::new(budget), None);
    }
    let bar = indicatif::ProgressBar::new_spinner();
    let shown = bar.clone();
    let meter = Meter::with_progress(budget, move |p: Progress| {
        let done = p.done.map_or(String::new(), |(d, t)| format!(", {d} of {t}"));
        shown.set_message(format!("{} positions, {:.1?}{done}", p.nodes, p.elapsed));
        shown.tick();
    });
    (meter, Some(bar))
}
