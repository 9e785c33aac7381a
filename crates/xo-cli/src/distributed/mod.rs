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
//! The tier loop is the one strong-solve driver's ([`crate::strong::driver`]); this module is its
//! MPI transport ([`Ranks`]), which keeps only the collectives: the committed flag broadcast,
//! the agreement on every step (`agree`), the fetch of child records (`exchange`), the part
//! files, their commit and assembly, and the traffic report (`commit`).
//!
//! Rank 0 reports progress on standard error (tier, share done across ranks, rate, bytes
//! exchanged) and the summary on standard output. The directory must be visible to every rank
//! (a shared file system on a cluster).

mod commit;
mod exchange;
mod fault;
mod rounds;

pub use fault::{FAIL_AT, FAULT_EXIT};
pub use rounds::{round_positions, ROUND_BYTES};

use crate::budget::BudgetArgs;
use crate::strong::driver::{self, Found, Solved, Transport};
use crate::strong::peak_memory_kib;
use anyhow::{anyhow, Result};
use exchange::Traffic;
use fault::fault_hook;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::time::Instant;
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::Rules;
use xo_core::solve::strong::{most_moves, partition, Record, Tier};
use xo_store::database::Writer;

/// Strong-solves `game` into `dir` on every rank of the MPI job this process belongs to (also
/// alone, as a job of one rank), within `budget` per rank.
pub fn solve(game: &str, dir: &Path, budget: &BudgetArgs, out: &mut impl Write) -> Result<()> {
    let universe = mpi::initialize().ok_or_else(|| anyhow!("MPI is already initialised"))?;
    let world = universe.world();
    set_threads(&world);
    let mut ranks = Ranks::new(&world);
    driver::solve(&mut ranks, game, dir, budget, out)
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

/// The ranks of an MPI job as the driver's transport: this rank solves and holds its share
/// ([`partition`]) of every tier.
pub struct Ranks<'a> {
    world: &'a SimpleCommunicator,
    rank: usize,
    ranks: usize,
    /// The fault hook's tier and rank ([`FAIL_AT`]), read once the folder is open.
    fail_at: Option<(u32, usize)>,
    /// When the folder was opened, and when the tier in progress was started.
    started: Instant,
    tier_started: Instant,
    /// The traffic of the tier in progress, on this rank.
    traffic: Traffic,
    /// Bytes exchanged by all ranks in the tiers solved so far (on rank 0).
    exchanged: u64,
}

impl<'a> Ranks<'a> {
    /// This process as a rank of `world`.
    pub fn new(world: &'a SimpleCommunicator) -> Ranks<'a> {
        Ranks {
            world,
            rank: world.rank() as usize,
            ranks: world.size() as usize,
            fail_at: None,
            started: Instant::now(),
            tier_started: Instant::now(),
            traffic: Traffic::default(),
            exchanged: 0,
        }
    }
}

impl Transport for Ranks<'_> {
    // Ranks stop only together, at a collective: a rank checks its budget on tiers it solves.
    const CHECKS_RESUMED: bool = false;

    fn meter(&self, budget: &BudgetArgs, _total: u64) -> (Meter, Option<indicatif::ProgressBar>) {
        (Meter::new(budget.budget()), None)
    }

    fn need(&self, board: &Board, tiers: &[Tier]) -> (u64, String) {
        let ranks = self.ranks as u64;
        // Two shares held at once (two bytes a position) and one round's expansion.
        let most = tiers
            .windows(2)
            .map(|w| (w[0].len().div_ceil(ranks)) + w[1].len().div_ceil(ranks))
            .max()
            .unwrap_or(1);
        // A round: its child slots, then as many again at most for the distinct ones to fetch.
        let round = tiers
            .iter()
            .map(|t| {
                let positions = t.len().div_ceil(ranks).min(round_positions(board, t));
                positions * (8 * most_moves(board, t) as u64 + 4)
            })
            .max()
            .unwrap_or(0);
        let need = most.saturating_mul(2).saturating_add(2 * round);
        (need, format!("a rank's two shares and one round need {} MiB", need >> 20))
    }

    fn open(&mut self, dir: &Path, rules: &Rules) -> Result<Option<Writer>> {
        // Rank 0 locks the folder, checks its game and removes what a killed job left.
        let opened = if self.rank == 0 { Writer::open(dir, rules).map(Some) } else { Ok(None) };
        let writer = agree(self.world, "to open the folder", opened.map_err(anyhow::Error::from))?;
        self.world.barrier();
        self.fail_at = fault_hook();
        self.started = Instant::now();
        Ok(writer)
    }

    fn share(&self, len: u64) -> Range<u64> {
        partition(len, self.ranks)[self.rank].clone()
    }

    fn found(&self, writer: Option<&Writer>, tier: &Tier) -> Found {
        let done = writer.is_some_and(|w| w.committed(tier.marks, tier.len()).is_some());
        let mut committed = u8::from(done);
        self.world.process_at_rank(0).broadcast_into(&mut committed);
        if committed == 1 {
            Found::Committed
        } else {
            Found::Absent
        }
    }

    fn agree<T>(&self, what: &str, result: Result<T>) -> Result<T> {
        agree(self.world, what, result)
    }

    fn solve(
        &mut self,
        board: &Board,
        tier: &Tier,
        next: Option<(&Tier, &Range<u64>, &[Record])>,
        meter: &Meter,
    ) -> Result<Vec<Record>> {
        let next_parts = next.map_or_else(Vec::new, |(n, _, _)| partition(n.len(), self.ranks));
        let (held_range, held) = next.map_or((0..0, &[][..]), |(_, r, h)| (r.clone(), h));
        let share = self.share(tier.len());
        self.tier_started = Instant::now();
        let (t, rank) = (tier.marks, self.rank);
        let (records, traffic) = exchange::solve_share(
            self.world,
            board,
            tier,
            share,
            next.map(|(n, _, _)| n),
            &next_parts,
            (&held_range, held),
            meter,
            self.fail_at.filter(|&(ft, fr)| ft == t && fr == rank),
        )?;
        self.traffic = traffic;
        Ok(records)
    }

    fn commit(
        &mut self,
        dir: &Path,
        writer: Option<&Writer>,
        tier: &Tier,
        records: &[Record],
    ) -> Result<()> {
        let (t, world) = (tier.marks, self.world);
        let share = self.share(tier.len());
        let written = commit::write_part(dir, t, self.rank, self.ranks, &share, records);
        let (crc, bytes) = agree(world, &format!("to write its part of tier {t}"), written)?;
        commit::commit(world, dir, writer, tier, (crc, bytes))?;
        let (started, tier_started) = (self.started, self.tier_started);
        self.exchanged +=
            commit::traffic_report(world, tier, &self.traffic, started, tier_started)?;
        Ok(())
    }

    fn summary(&self, s: &Solved, out: &mut impl Write) -> Result<()> {
        let (ranks, exchanged) = (self.ranks, self.exchanged);
        writeln!(
            out,
            "{}: {} positions in {} tiers ({} resumed), {} bytes ({:.2} per position), {:.2} s, peak memory {} MiB (rank 0)\nvalue of the empty board: {}\ndistributed over {ranks} ranks: {exchanged} bytes exchanged ({:.3} per position)",
            s.game,
            s.positions,
            s.tiers,
            s.resumed,
            s.bytes,
            s.per_position(),
            s.secs,
            peak_memory_kib() >> 10,
            s.value(),
            exchanged as f64 / s.positions.max(1) as f64,
        )?;
        Ok(())
    }
}
