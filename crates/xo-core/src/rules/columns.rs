//! The one grammar for a gravity game written as the columns played from the empty board, and
//! the one place that turns such a list into a [`Position`]. The CLI's `--moves`, the server's
//! `moves` parameter, the `connect4-score` batch format and reports all read and write columns
//! through here, so a list printed by one is read the same way by the others.
//!
//! Columns are 1-based. On boards of at most 9 columns each digit is a column (`4453`, Pascal
//! Pons' convention), and commas or spaces between them are allowed (`4,4,5,3`). On boards of
//! 10 columns or more a column may take two digits, so digits run together would be ambiguous
//! (`11` on a 12-column board: column 11, or column 1 twice?): there every column is a whole
//! number and columns are separated by commas or spaces (`10,11,3`). Anything else (letters,
//! other signs, a number past the board) is refused with the move's index and what is wrong.

use super::checked::Position;
use super::position::PositionError;
use super::setup::Rules;

/// Reads a list of 1-based columns for a board `width` columns wide (see the module's grammar)
/// into 0-based column indices. Whether each move can be played is not checked here.
///
/// ```
/// use xo_core::rules::parse_columns;
/// assert_eq!(parse_columns(7, "4453").unwrap(), [3, 3, 4, 2]);
/// assert_eq!(parse_columns(7, "4,4 53").unwrap(), [3, 3, 4, 2]);
/// assert_eq!(parse_columns(12, "10,11 3").unwrap(), [9, 10, 2]);
/// // On 12 columns, "11" is column 11, never column 1 twice; "4453" is no column of the board.
/// assert_eq!(parse_columns(12, "11").unwrap(), [10]);
/// assert!(parse_columns(12, "4453").unwrap_err().to_string().contains("separated"));
/// assert!(parse_columns(12, "a").unwrap_err().to_string().contains("not a column number"));
/// ```
pub fn parse_columns(width: u32, text: &str) -> Result<Vec<u32>, PositionError> {
    let mut columns = Vec::new();
    let tokens = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty());
    for token in tokens {
        let bad = |index: usize, column: &str, why: String| PositionError::IllegalMove {
            index,
            column: column.to_string(),
            why,
        };
        if let Some(ch) = token.chars().find(|c| !c.is_ascii_digit()) {
            return Err(bad(
                columns.len() + 1,
                token,
                format!("{ch:?} is not a column number (columns are 1 to {width})"),
            ));
        }
        if width <= 9 {
            for (i, ch) in token.char_indices() {
                let column = ch.to_digit(10).unwrap_or(0);
                if column == 0 || column > width {
                    let why = format!("no such column (the board has columns 1 to {width})");
                    return Err(bad(columns.len() + 1, &token[i..i + 1], why));
                }
                columns.push(column - 1);
            }
        } else {
            let column = token.parse::<u32>().ok().filter(|&c| (1..=width).contains(&c));
            let Some(column) = column else {
                let why = format!(
                    "no such column (the board has columns 1 to {width}; on boards of more \
                     than 9 columns, columns are numbers separated by commas, such as 10,11,3)"
                );
                return Err(bad(columns.len() + 1, token, why));
            };
            columns.push(column - 1);
        }
    }
    Ok(columns)
}

/// Writes 0-based `columns` of a board `width` columns wide in the grammar [`parse_columns`]
/// reads: digits run together up to 9 columns, numbers separated by commas beyond.
///
/// ```
/// use xo_core::rules::{columns_text, parse_columns};
/// assert_eq!(columns_text(7, &[3, 3, 4, 2]), "4453");
/// assert_eq!(columns_text(12, &[9, 10, 2]), "10,11,3");
/// assert_eq!(parse_columns(12, &columns_text(12, &[0, 0])).unwrap(), [0, 0]);
/// ```
pub fn columns_text(width: u32, columns: &[u32]) -> String {
    let names = columns.iter().map(|c| (c + 1).to_string());
    if width <= 9 {
        names.collect()
    } else {
        names.collect::<Vec<_>>().join(",")
    }
}

impl Position {
    /// The position after the moves of a gravity game written as 1-based columns in the one
    /// grammar of [`parse_columns`] (`"4453"`; `"10,11,3"` on boards of more than 9 columns).
    /// Each move must land in a column with room, before the game has ended.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Position};
    /// let c4 = parse_game("connect4").unwrap();
    /// let p = Position::from_columns(&c4, "4453").unwrap();
    /// assert_eq!(p.plies(), 4);
    /// assert!(Position::from_columns(&c4, "4448").unwrap_err().to_string().contains("move 4"));
    /// assert!(Position::from_columns(&c4, "4444444").unwrap_err().to_string().contains("full"));
    /// let wide = parse_game("connect:12,2,4").unwrap();
    /// assert_eq!(Position::from_columns(&wide, "11").unwrap().cells()[12 + 10], 1);
    /// ```
    pub fn from_columns(rules: &Rules, moves: &str) -> Result<Position, PositionError> {
        use crate::game::GameTree;
        if !rules.gravity() {
            return Err(PositionError::IllegalMove {
                index: 1,
                column: moves.trim().chars().take(12).collect(),
                why: format!(
                    "moves by column are for gravity games, and {} has none",
                    rules.name()
                ),
            });
        }
        let w = rules.width() as usize;
        let mut pos = rules.start();
        // The patterns through each cell, computed once: a pattern can only be completed by the
        // stone just played (`Rules::outcome` would compute every pattern for every move).
        let patterns = rules.patterns();
        let mut through: Vec<Vec<usize>> = vec![Vec::new(); pos.cells().len()];
        for (i, pattern) in patterns.iter().enumerate() {
            for &(cell, _) in pattern {
                through[cell].push(i);
            }
        }
        let mut ended = rules.outcome(&pos).is_some();
        for (i, column) in parse_columns(rules.width(), moves)?.into_iter().enumerate() {
            let bad = |why: &str| PositionError::IllegalMove {
                index: i + 1,
                column: (column + 1).to_string(),
                why: why.to_string(),
            };
            if ended {
                return Err(bad("the game has already ended"));
            }
            let cell = (0..rules.height() as usize)
                .rev()
                .map(|row| row * w + column as usize)
                .find(|&c| pos.cells()[c] == 0)
                .ok_or_else(|| bad("the column is full"))?;
            let mark = rules.marks_to_place(pos.plies())[0];
            pos = rules.play(&pos, (cell, mark));
            let cells = pos.cells();
            ended = through[cell].iter().any(|&p| patterns[p].iter().all(|&(c, m)| cells[c] == m))
                || cells.iter().all(|&c| c != 0);
        }
        Ok(pos)
    }
}
