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
    let stabiliser: Vec<usize> = (0..images.len()).filter(|&s| images[s] == *start).collect();
    let canonical = |p: &BoardPosition| -> BoardPosition {
        stabiliser.iter().map(|&s| board.image(p, s)).min().expect("the identity fixes everything")
    };
    let orbit = |p: &BoardPosition| -> u128 {
        let mut seen: Vec<BoardPosition> = stabiliser.iter().map(|&s| board.image(p, s)).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len() as u128
    };
    let cells = board.cells();
    let mut result =
        Census { by_length: vec![GameCounts::default(); cells + 1], ..Census::default() };
    let mut layer: FxHashMap<BoardPosition, u128> = FxHashMap::default();
    layer.insert(canonical(start), 1);
    let mut depth = start.plies();
    while !layer.is_empty() {
        if layer.len() > max_layer {
            return Err(CensusError::TooManyPositions { depth, limit: max_layer });
        }
        let entries: Vec<(BoardPosition, u128)> = layer.drain().collect();
        let (finished, next) = entries
            .par_chunks(4096)
            .map(|chunk| expand(board, chunk, &canonical, &orbit))
            .try_reduce(
                || (Tally::default(), FxHashMap::default()),
                |(t1, m1), (t2, m2)| {
                    let tally = t1.merge(&t2).ok_or(CensusError::Overflow)?;
                    Ok((tally, merge_maps(m1, m2)?))
                },
            )?;
        result.positions =
            result.positions.checked_add(finished.positions).ok_or(CensusError::Overflow)?;
        let at = &mut result.by_length[depth as usize];
        *at = add_counts(*at, finished.games)?;
        result.games = add_counts(result.games, finished.games)?;
        progress(depth, entries.len());
        layer = next;
        depth += 1;
    }
    Ok(result)
}

/// What one chunk of a depth contributes: finished games and positions seen.
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

/// Expands one chunk of a depth: tallies finished positions, carries path counts to children.
fn expand(
    board: &Board,
    chunk: &[(BoardPosition, u128)],
    canonical: &(impl Fn(&BoardPosition) -> BoardPosition + Sync),
    orbit: &(impl Fn(&BoardPosition) -> u128 + Sync),
) -> Result<(Tally, FxHashMap<BoardPosition, u128>), CensusError> {
    let mut tally = Tally::default();
    let mut next: FxHashMap<BoardPosition, u128> = FxHashMap::default();
    let mut moves = Vec::new();
    for &(pos, paths) in chunk {
        tally.positions += orbit(&pos);
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
        moves.clear();
        board.moves_ordered(&pos, &mut moves);
        for &mv in &moves {
            let child = canonical(&board.play(&pos, mv));
            let e = next.entry(child).or_insert(0);
            *e = e.checked_add(paths).ok_or(CensusError::Overflow)?;
        }
    }
    Ok((tally, next))
}

fn merge_maps(
    mut a: FxHashMap<BoardPosition, u128>,
    mut b: FxHashMap<BoardPosition, u128>,
) -> Result<FxHashMap<BoardPosition, u128>, CensusError> {
    if a.len() < b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    for (k, v) in b {
        let e = a.entry(k).or_insert(0);
        *e = e.checked_add(v).ok_or(CensusError::Overflow)?;
    }
    Ok(a)
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
