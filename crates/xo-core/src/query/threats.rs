//! Connect Four's threats and parity, to explain an answer: the empty cells where a stone of
//! each side would complete a line, on which rows they lie, which can be played at once, and,
//! on boards of an even number of rows, whose threats lie on the rows the zugzwang gives them
//! (Allis, "A Knowledge-based Approach of Connect-Four", 1988: filling the board column by
//! column, the first player gets the odd rows and the second the even ones, so the first
//! player's odd threats and the second player's even threats are the ones that tell). They are
//! facts of the position, not a search: the value comes from the engine.
//!
//! Cells are named as Allis does: the column's letter (`a` the leftmost) and the row counted
//! from the bottom (`1` the lowest), e.g. `d1` for the bottom of Connect Four's middle column.

use super::plan::GravityInput;
use crate::games::gravity::{Bits, GravityBoard, GravityPosition};

/// The threats of both sides of a gravity position.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Threats {
    /// The first player's (X's): who moved first from the empty board.
    pub first: SideThreats,
    /// The second player's (O's).
    pub second: SideThreats,
    /// On boards of an even number of rows, which side's threats lie on its own parity of rows
    /// (the first player's on odd rows, the second's on even ones): `first player`, `second
    /// player`, `both` or `neither`; absent on boards of an odd number of rows, where this rule
    /// does not hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parity: Option<&'static str>,
}

/// One side's threats.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SideThreats {
    /// Every empty cell where a stone of this side completes a line, by column then row.
    pub cells: Vec<String>,
    /// Those of `cells` that can be played at once (the lowest empty cell of their column).
    pub playable: Vec<String>,
    /// How many of `cells` lie on odd rows (1, 3, ...).
    pub odd: usize,
    /// How many lie on even rows.
    pub even: usize,
}

/// The name of the cell at `col` (0-based from the left) and `row` (0-based from the bottom).
///
/// ```
/// assert_eq!(xo_core::query::cell_name(3, 0), "d1");
/// assert_eq!(xo_core::query::cell_name(27, 5), "ab6");
/// ```
pub fn cell_name(col: u32, row: u32) -> String {
    let mut letters = Vec::new();
    let mut c = col + 1;
    while c > 0 {
        letters.push(b'a' + ((c - 1) % 26) as u8);
        c = (c - 1) / 26;
    }
    letters.reverse();
    format!("{}{}", String::from_utf8(letters).expect("letters"), row + 1)
}

/// The threats of the position of `input`.
pub(crate) fn of<B: Bits>(input: &GravityInput<B>) -> Threats {
    threats(&input.board, &input.bits)
}

fn threats<B: Bits>(board: &GravityBoard<B>, pos: &GravityPosition<B>) -> Threats {
    let first_to_move = pos.plies().is_multiple_of(2);
    let (first, second) =
        if first_to_move { (pos.current, pos.opponent()) } else { (pos.opponent(), pos.current) };
    let playable = board.possible(pos);
    let side = |stones: B| {
        let cells = board.winning_cells(stones, pos.mask);
        let mut out = SideThreats { cells: Vec::new(), playable: Vec::new(), odd: 0, even: 0 };
        for col in 0..board.width() {
            for row in 0..board.height() {
                let bit = B::ONE << (col * (board.height() + 1) + row);
                if cells & bit == B::ZERO {
                    continue;
                }
                let name = cell_name(col, row);
                if playable & bit != B::ZERO {
                    out.playable.push(name.clone());
                }
                out.cells.push(name);
                if row % 2 == 0 {
                    out.odd += 1;
                } else {
                    out.even += 1;
                }
            }
        }
        out
    };
    let (first, second) = (side(first), side(second));
    let parity =
        board.height().is_multiple_of(2).then_some(match (first.odd > 0, second.even > 0) {
            (true, true) => "both",
            (true, false) => "first player",
            (false, true) => "second player",
            (false, false) => "neither",
        });
    Threats { first, second, parity }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `cells` (xo's reading order: the top row first, 1 for the first player, 2 for the
    /// second, 0 empty) has `k` of `mark` in a row through the cell at `(col, row_up)` once
    /// `mark` is put there: the plain definition.
    fn completes(
        cells: &[u8],
        w: usize,
        h: usize,
        k: usize,
        col: usize,
        row_up: usize,
        mark: u8,
    ) -> bool {
        let at = |c: isize, r: isize| -> bool {
            if c < 0 || r < 0 || c >= w as isize || r >= h as isize {
                return false;
            }
            (c as usize, r as usize) == (col, row_up)
                || cells[(h - 1 - r as usize) * w + c as usize] == mark
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..k as isize)
                    .take_while(|&i| {
                        at(col as isize + sign * i * dc, row_up as isize + sign * i * dr)
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= k
        })
    }

    #[test]
    fn threats_are_the_cells_that_complete_a_line() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for (w, h, k) in [(7, 6, 4), (5, 4, 3), (6, 7, 4), (8, 7, 5)] {
            let board = GravityBoard::<u64>::sized(w, h, k).unwrap();
            for _ in 0..300 {
                let mut pos = board.start();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let plies = state % u64::from(w * h);
                for _ in 0..plies {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let cols: Vec<u32> = (0..w).filter(|&c| board.can_play(&pos, c)).collect();
                    if cols.is_empty() || board.outcome(&pos).is_some() {
                        break;
                    }
                    board.play(&mut pos, cols[(state % cols.len() as u64) as usize]);
                }
                let t = threats(&board, &pos);
                let cells = board.to_cells(&pos);
                let (wu, hu) = (w as usize, h as usize);
                for (mark, side) in [(1u8, &t.first), (2, &t.second)] {
                    let mut want = Vec::new();
                    let mut playable = Vec::new();
                    for col in 0..wu {
                        let lowest = (0..hu).find(|&r| cells[(hu - 1 - r) * wu + col] == 0);
                        for row in 0..hu {
                            if cells[(hu - 1 - row) * wu + col] == 0
                                && completes(&cells, wu, hu, k as usize, col, row, mark)
                            {
                                want.push(cell_name(col as u32, row as u32));
                                if lowest == Some(row) {
                                    playable.push(cell_name(col as u32, row as u32));
                                }
                            }
                        }
                    }
                    assert_eq!(side.cells, want, "{w}x{h}: {cells:?}");
                    assert_eq!(side.playable, playable);
                    assert_eq!(side.odd + side.even, want.len());
                }
                assert_eq!(t.parity.is_some(), h % 2 == 0);
            }
        }
    }
}
