//! One tier's share solved on one rank, in rounds: each round expands a chunk of the share,
//! fetches the records of the children other ranks hold in all-to-all exchanges, and finishes
//! the chunk. It exists to keep the MPI transport's collectives of a round (the exchange and the
//! agreement on how the round went) apart from the driver's tier loop.

use super::fault::FAULT_EXIT;
use super::rounds::round_positions;
use crate::budget::OverBudget;
use anyhow::{bail, Result};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::ops::Range;
use std::time::{Duration, Instant};
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::solve::strong::{partition, Expansion, Record, Tier};

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

/// What the ranks exchanged and read in one tier (summed over ranks at the tier's end).
#[derive(Debug, Clone, Copy, Default)]
pub struct Traffic {
    /// Bytes this rank sent: counts, requested indices, answered records.
    pub sent: u64,
    /// Records fetched from other ranks (distinct per round).
    pub fetched: u64,
    /// Children read (with repeats): the records the tier's solve looks at.
    pub reads: u64,
    /// Exchange rounds.
    pub rounds: u64,
}

/// Solves this rank's `share` of `tier` in rounds of [`round_positions`] positions, fetching the
/// records of the children other ranks hold; every rank runs the same number of rounds. Over the
/// budget on any rank, every rank stops with it.
#[allow(clippy::too_many_arguments)]
pub fn solve_share(
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
