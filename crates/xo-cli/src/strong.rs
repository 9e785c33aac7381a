//! Strong databases on disk: `xo solve GAME --strong --db DIR` writes one checked file per tier
//! (atomically: a temporary file, then a rename, so an interrupted solve never leaves a file that
//! looks valid, and a re-run resumes from the tiers already written), and `xo query DIR ...`
//! answers from them with the same report `xo solve` gives.

use crate::budget::{BudgetArgs, OverBudget};
use crate::game::resolve_game;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::{Board, MAX_BOARD_CELLS};
use xo_core::query::{from_database, Answer, Game, Query, Question};
use xo_core::rules::Rules;
use xo_core::solve::strong::format::{decode_header, decode_tier, encode_tier, tier_file_name};
use xo_core::solve::strong::{solve_tier, tiers, Record, Tier};
use xo_core::Value;

/// The file of tier `t` in `dir`.
pub fn tier_path(dir: &Path, t: u32) -> PathBuf {
    dir.join(tier_file_name(t))
}

/// Reads and checks tier `t` of `rules` from `dir`.
fn read_tier(dir: &Path, rules: Option<&Rules>, t: u32) -> Result<(Rules, Vec<Record>)> {
    let path = tier_path(dir, t);
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let (header, records) =
        decode_tier(&bytes, rules, Some(t)).with_context(|| format!("{}", path.display()))?;
    Ok((header.rules, records))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced, then renamed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("xot.tmp");
    let mut f =
        std::fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    f.write_all(bytes)
        .and_then(|_| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot rename {}", tmp.display()))?;
    Ok(())
}

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
pub fn solve(game: &str, dir: &Path, budget: &BudgetArgs, out: &mut impl Write) -> Result<()> {
    let (rules, board, tiers) = prepare(game)?;
    let total: u64 = tiers.iter().map(Tier::len).sum();
    let (meter, bar) = progress(budget, total);
    // Two tiers in memory at once, two bytes a position.
    let most = tiers.windows(2).map(|w| w[0].len().saturating_add(w[1].len())).max().unwrap_or(1);
    meter.reserve(most.saturating_mul(2)).map_err(|s| {
        OverBudget::from(s.reaching(format!(
            "two tiers of {most} positions need {} MiB",
            most.saturating_mul(2) >> 20
        )))
    })?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let started = Instant::now();
    let made_by = made_by();
    let (mut positions, mut resumed) = (0u64, 0u32);
    let mut next: Option<(&Tier, Vec<Record>)> = None;
    for tier in tiers.iter().rev() {
        let t = tier.marks;
        let path = tier_path(dir, t);
        let records = match read_tier(dir, Some(&rules), t) {
            Ok((_, records)) if path.exists() => {
                resumed += 1;
                records
            }
            _ => {
                let records =
                    solve_tier(&board, tier, next.as_ref().map(|(t, r)| (*t, &r[..])), &meter)
                        .map_err(|s| {
                            OverBudget::from(s.reaching(format!("tier {t} of {}", board.cells())))
                        })?;
                write_atomic(&path, &encode_tier(&rules, t, &records, &made_by))?;
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
    let bytes: u64 = (0..=board.cells() as u32)
        .filter_map(|t| std::fs::metadata(tier_path(dir, t)).ok())
        .map(|m| m.len())
        .sum();
    let (Some((_, root)), secs) = (next, started.elapsed().as_secs_f64()) else { unreachable!() };
    let value = root.first().and_then(|r| r.scored());
    writeln!(
        out,
        "{}: {} positions in {} tiers ({resumed} resumed), {bytes} bytes ({:.2} per position), {secs:.2} s, peak memory {} MiB\nvalue of the empty board: {}",
        rules.name,
        positions,
        board.cells() + 1,
        bytes as f64 / positions.max(1) as f64,
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
/// rendering), within `meter`: the tiers read must fit its memory budget (checked before they
/// are read) and its clock is read before each.
pub fn query(
    dir: &Path,
    position: Option<&str>,
    question: Question,
    meter: &Meter,
) -> Result<(Query, Answer)> {
    let header_bytes = read_head(&tier_path(dir, 0))?;
    let (header, _, _) =
        decode_header(&header_bytes).with_context(|| format!("{}", tier_path(dir, 0).display()))?;
    let rules = header.rules;
    let query = Query::new(Game::Placement(rules.clone()), position, question)?;
    let plies = query.position().map_or(0, |p| p.plies());
    let analysis =
        (plies as usize) < rules.cells() && matches!(question, Question::Analysis { .. });
    let needed = if analysis { vec![plies, plies + 1] } else { vec![plies] };
    reserve_tiers(dir, &needed, meter)?;
    meter.check().map_err(OverBudget::from)?;
    let (_, tier) = read_tier(dir, Some(&rules), plies)?;
    let next = if analysis {
        meter.check().map_err(OverBudget::from)?;
        Some(read_tier(dir, Some(&rules), plies + 1)?.1)
    } else {
        None
    };
    let answer = Answer::Solve(from_database(&query, &tier, next.as_deref()));
    Ok((query, answer))
}

/// Checks that tiers `tiers` of the database in `dir` fit `meter`'s memory budget when read at
/// once (each file's bytes and its records, about twice its size).
fn reserve_tiers(dir: &Path, tiers: &[u32], meter: &Meter) -> Result<()> {
    let bytes: u64 = tiers
        .iter()
        .map(|&t| std::fs::metadata(tier_path(dir, t)).map_or(0, |m| m.len()))
        .fold(0, u64::saturating_add);
    meter.reserve(bytes.saturating_mul(2)).map_err(|s| {
        let names: Vec<String> = tiers.iter().map(|&t| tier_file_name(t)).collect();
        OverBudget::from(s.reaching(format!("{} hold {bytes} bytes", names.join(" and "))))
    })?;
    Ok(())
}

/// The first 64 KiB of a file (enough for any header).
pub fn read_head(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 16).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {} (is it a database folder?)", path.display()))?;
    Ok(bytes)
}

/// `xo query DIR --info`: the game, each tier's positions and values, the bytes, how it was made;
/// each tier within `meter` (its memory budget, and its clock read before each tier).
pub fn info(dir: &Path, out: &mut impl Write, meter: &Meter) -> Result<()> {
    let first = read_head(&tier_path(dir, 0))?;
    let (header, _, _) =
        decode_header(&first).with_context(|| format!("{}", tier_path(dir, 0).display()))?;
    let rules = header.rules;
    writeln!(
        out,
        "game: {}\nmade by: {}\ntier  positions  wins  draws  losses  bytes",
        rules.name, header.made_by
    )?;
    let (mut total, mut bytes) = (0u64, 0u64);
    for t in 0..=rules.cells() as u32 {
        reserve_tiers(dir, &[t], meter)?;
        meter.check().map_err(OverBudget::from)?;
        let (_, records) = read_tier(dir, Some(&rules), t)?;
        let count =
            |v: Value| records.iter().filter(|r| r.scored().is_some_and(|s| s.value == v)).count();
        let size = std::fs::metadata(tier_path(dir, t)).map(|m| m.len()).unwrap_or(0);
        writeln!(
            out,
            "{t:<4}  {:<9}  {}  {}  {}  {size}",
            records.len(),
            count(Value::Win),
            count(Value::Draw),
            count(Value::Loss)
        )?;
        total += records.len() as u64;
        bytes += size;
    }
    writeln!(
        out,
        "positions: {total}, bytes: {bytes} ({:.2} per position)",
        bytes as f64 / total.max(1) as f64
    )?;
    Ok(())
}
