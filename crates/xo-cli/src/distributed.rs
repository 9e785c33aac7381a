//! The strong solve over MPI: `mpirun -np P xo solve GAME --strong --db DIR --distributed`.
//!
//! Every tier is split among the P ranks by index range ([`partition`]): rank `r` solves
//! positions `partition(len, P)[r]` of each tier and holds the same share of the tier below it
//! in the solve (the next tier, one mark more). A share is solved in rounds of at most
//! [`round_positions`] positions, every rank taking part in every round (an empty chunk when its
//! share is done): the rank expands its chunk (the children's ranks), keeps the distinct children
//! it does not hold, and fetches their records from their owners in two all-to-all exchanges (the
//! requested indices, eight bytes each, then the records, two bytes each), so messages are
//! batched per round and their volume is bounded by the child records the rank actually reads.
//!
//! When a tier's share is solved, each rank writes it as a checksummed part file (through the
//! store: a temporary file, synced, renamed); once every rank's part is written, rank 0 streams
//! the parts, each checked, through the store's one tier writer into the same `tier-TT.xot` file
//! the single-process solve writes, and removes the parts. A tier is thus committed only when
//! every part is complete: a killed job leaves no tier file for the tier it was solving, and a
//! re-run (with any number of ranks) resumes below the last committed tier. Rank 0 holds the
//! folder's lock and checks its game for the whole job.
//!
//! Rank 0 reports progress on standard error (tier, share done across ranks, rate, bytes
//! exchanged) and the summary on standard output. The directory must be visible to every rank
//! (a shared file system on a cluster).

use crate::budget::{BudgetArgs, OverBudget};
use crate::strong::{made_by, peak_memory_kib, prepare};
use anyhow::{anyhow, bail, Result};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::Rules;
use xo_core::solve::strong::{most_moves, partition, Expansion, Record, Tier};
use xo_store::database::{tier_path, Database, Writer};
use xo_store::part::{part_path, PartHeader};

/// The bytes of children's ranks a rank expands per round (a round's memory is about twice
/// this: the ranks, then the distinct ones to fetch).
pub const ROUND_BYTES: u64 = 96 << 20;

/// Positions a rank expands and solves per round in `tier`: [`ROUND_BYTES`] of child slots
/// (at least 4096 positions).
pub fn round_positions(board: &Board, tier: &Tier) -> u64 {
    (ROUND_BYTES / (8 * most_moves(board, tier).max(1) as u64 + 4)).max(4096)
}

/// The environment variable of the fault hook for tests: `TIER:RANK` makes that rank exit
/// abruptly (status [`FAULT_EXIT`], no clean shutdown) after its first round of that tier.
pub const FAIL_AT: &str = "XO_MPI_FAIL_AT";

/// The exit status of a rank killed by the fault hook ([`FAIL_AT`]): none of the CLI's own
/// statuses (0 to 3), so a test can tell the hook fired.
pub const FAULT_EXIT: i32 = 86;

/// How a rank's round went, as the byte the ranks reduce by maximum: the worst wins, so one
/// rank's stop stops them all.
mod round {
    use xo_core::budget::Limit;

    /// The round's records are all there.
    pub const FINE: u8 = 0;
    /// A rank was asked for a record it does not hold (a bug).
    pub const MISSING: u8 = 1;

    /// The rank reached its budget's `limit`.
    pub fn stopped(limit: Limit) -> u8 {
        match limit {
            Limit::Nodes => 2,
            Limit::Time => 3,
            Limit::Memory => 4,
            Limit::Cancelled => 5,
        }
    }

    /// The limit of a status past [`MISSING`] (the inverse of [`stopped`]).
    pub fn limit(status: u8) -> Limit {
        match status {
            2 => Limit::Nodes,
            3 => Limit::Time,
            4 => Limit::Memory,
            _ => Limit::Cancelled,
        }
    }
}

/// Strong-solves `game` into `dir` on every rank of the MPI job this process belongs to (also
/// alone, as a job of one rank), within `budget` per rank.
pub fn solve(game: &str, dir: &Path, budget: &BudgetArgs, out: &mut impl Write) -> Result<()> {
    let universe = mpi::initialize().ok_or_else(|| anyhow!("MPI is already initialised"))?;
    let world = universe.world();
    set_threads(&world);
    run(&world, game, dir, budget, out)
}

/// Without `RAYON_NUM_THREADS`, each rank takes its share of the cores it may run on, as the one
/// thread policy decides ([`xo_core::threads::shared_by`] the ranks on this node).
fn set_threads(world: &SimpleCommunicator) {
    if std::env::var_os("RAYON_NUM_THREADS").is_some() {
        return;
    }
    let local = world.split_shared(0).size().max(1) as usize;
    let threads = xo_core::threads::shared_by(local);
    // Fails only when the pool already exists, which leaves it as it is.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
}

/// Whether every rank says `ok`.
fn all_ok(world: &SimpleCommunicator, ok: bool) -> bool {
    let mut all = 0u8;
    world.all_reduce_into(&u8::from(ok), &mut all, SystemOperation::min());
    all == 1
}

/// `result` on this rank, made an error on every rank when any rank failed (so that no rank
/// waits for the others in a collective they never reach).
fn agree<T>(world: &SimpleCommunicator, what: &str, result: Result<T>) -> Result<T> {
    if all_ok(world, result.is_ok()) {
        return result;
    }
    result.and_then(|_| Err(anyhow!("another rank failed {what} (see its message)")))
}

/// What the ranks exchanged and read in one tier (summed over ranks at the tier's end).
#[derive(Debug, Clone, Copy, Default)]
struct Traffic {
    /// Bytes this rank sent: counts, requested indices, answered records.
    sent: u64,
    /// Records fetched from other ranks (distinct per round).
    fetched: u64,
    /// Children read (with repeats): the records the tier's solve looks at.
    reads: u64,
    /// Exchange rounds.
    rounds: u64,
}

/// The solve on one rank.
fn run(
    world: &SimpleCommunicator,
    game: &str,
    dir: &Path,
    budget: &BudgetArgs,
    out: &mut impl Write,
) -> Result<()> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let root = world.process_at_rank(0);
    // Every rank reads the same arguments, so bad input fails everywhere alike.
    let (rules, board, tiers) = prepare(game)?;
    let meter = Meter::new(budget.budget());
    let share_of = |tier: &Tier| partition(tier.len(), ranks)[rank].clone();
    // Two shares held at once (two bytes a position) and one round's expansion.
    let most = tiers
        .windows(2)
        .map(|w| (w[0].len().div_ceil(ranks as u64)) + w[1].len().div_ceil(ranks as u64))
        .max()
        .unwrap_or(1);
    // A round: its child slots, then as many again at most for the distinct ones to fetch.
    let round = tiers
        .iter()
        .map(|t| {
            let positions = t.len().div_ceil(ranks as u64).min(round_positions(&board, t));
            positions * (8 * most_moves(&board, t) as u64 + 4)
        })
        .max()
        .unwrap_or(0);
    let need = most.saturating_mul(2).saturating_add(2 * round);
    let _shares = meter.reserve(need).map_err(|s| {
        OverBudget::from(
            s.reaching(format!("a rank's two shares and one round need {} MiB", need >> 20)),
        )
    })?;
    // Rank 0 locks the folder, checks its game and removes what a killed job left.
    let opened = if rank == 0 { Writer::open(dir, &rules).map(Some) } else { Ok(None) };
    let writer = agree(world, "to open the folder", opened.map_err(anyhow::Error::from))?;
    world.barrier();
    let fail_at = fault_hook();
    let started = Instant::now();
    let cells = board.cells() as u32;
    let (mut positions, mut resumed, mut exchanged) = (0u64, 0u32, 0u64);
    // This rank's share of the next tier: in memory when solved in this run, else in its file.
    let mut held: Option<Vec<Record>> = None;
    for t in (0..=cells).rev() {
        let tier = &tiers[t as usize];
        let done = writer.as_ref().is_some_and(|w| w.committed(t, tier.len()).is_some());
        let mut committed = u8::from(done);
        root.broadcast_into(&mut committed);
        positions += tier.len();
        if committed == 1 {
            resumed += 1;
            held = None;
            continue;
        }
        let next = tiers.get(t as usize + 1);
        let next_parts = next.map_or_else(Vec::new, |n| partition(n.len(), ranks));
        let held_range = next_parts.get(rank).cloned().unwrap_or(0..0);
        let held_records = match (held.take(), next) {
            (Some(records), _) => Ok(records),
            (None, Some(_)) => read_share(dir, &rules, t + 1, &held_range),
            (None, None) => Ok(Vec::new()),
        };
        let held_records = agree(world, &format!("to read tier {}", t + 1), held_records)?;
        let share = share_of(tier);
        let tier_started = Instant::now();
        let (records, traffic) = solve_share(
            world,
            &board,
            tier,
            share.clone(),
            next,
            &next_parts,
            (&held_range, &held_records),
            &meter,
            fail_at.filter(|&(ft, fr)| ft == t && fr == rank),
        )?;
        drop(held_records);
        let written = write_part(dir, t, rank, ranks, &share, &records);
        let (crc, bytes) = agree(world, &format!("to write its part of tier {t}"), written)?;
        commit(world, dir, writer.as_ref(), tier, (crc, bytes))?;
        exchanged += traffic_report(world, tier, &traffic, started, tier_started)?;
        meter.set_done(u64::from(cells - t + 1), u64::from(cells) + 1).map_err(OverBudget::from)?;
        held = Some(records);
    }
    let Some(writer) = writer else { return Ok(()) };
    let root_tier = Database::open(dir)?.tier(0)?.get(0)?;
    let bytes = writer.bytes();
    drop(writer);
    let value = root_tier.and_then(|r| r.scored());
    writeln!(
        out,
        "{}: {} positions in {} tiers ({resumed} resumed), {bytes} bytes ({:.2} per position), {:.2} s, peak memory {} MiB (rank 0)\nvalue of the empty board: {}\ndistributed over {ranks} ranks: {exchanged} bytes exchanged ({:.3} per position)",
        rules.name,
        positions,
        cells + 1,
        bytes as f64 / positions.max(1) as f64,
        started.elapsed().as_secs_f64(),
        peak_memory_kib() >> 10,
        value.map_or("unknown".into(), |s| format!("{} in {} plies", s.value, s.remoteness)),
        exchanged as f64 / positions.max(1) as f64,
    )?;
    Ok(())
}

/// `XO_MPI_FAIL_AT=TIER:RANK`, when set and well formed.
fn fault_hook() -> Option<(u32, usize)> {
    let text = std::env::var(FAIL_AT).ok()?;
    let (t, r) = text.split_once(':')?;
    Some((t.trim().parse().ok()?, r.trim().parse().ok()?))
}

/// Records `range` of committed tier `t` (checked as a whole by rank 0 before; the blocks read
/// are checked again here), read from its file.
fn read_share(dir: &Path, rules: &Rules, t: u32, range: &Range<u64>) -> Result<Vec<Record>> {
    let tier = xo_store::tier::TierFile::open(&tier_path(dir, t), Some(rules), Some(t))?;
    if tier.len() < range.end {
        bail!("{} is not tier {t} of {}", tier.path().display(), rules.name);
    }
    Ok(tier.records(range.clone())?)
}

/// Solves this rank's `share` of `tier` in rounds of [`round_positions`] positions, fetching the
/// records of the children other ranks hold; every rank runs the same number of rounds. Over the
/// budget on any rank, every rank stops with it.
#[allow(clippy::too_many_arguments)]
fn solve_share(
    world: &SimpleCommunicator,
    board: &Board,
    tier: &Tier,
    share: Range<u64>,
    next: Option<&Tier>,
    next_parts: &[Range<u64>],
    (held_range, held): (&Range<u64>, &[Record]),
    meter: &Meter,
    fail_here: Option<(u32, usize)>,
) -> Result<(Vec<Record>, Traffic)> {
    let ranks = world.size() as usize;
    let per_round = round_positions(board, tier);
    let largest = partition(tier.len(), ranks).iter().map(|r| r.end - r.start).max().unwrap_or(0);
    let rounds = largest.div_ceil(per_round);
    let mut records = vec![Record(0); (share.end - share.start) as usize];
    let mut traffic = Traffic { rounds, ..Traffic::default() };
    let (started, mut shown) = (Instant::now(), Instant::now());
    let mut done_all = 0u64;
    let (mut expansion, mut wanted) = (Expansion::default(), Vec::new());
    for r in 0..rounds {
        let start = (share.start + r * per_round).min(share.end);
        let chunk = start..(start + per_round).min(share.end);
        let out =
            &mut records[(chunk.start - share.start) as usize..(chunk.end - share.start) as usize];
        expansion.expand(board, tier, chunk, next);
        traffic.reads += expansion.wanted(held_range, &mut wanted);
        let fetched = fetch(world, &wanted, next_parts, held_range, held, &mut traffic);
        traffic.fetched += wanted.len() as u64;
        let mut status = match fetched {
            Some(fetched) => {
                match expansion.finish((held_range, held), (&wanted, &fetched), out, meter) {
                    Ok(()) => round::FINE,
                    Err(stopped) => round::stopped(stopped.limit),
                }
            }
            None => round::MISSING,
        };
        if fail_here.is_some() {
            // The fault hook: die mid-tier, without a word to the other ranks.
            std::process::exit(FAULT_EXIT);
        }
        let mut worst = 0u8;
        world.all_reduce_into(&status, &mut worst, SystemOperation::max());
        status = worst;
        match status {
            round::FINE => {}
            round::MISSING => {
                bail!("tier {}: a rank was asked for a record it does not hold", tier.marks)
            }
            _ => {
                let limit = round::limit(status);
                return Err(OverBudget::from(
                    meter.halt(limit).reaching(format!("tier {} (on some rank)", tier.marks)),
                )
                .into());
            }
        }
        let mut done = 0u64;
        world.all_reduce_into(&(expansion.len() as u64), &mut done, SystemOperation::sum());
        done_all += done;
        if world.rank() == 0 && shown.elapsed() >= Duration::from_secs(2) && r + 1 < rounds {
            shown = Instant::now();
            eprintln!(
                "xo: tier {}: {:.1}% done across ranks, {:.2}M positions/s",
                tier.marks,
                100.0 * done_all as f64 / tier.len().max(1) as f64,
                done_all as f64 / started.elapsed().as_secs_f64() / 1e6
            );
        }
    }
    Ok((records, traffic))
}

/// `Count`s of `n` items (a round's requests always fit).
fn count(n: usize) -> Count {
    Count::try_from(n).unwrap_or(Count::MAX)
}

/// Where each part of a buffer with these counts starts.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}

/// One round's exchange: this rank asks each owner for the records of `wanted` (sorted) it
/// holds and answers the others' requests from `held`, in two all-to-all exchanges (after one of
/// the counts). `None` when a rank asked this one for a record it does not hold.
fn fetch(
    world: &SimpleCommunicator,
    wanted: &[u64],
    next_parts: &[Range<u64>],
    held_range: &Range<u64>,
    held: &[Record],
    traffic: &mut Traffic,
) -> Option<Vec<Record>> {
    let ranks = world.size() as usize;
    let mut send_counts = vec![0 as Count; ranks];
    let mut from = 0;
    for (owner, part) in next_parts.iter().enumerate() {
        let to = from + wanted[from..].partition_point(|&k| k < part.end);
        send_counts[owner] = count(to - from);
        from = to;
    }
    let mut recv_counts = vec![0 as Count; ranks];
    world.all_to_all_into(&send_counts[..], &mut recv_counts[..]);
    let send_displs = displacements(&send_counts);
    let recv_displs = displacements(&recv_counts);
    let asked_len: usize = recv_counts.iter().map(|&c| c as usize).sum();
    let mut asked = vec![0u64; asked_len];
    world.all_to_all_varcount_into(
        &Partition::new(wanted, &send_counts[..], &send_displs[..]),
        &mut PartitionMut::new(&mut asked[..], &recv_counts[..], &recv_displs[..]),
    );
    let mut missing = false;
    let answers: Vec<u16> = asked
        .iter()
        .map(|&k| match k.checked_sub(held_range.start).and_then(|i| held.get(i as usize)) {
            Some(r) if held_range.contains(&k) => r.0,
            _ => {
                missing = true;
                0
            }
        })
        .collect();
    let mut fetched = vec![0u16; wanted.len()];
    world.all_to_all_varcount_into(
        &Partition::new(&answers[..], &recv_counts[..], &recv_displs[..]),
        &mut PartitionMut::new(&mut fetched[..], &send_counts[..], &send_displs[..]),
    );
    traffic.sent += 4 * ranks as u64 + 8 * wanted.len() as u64 + 2 * answers.len() as u64;
    // What this rank sent to itself never crossed a wire (its own requests are always empty).
    (!missing).then(|| fetched.into_iter().map(Record).collect())
}

/// Writes this rank's records of tier `t` as a part file (through the store), returning the
/// CRC-32 and length of the records' bytes.
fn write_part(
    dir: &Path,
    t: u32,
    rank: usize,
    ranks: usize,
    share: &Range<u64>,
    records: &[Record],
) -> Result<(u32, u64)> {
    Ok(xo_store::part::write(dir, (t, rank, ranks), share.start, records)?)
}

/// Commits tier `tier` once every rank's part is written: rank 0 (which holds the folder's
/// `writer`) gathers the parts' checksums, streams the parts (each checked) through the store's
/// tier writer and removes the parts; every rank learns whether it worked.
fn commit(
    world: &SimpleCommunicator,
    dir: &Path,
    writer: Option<&Writer>,
    tier: &Tier,
    (crc, bytes): (u32, u64),
) -> Result<()> {
    let root = world.process_at_rank(0);
    let ranks = world.size() as usize;
    let mine = [u64::from(crc), bytes];
    let result = match writer {
        Some(writer) => {
            let mut all = vec![0u64; 2 * ranks];
            root.gather_into_root(&mine[..], &mut all[..]);
            let parts: Vec<(u32, u64)> = all.chunks_exact(2).map(|c| (c[0] as u32, c[1])).collect();
            assemble(dir, writer, tier, &parts)
        }
        None => {
            root.gather_into(&mine[..]);
            Ok(())
        }
    };
    let mut ok = u8::from(result.is_ok());
    root.broadcast_into(&mut ok);
    match result {
        Err(e) => Err(e),
        Ok(()) if ok == 0 => bail!("rank 0 could not commit tier {} (see its message)", tier.marks),
        Ok(()) => Ok(()),
    }
}

/// Rank 0's half of [`commit`]: `parts` are each rank's (CRC-32, bytes) of its records.
fn assemble(dir: &Path, writer: &Writer, tier: &Tier, parts: &[(u32, u64)]) -> Result<()> {
    let t = tier.marks;
    let mut file = writer.writer(t, tier.len(), &made_by())?;
    let shares = partition(tier.len(), parts.len());
    for (r, (&(crc, len), share)) in parts.iter().zip(&shares).enumerate() {
        let expected = PartHeader {
            tier: t,
            rank: r as u32,
            ranks: parts.len() as u32,
            start: share.start,
            count: share.end - share.start,
            crc,
        };
        if 2 * expected.count != len {
            bail!(
                "{}: rank {r} reported {len} bytes for {} positions",
                tier_path(dir, t).display(),
                expected.count
            );
        }
        xo_store::part::copy(&part_path(dir, t, r), &expected, |bytes| file.write_bytes(bytes))?;
    }
    file.commit()?;
    for r in 0..parts.len() {
        let _ = std::fs::remove_file(part_path(dir, t, r));
    }
    Ok(())
}

/// Sums the tier's traffic over the ranks; rank 0 prints it with the tier's time and rate.
/// Returns the bytes exchanged in the tier (on rank 0; 0 elsewhere).
fn traffic_report(
    world: &SimpleCommunicator,
    tier: &Tier,
    traffic: &Traffic,
    started: Instant,
    tier_started: Instant,
) -> Result<u64> {
    let root = world.process_at_rank(0);
    let mine = [traffic.sent, traffic.fetched, traffic.reads];
    if world.rank() != 0 {
        root.reduce_into(&mine[..], SystemOperation::sum());
        return Ok(0);
    }
    let mut sum = [0u64; 3];
    root.reduce_into_root(&mine[..], &mut sum[..], SystemOperation::sum());
    eprintln!(
        "xo: tier {:>2}: {} positions in {:.2} s ({:.2}M/s), {} rounds, {} bytes exchanged ({:.3} per position; {} records fetched for {} child reads), {:.2} s since start",
        tier.marks,
        tier.len(),
        tier_started.elapsed().as_secs_f64(),
        tier.len() as f64 / tier_started.elapsed().as_secs_f64().max(1e-9) / 1e6,
        traffic.rounds,
        sum[0],
        sum[0] as f64 / tier.len().max(1) as f64,
        sum[1],
        sum[2],
        started.elapsed().as_secs_f64(),
    );
    Ok(sum[0])
}
