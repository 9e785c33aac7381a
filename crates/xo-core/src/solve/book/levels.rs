//! The positions a book covers, level by level, and the scores of the shallower levels derived
//! from the deeper ones (the best of the children: no search).

use crate::budget::{Meter, Reservation, Stopped, Ticker};
use crate::games::gravity::{GravityBoard, GravityPosition};
use crate::solve::gravity::win_at;
use rustc_hash::{FxHashMap, FxHashSet};

/// The distinct positions (mirror images merged) after 0..=depth moves; finished positions are
/// kept but not extended. Each level is in the order of first discovery, columns centre first:
/// the order of the move sequences that reach them, so neighbours in a level share their first
/// moves (and most of their searches), and the games that open in the centre come first. The
/// levels' memory stays reserved on `meter` while the reservation returned is held.
pub(super) fn levels(
    board: &GravityBoard,
    depth: u32,
    meter: &Meter,
) -> Result<(Vec<Vec<GravityPosition>>, Reservation), Stopped> {
    // Bytes a position takes: kept in a level, and while its level is being built (its key in
    // a hash set, which may hold twice its entries' room while it grows).
    const KEPT: u64 = 24;
    const BUILDING: u64 = 48;
    let columns = centre_first(board.width());
    let mut levels = vec![vec![board.start()]];
    let mut kept = 1u64;
    let mut held = meter.reserve(kept * KEPT)?;
    let mut ticker = Ticker::every(1024);
    for _ in 0..depth {
        let mut seen = FxHashSet::default();
        let mut next = Vec::new();
        let parents = levels.last().expect("level 0");
        for pos in parents {
            if ticker.step(meter, 1, 0)? {
                held.grow_to((kept + next.len() as u64) * KEPT + seen.len() as u64 * BUILDING)?;
            }
            if board.outcome(pos).is_some() {
                continue;
            }
            for &c in &columns {
                if board.can_play(pos, c) {
                    let mut child = *pos;
                    board.play(&mut child, c);
                    if seen.insert(board.symmetric_key(&child)) {
                        next.push(child);
                    }
                }
            }
        }
        kept += next.len() as u64;
        levels.push(next);
    }
    ticker.finish(meter, (levels, held))
}

/// The columns of a board `width` wide, the centre first, then outwards (left before right).
fn centre_first(width: u32) -> Vec<u32> {
    let mut columns: Vec<u32> = (0..width).collect();
    columns.sort_by_key(|&c| ((2 * c as i64 + 1 - width as i64).abs(), c));
    columns
}

/// The score (Pons' convention, for the player to move) of a finished position.
pub(super) fn finished_score(board: &GravityBoard, pos: &GravityPosition) -> Option<i32> {
    board.outcome(pos).map(|result| match result {
        // The board is full.
        crate::Value::Draw => 0,
        // The player who just moved won at this ply.
        _ => -win_at(board.cells() as i32, pos.moves as i32),
    })
}

/// Every score that follows from `deepest` (scores of deepest-level positions, by symmetric
/// key): the deepest level's own, and each shallower position whose children's scores are all
/// known (or that wins at once), level by level up to the empty board.
pub(super) fn derive(
    board: &GravityBoard,
    levels: &[Vec<GravityPosition>],
    deepest: &FxHashMap<u64, i8>,
    meter: &Meter,
) -> Result<Vec<(u64, i8)>, Stopped> {
    let n = board.cells() as i32;
    let last = levels.last().expect("level 0 at least");
    let mut below: FxHashMap<u64, i8> = FxHashMap::default();
    for pos in last {
        let key = board.symmetric_key(pos);
        let score =
            finished_score(board, pos).map(|s| s as i8).or_else(|| deepest.get(&key).copied());
        if let Some(score) = score {
            below.insert(key, score);
        }
    }
    let mut all: Vec<(u64, i8)> = below.iter().map(|(&k, &s)| (k, s)).collect();
    let mut ticker = Ticker::every(1024);
    for level in levels.iter().rev().skip(1) {
        let mut here = FxHashMap::default();
        for pos in level {
            ticker.step(meter, 1, 0)?;
            let score = finished_score(board, pos).or_else(|| best_child(board, pos, n, &below));
            if let Some(score) = score {
                here.insert(board.symmetric_key(pos), score as i8);
            }
        }
        all.extend(here.iter().map(|(&k, &s)| (k, s)));
        below = here;
    }
    all.sort_unstable_by_key(|&(k, _)| k);
    all.dedup_by_key(|&mut (k, _)| k);
    Ok(all)
}

/// The best of an unfinished position's children, if it follows from `below`: a win at once
/// is the best there is; otherwise every child's score must be known.
fn best_child(
    board: &GravityBoard,
    pos: &GravityPosition,
    n: i32,
    below: &FxHashMap<u64, i8>,
) -> Option<i32> {
    let playable: Vec<u32> = (0..board.width()).filter(|&c| board.can_play(pos, c)).collect();
    if playable.iter().any(|&c| board.is_winning_move(pos, c)) {
        return Some(win_at(n, pos.moves as i32 + 1));
    }
    let mut best = i32::MIN;
    for c in playable {
        let mut child = *pos;
        board.play(&mut child, c);
        best = best.max(-i32::from(*below.get(&board.symmetric_key(&child))?));
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_go_out_from_the_centre() {
        assert_eq!(centre_first(7), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(centre_first(4), [1, 2, 0, 3]);
        assert_eq!(centre_first(1), [0]);
    }
}
