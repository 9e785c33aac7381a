//! How moves and players are named in text: a move is its cell's 1-based index in the position
//! text (plus the letter, where the player chooses it), or its 1-based column under gravity; the
//! players are X and O with own marks, else the first and second player. The CLI, the server and
//! the reports all name moves through here, so a move printed by one is read by the others.

use super::checked::Position;
use super::parts::Marks;
use super::position::BoardMove;
use super::setup::Rules;

/// The name of a move as xo prints and reads it.
///
/// ```
/// use xo_core::rules::BoardMove;
/// use xo_core::rules::{move_name, parse_game};
/// assert_eq!(move_name(&parse_game("lol:5").unwrap(), BoardMove { cell: 2, mark: 1 }), "3L");
/// assert_eq!(move_name(&parse_game("connect4").unwrap(), BoardMove { cell: 37, mark: 1 }), "3");
/// assert_eq!(move_name(&parse_game("tictactoe").unwrap(), BoardMove { cell: 4, mark: 2 }), "5");
/// ```
pub fn move_name(rules: &Rules, mv: BoardMove) -> String {
    let (index, mark) = move_order(rules, mv);
    match rules.marks() {
        Marks::Shared(letters) if letters.len() > 1 => {
            format!("{index}{}", letters[mark as usize - 1])
        }
        _ => index.to_string(),
    }
}

/// The order moves are listed in: by the number in their name (cell, or column under gravity),
/// then by mark.
///
/// ```
/// use xo_core::rules::BoardMove;
/// use xo_core::rules::{move_order, parse_game};
/// let c4 = parse_game("connect4").unwrap();
/// assert!(move_order(&c4, BoardMove { cell: 36, mark: 1 }) < move_order(&c4, BoardMove { cell: 2, mark: 1 }));
/// ```
pub fn move_order(rules: &Rules, mv: BoardMove) -> (usize, u8) {
    let index = if rules.gravity() {
        mv.cell as usize % rules.width() as usize + 1
    } else {
        mv.cell as usize + 1
    };
    (index, mv.mark)
}

/// Reads a move name for the player to move in `pos`; `None` when it names no legal move, or
/// `pos` is not a position of `rules`.
///
/// ```
/// use xo_core::rules::{parse_game, parse_move, Setup};
/// let lol = parse_game("lol:5").unwrap();
/// let pos = Setup::empty(&lol).validate(&lol).unwrap();
/// assert_eq!(parse_move(&lol, &pos, "3o").map(|m| (m.cell, m.mark)), Some((2, 2)));
/// assert_eq!(parse_move(&lol, &pos, "3"), None);
/// assert_eq!(parse_move(&lol, &pos, "9L"), None);
/// assert_eq!(parse_move(&parse_game("sos:5").unwrap(), &pos, "3o"), None);
/// ```
pub fn parse_move(rules: &Rules, pos: &Position, text: &str) -> Option<BoardMove> {
    pos.of(rules).ok()?;
    let text = text.trim();
    let digits = text.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = text[digits..].trim().to_ascii_uppercase();
    let index: usize = text[..digits].parse().ok()?;
    let marks = rules.marks_to_place(pos.plies());
    let mark = match rules.marks() {
        Marks::Shared(letters) if letters.len() > 1 => {
            let mut chars = rest.chars();
            let letter = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            letters.iter().position(|&l| l == letter)? as u8 + 1
        }
        _ if rest.is_empty() => marks[0],
        _ => return None,
    };
    let cells = pos.cells();
    let cell = if rules.gravity() {
        let col = index.checked_sub(1).filter(|&c| c < rules.width() as usize)?;
        (0..rules.height() as usize)
            .rev()
            .map(|r| r * rules.width() as usize + col)
            .find(|&c| cells[c] == 0)?
    } else {
        index.checked_sub(1).filter(|&c| c < cells.len())?
    };
    let cell = u8::try_from(cell).ok()?;
    (rules.is_playable(cells, cell as usize) && marks.contains(&mark))
        .then_some(BoardMove { cell, mark })
}

/// Who is to move after `plies` moves, in words: `X` or `O` with own marks, else `first player`
/// or `second player`.
///
/// ```
/// use xo_core::rules::{parse_game, player_to_move};
/// assert_eq!(player_to_move(&parse_game("tictactoe").unwrap(), 3), "O");
/// assert_eq!(player_to_move(&parse_game("lol:5").unwrap(), 2), "first player");
/// ```
pub fn player_to_move(rules: &Rules, plies: u32) -> &'static str {
    match (rules.marks(), plies.is_multiple_of(2)) {
        (Marks::Own, true) => "X",
        (Marks::Own, false) => "O",
        (_, true) => "first player",
        (_, false) => "second player",
    }
}
