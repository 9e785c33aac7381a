//! One request type for every front end. The CLI fills a [`Request`] from its flags, the HTTP
//! server from its GET or POST parameters (the same names), and Python and the browser build
//! one as plain data (JSON, with unknown fields refused). Preparing it
//! ([`Request::prepare`]) checks everything once and yields the [`Query`] whose plan holds each
//! engine's input (the only way to a `Query`: front ends never build one themselves); [`answer`](crate::query::answer) then runs it. Files (opening books, strong
//! databases) are opened by the front end and handed in loaded: the core does no I/O.
//!
//! ```
//! use xo_core::budget::Meter;
//! use xo_core::query::{answer, Answer};
//! use xo_core::request::Request;
//!
//! let request: Request = serde_json::from_str(
//!     r#"{"game": "tictactoe", "position": "XX. OO. ...", "winning": true}"#,
//! ).unwrap();
//! let query = request.prepare(&[], xo_core::threads::Runner::Pool).unwrap();
//! let Answer::Solve(report) = answer(&query, &Meter::default()).unwrap() else { panic!() };
//! assert_eq!(report.moves.unwrap()[0].name, "3");
//! assert!(serde_json::from_str::<Request>(r#"{"game": "tictactoe", "positon": "X"}"#).is_err());
//! ```

use crate::budget::Budget;
use crate::query::{Engine, Game, InputError, Query, Question, Source};
use crate::rules::Rules;
use crate::solve::book::Book;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// The name of the question a request asks (its `question` field), as the command line, URLs and
/// JSON spell it; with the flags of [`Request`] that refine it, [`Request::question`] checks it
/// into a [`Question`].
///
/// ```
/// use xo_core::request::Ask;
/// assert_eq!(serde_json::to_string(&Ask::Best).unwrap(), "\"best\"");
/// assert_eq!("count".parse::<Ask>().unwrap(), Ask::Count);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    /// Value, remoteness and moves (`value_only`, `no_moves`, `winning` narrow it).
    #[default]
    Solve,
    /// The games continuing from the position (`by_length`, `dense`).
    Count,
    /// Whether the position can occur in play.
    Check,
    /// The nim-sequence of an octal game up to heap `upto`.
    Grundy,
    /// The legal moves and the position after each.
    Moves,
    /// The position after the move `move`.
    After,
    /// The best move, by the one tie rule.
    Best,
}

impl Ask {
    /// The name the request's `question` field takes.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Solve => "solve",
            Ask::Count => "count",
            Ask::Check => "check",
            Ask::Grundy => "grundy",
            Ask::Moves => "moves",
            Ask::After => "after",
            Ask::Best => "best",
        }
    }
}

impl std::str::FromStr for Ask {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Ask, InputError> {
        let all =
            [Ask::Solve, Ask::Count, Ask::Check, Ask::Grundy, Ask::Moves, Ask::After, Ask::Best];
        all.into_iter().find(|a| a.name() == text.trim()).ok_or_else(|| {
            InputError::Request(format!(
                "question '{}' is not one of: solve, count, check, grundy, moves, after, best",
                text.chars().take(40).collect::<String>()
            ))
        })
    }
}

/// A request: a game, a position, a question and how to answer it. Every field but the game
/// may be left out (JSON: absent or `null`); fields that do not fit the question are refused by
/// [`Request::prepare`], naming them.
///
/// ```
/// use xo_core::request::{Ask, Request};
/// let mut r = Request::new("connect4");
/// r.moves = Some("4453".into());
/// r.question = Ask::Best;
/// let json = serde_json::to_string(&r).unwrap();
/// assert_eq!(json, r#"{"game":"connect4","moves":"4453","question":"best"}"#);
/// assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), r);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// The game's name (`tictactoe`, `mnk:5,5,4`, `connect4`, `lol`, `kayles`, `0.137`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The game as TOML rules text, instead of a name (the CLI reads a rules file into it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The position: cells in reading order (`.` empty), or heap sizes of an octal game. The
    /// empty board (no heaps) when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The position as the columns played from the empty board of a gravity game (the grammar
    /// of [`parse_columns`](crate::rules::parse_columns)), instead of `position`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// The question (`solve` when absent).
    #[serde(skip_serializing_if = "is_solve")]
    pub question: Ask,
    /// `solve`: just the value, as fast as possible.
    #[serde(skip_serializing_if = "is_false")]
    pub value_only: bool,
    /// `solve`: value and remoteness (and Pons' score), not the moves.
    #[serde(skip_serializing_if = "is_false")]
    pub no_moves: bool,
    /// `solve`: only the winning moves.
    #[serde(skip_serializing_if = "is_false")]
    pub winning: bool,
    /// `solve`: each move's principal variation, the line of perfect play to the end (engines
    /// that tell remoteness: the search of small boards and the gravity engine).
    #[serde(skip_serializing_if = "is_false")]
    pub line: bool,
    /// `solve`, gravity games: each side's threats and who holds the parity.
    #[serde(skip_serializing_if = "is_false")]
    pub threats: bool,
    /// `count`: also split the games by length.
    #[serde(skip_serializing_if = "is_false")]
    pub by_length: bool,
    /// `count`: merge depths in dense tables where they fit.
    #[serde(skip_serializing_if = "is_false")]
    pub dense: bool,
    /// `grundy`: the largest heap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upto: Option<u64>,
    /// `after`: the move to play, by its name in reports (`5`, `3L`, a column under gravity).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub play: Option<String>,
    /// `best`: a weaker player's move, the best of a look-ahead at most this many plies deep
    /// (1 to [`MAX_DEPTH`]) instead of the exact answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Threads the engine may use (see [`threads::allowed`](crate::threads::allowed)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// An opening book to consult (a file the front end opens and hands to
    /// [`Request::prepare`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// Consult no opening book, not even the one xo ships for Connect Four.
    #[serde(skip_serializing_if = "is_false")]
    pub no_book: bool,
    /// A strong database to answer from (a folder the front end opens; it answers with
    /// [`from_database`](crate::query::from_database)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// The most seconds to spend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// The most positions to visit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
    /// The most memory the job's tables may take, in MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_mib: Option<u64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_solve(a: &Ask) -> bool {
    *a == Ask::Solve
}

/// The deepest look-ahead a `best` request may ask for (`depth`): the look-ahead stops sooner
/// at its budget of positions (200,000) anyway.
pub const MAX_DEPTH: u32 = 64;

/// The names of the fields, as JSON and text parameters spell them.
///
/// ```
/// assert!(xo_core::request::FIELDS.contains(&"move"));
/// ```
pub const FIELDS: [&str; 22] = [
    "game",
    "rules",
    "position",
    "moves",
    "question",
    "value_only",
    "no_moves",
    "winning",
    "line",
    "threats",
    "by_length",
    "dense",
    "upto",
    "move",
    "depth",
    "threads",
    "book",
    "no_book",
    "database",
    "timeout",
    "max_nodes",
    "memory_mib",
];

impl Request {
    /// A request to solve the empty board of `game`.
    ///
    /// ```
    /// let r = xo_core::request::Request::new("tictactoe");
    /// assert_eq!(r.game.as_deref(), Some("tictactoe"));
    /// ```
    pub fn new(game: &str) -> Request {
        Request { game: Some(game.to_string()), ..Request::default() }
    }

    /// A request about `game`, already read (a rules file's game, a strong database's): a
    /// placement game travels as its rules' TOML text, an octal game by its name, so that
    /// [`Request::prepare`] checks it like any other.
    ///
    /// ```
    /// use xo_core::query::Game;
    /// use xo_core::request::Request;
    /// let lol = Game::parse("lol:7").unwrap();
    /// assert_eq!(Request::for_game(&lol).game().unwrap(), lol);
    /// let kayles = Game::parse("kayles").unwrap();
    /// assert_eq!(Request::for_game(&kayles).game().unwrap().name(), kayles.name());
    /// ```
    pub fn for_game(game: &Game) -> Request {
        match game {
            Game::Placement(rules) => {
                Request { rules: Some(rules.to_toml()), ..Request::default() }
            }
            Game::Octal(_) => Request::new(&game.name()),
        }
    }

    /// The same request about the position `text` (cells, or heap sizes).
    ///
    /// ```
    /// let r = xo_core::request::Request::new("tictactoe").at("X........");
    /// assert_eq!(r.position.as_deref(), Some("X........"));
    /// ```
    pub fn at(self, text: &str) -> Request {
        Request { position: Some(text.to_string()), ..self }
    }

    /// The same request about the position after `columns` played from the empty board of a
    /// gravity game (the grammar of [`parse_columns`](crate::rules::parse_columns)).
    ///
    /// ```
    /// let r = xo_core::request::Request::new("connect4").columns("4453");
    /// assert_eq!(r.prepare(&[], xo_core::threads::Runner::Pool).unwrap().plies(), 4);
    /// ```
    pub fn columns(self, columns: &str) -> Request {
        Request { moves: Some(columns.to_string()), ..self }
    }

    /// The same request asking `question`: its kind and the flags that refine it, the inverse
    /// of [`Request::question`]. [`Question::After`] takes its move from [`Request::playing`].
    ///
    /// ```
    /// use xo_core::query::Question;
    /// use xo_core::request::{Ask, Request};
    /// let r = Request::new("tictactoe").asking(Question::Analysis { winning_only: true });
    /// assert_eq!((r.question, r.winning), (Ask::Solve, true));
    /// assert_eq!(r.question().unwrap(), Question::Analysis { winning_only: true });
    /// ```
    pub fn asking(self, question: Question) -> Request {
        let base = Request {
            question: Ask::Solve,
            value_only: false,
            no_moves: false,
            winning: false,
            by_length: false,
            dense: false,
            upto: None,
            ..self
        };
        match question {
            Question::Value => Request { value_only: true, ..base },
            Question::Score => Request { no_moves: true, ..base },
            Question::Analysis { winning_only } => Request { winning: winning_only, ..base },
            Question::Count { by_length, dense } => {
                Request { question: Ask::Count, by_length, dense, ..base }
            }
            Question::Reach => Request { question: Ask::Check, ..base },
            Question::Grundy { upto } => {
                Request { question: Ask::Grundy, upto: Some(upto as u64), ..base }
            }
            Question::Moves => Request { question: Ask::Moves, ..base },
            Question::After => Request { question: Ask::After, ..base },
            Question::Best => Request { question: Ask::Best, ..base },
        }
    }

    /// The same request playing `mv` (by its name in reports) for [`Question::After`].
    ///
    /// ```
    /// use xo_core::query::Question;
    /// use xo_core::request::Request;
    /// let r = Request::new("tictactoe").asking(Question::After).playing("5");
    /// assert_eq!(r.prepare(&[], xo_core::threads::Runner::Pool).unwrap().plies(), 0);
    /// ```
    pub fn playing(self, mv: &str) -> Request {
        Request { play: Some(mv.to_string()), ..self }
    }

    /// Reads a request from text parameters (a URL's query string, a form): each field by its
    /// name, yes/no fields as `1`/`0`, `true`/`false`, `yes`/`no` or empty (yes), numbers in
    /// decimal. Unknown names, names given twice and malformed values are refused, naming them.
    ///
    /// ```
    /// use xo_core::request::{Ask, Request};
    /// let pairs = [("game", "tictactoe"), ("question", "count"), ("by_length", "1")];
    /// let r = Request::from_pairs(pairs.map(|(k, v)| (k.to_string(), v.to_string()))).unwrap();
    /// assert_eq!((r.question, r.by_length), (Ask::Count, true));
    /// let bad = Request::from_pairs([("winning".to_string(), "maybe".to_string())]);
    /// assert!(bad.unwrap_err().to_string().contains("'winning' is yes or no"));
    /// ```
    pub fn from_pairs(
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Request, InputError> {
        let mut r = Request::default();
        let mut seen = Vec::new();
        for (name, text) in pairs {
            if seen.contains(&name) {
                return Err(bad(format!("parameter '{name}' is given twice")));
            }
            let flag = || parse_flag(&name, &text);
            let number = || parse_number(&name, &text);
            match name.as_str() {
                "game" => r.game = Some(text.clone()),
                "rules" => r.rules = Some(text.clone()),
                "position" => r.position = Some(text.clone()),
                "moves" => r.moves = Some(text.clone()),
                "question" => r.question = text.parse()?,
                "value_only" => r.value_only = flag()?,
                "no_moves" => r.no_moves = flag()?,
                "winning" => r.winning = flag()?,
                "line" => r.line = flag()?,
                "threats" => r.threats = flag()?,
                "by_length" => r.by_length = flag()?,
                "dense" => r.dense = flag()?,
                "upto" => r.upto = Some(number()?),
                "move" => r.play = Some(text.clone()),
                "depth" => r.depth = Some(u32::try_from(number()?).unwrap_or(u32::MAX)),
                "threads" => {
                    r.threads = Some(usize::try_from(number()?).unwrap_or(usize::MAX));
                }
                "book" => r.book = Some(text.clone()),
                "no_book" => r.no_book = flag()?,
                "database" => r.database = Some(text.clone()),
                "timeout" => r.timeout = Some(parse_seconds(&text)?),
                "max_nodes" => r.max_nodes = Some(number()?),
                "memory_mib" => r.memory_mib = Some(number()?),
                _ => {
                    return Err(bad(format!(
                        "no parameter '{}' (the parameters: {})",
                        name.chars().take(40).collect::<String>(),
                        FIELDS.join(", ")
                    )))
                }
            }
            seen.push(name);
        }
        Ok(r)
    }

    /// The question the request asks, or which fields do not fit it.
    ///
    /// ```
    /// use xo_core::query::Question;
    /// use xo_core::request::{Ask, Request};
    /// let mut r = Request::new("tictactoe");
    /// r.no_moves = true;
    /// assert_eq!(r.question().unwrap(), Question::Score);
    /// r.by_length = true;
    /// assert!(r.question().unwrap_err().to_string().contains("by_length"));
    /// ```
    pub fn question(&self) -> Result<Question, InputError> {
        let asked = self.question.name();
        let given = [
            ("value_only", self.value_only),
            ("no_moves", self.no_moves),
            ("winning", self.winning),
            ("line", self.line),
            ("threats", self.threats),
            ("by_length", self.by_length),
            ("dense", self.dense),
            ("upto", self.upto.is_some()),
            ("move", self.play.is_some()),
            ("depth", self.depth.is_some()),
        ];
        let fits: &[&str] = match self.question {
            Ask::Solve => &["value_only", "no_moves", "winning", "line", "threats"],
            Ask::Count => &["by_length", "dense"],
            Ask::Grundy => &["upto"],
            Ask::After => &["move"],
            Ask::Best => &["depth"],
            Ask::Check | Ask::Moves => &[],
        };
        if let Some((name, _)) = given.iter().find(|(name, on)| *on && !fits.contains(name)) {
            return Err(bad(format!("parameter '{name}' does not go with question '{asked}'")));
        }
        Ok(match self.question {
            Ask::Solve => {
                let on = [self.value_only, self.no_moves, self.winning];
                if on.iter().filter(|&&f| f).count() > 1 {
                    return Err(bad("winning, value_only and no_moves exclude each other".into()));
                }
                if self.value_only {
                    Question::Value
                } else if self.no_moves {
                    Question::Score
                } else {
                    Question::Analysis { winning_only: self.winning }
                }
            }
            Ask::Count => Question::Count { by_length: self.by_length, dense: self.dense },
            Ask::Check => {
                if self.position.is_none() && self.moves.is_none() {
                    return Err(bad("missing parameter 'position': check needs a POSITION (its \
                                    cells, or the columns played as moves)"
                        .into()));
                }
                Question::Reach
            }
            Ask::Grundy => {
                let upto = self.upto.ok_or_else(|| {
                    bad("missing parameter 'upto': the largest heap of the nim-sequence".into())
                })?;
                let upto =
                    usize::try_from(upto).map_err(|_| bad(format!("upto={upto} is too large")))?;
                Question::Grundy { upto }
            }
            Ask::Moves => Question::Moves,
            Ask::After => Question::After,
            Ask::Best => Question::Best,
        })
    }

    /// The game: the rules text when given, else the name (a strip named without its length
    /// takes it from the position).
    ///
    /// ```
    /// use xo_core::request::Request;
    /// let mut r = Request::new("lol");
    /// r.position = Some("*L**".into());
    /// assert_eq!(r.game().unwrap().name(), "lol:4");
    /// ```
    pub fn game(&self) -> Result<Game, InputError> {
        match (&self.game, &self.rules) {
            (_, Some(text)) => Ok(Game::Placement(Rules::from_toml(text)?)),
            (Some(name), None) => Game::parse_for(name, self.position.as_deref()),
            (None, None) => Err(bad("missing parameter 'game'".into())),
        }
    }

    /// The budget the request asks for: `base` with the fields given put in, each checked.
    ///
    /// ```
    /// use xo_core::budget::Budget;
    /// use xo_core::request::Request;
    /// let mut r = Request::new("tictactoe");
    /// r.memory_mib = Some(64);
    /// assert_eq!(r.budget(Budget::default()).unwrap().memory_bytes, 64 << 20);
    /// r.timeout = Some(-1.0);
    /// assert!(r.budget(Budget::default()).is_err());
    /// r.timeout = None;
    /// r.max_nodes = Some(0); // as `--max-nodes 0` is refused by the command
    /// assert!(r.budget(Budget::default()).unwrap_err().to_string().contains("at least 1"));
    /// ```
    pub fn budget(&self, base: Budget) -> Result<Budget, InputError> {
        let mut budget = base;
        if let Some(seconds) = self.timeout {
            budget.timeout = seconds_duration(seconds)?;
        }
        if let Some(nodes) = self.max_nodes {
            if nodes == 0 {
                return Err(bad("max_nodes must be at least 1 (a position)".into()));
            }
            budget.max_nodes = nodes;
        }
        if let Some(mib) = self.memory_mib {
            if mib == 0 {
                return Err(bad("memory_mib must be at least 1".into()));
            }
            budget.memory_bytes = mib
                .checked_mul(1 << 20)
                .ok_or_else(|| bad(format!("memory_mib={mib} is too large")))?;
        }
        Ok(budget)
    }

    /// Checks the request and makes its plan: the game, the position (text or columns played),
    /// the question, the threads (the policy of [`threads::allowed`](crate::threads::allowed),
    /// `default_threads` when the request names none) and, among the loaded `books`, the one of
    /// this board for the gravity engine (none with `no_book`).
    ///
    /// ```
    /// use xo_core::query::Engine;
    /// use xo_core::request::{Ask, Request};
    /// let mut r = Request::new("connect:12,2,4");
    /// r.moves = Some("11,11".into());
    /// r.question = Ask::Moves;
    /// let q = r.prepare(&[], xo_core::threads::Runner::Pool).unwrap();
    /// assert_eq!((q.plies(), q.engine()), (2, Engine::Rules));
    /// r.moves = Some("1111".into()); // no column 1111 on 12 columns, and never column 1 four times
    /// assert!(r.prepare(&[], xo_core::threads::Runner::Pool).unwrap_err().to_string().contains("separated by commas"));
    /// ```
    pub fn prepare(
        &self,
        books: &[Arc<Book>],
        runner: crate::threads::Runner,
    ) -> Result<Query, InputError> {
        let question = self.question()?;
        let game = self.game()?;
        let source = match (&self.position, &self.moves) {
            (Some(_), Some(_)) => {
                return Err(bad("give the position or the moves, not both".into()));
            }
            (Some(text), None) => Source::Text(Some(text)),
            (None, Some(columns)) => Source::Columns(columns),
            (None, None) => Source::Text(None),
        };
        let mut query = Query::prepare(game, source, question, self.play.as_deref())?
            .with_threads(crate::threads::allowed(self.threads, runner.default_threads()));
        for book in books.iter().filter(|_| !self.no_book) {
            query = query.with_book(book.clone());
        }
        if self.line {
            check_line(&query)?;
        }
        if self.threats && query.engine() != Engine::Gravity {
            return Err(InputError::Unsupported(format!(
                "threats are told for gravity games with own marks and k in a row (Connect \
                 Four's family), which the gravity engine answers; not {}",
                query.game().name()
            )));
        }
        if let Some(depth) = self.depth
            && !(1..=MAX_DEPTH).contains(&depth)
        {
            return Err(bad(format!(
                "parameter 'depth' is the look-ahead's plies, 1 to {MAX_DEPTH}, not {depth}"
            )));
        }
        if self.depth.is_some() && !query.takes_depth() {
            return Err(InputError::Unsupported(format!(
                "depth (a look-ahead's best move) is for placement games, not {}",
                query.game().name()
            )));
        }
        Ok(query.with_lines(self.line).with_threats(self.threats).with_depth(self.depth))
    }
}

/// Refuses a principal variation the answer cannot give: without the moves, or from an engine
/// that does not tell remoteness (the line is checked by its length).
fn check_line(query: &Query) -> Result<(), InputError> {
    if !matches!(query.question(), Question::Analysis { .. }) {
        return Err(
            bad("parameter 'line' needs the moves: not with value_only or no_moves".into()),
        );
    }
    let engine = query.engine();
    if !matches!(engine, Engine::Negamax | Engine::Gravity) {
        return Err(InputError::Unsupported(format!(
            "line (each move's principal variation) needs every move's remoteness, which the \
             {} engine that answers {} does not tell",
            engine.name(),
            query.game().name()
        )));
    }
    Ok(())
}

fn bad(message: String) -> InputError {
    InputError::Request(message)
}

/// A yes/no parameter's text.
fn parse_flag(name: &str, text: &str) -> Result<bool, InputError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "0" | "false" | "no" => Ok(false),
        "" | "1" | "true" | "yes" => Ok(true),
        _ => Err(bad(format!(
            "parameter '{name}' is yes or no (1/0, true/false), not '{}'",
            text.chars().take(40).collect::<String>()
        ))),
    }
}

/// A whole-number parameter's text.
fn parse_number(name: &str, text: &str) -> Result<u64, InputError> {
    text.trim().parse::<u64>().map_err(|_| {
        bad(format!(
            "parameter '{name}' must be a whole number, not '{}'",
            text.chars().take(40).collect::<String>()
        ))
    })
}

/// A timeout's text: a positive number of seconds.
fn parse_seconds(text: &str) -> Result<f64, InputError> {
    let seconds: f64 = text.trim().parse().map_err(|_| {
        bad(format!(
            "timeout must be a positive number of seconds, not '{}'",
            text.chars().take(40).collect::<String>()
        ))
    })?;
    seconds_duration(seconds)?;
    Ok(seconds)
}

/// A timeout in seconds as a duration (positive, finite, at most a year).
fn seconds_duration(seconds: f64) -> Result<Duration, InputError> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(bad(format!("timeout must be a positive number of seconds, not {seconds}")));
    }
    if seconds > YEAR {
        return Err(bad(format!("timeout {seconds} s is too long: at most {YEAR} (a year)")));
    }
    Ok(Duration::from_secs_f64(seconds))
}
