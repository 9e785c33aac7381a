//! Custom games from a small TOML rules file with the same fields as the built-in games.
//!
//! ```toml
//! name = "sos strip"
//! width = 10          # columns (cells of a strip)
//! height = 1          # rows; 1 when omitted
//! gravity = false     # optional
//! marks = "shared"    # "own" (X and O), "shared" (any letter of `alphabet`), "same" (`mark`)
//! alphabet = "SO"     # with shared marks
//! word = "SOS"        # or k = 3 for k in a row
//! misere = false      # optional
//! ```

use super::parts::{Goal, Marks, RulesError};
use super::setup::{Rules, RulesSetup};
use serde::{Deserialize, Serialize};

/// The file's fields, in the order [`Rules::to_toml`] writes them.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    width: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    height: Option<u32>,
    #[serde(default)]
    gravity: bool,
    #[serde(default)]
    misere: bool,
    marks: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    alphabet: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    word: Option<String>,
}

impl Rules {
    /// Reads and validates rules from the text of a TOML rules file.
    ///
    /// ```
    /// use xo_core::rules::{Goal, Marks, Rules};
    /// let r = Rules::from_toml("width = 7\nmarks = \"shared\"\nalphabet = \"SO\"\nword = \"SOS\"").unwrap();
    /// assert_eq!(r.marks(), &Marks::Shared(vec!['S', 'O']));
    /// assert_eq!(r.goal(), &Goal::Word(vec!['S', 'O', 'S']));
    /// assert!(Rules::from_toml("width = 7\nmarks = \"own\"").is_err());
    /// ```
    pub fn from_toml(text: &str) -> Result<Rules, RulesError> {
        let file: RulesFile =
            toml::from_str(text).map_err(|e| RulesError::Invalid(format!("rules file: {e}")))?;
        let bad = |m: &str| RulesError::Invalid(format!("rules file: {m}"));
        let letters =
            |s: &str| -> Vec<char> { s.chars().map(|c| c.to_ascii_uppercase()).collect() };
        // A field the marks do not use would be silently ignored: refused instead.
        match (file.marks.as_str(), &file.alphabet, &file.mark) {
            ("own" | "same", Some(_), _) => {
                return Err(bad("alphabet is for shared marks (own marks are X and O)"))
            }
            ("own" | "shared", _, Some(_)) => return Err(bad("mark is for marks = \"same\"")),
            _ => {}
        }
        let marks = match file.marks.as_str() {
            "own" => Marks::Own,
            "shared" => Marks::Shared(letters(
                file.alphabet.as_deref().ok_or_else(|| bad("shared marks need an alphabet"))?,
            )),
            "same" => {
                let m = letters(file.mark.as_deref().unwrap_or("X"));
                if m.len() != 1 {
                    return Err(bad("mark must be one letter"));
                }
                Marks::Same(m[0])
            }
            other => return Err(bad(&format!("marks must be own, shared or same, not {other:?}"))),
        };
        let goal = match (file.k, file.word.as_deref()) {
            (Some(k), None) => Goal::InRow(k),
            (None, Some(w)) => Goal::Word(letters(w)),
            _ => return Err(bad("give exactly one of k (in a row) and word")),
        };
        RulesSetup {
            name: file.name.unwrap_or_else(|| "custom".into()),
            width: file.width,
            height: file.height.unwrap_or(1),
            gravity: file.gravity,
            marks,
            goal,
            misere: file.misere,
        }
        .validate()
    }
}

impl Rules {
    /// The rules as the text of a TOML rules file that [`Rules::from_toml`] reads back to the
    /// same rules (strong databases store their game this way).
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Rules};
    /// for name in ["tictactoe", "connect4", "lol:9", "treblecross:12", "sos:7"] {
    ///     let r = parse_game(name).unwrap();
    ///     assert_eq!(Rules::from_toml(&r.to_toml()).unwrap(), r);
    /// }
    /// ```
    pub fn to_toml(&self) -> String {
        // The toml crate writes the strings: any character a name may hold is escaped the way
        // TOML reads it back (Rust's `{:?}` escapes differ, e.g. `\u{1b}`).
        let text = |letters: &[char]| letters.iter().collect::<String>();
        let (marks, alphabet, mark) = match self.marks() {
            Marks::Own => ("own", None, None),
            Marks::Shared(letters) => ("shared", Some(text(letters)), None),
            Marks::Same(m) => ("same", None, Some(m.to_string())),
        };
        let (k, word) = match self.goal() {
            Goal::InRow(k) => (Some(*k), None),
            Goal::Word(w) => (None, Some(text(w))),
        };
        let file = RulesFile {
            name: Some(self.name().to_string()),
            width: self.width(),
            height: Some(self.height()),
            gravity: self.gravity(),
            misere: self.misere(),
            marks: marks.into(),
            alphabet,
            mark,
            k,
            word,
        };
        toml::to_string(&file).expect("a struct of strings, numbers and booleans is valid TOML")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin::parse_game;

    #[test]
    fn built_in_rules_print_as_before() {
        // Tier headers and database manifests hold this text: it must not drift.
        let text = parse_game("tictactoe").unwrap().to_toml();
        assert_eq!(
            text,
            "name = \"tictactoe\"\nwidth = 3\nheight = 3\ngravity = false\nmisere = false\n\
             marks = \"own\"\nk = 3\n"
        );
    }

    #[test]
    fn names_with_any_character_read_back() {
        // Found by the rules fuzz target: a control character was written with Rust's escape.
        for name in
            ["\u{1b}", "a\"b", "back\\slash", "tab\there", "line\nbreak", "é ü", "'", "\u{7f}"]
        {
            let rules = parse_game("sos:7").unwrap().renamed(name);
            assert_eq!(Rules::from_toml(&rules.to_toml()), Ok(rules), "name {name:?}");
        }
    }
}
