//! Strong databases on disk: `xo solve GAME --strong --db DIR` writes one checked file per tier
//! through the store (atomically, under the folder's lock, into a folder of this game only, so an
//! interrupted solve never leaves a file that looks valid, and a re-run resumes from the tiers
//! already written), and `xo query DIR ...` answers from them with the same report `xo solve`
//! gives, reading the few blocks of the two tiers it needs.
//!
//! The solve itself is the [`driver`]'s, over a transport: [`single`] here, MPI ranks in
//! `crate::distributed`.

pub mod driver;
mod shared;
pub mod single;

pub use shared::{made_by, peak_memory_kib, prepare};

use crate::budget::{BudgetArgs, OverBudget};
use anyhow::Result;
use std::io::Write;
use std::path::Path;
use xo_core::budget::Meter;
use xo_core::query::{Answer, Query, Question};
use xo_core::Value;
use xo_store::database::Database;

/// Strong-solves `game` into `dir`, tier by tier from the full board back, within `budget`: the
/// [`driver`] over the one-process transport ([`single::Single`]).
///
/// Each tier is solved on `threads` threads (the thread policy's number: the records are the
/// same with any number).
pub fn solve(
    game: &str,
    dir: &Path,
    budget: &BudgetArgs,
    threads: usize,
    out: &mut impl Write,
) -> Result<()> {
    driver::solve(&mut single::Single { threads, meter: None }, game, dir, budget, out)
}

/// [`solve`] within `meter`, made for `budget` by the caller (the Python package, whose Ctrl-C
/// cancels it): the same driver, transport, refusals and files.
///
/// ```
/// use std::time::Duration;
/// use xo_cli::budget::BudgetArgs;
/// use xo_core::budget::Meter;
/// let dir = xo_test_support::dirs::tempdir().unwrap();
/// let budget = BudgetArgs { timeout: Duration::from_secs(60), max_nodes: 1 << 30, memory_mib: 64 };
/// let db = dir.path().join("ttt");
/// xo_cli::strong::solve_within("tictactoe", &db, &budget, 1, Meter::new(budget.budget()), &mut Vec::new()).unwrap();
/// assert_eq!(xo_store::database::Database::open(&db).unwrap().rules().name(), "tictactoe");
/// // A meter cancelled by its owner stops the solve.
/// let cancelled = Meter::new(budget.budget());
/// cancelled.cancel();
/// let err = xo_cli::strong::solve_within("mnk:4,3,3", &dir.path().join("m"), &budget, 1, cancelled, &mut Vec::new());
/// assert!(err.unwrap_err().to_string().starts_with("cancelled"));
/// ```
pub fn solve_within(
    game: &str,
    dir: &Path,
    budget: &BudgetArgs,
    threads: usize,
    meter: Meter,
    out: &mut impl Write,
) -> Result<()> {
    driver::solve(&mut single::Single { threads, meter: Some(meter) }, game, dir, budget, out)
}

/// Answers `position` from the database in `dir`, as `xo solve` would (with the query, for
/// rendering), within `meter`: the store's [`Database::answer`], a few pages whatever the
/// tiers' size.
pub fn query(
    dir: &Path,
    position: Option<&str>,
    question: Question,
    meter: &Meter,
) -> Result<(Query, Answer)> {
    use xo_store::database::QueryError;
    Database::open(dir)?.answer(position, question, meter).map_err(|e| match e {
        QueryError::Stopped(stopped) => OverBudget::from(stopped).into(),
        QueryError::Input(e) => e.into(),
        QueryError::Store(e) => e.into(),
    })
}

/// `xo query DIR --info`: the game, each tier's positions and values, the bytes, how it was made;
/// within `meter` (its clock read before each block of a million records; the records are read
/// from the mapped files a block at a time, so memory stays a few MiB).
pub fn info(dir: &Path, out: &mut impl Write, meter: &Meter) -> Result<()> {
    let db = Database::open(dir)?;
    let rules = db.rules().clone();
    let first = db.tier(0)?;
    writeln!(
        out,
        "game: {}\nmade by: {}\ntier  positions  wins  draws  losses  bytes",
        rules.name(),
        first.header().made_by
    )?;
    let (mut total, mut bytes) = (0u64, 0u64);
    for t in 0..=rules.cells() as u32 {
        let tier = db.tier(t)?;
        let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
        let step = 1 << 20;
        for from in (0..tier.len()).step_by(step) {
            meter.check().map_err(OverBudget::from)?;
            for r in tier.records(from..from.saturating_add(step as u64))? {
                match r.scored().map(|s| s.value) {
                    Some(Value::Win) => wins += 1,
                    Some(Value::Draw) => draws += 1,
                    Some(Value::Loss) => losses += 1,
                    None => {}
                }
            }
        }
        let size = tier.bytes();
        writeln!(out, "{t:<4}  {:<9}  {wins}  {draws}  {losses}  {size}", tier.len())?;
        total += tier.len();
        bytes += size;
    }
    writeln!(
        out,
        "positions: {total}, bytes: {bytes} ({:.2} per position)",
        bytes as f64 / total.max(1) as f64
    )?;
    Ok(())
}
