//! A solved tier made a committed file across the ranks: each rank writes its part, rank 0
//! assembles the parts into the tier file once every part is written, and the tier's traffic is
//! summed and reported. It exists to keep these collectives of the MPI transport apart from the
//! driver's tier loop.

use super::exchange::Traffic;
use crate::strong::made_by;
use anyhow::{bail, Result};
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;
use xo_core::solve::strong::{partition, Record, Tier};
use xo_store::database::{tier_path, Writer};
use xo_store::part::{part_path, PartHeader};

/// Writes this rank's records of tier `t` as a part file (through the store), returning the
/// CRC-32 and length of the records' bytes.
pub fn write_part(
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
pub fn commit(
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
pub fn traffic_report(
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
