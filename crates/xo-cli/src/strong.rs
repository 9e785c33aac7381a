//! Strong databases on disk: `xo solve GAME --strong --db DIR` writes one checked file per tier
//! through the store (atomically, under the folder's lock, into a folder of this game only, so an
//! interrupted solve never leaves a file that looks valid, and a re-run resumes from the tiers
//! already written), and `xo query DIR ...` answers from them with the same report `xo solve`
//! gives, reading the few blocks of the two tiers it needs.

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::resolve_game;
use anyhow::{bail, Result};
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::{Board, MAX_BOARD_CELLS};
use xo_core::query::{Answer, Game, Query, Question};
use xo_core::rules::Rules;
use xo_core::solve::strong::{solve_tier, tiers, Record, Tier};
use xo_core::Value;
use xo_store::database::{Database, Writer};

/// The `made by` string of every tier file this xo writes, single-process or distributed (the
/// two make the same bytes).
pub fn made_by() -> String {
    format!("xo {} (tiered retrograde solve)", env!("CARGO_PKG_VERSION"))
}

/// Peak resident memory of this process, from /proc (0 where unknown).
pub fn peak_memory_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The game `game` checked for a strong solve: its rules, board and tiers (bad input: an octal
/// game, a board too large, tiers that cannot be numbered).
pub fn prepare(game: &str) -> Result<(Rules, Board, Vec<Tier>)> {
    let Game::Placement(rules) = resolve_game(game, None)? else {
        bail!("--strong solves placement games; octal games have nim-sequences (xo grundy)");
    };
    if rules.cells() > MAX_BOARD_CELLS {
        bail!(
            "--strong takes boards of at most {MAX_BOARD_CELLS} cells; {} has {}",
            rules.name,
            rules.cells()
        );
    }
    let board = Board::new(&rules)?;
    let Some(tiers) = tiers(&board) else {
        bail!(
            "{} has tiers of more than 2^64 positions: a strong solve of it is beyond any memory",
            rules.name
        );
    };
    Ok((rules, board, tiers))
}

/// Strong-solves `game` into `dir`, tier by tier from the full board back, within `budget`.
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
    let (rules, board, tiers) = prepare(game)?;
    let total: u64 = tiers.iter().map(Tier::len).sum();
    let (meter, bar) = progress(budget, total);
    // Two tiers in memory at once, two bytes a position.
    let most = tiers.windows(2).map(|w| w[0].len().saturating_add(w[1].len())).max().unwrap_or(1);
    let _two_tiers = meter.reserve(most.saturating_mul(2)).map_err(|s| {
        OverBudget::from(s.reaching(format!(
            "two tiers of {most} positions need {} MiB",
            most.saturating_mul(2) >> 20
        )))
    })?;
    let db = Writer::open(dir, &rules)?;
    let started = Instant::now();
    let made_by = made_by();
    let (mut positions, mut resumed) = (0u64, 0u32);
    let mut next: Option<(&Tier, Vec<Record>)> = None;
    for tier in tiers.iter().rev() {
        let t = tier.marks;
        let kept = db.committed(t, tier.len()).map(|file| file.records(0..tier.len()));
        let records = match kept {
            Some(Ok(records)) => {
                resumed += 1;
                records
            }
            _ => {
                let after = next.as_ref().map(|(t, r)| (*t, &r[..]));
                let records =
                    xo_core::threads::run_on(threads, || solve_tier(&board, tier, after, &meter))
                        .map_err(|s| {
                        OverBudget::from(s.reaching(format!("tier {t} of {}", board.cells())))
                    })?;
                db.write(t, &records, &made_by)?;
                records
            }
        };
        positions += tier.len();
        meter
            .set_done(u64::from(board.cells() as u32 - t + 1), board.cells() as u64 + 1)
            .map_err(OverBudget::from)?;
        next = Some((tier, records));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let bytes = db.bytes();
    drop(db);
    let (Some((_, root)), secs) = (next, started.elapsed().as_secs_f64()) else { unreachable!() };
    let value = root.first().and_then(|r| r.scored());
    writeln!(
        out,
        "{}: {} positions in {} tiers ({resumed} resumed), {bytes} bytes ({:.2} per position), {secs:.2} s on {threads} thread{}, peak memory {} MiB\nvalue of the empty board: {}",
        rules.name,
        positions,
        board.cells() + 1,
        bytes as f64 / positions.max(1) as f64,
        if threads == 1 { "" } else { "s" },
        peak_memory_kib() >> 10,
        value.map_or("unknown".into(), |s| format!("{} in {} plies", s.value, s.remoteness)),
    )?;
    Ok(())
}

/// A meter for `budget` with a bar of the positions solved, on a terminal.
fn progress(
    budget: &BudgetArgs,
    total: u64,
) -> (xo_core::budget::Meter, Option<indicatif::ProgressBar>) {
    use std::io::IsTerminal;
    use xo_core::budget::{Meter, Progress};
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
        rules.name,
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
