//! The one driver of the strong (tiered retrograde) solve, generic over its [`Transport`]: one
//! process ([`super::single::Single`]) or the ranks of an MPI job (`crate::distributed`).
//!
//! It exists so that the tier loop is written once: the resume check, the memory reservation,
//! which records of the next tier this process holds, the solve, the write, the progress and the
//! summary. A transport says only what differs: which share of a tier this process solves, how
//! the children's records it does not hold reach it, how a solved tier becomes a committed file,
//! and how the processes agree on every step (trivially, for one process).

use super::shared::prepare;
use crate::budget::{BudgetArgs, OverBudget};
use anyhow::{bail, Result};
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::Rules;
use xo_core::solve::strong::{Record, Tier};
use xo_store::database::{tier_path, Database, Writer};

/// A tier's state in the folder when the solve reaches it.
#[derive(Debug)]
pub enum Found {
    /// Not committed: the tier is solved.
    Absent,
    /// Committed; this process's share of its records is read from its file when the tier below
    /// is solved.
    Committed,
    /// Committed, with this process's share of its records read already.
    Read(Vec<Record>),
}

/// Where the records of a strong solve live and how they travel: the part of the driver that
/// differs between one process and the ranks of an MPI job.
///
/// Every method is called by every process at the same point of the solve, so a transport may
/// use collective operations in any of them.
pub trait Transport {
    /// Whether the meter's progress is set (and its budget checked) on tiers resumed too, not
    /// only on tiers solved.
    const CHECKS_RESUMED: bool;

    /// The meter for `budget` of a solve of `total` positions, with a progress bar to clear at
    /// its end when the transport shows one.
    fn meter(&self, budget: &BudgetArgs, total: u64) -> (Meter, Option<indicatif::ProgressBar>);

    /// The bytes this process reserves for the whole solve of `tiers`, and what they are for
    /// (the budget's message when they do not fit).
    fn need(&self, board: &Board, tiers: &[Tier]) -> (u64, String);

    /// Opens the folder `dir` for `rules`: the writer on the process that commits tiers, `None`
    /// on the others.
    fn open(&mut self, dir: &Path, rules: &Rules) -> Result<Option<Writer>>;

    /// The positions of a tier of `len` positions this process solves (and holds, as the next
    /// tier, while the tier below is solved).
    fn share(&self, len: u64) -> Range<u64>;

    /// Whether `tier` is committed in the folder already, as every process learns it (`writer`
    /// is [`Transport::open`]'s).
    fn found(&self, writer: Option<&Writer>, tier: &Tier) -> Found;

    /// `result` on this process, made an error on every process when any failed (`what` it
    /// failed to do, for the others' message).
    fn agree<T>(&self, what: &str, result: Result<T>) -> Result<T>;

    /// Solves this process's share of `tier` within `meter`, given the next tier (one mark
    /// more; `None` for the full board) with this process's share of it: its range and records.
    fn solve(
        &mut self,
        board: &Board,
        tier: &Tier,
        next: Option<(&Tier, &Range<u64>, &[Record])>,
        meter: &Meter,
    ) -> Result<Vec<Record>>;

    /// Commits `tier` into the folder `dir`, given this process's share of its `records`
    /// (`writer` is [`Transport::open`]'s).
    fn commit(
        &mut self,
        dir: &Path,
        writer: Option<&Writer>,
        tier: &Tier,
        records: &[Record],
    ) -> Result<()>;

    /// Writes the summary of a finished solve (called on the process holding the writer only).
    fn summary(&self, solved: &Solved, out: &mut impl Write) -> Result<()>;
}

/// A finished solve, as its summary tells it.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The game's name.
    pub game: String,
    /// Positions in all tiers.
    pub positions: u64,
    /// Tiers (the board's cells and one).
    pub tiers: u32,
    /// Tiers found committed instead of solved.
    pub resumed: u32,
    /// Bytes of the tier files.
    pub bytes: u64,
    /// Seconds since the folder was opened.
    pub secs: f64,
    /// The empty board's record, when known.
    pub root: Option<Record>,
}

impl Solved {
    /// Bytes of the tier files per position.
    pub fn per_position(&self) -> f64 {
        self.bytes as f64 / self.positions.max(1) as f64
    }

    /// The empty board's value as the summary says it.
    pub fn value(&self) -> String {
        let value = self.root.and_then(|r| r.scored());
        value.map_or("unknown".into(), |s| format!("{} in {} plies", s.value, s.remoteness))
    }
}

/// Strong-solves `game` into `dir` over `transport`, tier by tier from the full board back,
/// within `budget` (per process), resuming below the tiers already committed; the summary goes
/// to `out`.
pub fn solve<T: Transport>(
    transport: &mut T,
    game: &str,
    dir: &Path,
    budget: &BudgetArgs,
    out: &mut impl Write,
) -> Result<()> {
    // Every process reads the same arguments, so bad input fails everywhere alike.
    let (rules, board, tiers) = prepare(game)?;
    let total: u64 = tiers.iter().map(Tier::len).sum();
    let (meter, bar) = transport.meter(budget, total);
    let (need, what) = transport.need(&board, &tiers);
    let _reserved = meter.reserve(need).map_err(|s| OverBudget::from(s.reaching(what)))?;
    let writer = transport.open(dir, &rules)?;
    let started = Instant::now();
    let cells = board.cells() as u32;
    let (mut positions, mut resumed) = (0u64, 0u32);
    // This process's share of the next tier: in memory when solved (or read) in this run, else
    // in its file.
    let mut held: Option<Vec<Record>> = None;
    for t in (0..=cells).rev() {
        let tier = &tiers[t as usize];
        positions += tier.len();
        match transport.found(writer.as_ref(), tier) {
            Found::Committed => {
                resumed += 1;
                held = None;
                if !T::CHECKS_RESUMED {
                    continue;
                }
            }
            Found::Read(records) => {
                resumed += 1;
                held = Some(records);
                if !T::CHECKS_RESUMED {
                    continue;
                }
            }
            Found::Absent => {
                let next = tiers.get(t as usize + 1);
                let held_range = next.map_or(0..0, |n| transport.share(n.len()));
                let held_records = match (held.take(), next) {
                    (Some(records), _) => Ok(records),
                    (None, Some(_)) => read_share(dir, &rules, t + 1, &held_range),
                    (None, None) => Ok(Vec::new()),
                };
                let held_records =
                    transport.agree(&format!("to read tier {}", t + 1), held_records)?;
                let next = next.map(|n| (n, &held_range, &held_records[..]));
                let records = transport.solve(&board, tier, next, &meter)?;
                drop(held_records);
                transport.commit(dir, writer.as_ref(), tier, &records)?;
                held = Some(records);
            }
        }
        meter.set_done(u64::from(cells - t + 1), u64::from(cells) + 1).map_err(OverBudget::from)?;
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let Some(writer) = writer else { return Ok(()) };
    let root = match held.filter(|_| transport.share(1).contains(&0)) {
        Some(records) => records.first().copied(),
        None => Database::open(dir)?.tier(0)?.get(0)?,
    };
    let bytes = writer.bytes();
    drop(writer);
    let solved = Solved {
        game: rules.name().to_string(),
        positions,
        tiers: cells + 1,
        resumed,
        bytes,
        secs: started.elapsed().as_secs_f64(),
        root,
    };
    transport.summary(&solved, out)
}

/// Records `range` of committed tier `t` (checked as a whole when found committed; the blocks
/// read are checked again here), read from its file.
fn read_share(dir: &Path, rules: &Rules, t: u32, range: &Range<u64>) -> Result<Vec<Record>> {
    let tier = xo_store::tier::TierFile::open(&tier_path(dir, t), Some(rules), Some(t))?;
    if tier.len() < range.end {
        bail!("{} is not tier {t} of {}", tier.path().display(), rules.name());
    }
    Ok(tier.records(range.clone())?)
}
