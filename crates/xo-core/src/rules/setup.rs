//! The one way in to [`Rules`]: a plain [`RulesSetup`] anyone may fill in, checked once by
//! [`RulesSetup::validate`] into a `Rules` whose fields are private, so an engine given a `Rules`
//! never needs to check it again (the Setup -> Position pattern of chess libraries).

use super::parts::{Goal, Marks, RulesError, MAX_CELLS};
use std::sync::Arc;

/// A game as written, not yet checked: the fields of [`Rules`], public, for building and editing.
///
/// ```
/// use xo_core::rules::{parse_game, Goal, Marks, RulesSetup};
/// let setup = RulesSetup {
///     name: "five".into(),
///     width: 5,
///     height: 1,
///     gravity: false,
///     marks: Marks::Same('X'),
///     goal: Goal::InRow(3),
///     misere: false,
/// };
/// assert_eq!(setup.validate().unwrap(), parse_game("treblecross:5").unwrap().renamed("five"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RulesSetup {
    /// A display name, such as `mnk:5,5,4`.
    pub name: String,
    /// Columns (the cells of a strip).
    pub width: u32,
    /// Rows (1 for a strip).
    pub height: u32,
    /// Whether a mark drops to the lowest empty cell of its column.
    pub gravity: bool,
    /// How marks are chosen.
    pub marks: Marks,
    /// The winning (or, in misère play, losing) pattern.
    pub goal: Goal,
    /// Whether completing the pattern loses instead of winning.
    pub misere: bool,
}

/// A game of the placement family, checked: only [`RulesSetup::validate`] (which the built-in
/// names and rules files go through) makes one, and its fields are read through accessors.
/// Cloning is cheap (the fields are shared).
///
/// ```
/// use xo_core::rules::{parse_game, Goal, Marks};
/// let ttt = parse_game("tictactoe").unwrap();
/// assert_eq!((ttt.width(), ttt.height(), ttt.goal().clone()), (3, 3, Goal::InRow(3)));
/// assert_eq!(parse_game("lol:7").unwrap().marks(), &Marks::Shared(vec!['L', 'O']));
/// ```
///
/// A `Rules` cannot be written as a literal, nor its fields changed:
///
/// ```compile_fail
/// let mut r = xo_core::rules::parse_game("tictactoe").unwrap();
/// r.width = 0;
/// ```
///
/// ```compile_fail
/// use xo_core::rules::{Goal, Marks, Rules};
/// let r = Rules { name: String::new(), width: 0, height: 0, gravity: false, marks: Marks::Own, goal: Goal::InRow(0), misere: false };
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rules(Arc<RulesSetup>);

/// The marks of a game in the order their indices are used.
fn alphabet(marks: &Marks) -> Vec<char> {
    match marks {
        Marks::Own => vec!['X', 'O'],
        Marks::Shared(letters) => letters.clone(),
        Marks::Same(mark) => vec![*mark],
    }
}

/// The length of a goal's pattern.
fn pattern_len(goal: &Goal) -> u32 {
    match goal {
        Goal::InRow(k) => *k,
        Goal::Word(w) => w.len() as u32,
    }
}

impl RulesSetup {
    /// Checks that the setup describes a playable game, and makes it [`Rules`].
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Goal};
    /// let mut setup = parse_game("mnk:3,3,3").unwrap().to_setup();
    /// setup.goal = Goal::InRow(0);
    /// assert!(setup.clone().validate().is_err());
    /// setup.goal = Goal::InRow(2);
    /// assert_eq!(setup.validate().unwrap().pattern_len(), 2);
    /// ```
    pub fn validate(self) -> Result<Rules, RulesError> {
        let bad = |m: String| Err(RulesError::Invalid(m));
        if self.width == 0 || self.height == 0 {
            return bad(format!(
                "a board needs at least one cell, not {}x{}",
                self.width, self.height
            ));
        }
        if self.width as u64 * self.height as u64 > MAX_CELLS {
            return bad(format!(
                "a board of {}x{} cells is too large: at most {MAX_CELLS} cells",
                self.width, self.height
            ));
        }
        // A pattern longer than the board is allowed (such a game is a draw), an empty one is not.
        let k = pattern_len(&self.goal);
        if k == 0 || k > 64 {
            return bad(format!("a pattern needs 1 to 64 cells, not {k}"));
        }
        let alphabet = alphabet(&self.marks);
        if alphabet.is_empty() || alphabet.len() > 2 {
            return bad("a game needs one or two kinds of marks".into());
        }
        for (i, c) in alphabet.iter().enumerate() {
            if !c.is_ascii_alphabetic() || alphabet[..i].contains(c) {
                return bad(format!("mark {c:?} must be a distinct ASCII letter"));
            }
        }
        if let Goal::Word(word) = &self.goal {
            if self.marks == Marks::Own {
                return bad("a word goal needs shared or same marks".into());
            }
            if let Some(c) = word.iter().find(|c| !alphabet.contains(c)) {
                return bad(format!("the word uses {c:?}, which is not a mark of the game"));
            }
        }
        Ok(Rules(Arc::new(self)))
    }
}

impl Rules {
    /// The display name, such as `mnk:5,5,4`.
    ///
    /// ```
    /// assert_eq!(xo_core::rules::parse_game("ttt").unwrap().name(), "tictactoe");
    /// ```
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Columns (the cells of a strip).
    ///
    /// ```
    /// assert_eq!(xo_core::rules::parse_game("connect4").unwrap().width(), 7);
    /// ```
    pub fn width(&self) -> u32 {
        self.0.width
    }

    /// Rows (1 for a strip).
    ///
    /// ```
    /// assert_eq!(xo_core::rules::parse_game("lol:9").unwrap().height(), 1);
    /// ```
    pub fn height(&self) -> u32 {
        self.0.height
    }

    /// Whether a mark drops to the lowest empty cell of its column.
    ///
    /// ```
    /// assert!(xo_core::rules::parse_game("connect4").unwrap().gravity());
    /// ```
    pub fn gravity(&self) -> bool {
        self.0.gravity
    }

    /// How marks are chosen.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Marks};
    /// assert_eq!(parse_game("treblecross:5").unwrap().marks(), &Marks::Same('X'));
    /// ```
    pub fn marks(&self) -> &Marks {
        &self.0.marks
    }

    /// The winning (or, in misère play, losing) pattern.
    ///
    /// ```
    /// use xo_core::rules::{parse_game, Goal};
    /// assert_eq!(parse_game("sos:5").unwrap().goal(), &Goal::Word(vec!['S', 'O', 'S']));
    /// ```
    pub fn goal(&self) -> &Goal {
        &self.0.goal
    }

    /// Whether completing the pattern loses instead of winning.
    ///
    /// ```
    /// assert!(!xo_core::rules::parse_game("tictactoe").unwrap().misere());
    /// ```
    pub fn misere(&self) -> bool {
        self.0.misere
    }

    /// The rules as a plain setup, to edit and validate again.
    ///
    /// ```
    /// let ttt = xo_core::rules::parse_game("tictactoe").unwrap();
    /// assert_eq!(ttt.to_setup().validate(), Ok(ttt));
    /// ```
    pub fn to_setup(&self) -> RulesSetup {
        (*self.0).clone()
    }

    /// The same game under another display name (no check needed: any name will do).
    ///
    /// ```
    /// let r = xo_core::rules::parse_game("tictactoe").unwrap().renamed("noughts");
    /// assert_eq!(r.name(), "noughts");
    /// ```
    pub fn renamed(&self, name: impl Into<String>) -> Rules {
        Rules(Arc::new(RulesSetup { name: name.into(), ..self.to_setup() }))
    }

    /// The game with completing the pattern losing (`true`) or winning (no check needed: either
    /// way the game is playable). The name is kept.
    ///
    /// ```
    /// let r = xo_core::rules::parse_game("tictactoe").unwrap().with_misere(true);
    /// assert!(r.misere());
    /// ```
    pub fn with_misere(&self, misere: bool) -> Rules {
        Rules(Arc::new(RulesSetup { misere, ..self.to_setup() }))
    }

    /// Whether both rules play the same game: everything but the display name is equal.
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// let ttt = parse_game("tictactoe").unwrap();
    /// assert!(ttt.same_game(&parse_game("mnk:3,3,3").unwrap()));
    /// assert!(!ttt.same_game(&parse_game("mnk:3,3,2").unwrap()));
    /// assert!(!ttt.same_game(&ttt.with_misere(true)));
    /// ```
    pub fn same_game(&self, other: &Rules) -> bool {
        let (a, b) = (&*self.0, &*other.0);
        Arc::ptr_eq(&self.0, &other.0)
            || (a.width, a.height, a.gravity, &a.marks, &a.goal, a.misere)
                == (b.width, b.height, b.gravity, &b.marks, &b.goal, b.misere)
    }

    /// Number of cells.
    ///
    /// ```
    /// assert_eq!(xo_core::rules::parse_game("connect4").unwrap().cells(), 42);
    /// ```
    pub fn cells(&self) -> usize {
        self.0.width as usize * self.0.height as usize
    }

    /// The marks that may appear on the board, in the order their indices are used
    /// (mark 1, mark 2).
    ///
    /// ```
    /// use xo_core::rules::parse_game;
    /// assert_eq!(parse_game("tictactoe").unwrap().alphabet(), vec!['X', 'O']);
    /// assert_eq!(parse_game("treblecross:5").unwrap().alphabet(), vec!['X']);
    /// ```
    pub fn alphabet(&self) -> Vec<char> {
        alphabet(&self.0.marks)
    }

    /// The pattern's length.
    ///
    /// ```
    /// assert_eq!(xo_core::rules::parse_game("lol:9").unwrap().pattern_len(), 3);
    /// ```
    pub fn pattern_len(&self) -> u32 {
        pattern_len(&self.0.goal)
    }
}
