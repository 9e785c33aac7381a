//! The trivial [`Transport`] of the strong solve: one process holding every record, each tier
//! solved on the thread policy's threads and written through the store's writer at once.
//!
//! It exists so that `xo solve GAME --strong --db DIR` runs the one driver
//! ([`super::driver::solve`]) that the MPI ranks run too; nothing here talks to another process.

use super::driver::{Found, Solved, Transport};
use super::shared::{made_by, peak_memory_kib};
use crate::budget::{BudgetArgs, OverBudget};
use anyhow::Result;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::Rules;
use xo_core::solve::strong::{solve_tier, Record, Tier};
use xo_store::database::Writer;

/// One process: the whole of every tier, solved on `threads` threads.
#[derive(Debug, Clone)]
pub struct Single {
    /// The thread policy's number of threads (the records are the same with any number).
    pub threads: usize,
    /// The meter of the solve when the caller brings its own (the Python package, whose Ctrl-C
    /// cancels it), made for the same budget; else one with a progress bar on a terminal.
    pub meter: Option<Meter>,
}

impl Transport for Single {
    const CHECKS_RESUMED: bool = true;

    fn meter(&self, budget: &BudgetArgs, total: u64) -> (Meter, Option<indicatif::ProgressBar>) {
        match &self.meter {
            Some(meter) => (meter.clone(), None),
            None => progress(budget, total),
        }
    }

    fn need(&self, _board: &Board, tiers: &[Tier]) -> (u64, String) {
        // Two tiers in memory at once, two bytes a position.
        let most =
            tiers.windows(2).map(|w| w[0].len().saturating_add(w[1].len())).max().unwrap_or(1);
        let need = most.saturating_mul(2);
        (need, format!("two tiers of {most} positions need {} MiB", need >> 20))
    }

    fn open(&mut self, dir: &Path, rules: &Rules) -> Result<Option<Writer>> {
        Ok(Some(Writer::open(dir, rules)?))
    }

    fn share(&self, len: u64) -> Range<u64> {
        0..len
    }

    fn found(&self, writer: Option<&Writer>, tier: &Tier) -> Found {
        let kept = writer
            .and_then(|w| w.committed(tier.marks, tier.len()))
            .map(|file| file.records(0..tier.len()));
        match kept {
            Some(Ok(records)) => Found::Read(records),
            _ => Found::Absent,
        }
    }

    fn agree<T>(&self, _what: &str, result: Result<T>) -> Result<T> {
        result
    }

    fn solve(
        &mut self,
        board: &Board,
        tier: &Tier,
        next: Option<(&Tier, &Range<u64>, &[Record])>,
        meter: &Meter,
    ) -> Result<Vec<Record>> {
        let after = next.map(|(n, _, records)| (n, records));
        xo_core::threads::run_on(self.threads, || solve_tier(board, tier, after, meter)).map_err(
            |s| {
                OverBudget::from(s.reaching(format!("tier {} of {}", tier.marks, board.cells())))
                    .into()
            },
        )
    }

    fn commit(
        &mut self,
        _dir: &Path,
        writer: Option<&Writer>,
        tier: &Tier,
        records: &[Record],
    ) -> Result<()> {
        if let Some(writer) = writer {
            writer.write(tier.marks, records, &made_by())?;
        }
        Ok(())
    }

    fn summary(&self, s: &Solved, out: &mut impl Write) -> Result<()> {
        let threads = self.threads;
        writeln!(
            out,
            "{}: {} positions in {} tiers ({} resumed), {} bytes ({:.2} per position), {:.2} s on {threads} thread{}, peak memory {} MiB\nvalue of the empty board: {}",
            s.game,
            s.positions,
            s.tiers,
            s.resumed,
            s.bytes,
            s.per_position(),
            s.secs,
            if threads == 1 { "" } else { "s" },
            peak_memory_kib() >> 10,
            s.value(),
        )?;
        Ok(())
    }
}

/// A meter for `budget` with a bar of the positions solved, on a terminal.
fn progress(budget: &BudgetArgs, total: u64) -> (Meter, Option<indicatif::ProgressBar>) {
    use std::io::IsTerminal;
    use xo_core::budget::Progress;
    if !std::io::stderr().is_terminal() {
        return (Meter::new(budget.budget()), None);
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} positions, {msg}, {elapsed_precise} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    let shown = bar.clone();
    let meter = Meter::with_progress(budget.budget(), move |p: Progress| {
        shown.set_position(p.nodes);
        if let Some((done, all)) = p.done {
            shown.set_message(format!("tier {done} of {all}"));
        }
    });
    (meter, Some(bar))
}
