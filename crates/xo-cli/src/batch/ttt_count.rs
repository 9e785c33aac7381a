//! `ttt-count`: for each tic-tac-toe grid, `-1 -1` when it cannot occur, else how many games
//! continuing from it X wins and O wins.

use super::answerer::{Answerer, CaseError};
use std::io::Write;
use xo_core::budget::Meter;
use xo_core::query::Judge;

/// Cells of a grid.
const CELLS: usize = 9;

/// Grids: 3^9.
const GRIDS: usize = 19_683;

/// Bytes per answer slot; the last holds the answer's length. The longest answer,
/// `"131184 77904\n"`, takes 13.
const SLOT: usize = 16;

/// Each byte's base-3 digit in the numbering of
/// [`Board::rank`](xo_core::games::board::Board::rank) (`.` 0, `X` 1, `O` 2), `None` for any
/// other byte.
const fn digit(b: u8) -> Option<u32> {
    match b {
        b'.' => Some(0),
        b'X' => Some(1),
        b'O' => Some(2),
        _ => None,
    }
}

/// What a byte that is not a cell adds to a rank: enough that the sum of any nine entries with
/// one of these is past the last grid.
const NOT_A_CELL: u32 = 1 << 20;

/// `WEIGHT[c][b]`: what byte `b` in cell `c` adds to the grid's rank, `digit(b) * 3^c`, or
/// [`NOT_A_CELL`]. A line's rank is the sum of its nine entries, below 3^9 exactly when every byte
/// is a cell: nine independent loads and adds, no branch per cell.
const WEIGHT: [[u32; 256]; CELLS] = {
    let mut t = [[NOT_A_CELL; 256]; CELLS];
    let mut c = 0;
    let mut power = 1;
    while c < CELLS {
        let mut b = 0;
        while b < 256 {
            if let Some(d) = digit(b as u8) {
                t[c][b] = d * power;
            }
            b += 1;
        }
        power *= 3;
        c += 1;
    }
    t
};

/// Answers from a table of all 3^9 grids (indexed by base-3 rank), the core's
/// [`Judge::tictactoe_continuations`] rendered once; each line is then a table lookup.
///
/// The table is flat: one 16-byte slot per grid holding its answer line, padded, with the length
/// in the last byte. A line is ranked through per-cell 256-entry weight tables with no branch per cell, and
/// its slot is appended to the output with one fixed-size copy, then cut to the answer's length.
pub struct TttCountAnswerer {
    /// The answer line of every grid, by rank.
    slots: Vec<[u8; SLOT]>,
    /// The run's budget (each line is a node, counted by the batch driver).
    meter: Meter,
}

impl Default for TttCountAnswerer {
    fn default() -> Self {
        Self::new()
    }
}

impl TttCountAnswerer {
    /// Builds the table (a few milliseconds).
    ///
    /// ```
    /// use xo_cli::batch::{Answerer, TttCountAnswerer};
    /// let mut t = TttCountAnswerer::new();
    /// let mut out = Vec::new();
    /// t.answer(b"OOOXXX...", &mut out).unwrap();
    /// assert_eq!(out, b"-1 -1\n");
    /// ```
    pub fn new() -> Self {
        Self::with_meter(Meter::new(Default::default()))
    }

    /// An answerer whose whole run is bounded by `meter`.
    pub fn with_meter(meter: Meter) -> Self {
        let slots = Judge::tictactoe_continuations()
            .into_iter()
            .map(|counts| {
                let mut slot = [0u8; SLOT];
                let mut text = &mut slot[..SLOT - 1];
                // The counts of tic-tac-toe are below 10^6, so 15 bytes always hold the line.
                let written = match counts {
                    Some((x, o)) => writeln!(text, "{x} {o}"),
                    None => text.write_all(b"-1 -1\n"),
                };
                written.expect("an answer line fits its slot");
                let len = SLOT - 1 - text.len();
                slot[SLOT - 1] = len as u8;
                slot
            })
            .collect::<Vec<_>>();
        debug_assert_eq!(slots.len(), GRIDS);
        TttCountAnswerer { slots, meter }
    }

    /// Why `case` is not a grid, for the message.
    #[cold]
    #[inline(never)]
    fn explain(case: &[u8]) -> String {
        if case.len() != CELLS {
            return format!(
                "expected 9 characters from '.XO' (a grid row by row), found {}",
                case.len()
            );
        }
        let (i, &b) = case
            .iter()
            .enumerate()
            .find(|&(_, &b)| digit(b).is_none())
            .expect("a 9-byte line refused by the fast path has a bad byte");
        format!("character {:?} at column {} is not one of '.XO'", b as char, i + 1)
    }
}

impl Answerer for TttCountAnswerer {
    const MAX_LINE: usize = 64;

    fn meter(&self) -> &Meter {
        &self.meter
    }

    #[inline]
    fn answer(&mut self, case: &[u8], out: &mut Vec<u8>) -> Result<(), CaseError> {
        if let Ok(cells) = <&[u8; CELLS]>::try_from(case) {
            let rank: u32 = (0..CELLS).map(|c| WEIGHT[c][usize::from(cells[c])]).sum();
            if let Some(slot) = self.slots.get(rank as usize) {
                let len = out.len() + usize::from(slot[SLOT - 1]);
                out.extend_from_slice(slot);
                out.truncate(len);
                return Ok(());
            }
        }
        Err(Self::explain(case).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xo_core::games::board::{Board, BoardPosition};
    use xo_core::rules::parse_game;

    #[test]
    fn the_digit_rank_is_the_cores_rank() {
        let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
        let mut answerer = TttCountAnswerer::new();
        for rank in 0..GRIDS as u64 {
            let pos = ttt.unrank(u128::from(rank));
            let text: Vec<u8> = (0..CELLS)
                .map(|c| match (pos.a >> c & 1, pos.b >> c & 1) {
                    (1, _) => b'X',
                    (_, 1) => b'O',
                    _ => b'.',
                })
                .collect();
            let mut out = b"kept".to_vec();
            answerer.answer(&text, &mut out).unwrap();
            let slot = &answerer.slots[ttt.rank(&pos) as usize];
            assert_eq!(&out[..4], b"kept");
            assert_eq!(out[4..], slot[..usize::from(slot[SLOT - 1])]);
            assert_eq!(out.last(), Some(&b'\n'));
        }
        assert_eq!(ttt.rank(&BoardPosition { a: 0, b: 1 << 8 }), 2 * 3u128.pow(8));
    }

    #[test]
    fn errors_name_the_first_bad_column() {
        let mut t = TttCountAnswerer::new();
        let mut out = Vec::new();
        assert_eq!(
            t.answer(b"XX.\tO.x..", &mut out).unwrap_err(),
            CaseError::Bad("character '\\t' at column 4 is not one of '.XO'".into())
        );
        assert_eq!(
            t.answer(b"XX..", &mut out).unwrap_err(),
            CaseError::Bad("expected 9 characters from '.XO' (a grid row by row), found 4".into())
        );
        assert!(out.is_empty());
    }
}
