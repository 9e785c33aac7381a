//! Counting every game from a position, split by winner and by length, and every distinct
//! position on the way, one depth at a time.
//!
//! The number of games through a position is the number of paths into it times the number of
//! continuations out of it, so a forward sweep that carries path counts from one depth to the next
//! and tallies them at finished positions counts every game exactly once, and gets the split by
//! length for free. Positions are merged under the symmetries that fix the starting position
//! (a path count of a class is the sum over its members, and each member's moves mirror the
//! representative's), and each depth is expanded in parallel. Children are merged in hash maps, or
//! on request in a dense table indexed by a ranking of the positions of their depth where it fits.

use crate::budget::{Meter, Stopped};
use crate::game::GameTree;
use crate::games::board::{Board, BoardPosition};
use crate::solve::count::GameCounts;
use crate::Value;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;

/// Everything `xo count` reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Census {
    /// Games by winner (first player, second player, nobody).
    pub games: GameCounts,
    /// `by_length[k]`: games that end after `k` moves in all (counted from the empty board).
    pub by_length: Vec<GameCounts>,
    /// Distinct positions reachable from the start position, the start included.
    pub positions: u128,
}

/// Why a census stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CensusError {
    /// The census reached its budget (a depth's positions would not fit the memory budget, or
    /// time or nodes ran out).
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// A count does not fit 128 bits.
    #[error("the number of games exceeds 2^128")]
    Overflow,
}

/// Counts every game continuing from `start` (the position itself included) within `meter`: each
/// depth's positions and the children they send on must fit its memory budget (checked before
/// they are made), each position counts as a node, and the meter hears of each depth finished.
///
/// ```
/// use xo_core::games::board::Board;
/// use xo_core::rules::parse_game;
/// use xo_core::solve::enumerate::census;
///
/// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let c = census(&board, &Default::default(), &Default::default()).unwrap();
/// assert_eq!((c.games.first, c.games.second, c.games.draws), (131_184, 77_904, 46_080));
/// assert_eq!(c.positions, 5_478);
/// assert_eq!(c.by_length[5].first, 1_440);
/// ```
pub fn census(board: &Board, start: &BoardPosition, meter: &Meter) -> Result<Census, CensusError> {
    census_with(board, start, false, meter)
}

/// [`census`], choosing whether depths whose positions fit a dense table indexed by rank use one
/// (`dense`), or every depth merges in hash maps (the default: on 4x4 four-in-a-row hashing beats
/// ranking, 0.26 s against 0.35 s; dense tables trade that for memory known in advance).
///
/// ```
/// use xo_core::games::board::Board;
/// use xo_core::rules::parse_game;
/// use xo_core::solve::enumerate::census_with;
/// let board = Board::new(&parse_game("lol:6").unwrap()).unwrap();
/// let meter = xo_core::budget::Meter::new(Default::default());
/// let dense = census_with(&board, &Default::default(), true, &meter).unwrap();
/// let sparse = census_with(&board, &Default::default(), false, &meter).unwrap();
/// assert_eq!(dense, sparse);
/// ```
pub fn census_with(
    board: &Board,
    start: &BoardPosition,
    dense: bool,
    meter: &Meter,
) -> Result<Census, CensusError> {
    let images = board.images(start);
    let group: Vec<usize> = (0..images.len()).filter(|&s| images[s] == *start).collect();
    let cells = board.cells();
    let mut result =
        Census { by_length: vec![GameCounts::default(); cells + 1], ..Census::default() };
    // Where each symmetry of the group sends each cell, so a child's images are its parent's
    // images plus one bit each.
    let cell_images: Vec<Vec<u64>> = group
        .iter()
        .map(|&s| {
            (0..cells).map(|c| board.image(&BoardPosition { a: 1 << c, b: 0 }, s).a).collect()
        })
        .collect();
    let mut layer: Vec<(BoardPosition, u128)> = vec![(canonical(board, &group, start), 1)];
    let mut depth = start.plies();
    while !layer.is_empty() {
        // Bound memory before expanding: the layer itself, and every child it could send on.
        let children: usize = layer
            .par_iter()
            .map(|(pos, _)| {
                let marks = board.marks_to_move(pos).count_ones() as usize;
                board.playable(pos).count_ones() as usize * marks
            })
            .sum();
        let next_ranks = if dense { DepthRanks::new(board, depth + 1) } else { None };
        let table = next_ranks.as_ref().map_or(0, |r| r.size.saturating_mul(DENSE_ENTRY_BYTES));
        let need = (layer.len() as u64)
            .saturating_mul(LAYER_BYTES)
            .saturating_add((children as u64).saturating_mul(CHILD_BYTES))
            .saturating_add(table);
        let reached = |s: Stopped| {
            s.reaching(format!(
                "depth {depth} of {cells} with {} positions and {children} moves to expand",
                layer.len()
            ))
        };
        let _layer_memory = meter.reserve(need).map_err(reached)?;
        meter.tick(layer.len() as u64).map_err(reached)?;
        meter.set_done(u64::from(depth), cells as u64).map_err(reached)?;
        // Expand in parallel; children go to shards by hash, so each shard is merged once.
        let chunk = layer.len().div_ceil(4 * rayon::current_num_threads()).max(1024);
        let expanded: Vec<(DepthTally, Shards)> = layer
            .par_chunks(chunk)
            .map(|part| expand(board, &group, &cell_images, next_ranks.as_ref(), part))
            .collect::<Result<_, _>>()?;
        let mut finished = DepthTally::default();
        for (t, _) in &expanded {
            finished = finished.merge(t).ok_or(CensusError::Overflow)?;
        }
        // Merge each shard once: in a dense array indexed by rank where the next depth fits one,
        // else in a hash map.
        let shards: Vec<Vec<(BoardPosition, u128)>> = (0..SHARDS)
            .into_par_iter()
            .map(|shard| match &next_ranks {
                Some(ranks) => ranks.merge(shard, expanded.iter().map(|(_, parts)| &parts[shard])),
                None => {
                    let mut merged: FxHashMap<BoardPosition, u128> = FxHashMap::default();
                    for (_, parts) in &expanded {
                        for &(pos, paths) in &parts[shard] {
                            let e = merged.entry(pos).or_insert(0);
                            *e = e.checked_add(paths).ok_or(CensusError::Overflow)?;
                        }
                    }
                    Ok(merged.into_iter().collect())
                }
            })
            .collect::<Result<_, CensusError>>()?;
        result.positions =
            result.positions.checked_add(finished.positions).ok_or(CensusError::Overflow)?;
        let at = &mut result.by_length[depth as usize];
        *at = add_counts(*at, finished.games)?;
        result.games = add_counts(result.games, finished.games)?;
        layer = shards.concat();
        depth += 1;
    }
    Ok(result)
}

/// Bytes a position of a depth takes while it is expanded (position and path count).
const LAYER_BYTES: u64 = 32;
/// Bytes a child takes until its shard is merged (in a shard list, then in a hash map).
const CHILD_BYTES: u64 = 96;
/// Bytes an entry of a dense table takes.
const DENSE_ENTRY_BYTES: u64 = 16;

/// Children are spread over this many shards by hash.
const SHARDS: usize = 64;

/// Children with their path counts, one list per shard.
type Shards = Vec<Vec<(BoardPosition, u128)>>;

/// The smallest image of `pos` under the symmetries in `group`.
fn canonical(board: &Board, group: &[usize], pos: &BoardPosition) -> BoardPosition {
    group.iter().map(|&s| board.image(pos, s)).min().unwrap_or(*pos)
}

/// What one part of a depth contributes: finished games and positions seen.
#[derive(Debug, Clone, Copy, Default)]
struct DepthTally {
    games: GameCounts,
    positions: u128,
}

impl DepthTally {
    fn merge(&self, o: &DepthTally) -> Option<DepthTally> {
        Some(DepthTally {
            games: add_counts(self.games, o.games).ok()?,
            positions: self.positions.checked_add(o.positions)?,
        })
    }
}

fn add_counts(a: GameCounts, b: GameCounts) -> Result<GameCounts, CensusError> {
    Ok(GameCounts {
        first: a.first.checked_add(b.first).ok_or(CensusError::Overflow)?,
        second: a.second.checked_add(b.second).ok_or(CensusError::Overflow)?,
        draws: a.draws.checked_add(b.draws).ok_or(CensusError::Overflow)?,
    })
}

/// Expands one part of a depth: tallies finished positions (and the size of every position's
/// class, by the orbit-stabiliser theorem), and sends path counts to children, by shard.
fn expand(
    board: &Board,
    group: &[usize],
    cell_images: &[Vec<u64>],
    ranks: Option<&DepthRanks>,
    part: &[(BoardPosition, u128)],
) -> Result<(DepthTally, Shards), CensusError> {
    let mut tally = DepthTally::default();
    let mut shards: Shards = vec![Vec::new(); SHARDS];
    let hasher = rustc_hash::FxBuildHasher;
    let mut images: Vec<BoardPosition> = Vec::with_capacity(group.len());
    for &(pos, paths) in part {
        images.clear();
        images.extend(group.iter().map(|&s| board.image(&pos, s)));
        let fixed = images.iter().filter(|&&i| i == pos).count();
        tally.positions += (group.len() / fixed) as u128;
        if let Some(value) = board.outcome(&pos) {
            let mover_is_first = pos.plies() % 2 == 0;
            let slot = match value {
                Value::Draw => &mut tally.games.draws,
                Value::Win if mover_is_first => &mut tally.games.first,
                Value::Loss if !mover_is_first => &mut tally.games.first,
                _ => &mut tally.games.second,
            };
            *slot = slot.checked_add(paths).ok_or(CensusError::Overflow)?;
            continue;
        }
        let marks = board.marks_to_move(&pos);
        let mut playable = board.playable(&pos);
        while playable != 0 {
            let cell = playable.trailing_zeros() as u8;
            playable &= playable - 1;
            for mark in [1u8, 2] {
                if marks >> (mark - 1) & 1 == 1 {
                    let child = images
                        .iter()
                        .zip(cell_images)
                        .map(|(img, map)| {
                            let bit = map[cell as usize];
                            if mark == 1 {
                                BoardPosition { a: img.a | bit, b: img.b }
                            } else {
                                BoardPosition { a: img.a, b: img.b | bit }
                            }
                        })
                        .min()
                        .unwrap_or(pos);
                    // With a dense table, a child travels as its rank (in `a`) to its shard.
                    let (shard, entry) = match ranks {
                        Some(r) => {
                            let rank = r.rank(&child);
                            (r.shard_of(rank), BoardPosition { a: rank, b: 0 })
                        }
                        None => ((hasher.hash_one(child) >> 58) as usize % SHARDS, child),
                    };
                    shards[shard].push((entry, paths));
                }
            }
        }
    }
    Ok((tally, shards))
}
/// The most entries a dense depth table may have (16 bytes each).
const DENSE_LIMIT: u64 = 1 << 22;

/// A dense ranking of the positions with a given number of marks: the colex rank of the filled
/// cells, times the rank of the marks among them (with own marks the number of X's is fixed by
/// the depth; with two shared letters any pattern; with one mark nothing to choose).
#[derive(Debug, Clone)]
pub(crate) struct DepthRanks {
    cells: u32,
    depth: u32,
    /// How many patterns of marks each set of filled cells has.
    patterns: u64,
    /// Marks 1 (X) among the filled cells, with own marks.
    xs: Option<u32>,
    pub(crate) size: u64,
    /// Binomial coefficients, `binom[n * 65 + k]`.
    binom: Vec<u64>,
}

impl DepthRanks {
    /// The ranking of depth `depth` when its table fits [`DENSE_LIMIT`].
    fn new(board: &Board, depth: u32) -> Option<DepthRanks> {
        Self::within(board, depth, DENSE_LIMIT)
    }

    /// The ranking of depth `depth` when it has at most `limit` positions.
    pub(crate) fn within(board: &Board, depth: u32, limit: u64) -> Option<DepthRanks> {
        let cells = board.cells() as u32;
        if depth > cells {
            return None;
        }
        // C(n, k) for n, k <= 64, saturating where it exceeds u64 (such depths never fit anyway).
        let binom: Vec<u64> = (0..65u128)
            .flat_map(|n| {
                (0..65u128).map(move |k| {
                    if k > n {
                        return 0;
                    }
                    let c = (0..k.min(n - k))
                        .fold(1u128, |c, i| (c * (n - i) / (i + 1)).min(u64::MAX as u128 + 1));
                    u64::try_from(c).unwrap_or(u64::MAX)
                })
            })
            .collect();
        let (patterns, xs) = match board.rules().marks() {
            crate::rules::Marks::Own => {
                (binom[depth as usize * 65 + depth.div_ceil(2) as usize], Some(depth.div_ceil(2)))
            }
            crate::rules::Marks::Shared(l) if l.len() == 2 => (1u64.checked_shl(depth)?, None),
            _ => (1, None),
        };
        let size = binom[cells as usize * 65 + depth as usize].checked_mul(patterns)?;
        (size <= limit).then_some(DepthRanks { cells, depth, patterns, xs, size, binom })
    }

    /// Colex rank of a set of cells.
    fn subset_rank(&self, mut set: u64) -> u64 {
        let (mut r, mut i) = (0, 1);
        while set != 0 {
            r += self.binom[set.trailing_zeros() as usize * 65 + i];
            i += 1;
            set &= set - 1;
        }
        r
    }

    /// The set of `k` cells below `n` with colex rank `r`.
    fn subset_unrank(&self, mut r: u64, k: u32, n: u32) -> u64 {
        let (mut set, mut top) = (0u64, n);
        for i in (1..=k as usize).rev() {
            let mut c = top - 1;
            while self.binom[c as usize * 65 + i] > r {
                c -= 1;
            }
            set |= 1 << c;
            r -= self.binom[c as usize * 65 + i];
            top = c;
        }
        set
    }

    /// The bits of `marks` at the places of `filled`, packed.
    fn compress(marks: u64, mut filled: u64) -> u64 {
        let (mut out, mut i) = (0, 0);
        while filled != 0 {
            let bit = filled & filled.wrapping_neg();
            out |= u64::from(marks & bit != 0) << i;
            i += 1;
            filled &= filled - 1;
        }
        out
    }

    /// The inverse of [`DepthRanks::compress`].
    fn deposit(packed: u64, mut filled: u64) -> u64 {
        let (mut out, mut i) = (0, 0);
        while filled != 0 {
            let bit = filled & filled.wrapping_neg();
            if packed >> i & 1 == 1 {
                out |= bit;
            }
            i += 1;
            filled &= filled - 1;
        }
        out
    }

    pub(crate) fn rank(&self, pos: &BoardPosition) -> u64 {
        let filled = pos.filled();
        let inner = match self.xs {
            Some(_) => self.subset_rank(Self::compress(pos.a, filled)),
            None if self.patterns > 1 => Self::compress(pos.a, filled),
            None => 0,
        };
        self.subset_rank(filled) * self.patterns + inner
    }

    pub(crate) fn unrank(&self, r: u64) -> BoardPosition {
        let filled = self.subset_unrank(r / self.patterns, self.depth, self.cells);
        let inner = r % self.patterns;
        let packed = match self.xs {
            Some(xs) => self.subset_unrank(inner, xs, self.depth),
            None if self.patterns > 1 => inner,
            None => u64::MAX.checked_shr(64 - self.depth).unwrap_or(0),
        };
        let a = Self::deposit(packed, filled);
        BoardPosition { a, b: filled & !a }
    }

    /// The shard owning a rank: shards split the ranks into equal ranges.
    fn shard_of(&self, rank: u64) -> usize {
        (rank * SHARDS as u64 / self.size) as usize
    }

    /// Adds up one shard's children (carrying their ranks) in its range of a dense table and lists
    /// the positions reached.
    fn merge<'a>(
        &self,
        shard: usize,
        parts: impl Iterator<Item = &'a Vec<(BoardPosition, u128)>>,
    ) -> Result<Vec<(BoardPosition, u128)>, CensusError> {
        let lo = (shard as u64 * self.size).div_ceil(SHARDS as u64);
        let hi = ((shard as u64 + 1) * self.size).div_ceil(SHARDS as u64);
        let mut table = vec![0u128; (hi - lo) as usize];
        for part in parts {
            for (ranked, paths) in part {
                let slot = &mut table[(ranked.a - lo) as usize];
                *slot = slot.checked_add(*paths).ok_or(CensusError::Overflow)?;
            }
        }
        Ok(table
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (self.unrank(lo + i as u64), c))
            .collect())
    }
}

/// Plain enumeration: walks every game from `pos` one move at a time, no memo, no symmetry.
/// Exponential; the reference the census is tested against.
///
/// ```
/// use xo_core::rules::{parse_game, Setup};
/// use xo_core::solve::enumerate::plain_count;
/// let ttt = parse_game("tictactoe").unwrap();
/// let pos = Setup::parse(&ttt, "XOXOXO...").unwrap().validate(&ttt).unwrap();
/// // X wins at 7 or 9 at once, or after 8 and any O reply: four games, all won by X.
/// let c = plain_count(&ttt, &pos);
/// assert_eq!((c.first, c.second, c.draws), (4, 0, 0));
/// ```
pub fn plain_count<G: GameTree>(game: &G, pos: &G::Position) -> GameCounts {
    if let Some(value) = game.outcome(pos) {
        let mover_is_first = game.plies(pos) % 2 == 0;
        return match value {
            Value::Draw => GameCounts { draws: 1, ..Default::default() },
            Value::Win if mover_is_first => GameCounts { first: 1, ..Default::default() },
            Value::Loss if !mover_is_first => GameCounts { first: 1, ..Default::default() },
            _ => GameCounts { second: 1, ..Default::default() },
        };
    }
    let mut moves = Vec::new();
    game.moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|m| plain_count(game, &game.play(pos, m)))
        .fold(GameCounts::default(), |a, b| a + b)
}
