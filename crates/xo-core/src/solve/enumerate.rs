//! Counting every game from a position, split by winner and by length, and every distinct
//! position on the way, one depth at a time.
//!
//! The number of games through a position is the number of paths into it times the number of
//! continuations out of it, so a forward sweep that carries path counts from one depth to the next
//! and tallies them at finished positions counts every game exactly once, and gets the split by
//! length for free. Positions are merged under the symmetries that fix the starting position
//! (a path count of a class is the sum over its members, and each member's moves mirror the
//! representative's), and each depth is expanded in parallel.

use crate::game::Game;
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
    /// One depth holds more positions than allowed.
    #[error("depth {depth} holds more than {limit} positions; raise the limit or count from a fuller position")]
    TooManyPositions {
        /// The depth (moves made) that overflowed.
        depth: u32,
        /// The limit.
        limit: usize,
    },
    /// A count does not fit 128 bits.
    #[error("the number of games exceeds 2^128")]
    Overflow,
}

/// Counts every game continuing from `start` (the position itself included), with `max_layer`
/// bounding the positions held at one depth (memory), and `progress` told each depth finished.
///
/// ```
/// use xo_core::games::board::Board;
/// use xo_core::rules::parse_game;
/// use xo_core::solve::enumerate::census;
///
/// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let c = census(&board, &Default::default(), 1 << 20, |_, _| {}).unwrap();
/// assert_eq!((c.games.first, c.games.second, c.games.draws), (131_184, 77_904, 46_080));
/// assert_eq!(c.positions, 5_478);
/// assert_eq!(c.by_length[5].first, 1_440);
/// ```
pub fn census(
    board: &Board,
    start: &BoardPosition,
    max_layer: usize,
    mut progress: impl FnMut(u32, usize),
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
        if layer.len() > max_layer {
            return Err(CensusError::TooManyPositions { depth, limit: max_layer });
        }
        // Expand in parallel; children go to shards by hash, so each shard is merged once.
        let chunk = layer.len().div_ceil(4 * rayon::current_num_threads()).max(1024);
        let expanded: Vec<(Tally, Shards)> = layer
            .par_chunks(chunk)
            .map(|part| expand(board, &group, &cell_images, part))
            .collect::<Result<_, _>>()?;
        let mut finished = Tally::default();
        for (t, _) in &expanded {
            finished = finished.merge(t).ok_or(CensusError::Overflow)?;
        }
        let shards: Vec<Vec<(BoardPosition, u128)>> = (0..SHARDS)
            .into_par_iter()
            .map(|shard| {
                let mut merged: FxHashMap<BoardPosition, u128> = FxHashMap::default();
                for (_, parts) in &expanded {
                    for &(pos, paths) in &parts[shard] {
                        let e = merged.entry(pos).or_insert(0);
                        *e = e.checked_add(paths).ok_or(CensusError::Overflow)?;
                    }
                }
                Ok(merged.into_iter().collect())
            })
            .collect::<Result<_, CensusError>>()?;
        result.positions =
            result.positions.checked_add(finished.positions).ok_or(CensusError::Overflow)?;
        let at = &mut result.by_length[depth as usize];
        *at = add_counts(*at, finished.games)?;
        result.games = add_counts(result.games, finished.games)?;
        progress(depth, layer.len());
        layer = shards.concat();
        depth += 1;
    }
    Ok(result)
}

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
struct Tally {
    games: GameCounts,
    positions: u128,
}

impl Tally {
    fn merge(&self, o: &Tally) -> Option<Tally> {
        Some(Tally {
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
    part: &[(BoardPosition, u128)],
) -> Result<(Tally, Shards), CensusError> {
    let mut tally = Tally::default();
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
                    let shard = (hasher.hash_one(child) >> 58) as usize % SHARDS;
                    shards[shard].push((child, paths));
                }
            }
        }
    }
    Ok((tally, shards))
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
pub fn plain_count<G: Game>(game: &G, pos: &G::Position) -> GameCounts {
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
