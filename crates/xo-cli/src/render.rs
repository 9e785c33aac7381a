//! Turning positions and moves into text people read and type: boards drawn row by row, moves
//! named by their cell's 1-based index in the position text (plus the letter where the player
//! chooses it), or by their 1-based column under gravity.

use xo_core::games::board::BoardMove;
use xo_core::rules::{Marks, Position, Rules};
use xo_core::Value;

/// The name of a move as `xo` prints and reads it.
///
/// ```
/// use xo_cli::render::move_name;
/// use xo_core::games::board::BoardMove;
/// use xo_core::rules::parse_game;
/// assert_eq!(move_name(&parse_game("lol:5").unwrap(), BoardMove { cell: 2, mark: 1 }), "3L");
/// assert_eq!(move_name(&parse_game("connect4").unwrap(), BoardMove { cell: 37, mark: 1 }), "3");
/// assert_eq!(move_name(&parse_game("tictactoe").unwrap(), BoardMove { cell: 4, mark: 2 }), "5");
/// ```
pub fn move_name(rules: &Rules, mv: BoardMove) -> String {
    let index = if rules.gravity {
        mv.cell as usize % rules.width as usize + 1
    } else {
        mv.cell as usize + 1
    };
    match &rules.marks {
        Marks::Shared(letters) if letters.len() > 1 => {
            format!("{index}{}", letters[mv.mark as usize - 1])
        }
        _ => index.to_string(),
    }
}

/// Reads a move name for the player to move in `pos`; `None` when it names no legal move.
///
/// ```
/// use xo_cli::render::parse_move;
/// use xo_core::rules::{parse_game, Setup};
/// let lol = parse_game("lol:5").unwrap();
/// let pos = Setup::empty(&lol).validate(&lol).unwrap();
/// assert_eq!(parse_move(&lol, &pos, "3o").map(|m| (m.cell, m.mark)), Some((2, 2)));
/// assert_eq!(parse_move(&lol, &pos, "3"), None);
/// assert_eq!(parse_move(&lol, &pos, "9L"), None);
/// ```
pub fn parse_move(rules: &Rules, pos: &Position, text: &str) -> Option<BoardMove> {
    let text = text.trim();
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest: String = text[digits.len()..].trim().to_ascii_uppercase();
    let index: usize = digits.parse().ok()?;
    let marks = rules.marks_to_place(pos.plies());
    let mark = match &rules.marks {
        Marks::Shared(letters) if letters.len() > 1 => {
            let letter = rest.chars().next()?;
            if rest.len() != 1 {
                return None;
            }
            letters.iter().position(|&l| l == letter)? as u8 + 1
        }
        _ if rest.is_empty() => marks[0],
        _ => return None,
    };
    let cells = pos.cells();
    let cell = if rules.gravity {
        let col = index.checked_sub(1).filter(|&c| c < rules.width as usize)?;
        (0..rules.height as usize)
            .rev()
            .map(|r| r * rules.width as usize + col)
            .find(|&c| cells[c] == 0)?
    } else {
        index.checked_sub(1).filter(|&c| c < cells.len())?
    };
    (rules.is_playable(cells, cell) && marks.contains(&mark))
        .then_some(BoardMove { cell: cell as u8, mark })
}

/// The board drawn row by row, with `.` for empty cells.
pub fn draw_board(rules: &Rules, pos: &Position) -> String {
    draw_text(&pos.to_text(rules), rules.width as usize)
}

/// Position text drawn as rows of `width` cells.
///
/// ```
/// use xo_cli::render::draw_text;
/// assert_eq!(draw_text("XO.....X.", 3), "  X O .\n  . . .\n  . X .\n");
/// ```
pub fn draw_text(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for row in chars.chunks(width.max(1)) {
        let line: Vec<String> = row.iter().map(|c| c.to_string()).collect();
        out.push_str("  ");
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// Who is to move, in words.
pub fn to_move(rules: &Rules, pos: &Position) -> String {
    match rules.marks {
        Marks::Own => {
            if pos.plies().is_multiple_of(2) {
                "X".into()
            } else {
                "O".into()
            }
        }
        _ => {
            if pos.plies().is_multiple_of(2) {
                "first player".into()
            } else {
                "second player".into()
            }
        }
    }
}

/// A value as the word `xo` prints.
pub fn value_word(v: Value) -> &'static str {
    match v {
        Value::Win => "win",
        Value::Draw => "draw",
        Value::Loss => "loss",
    }
}
