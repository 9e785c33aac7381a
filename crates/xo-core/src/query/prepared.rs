//! A question prepared for answering: [`Query`] reads the position (text, columns played or
//! heaps), validates it, and makes the plan its answer runs by. Everything a caller can get wrong
//! is found here, before any engine runs or any large table is allocated, and named in an
//! [`InputError`].

use super::game::{is_treblecross, lol_outer_mark, shorten, Game, InputError};
use super::heap_moves;
use super::plan::{board_for, too_large, Asked, Plan, Solver};
use super::question::Question;
use super::sequence::SequenceQuery;
use crate::games::board::MAX_BOARD_CELLS;
use crate::games::octal::OctalGame;
use crate::rules::{parse_move, Position, Rules, Setup};
use crate::solve::grundy::max_heap;

/// The most cells of a board whose moves are listed or played one by one (moves name cells up
/// to 256).
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{Query, Question, MAX_PLAY_CELLS};
/// assert!(Request::new(&format!("lol:{MAX_PLAY_CELLS}")).asking(Question::Moves).prepare(&[], Runner::Pool).is_ok());
/// assert!(Request::new(&format!("lol:{}", MAX_PLAY_CELLS + 1)).asking(Question::Moves).prepare(&[], Runner::Pool).is_err());
/// ```
pub const MAX_PLAY_CELLS: usize = 256;

/// Where a position comes from: [`Request::at`](crate::request::Request::at) and
/// [`Request::columns`](crate::request::Request::columns) give one or the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source<'a> {
    /// Position text (cells, or heap sizes); the empty board or no heaps when `None`.
    Text(Option<&'a str>),
    /// The 1-based columns played from the empty board of a gravity game, in the grammar of
    /// [`parse_columns`](crate::rules::parse_columns).
    Columns(&'a str),
}

/// The position a query is about, as reports name it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Subject {
    /// A validated position of a placement game.
    Board(Position),
    /// A position read but not validated: reachability is asked of positions that may not occur.
    Unchecked(Setup),
    /// Heap sizes of an octal game.
    Heaps(Vec<usize>),
}

/// A question about a position of a game, checked and ready for [`answer`](super::answer): the
/// game is known, the position valid (and able to occur in play, except when reachability is the
/// question), and the plan made: the engine that answers, holding its input. Fields are private:
/// a `Query` exists only once all of that holds.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{Engine, Query, Question};
/// let q = Request::new("treblecross").at("..X" .repeat(12).as_str()).asking(Question::Value).prepare(&[], Runner::Pool).unwrap();
/// assert_eq!((q.game().name(), q.engine()), ("treblecross:36".to_string(), Engine::TreblecrossGrundy));
/// // Short strips are searched: their remoteness is exact.
/// let q = Request::new("treblecross").at(".X..X.").asking(Question::Value).prepare(&[], Runner::Pool).unwrap();
/// assert_eq!(q.engine(), Engine::Negamax);
/// // O moved after X completed a line: refused, with the reason.
/// let err = Request::new("tictactoe").at("XXXOO.O..").asking(Question::Value).prepare(&[], Runner::Pool).unwrap_err();
/// assert_eq!(err.to_string(), "X has a line but O moved after it; a game stops at the first line");
/// assert!(Request::new("mnk:2000,2000,5").asking(Question::Value).prepare(&[], Runner::Pool).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Query {
    game: Game,
    subject: Subject,
    question: Question,
    plan: Plan,
    threads: usize,
    lines: bool,
    /// Whether the answer tells each side's threats (gravity games).
    threats: bool,
    /// For the best move: the look-ahead's depth in plies, instead of the exact answer.
    depth: Option<u32>,
    /// Stored values of the game's octal game, for positions (not for the `grundy` question,
    /// which computes the sequence).
    stored: Option<std::sync::Arc<crate::solve::grundy::StoredSequence>>,
}

impl Query {
    /// Checks the position from `source` of `game` for `question` (with `mv`, the move that
    /// [`Question::After`] plays), and makes the plan. Only [`Request::prepare`] calls it: the
    /// one way from text to a query.
    ///
    /// [`Request::prepare`]: crate::request::Request::prepare
    pub(crate) fn prepare(
        game: Game,
        source: Source,
        question: Question,
        mv: Option<&str>,
    ) -> Result<Query, InputError> {
        let (subject, plan) = match &game {
            Game::Octal(octal) => octal_plan(&game, octal, source, question, mv)?,
            Game::Placement(rules) => placement_plan(&game, rules, source, question, mv)?,
        };
        Ok(Query {
            game,
            subject,
            question,
            plan,
            threads: 1,
            lines: false,
            threats: false,
            depth: None,
            stored: None,
        }
        .with_threads(1))
    }

    /// The same query, answered with an opening book where the engine takes one (the gravity
    /// engine, when the book is of this board; otherwise it is ignored). The books come from
    /// [`Request::prepare`](crate::request::Request::prepare).
    pub(crate) fn with_book(mut self, book: std::sync::Arc<crate::solve::book::Book>) -> Query {
        self.plan.with_book(book);
        self
    }

    /// The same query, its engine reading the exact scores `known` before searching (the
    /// gravity engine; other engines ignore them): each a position of the query's game, as
    /// its position text, and its score (Pons' convention, for its player to move), found
    /// elsewhere. The web page's workers each search some of a position's moves, and one of
    /// them answers the position with the scores the others found. Fails on a position that
    /// is not one of the game's, or a score it cannot have.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::{answer, Question};
    /// use xo_core::request::Request;
    /// use xo_core::threads::Runner;
    /// let ask = |r: &Request, known: &[(String, i32)]| {
    ///     let q = r.prepare(&[], Runner::Alone).unwrap().with_known_scores(known).unwrap();
    ///     serde_json::to_value(answer(&q, &Meter::default()).unwrap()).unwrap()
    /// };
    /// // connect:4,4,3 after column 1, and the position after column 2 then (X to move).
    /// let r = Request::new("connect:4,4,3").columns("1");
    /// let after = "............XO..".to_string();
    /// let score = ask(&Request::new("connect:4,4,3").columns("12").asking(Question::Score), &[])["score"]
    ///     .as_i64()
    ///     .unwrap() as i32;
    /// let searched = ask(&r, &[]);
    /// assert_eq!(ask(&r, &[(after.clone(), score)]), searched);
    /// // A score told is read, not searched: told another, the move is worth that.
    /// let told = ask(&r, &[(after, score + 1)]);
    /// assert_eq!(told["moves"][1]["score"].as_i64().unwrap() as i32, -score - 1);
    /// assert_eq!(searched["moves"][1]["score"].as_i64().unwrap() as i32, -score);
    /// let q = r.prepare(&[], Runner::Alone).unwrap();
    /// assert!(q.with_known_scores(&[("X".into(), 0)]).is_err());
    /// // A score the position cannot have is refused.
    /// let q = r.prepare(&[], Runner::Alone).unwrap();
    /// assert!(q.with_known_scores(&[("............XO..".into(), i32::MIN)]).is_err());
    /// ```
    pub fn with_known_scores(mut self, known: &[(String, i32)]) -> Result<Query, InputError> {
        if let Game::Placement(rules) = &self.game {
            self.plan.with_known_scores(rules, known)?;
        }
        Ok(self)
    }

    /// The same query, taking the Grundy values it needs from `stored` as far as they go (for
    /// Treblecross strips and sums of heaps; the [`Question::Grundy`] question computes its
    /// sequence, as the engine's own work). A stored sequence of another octal game than this
    /// game's is not taken. Front ends get xo's own from `xo_store::sequence`, through
    /// `xo_store::book::prepare`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xo_core::budget::{Budget, Meter};
    /// use xo_core::games::octal::OctalGame;
    /// use xo_core::query::{answer, Answer};
    /// use xo_core::request::Request;
    /// use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence};
    /// use xo_core::threads::Runner;
    /// let values = nim_sequence_plain(&OctalGame::dot007(), 3000);
    /// let stored = Arc::new(StoredSequence::new(OctalGame::dot007(), values));
    /// let q = Request::new("treblecross:2900").prepare(&[], Runner::Pool).unwrap();
    /// let q = q.with_stored(stored.clone());
    /// assert!(q.stored().is_some());
    /// // A budget of one heap: every value needed is stored.
    /// let one = Meter::new(Budget::default().with_max_nodes(1));
    /// let Answer::Solve(report) = answer(&q, &one).unwrap() else { panic!() };
    /// assert_eq!(report.value, Some(xo_core::Value::Win));
    /// let kayles = Request::new("kayles").prepare(&[], Runner::Pool).unwrap();
    /// assert!(kayles.with_stored(stored).stored().is_none());
    /// ```
    pub fn with_stored(
        mut self,
        stored: std::sync::Arc<crate::solve::grundy::StoredSequence>,
    ) -> Query {
        if self.game.octal().as_ref() == Some(stored.game()) {
            self.stored = Some(stored);
        }
        self
    }

    /// The stored Grundy values the query takes (see [`Query::with_stored`]).
    pub fn stored(&self) -> Option<&crate::solve::grundy::StoredSequence> {
        self.stored.as_deref()
    }

    /// The same query, allowed `threads` threads where its engine can use them (the gravity
    /// engine: one shared table; the Grundy engine: nim-sequences, sums of heaps, Treblecross;
    /// the answer is the same with any number). One by default; [`Request::prepare`] sets the
    /// number by the policy of [`threads::allowed`](crate::threads::allowed).
    ///
    /// [`Request::prepare`]: crate::request::Request::prepare
    pub(crate) fn with_threads(mut self, threads: usize) -> Query {
        self.threads = threads.max(1);
        self.plan.set_threads(self.threads);
        self
    }

    /// The same query, its answer giving each move's principal variation (see
    /// [`MoveReport::line`](super::report::MoveReport::line)).
    pub(crate) fn with_lines(mut self, lines: bool) -> Query {
        self.lines = lines;
        self
    }

    /// The same query, its answer telling each side's threats and who holds the parity (see
    /// [`Threats`](super::Threats)); [`Request::prepare`](crate::request::Request::prepare)
    /// allows it only where the gravity engine answers.
    pub(crate) fn with_threats(mut self, threats: bool) -> Query {
        self.threats = threats;
        self
    }

    /// The same query, its best move (the `best` question) that of a look-ahead at most `depth`
    /// plies deep, not the exact answer's: a weaker player.
    pub(crate) fn with_depth(mut self, depth: Option<u32>) -> Query {
        self.depth = depth;
        self
    }

    /// Whether a look-ahead of limited depth can give this query's best move: the best move of a
    /// placement game (not of heaps, whose moves the look-ahead does not list).
    pub(crate) fn takes_depth(&self) -> bool {
        matches!(self.plan, super::plan::Plan::Best(..))
    }

    /// The look-ahead's depth the best move is asked of, if any (see `depth` in
    /// [`Request`](crate::request::Request)).
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// Whether the answer tells each side's threats.
    pub fn threats(&self) -> bool {
        self.threats
    }

    /// Whether the answer gives each move's principal variation.
    pub fn lines(&self) -> bool {
        self.lines
    }

    /// Threads the query may use.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::query::{answer, Answer};
    /// use xo_core::request::Request;
    /// use xo_core::threads::Runner;
    /// let mut r = Request::new("connect:5,4,4");
    /// r.no_moves = true;
    /// r.threads = Some(2);
    /// let q = r.prepare(&[], Runner::Pool).unwrap();
    /// assert_eq!(q.threads(), 2);
    /// let Answer::Solve(report) = answer(&q, &Meter::default()).unwrap() else { panic!() };
    /// assert_eq!(report.score, Some(0)); // 5x4 is a draw
    /// ```
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The opening book the engine was given: the one among the request's books that is of this
    /// board, if the engine takes one.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xo_core::budget::Meter;
    /// use xo_core::games::gravity::GravityBoard;
    /// use xo_core::query::{answer, Answer, Question};
    /// use xo_core::request::Request;
    /// use xo_core::solve::book::Book;
    /// use xo_core::threads::Runner;
    /// let board = GravityBoard::new(5, 4, 4).unwrap();
    /// let book = Arc::new(Book::build(&board, 3, 1 << 20, &Meter::default()).unwrap());
    /// let r = Request::new("connect:5,4,4").asking(Question::Score);
    /// let q = r.prepare(&[book.clone()], Runner::Pool).unwrap();
    /// assert!(q.book().is_some());
    /// let Answer::Solve(report) = answer(&q, &Meter::default()).unwrap() else { panic!() };
    /// assert_eq!(report.value, Some(xo_core::Value::Draw));
    /// // A book of another board is not taken.
    /// let q = Request::new("connect:6,4,4").prepare(&[book], Runner::Pool).unwrap();
    /// assert!(q.book().is_none());
    /// ```
    pub fn book(&self) -> Option<&std::sync::Arc<crate::solve::book::Book>> {
        self.plan.book()
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
    pub fn engine(&self) -> super::game::Engine {
        self.plan.engine()
    }

    pub(crate) fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The validated position, for placement games asked anything but reachability.
    pub fn position(&self) -> Option<&Position> {
        match &self.subject {
            Subject::Board(pos) => Some(pos),
            _ => None,
        }
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
            (Subject::Board(pos), Game::Placement(_)) => pos.to_text(),
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

/// The plan for a question about an octal game.
fn octal_plan(
    game: &Game,
    octal: &OctalGame,
    source: Source,
    question: Question,
    mv: Option<&str>,
) -> Result<(Subject, Plan), InputError> {
    let text = match source {
        Source::Text(text) => text,
        Source::Columns(_) => {
            return Err(InputError::Request(format!(
                "moves (columns played) are for gravity games, and {} is an octal game: give \
                 the heap sizes as the position",
                game.name()
            )))
        }
    };
    match question {
        Question::Value | Question::Score | Question::Analysis { .. } => {
            let heaps = parse_heaps(octal, text.unwrap_or(""))?;
            let search = heaps.iter().sum::<usize>() <= super::plan::OCTAL_SEARCH_TOKENS;
            let solver = Solver::Heaps { game: octal.clone(), heaps: heaps.clone(), search };
            Ok((Subject::Heaps(heaps), Plan::Solve(solver, Asked::of(question))))
        }
        Question::Grundy { upto } => Ok((Subject::Heaps(Vec::new()), sequence(game, text, upto)?)),
        Question::Count { .. } | Question::Reach => Err(InputError::Unsupported(format!(
            "{} is an octal game: it is solved (value, nim-sum, winning moves), not counted or \
             checked",
            game.name()
        ))),
        Question::Moves | Question::After | Question::Best => {
            let heaps = parse_heaps(octal, text.unwrap_or(""))?;
            let moves = octal.moves();
            let plan = match question {
                Question::Moves => {
                    heap_moves::check_listable(&moves, &heaps)?;
                    Plan::HeapMoves { moves, heaps: heaps.clone() }
                }
                Question::After => {
                    let (mv, after) = heap_moves::parse_move(&moves, &heaps, mv)?;
                    Plan::HeapAfter { moves, mv, after }
                }
                _ => {
                    let search = heaps.iter().sum::<usize>() <= super::plan::OCTAL_SEARCH_TOKENS;
                    let solver =
                        Solver::Heaps { game: octal.clone(), heaps: heaps.clone(), search };
                    Plan::HeapBest { solver, moves, heaps: heaps.clone() }
                }
            };
            Ok((Subject::Heaps(heaps), plan))
        }
    }
}

/// The plan for a nim-sequence, which is asked of a game, not a position.
fn sequence(game: &Game, text: Option<&str>, upto: usize) -> Result<Plan, InputError> {
    if text.is_some_and(|t| !t.trim().is_empty()) {
        return Err(InputError::Request(
            "a nim-sequence is of the game, not of a position: give no position".into(),
        ));
    }
    Ok(Plan::Sequence(SequenceQuery::new(game, upto)?))
}

/// The plan for a question about a placement game.
fn placement_plan(
    game: &Game,
    rules: &Rules,
    source: Source,
    question: Question,
    mv: Option<&str>,
) -> Result<(Subject, Plan), InputError> {
    if let Question::Grundy { upto } = question {
        let text = match source {
            Source::Text(text) => text,
            Source::Columns(c) => Some(c),
        };
        return Ok((Subject::Unchecked(Setup::empty(rules)), sequence(game, text, upto)?));
    }
    // Sizes first: nothing is allocated for a board no engine takes.
    precheck(rules, question)?;
    let setup = match source {
        Source::Text(Some(text)) => Setup::parse(rules, text)?,
        Source::Text(None) => Setup::empty(rules),
        Source::Columns(columns) => {
            let pos = Position::from_columns(rules, columns)
                .map_err(|e| InputError::Request(format!("moves: {e}")))?;
            Setup { cells: pos.cells().to_vec() }
        }
    };
    if question == Question::Reach {
        let board = board_for(rules, "the reachability check takes")?;
        let plan = Plan::Check { board: Box::new(board), setup: setup.clone() };
        return Ok((Subject::Unchecked(setup), plan));
    }
    let pos = setup.validate(rules)?;
    let plan = match question {
        Question::Value | Question::Score | Question::Analysis { .. } => Plan::Solve(
            Solver::choose(rules, &pos, question == Question::Value)?,
            Asked::of(question),
        ),
        Question::Best => {
            Plan::Best(Solver::choose(rules, &pos, false)?, Box::new(rules.clone()), pos.clone())
        }
        Question::Count { by_length, dense } => {
            let board = board_for(rules, "counting takes")?;
            let bits = board.encode(&pos).map_err(crate::rules::PositionError::from)?;
            Plan::Count { board: Box::new(board), bits, by_length, dense }
        }
        Question::Moves => Plan::Moves(Box::new(rules.clone()), pos.clone()),
        Question::After => {
            let after = after(rules, &pos, mv)?;
            Plan::After { rules: Box::new(rules.clone()), mv: after.0, after: after.1 }
        }
        // Answered above.
        Question::Reach | Question::Grundy { .. } => {
            return Err(InputError::Request(format!("{question:?} has no position plan")))
        }
    };
    Ok((Subject::Board(pos), plan))
}

/// Refuses boards too large for every engine that answers `question`, before the position is
/// read.
fn precheck(rules: &Rules, question: Question) -> Result<(), InputError> {
    let cells = rules.cells();
    let fits = cells <= MAX_BOARD_CELLS;
    match question {
        Question::Value | Question::Score | Question::Analysis { .. } | Question::Best => {
            let solvable = (is_treblecross(rules) && cells >= 3)
                || crate::games::gravity::GravityBoard::<u128>::for_rules(rules).is_ok()
                || lol_outer_mark(rules).is_some()
                || fits;
            if solvable {
                Ok(())
            } else {
                Err(too_large(
                    rules,
                    "xo solves LOL-like and Treblecross strips of any length, Connect Four's \
                     family up to 32 columns with columns*(rows+1) <= 128, and other games on",
                ))
            }
        }
        Question::Count { .. } if !fits => Err(too_large(rules, "counting takes")),
        Question::Reach if !fits => Err(too_large(rules, "the reachability check takes")),
        Question::Moves | Question::After if cells > MAX_PLAY_CELLS => {
            Err(InputError::Unsupported(format!(
                "{} has {cells} cells; moves are listed and played on boards of at most \
                 {MAX_PLAY_CELLS} cells",
                rules.name()
            )))
        }
        _ => Ok(()),
    }
}

/// The move `mv` names in `pos`, and the position after it; or why it cannot be played.
fn after(
    rules: &Rules,
    pos: &Position,
    mv: Option<&str>,
) -> Result<(String, Position), InputError> {
    use crate::game::GameTree as _;
    let Some(mv) = mv else {
        return Err(InputError::Request("the question after needs the move to play".into()));
    };
    if rules.outcome(pos).is_some() {
        return Err(InputError::Request(format!(
            "move {}: the game is over, no move can be played",
            shorten(mv)
        )));
    }
    let played = parse_move(rules, pos, mv).ok_or_else(|| {
        InputError::Request(format!(
            "move {} is not a legal move here (a move is a cell's number, with the letter \
             where the player chooses it, or a column under gravity)",
            shorten(mv)
        ))
    })?;
    let next = rules.play(pos, (played.cell as usize, played.mark));
    Ok((crate::rules::move_name(rules, played), next))
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
