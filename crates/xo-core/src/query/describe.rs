//! What a front end needs to draw a game before asking anything about it: its board or heaps,
//! the marks a mover may place, the empty position's text, and for octal games the moves the
//! code allows. The HTTP server's `/api/games` and `/api/game` return these, so the web page never
//! has to know the rules' internals or guess a board's shape from a name.

use super::game::Game;
use crate::rules::{Marks, Rules};
use serde::Serialize;

/// A game described for drawing it.
///
/// ```
/// use xo_core::query::{describe, Game};
/// let info = describe(&Game::parse("connect4").unwrap());
/// assert_eq!((info.kind, info.width, info.height, info.gravity), ("board", 7, 6, true));
/// assert_eq!(info.empty, ".".repeat(42));
/// let lol = describe(&Game::parse("lol:5").unwrap());
/// assert_eq!((lol.kind, lol.marks, lol.alphabet.clone()), ("strip", "shared", vec!['L', 'O']));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The canonical name: the one to send back to ask about this game.
    pub name: String,
    /// A human title, such as "Connect Four (7x6)".
    pub title: String,
    /// `board` (two dimensions), `strip` (one row) or `octal` (heaps).
    pub kind: &'static str,
    /// Columns (cells of a strip; 0 for octal games).
    pub width: u32,
    /// Rows (1 for a strip; 0 for octal games).
    pub height: u32,
    /// Whether marks drop to the lowest empty cell of their column.
    pub gravity: bool,
    /// `own` (X and O), `shared` (the mover picks any letter of the alphabet), `same` (one mark),
    /// or `heaps` for octal games.
    pub marks: &'static str,
    /// The letters a mover may place (`X`, `O` for own marks: the first player places X).
    pub alphabet: Vec<char>,
    /// The pattern to complete: `k in a row` or a word.
    pub goal: String,
    /// Whether completing the pattern loses.
    pub misere: bool,
    /// The empty position's text (a sample position for octal games: one heap of 10).
    pub empty: String,
    /// The octal code (octal games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What removing `take` tokens may leave (octal games only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removals: Vec<Removal>,
}

/// One digit of an octal code: removing `take` tokens from a heap may leave the listed numbers
/// of heaps (0: the whole heap taken, 1: the rest as one heap, 2: split in two, 3: in three).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Removal {
    /// Tokens removed (0 for the whole-heap digit of codes like 4.07: split without removing).
    pub take: usize,
    /// The numbers of heaps the move may leave.
    pub leave: Vec<u8>,
}

/// Describes `game` for a front end.
pub fn describe(game: &Game) -> GameInfo {
    match game {
        Game::Placement(rules) => describe_rules(game.name(), rules),
        Game::Octal(octal) => GameInfo {
            name: game.name(),
            title: match octal.to_string().as_str() {
                "0.77" => "Kayles (octal 0.77)".to_string(),
                "0.07" => "Dawson's Kayles (octal 0.07)".to_string(),
                "0.007" => "Treblecross as heaps (octal 0.007)".to_string(),
                code => format!("Octal game {code}"),
            },
            kind: "octal",
            width: 0,
            height: 0,
            gravity: false,
            marks: "heaps",
            alphabet: Vec::new(),
            goal: "take the last token (normal play)".to_string(),
            misere: false,
            empty: "10".to_string(),
            code: Some(octal.to_string()),
            removals: octal
                .digits()
                .iter()
                .enumerate()
                .filter(|&(_, &d)| d != 0)
                .map(|(take, &d)| Removal {
                    take,
                    leave: (0..4u8).filter(|&b| d & (1 << b) != 0).collect(),
                })
                .collect(),
        },
    }
}

fn describe_rules(name: String, rules: &Rules) -> GameInfo {
    let (marks, alphabet) = match rules.marks() {
        Marks::Own => ("own", vec!['X', 'O']),
        Marks::Shared(letters) => ("shared", letters.clone()),
        Marks::Same(mark) => ("same", vec![*mark]),
    };
    let goal = match rules.goal() {
        crate::rules::Goal::InRow(k) => format!("{k} in a row"),
        crate::rules::Goal::Word(w) => format!("the word {}", w.iter().collect::<String>()),
    };
    let (w, h) = (rules.width(), rules.height());
    let base = name.split(':').next().unwrap_or_default();
    let title = match base {
        "tictactoe" => "Tic-tac-toe".to_string(),
        "connect4" => "Connect Four (7x6)".to_string(),
        "connect" => format!("Connect {} on {w}x{h}", rules.pattern_len()),
        "mnk" => format!("{}-in-a-row on {w}x{h}", rules.pattern_len()),
        "treblecross" => format!("Treblecross ({w} cells)"),
        "lol" => format!("LOL ({w} cells)"),
        "sos" => format!("SOS ({w} cells)"),
        _ => name.clone(),
    };
    let title = if rules.misere() { format!("{title}, misère") } else { title };
    GameInfo {
        title,
        name,
        kind: if h == 1 { "strip" } else { "board" },
        width: w,
        height: h,
        gravity: rules.gravity(),
        marks,
        alphabet,
        goal,
        misere: rules.misere(),
        empty: ".".repeat(rules.cells()),
        code: None,
        removals: Vec::new(),
    }
}

/// The games a picker offers first: one of each family, at sizes that answer at once.
///
/// ```
/// let names: Vec<String> = xo_core::query::presets().into_iter().map(|g| g.name).collect();
/// assert!(names.contains(&"tictactoe".to_string()));
/// assert!(names.contains(&"octal:0.77".to_string()));
/// ```
pub fn presets() -> Vec<GameInfo> {
    [
        "tictactoe",
        "mnk:4,4,4",
        "mnk:5,5,4",
        "connect4",
        "connect:5,4,4",
        "treblecross:12",
        "lol:8",
        "sos:8",
        "kayles",
        "dawson-kayles",
    ]
    .iter()
    .filter_map(|name| Game::parse(name).ok())
    .map(|game| describe(&game))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_game_by_its_own_name() {
        let presets = presets();
        assert_eq!(presets.len(), 10);
        for info in presets {
            let again = describe(&Game::parse(&info.name).unwrap());
            assert_eq!(again, info);
        }
    }

    #[test]
    fn octal_removals_follow_the_digits() {
        let info = describe(&Game::parse("0.137").unwrap());
        assert_eq!(info.kind, "octal");
        let r: Vec<(usize, Vec<u8>)> =
            info.removals.into_iter().map(|r| (r.take, r.leave)).collect();
        assert_eq!(r, vec![(1, vec![0]), (2, vec![0, 1]), (3, vec![0, 1, 2])]);
        let split = describe(&Game::parse("4.07").unwrap());
        assert_eq!(split.removals[0].take, 0);
        assert_eq!(split.removals[0].leave, vec![2]);
    }

    #[test]
    fn treblecross_is_a_strip_of_one_mark() {
        let info = describe(&Game::parse("treblecross:7").unwrap());
        assert_eq!((info.kind, info.marks, info.alphabet.clone()), ("strip", "same", vec!['X']));
        assert_eq!(info.empty, ".......");
        assert_eq!(info.title, "Treblecross (7 cells)");
    }
}
