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

use super::{Goal, Marks, Rules, RulesError};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    name: Option<String>,
    width: u32,
    height: Option<u32>,
    #[serde(default)]
    gravity: bool,
    marks: String,
    alphabet: Option<String>,
    mark: Option<String>,
    k: Option<u32>,
    word: Option<String>,
    #[serde(default)]
    misere: bool,
}

impl Rules {
    /// Reads and validates rules from the text of a TOML rules file.
    ///
    /// ```
    /// use xo_core::rules::{Goal, Marks, Rules};
    /// let r = Rules::from_toml("width = 7\nmarks = \"shared\"\nalphabet = \"SO\"\nword = \"SOS\"").unwrap();
    /// assert_eq!(r.marks, Marks::Shared(vec!['S', 'O']));
    /// assert_eq!(r.goal, Goal::Word(vec!['S', 'O', 'S']));
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
        let rules = Rules {
            name: file.name.unwrap_or_else(|| "custom".into()),
            width: file.width,
            height: file.height.unwrap_or(1),
            gravity: file.gravity,
            marks,
            goal,
            misere: file.misere,
        };
        rules.validate()?;
        Ok(rules)
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
        let quoted = |s: &str| format!("{s:?}");
        let mut out = format!(
            "name = {}\nwidth = {}\nheight = {}\ngravity = {}\nmisere = {}\n",
            quoted(&self.name),
            self.width,
            self.height,
            self.gravity,
            self.misere
        );
        match &self.marks {
            Marks::Own => out.push_str("marks = \"own\"\n"),
            Marks::Shared(letters) => out.push_str(&format!(
                "marks = \"shared\"\nalphabet = {}\n",
                quoted(&letters.iter().collect::<String>())
            )),
            Marks::Same(mark) => {
                out.push_str(&format!("marks = \"same\"\nmark = {}\n", quoted(&mark.to_string())))
            }
        }
        match &self.goal {
            Goal::InRow(k) => out.push_str(&format!("k = {k}\n")),
            Goal::Word(w) => {
                out.push_str(&format!("word = {}\n", quoted(&w.iter().collect::<String>())))
            }
        }
        out
    }
}
