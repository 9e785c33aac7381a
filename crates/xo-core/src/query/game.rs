//! What a question is asked about: a game named in text, a position of it, and the engine that
//! will answer. Everything a caller can get wrong is found here, before any engine runs or any
//! large table is allocated, and named in an [`InputError`].

use super::Question;
use crate::games::board::MAX_BOARD_CELLS;
use crate::games::octal::{OctalError, OctalGame};
use crate::rules::{parse_game, Goal, Marks, Position, PositionError, Rules, RulesError, Setup};
use crate::solve::grundy::max_heap;

/// A game: a placement game (built in, or rules the caller read from a file) or an octal game
/// played on sums of heaps.
///
/// ```
/// use xo_core::query::Game;
/// assert_eq!(Game::parse("kayles").unwrap().name(), "octal:0.77");
/// assert_eq!(Game::parse(".07").unwrap().name(), "octal:0.07");
/// assert_eq!(Game::parse("ttt").unwrap().name(), "tictactoe");
/// assert!(Game::parse("chess").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    /// A placement game.
    Placement(Rules),
    /// An octal game; its positions are sums of heaps.
    Octal(OctalGame),
}

/// Why a question cannot be asked: the game, the position or the combination is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// An unknown or malformed game.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A malformed octal code.
    #[error(transparent)]
    Octal(#[from] OctalError),
    /// A malformed position, or one that cannot occur.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A question xo has no engine for on this game, or a size beyond every engine.
    #[error("{0}")]
    Unsupported(String),
}

/// The strip games whose length may be left out of their name.
const STRIP_NAMES: [&str; 3] = ["lol", "sos", "treblecross"];

impl Game {
    /// Reads a game name: a built-in placement game (`tictactoe`, `mnk:M,N,K`, `connect:M,N,K`,
    /// `connect4`, `treblecross:N`, `lol:N`, `sos:N`) or an octal game in any of its forms
    /// (`octal:0.77`, `0.77`, `.77`, `kayles`, `dawson-kayles`, hexadecimal digits).
    pub fn parse(name: &str) -> Result<Game, InputError> {
        Game::parse_for(name, None)
    }

    /// Like [`Game::parse`], but a strip game named without its length (`lol`, `sos`,
    /// `treblecross`) takes it from `position`, the position text it is asked about.
    ///
    /// ```
    /// use xo_core::query::Game;
    /// assert_eq!(Game::parse_for("lol", Some("*L**")).unwrap().name(), "lol:4");
    /// assert_eq!(Game::parse_for("treblecross", Some(".X..X.")).unwrap().name(), "treblecross:6");
    /// assert_eq!(Game::parse_for("lol", None).unwrap().name(), "lol:16");
    /// ```
    pub fn parse_for(name: &str, position: Option<&str>) -> Result<Game, InputError> {
        let name = name.trim();
        let cells = position.map_or(0, |p| p.chars().filter(|c| !c.is_whitespace()).count());
        let sized;
        let name = if STRIP_NAMES.contains(&name) && cells > 0 {
            sized = format!("{name}:{cells}");
            sized.as_str()
        } else {
            name
        };
        match parse_game(name) {
            Ok(rules) => Ok(Game::Placement(rules)),
            Err(RulesError::UnknownGame(_)) if looks_octal(name) => Ok(Game::Octal(name.parse()?)),
            Err(e) => Err(e.into()),
        }
    }

    /// The one name reports use for this game.
    pub fn name(&self) -> String {
        match self {
            Game::Placement(rules) => rules.name.clone(),
            Game::Octal(game) => format!("octal:{game}"),
        }
    }

    /// The octal game this game is, where it is one: an octal game itself, or Treblecross (whose
    /// free runs are heaps of .007).
    ///
    /// ```
    /// use xo_core::query::Game;
    /// assert_eq!(Game::parse("treblecross").unwrap().octal().unwrap().to_string(), "0.007");
    /// assert!(Game::parse("tictactoe").unwrap().octal().is_none());
    /// ```
    pub fn octal(&self) -> Option<OctalGame> {
        match self {
            Game::Octal(game) => Some(game.clone()),
            Game::Placement(rules) if is_treblecross(rules) => Some(OctalGame::dot007()),
            Game::Placement(_) => None,
        }
    }
}

/// Whether a name that is no built-in game should be read as an octal code.
fn looks_octal(name: &str) -> bool {
    name.starts_with("octal:")
        || name.contains('.')
        || ["kayles", "dawson-kayles", "dawsons-kayles"]
            .contains(&name.to_ascii_lowercase().as_str())
}

/// Whether the game is Treblecross: one shared mark, three in a row on a strip, normal play.
pub(crate) fn is_treblecross(rules: &Rules) -> bool {
    matches!((&rules.marks, &rules.goal), (Marks::Same(_), Goal::InRow(3)))
        && rules.height == 1
        && !rules.gravity
        && !rules.misere
}

/// When the game is LOL up to renaming letters (a strip, two shared letters, a word `pqp`, normal
/// play), the mark (1 or 2) playing L's part.
pub(crate) fn lol_outer_mark(rules: &Rules) -> Option<u8> {
    match (&rules.marks, &rules.goal) {
        (Marks::Shared(letters), Goal::Word(w))
            if rules.height == 1
                && !rules.gravity
                && !rules.misere
                && letters.len() == 2
                && w.len() == 3
                && w[0] == w[2]
                && w[0] != w[1] =>
        {
            letters.iter().position(|&l| l == w[0]).map(|i| i as u8 + 1)
        }
        _ => None,
    }
}

/// The engine that answers a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Alpha-beta negamax on the bitboard (boards of at most 64 cells).
    Negamax,
    /// Connect Four's family (gravity, own marks, k in a row) by Pascal Pons' method: exact
    /// scores by null-window searches on a two-bitboard layout.
    Gravity,
    /// The LOL solver that splits a strip into independent components (any length).
    LolComponents,
    /// Treblecross strips of any length by Grundy values of .007.
    TreblecrossGrundy,
    /// Sums of octal-game heaps by Grundy values (periods where proven).
    HeapsGrundy,
    /// Games by outcome, one depth at a time.
    Census,
    /// Reachability by playing backwards.
    Retrograde,
}

impl Engine {
    /// The engine's name in reports.
    ///
    /// ```
    /// assert_eq!(xo_core::query::Engine::LolComponents.name(), "lol-components");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Engine::Negamax => "negamax",
            Engine::Gravity => "gravity",
            Engine::LolComponents => "lol-components",
            Engine::TreblecrossGrundy | Engine::HeapsGrundy => "grundy",
            Engine::Census => "census",
            Engine::Retrograde => "retrograde",
        }
    }
}

/// The position a query is about, as the engine will take it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Subject {
    /// A validated position of a placement game.
    Board(Position),
    /// A position read but not validated: reachability is asked of positions that may not occur.
    Unchecked(Setup),
    /// Heap sizes of an octal game.
    Heaps(Vec<usize>),
}

/// A question about a position of a game, checked and ready for [`answer`](super::answer): the
/// game is known, the position valid (and able to occur in play, except when reachability is the
/// question), and an engine that answers it chosen. Fields are private: a `Query` exists only
/// once all of that holds.
///
/// ```
/// use xo_core::query::{Engine, Query, Question};
/// let q = Query::parse("treblecross", Some("..X......"), Question::Value).unwrap();
/// assert_eq!((q.game().name(), q.engine()), ("treblecross:9".to_string(), Engine::TreblecrossGrundy));
/// // O moved after X completed a line: refused, with the reason.
/// let err = Query::parse("tictactoe", Some("XXXOO.O.."), Question::Value).unwrap_err();
/// assert_eq!(err.to_string(), "X has a line but O moved after it; a game stops at the first line");
/// assert!(Query::parse("mnk:2000,2000,5", None, Question::Value).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    game: Game,
    subject: Subject,
    question: Question,
    engine: Engine,
    book: Option<std::sync::Arc<crate::solve::book::Book>>,
    threads: usize,
}

impl Query {
    /// Reads a game name and position text (the empty board or no heaps when `None`) for
    /// `question`. Strip games named without a length take it from the position.
    pub fn parse(
        game: &str,
        position: Option<&str>,
        question: Question,
    ) -> Result<Query, InputError> {
        Query::new(Game::parse_for(game, position)?, position, question)
    }

    /// Checks `position` (text; the empty board or no heaps when `None`) of `game` for
    /// `question`, and chooses the engine.
    pub fn new(
        game: Game,
        position: Option<&str>,
        question: Question,
    ) -> Result<Query, InputError> {
        match &game {
            Game::Octal(octal) => {
                if !matches!(
                    question,
                    Question::Value | Question::Score | Question::Analysis { .. }
                ) {
                    return Err(InputError::Unsupported(format!(
                        "{} is an octal game: it is solved (value, nim-sum, winning moves), not \
                         counted or checked",
                        game.name()
                    )));
                }
                let heaps = parse_heaps(octal, position.unwrap_or(""))?;
                Ok(Query {
                    subject: Subject::Heaps(heaps),
                    question,
                    engine: Engine::HeapsGrundy,
                    game,
                    book: None,
                    threads: 1,
                })
            }
            Game::Placement(rules) => {
                // Sizes first: nothing is allocated for a board no engine takes.
                let engine = choose_engine(rules, question)?;
                let setup = match position {
                    Some(text) => Setup::parse(rules, text)?,
                    None => Setup::empty(rules),
                };
                let subject = match question {
                    Question::Reach => Subject::Unchecked(setup),
                    _ => Subject::Board(setup.validate(rules)?),
                };
                Ok(Query { game, subject, question, engine, book: None, threads: 1 })
            }
        }
    }

    /// The same query, answered with an opening book where the engine takes one (the gravity
    /// engine, when the book is of this board; otherwise it is ignored).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::query::{answer, Answer, Query, Question};
    /// use xo_core::solve::book::Book;
    /// let board = GravityBoard::new(5, 4, 4).unwrap();
    /// let book = Arc::new(Book::build(&board, 3, 1 << 20, &Meter::default()).unwrap());
    /// let q = Query::parse("connect:5,4,4", None, Question::Score).unwrap().with_book(book);
    /// let Answer::Solve(r) = answer(&q, &Meter::default()).unwrap() else { panic!() };
    /// assert_eq!(r.value, Some(xo_core::Value::Draw));
    /// ```
    pub fn with_book(mut self, book: std::sync::Arc<crate::solve::book::Book>) -> Query {
        self.book = Some(book);
        self
    }

    /// The same query, allowed `threads` threads where its engine can use them (the gravity
    /// engine: one shared table; the answer is the same with any number). One by default.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::{answer, Answer, Query, Question};
    /// let q = Query::parse("connect:5,4,4", None, Question::Score).unwrap().with_threads(2);
    /// assert_eq!(q.threads(), 2);
    /// let Answer::Solve(report) = answer(&q, &Meter::default()).unwrap() else { panic!() };
    /// assert_eq!(report.score, Some(0)); // 5x4 is a draw
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Query {
        self.threads = threads.max(1);
        self
    }

    /// Threads the query may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The opening book given with [`Query::with_book`].
    pub fn book(&self) -> Option<&std::sync::Arc<crate::solve::book::Book>> {
        self.book.as_ref()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The question.
    pub fn question(&self) -> Question {
        self.question
    }

    /// The engine that will answer.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The validated position, for placement games asked anything but reachability.
    pub fn position(&self) -> Option<&Position> {
        match &self.subject {
            Subject::Board(pos) => Some(pos),
            _ => None,
        }
    }

    pub(crate) fn subject(&self) -> &Subject {
        &self.subject
    }

    /// The rules, for placement games.
    pub fn rules(&self) -> Option<&Rules> {
        match &self.game {
            Game::Placement(rules) => Some(rules),
            Game::Octal(_) => None,
        }
    }

    /// The position as text in its one canonical form: cells over `.` and the marks, or heap
    /// sizes separated by spaces.
    pub fn position_text(&self) -> String {
        match (&self.subject, &self.game) {
            (Subject::Board(pos), Game::Placement(rules)) => pos.to_text(rules),
            (Subject::Unchecked(setup), Game::Placement(rules)) => setup.to_text(rules),
            (Subject::Heaps(heaps), _) => {
                heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
            }
            _ => String::new(),
        }
    }

    /// Moves made so far (filled cells; 0 for heaps).
    pub fn plies(&self) -> u32 {
        match &self.subject {
            Subject::Board(pos) => pos.plies(),
            Subject::Unchecked(setup) => setup.cells.iter().filter(|&&c| c != 0).count() as u32,
            Subject::Heaps(_) => 0,
        }
    }
}

/// The engine for `question` on `rules`, or why there is none.
fn choose_engine(rules: &Rules, question: Question) -> Result<Engine, InputError> {
    let cells = rules.cells();
    let fits = cells <= MAX_BOARD_CELLS;
    let too_large = |what: &str| {
        InputError::Unsupported(format!(
            "{} has {cells} cells; {what} boards of at most {MAX_BOARD_CELLS} cells",
            rules.name
        ))
    };
    match question {
        Question::Value | Question::Score | Question::Analysis { .. } => {
            if is_treblecross(rules) && cells >= 3 {
                Ok(Engine::TreblecrossGrundy)
            } else if crate::games::gravity::GravityBoard::<u128>::for_rules(rules).is_ok() {
                Ok(Engine::Gravity)
            } else if lol_outer_mark(rules).is_some() && (!fits || question == Question::Value) {
                Ok(Engine::LolComponents)
            } else if fits {
                Ok(Engine::Negamax)
            } else {
                Err(too_large(
                    "xo solves LOL-like and Treblecross strips of any length, Connect Four's family \
                     up to 32 columns with columns*(rows+1) <= 128, and other games on",
                ))
            }
        }
        Question::Count { .. } if fits => Ok(Engine::Census),
        Question::Count { .. } => Err(too_large("counting takes")),
        Question::Reach if fits => Ok(Engine::Retrograde),
        Question::Reach => Err(too_large("the reachability check takes")),
    }
}

/// Text quoted in a message, cut to 40 characters.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{:?}...", &text[..at]),
        None => format!("{text:?}"),
    }
}

/// Reads heap sizes separated by whitespace (or commas or `+`).
fn parse_heaps(game: &OctalGame, text: &str) -> Result<Vec<usize>, InputError> {
    let max = max_heap(game);
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '+')
        .filter(|h| !h.is_empty())
        .enumerate()
        .map(|(i, h)| {
            let size: usize = h.parse().map_err(|_| {
                InputError::Unsupported(format!(
                    "heap {} ({}) is not a whole number of tokens",
                    i + 1,
                    shorten(h)
                ))
            })?;
            if size > max {
                return Err(InputError::Unsupported(format!(
                    "heap {} has {size} tokens: at most {max} for octal:{game}",
                    i + 1
                )));
            }
            Ok(size)
        })
        .collect()
}
