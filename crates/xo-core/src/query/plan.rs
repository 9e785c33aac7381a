//! The plan a query is answered by: which engine runs, holding that engine's input already
//! converted and checked (a bitboard, a gravity layout, a strip, heaps). A plan is made once,
//! when the query is prepared, and every way the input could be wrong for its engine is found
//! then; answering only matches on the plan, so it never re-checks or meets a case it cannot
//! handle. Choosing the engine lives here too: the fullest answer the engines give within the
//! sizes they take.

use super::game::{is_treblecross, lol_outer_mark, InputError};
use super::question::Question;
use super::sequence::SequenceQuery;
use crate::games::board::{Board, BoardPosition, MAX_BOARD_CELLS};
use crate::games::gravity::{GravityBoard, GravityPosition};
use crate::games::lol::{Cell, LolStrip};
use crate::games::octal::{OctalGame, OctalMoves};
use crate::games::treblecross::TreblecrossStrip;
use crate::rules::{Position, Rules, Setup};
use crate::solve::book::Book;
use std::sync::Arc;

/// Treblecross strips of at most this many cells are solved by search (value, remoteness and
/// every move's remoteness); longer ones by Grundy values of .007 (value and the winning moves,
/// for strips of any length). An empty strip of 30 cells takes about 0.3 s to analyse by search
/// on one core (28: 0.2 s, 32: 0.8 s, 36: 5 s, 40: 25 s), and most positions of such strips far
/// less.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{Engine, Query, Question, TREBLECROSS_SEARCH_CELLS};
/// let engine = |n: usize| Request::new(&format!("treblecross:{n}")).asking(Question::Value).prepare(&[], Runner::Pool).unwrap().engine();
/// assert_eq!(engine(TREBLECROSS_SEARCH_CELLS), Engine::Negamax);
/// assert_eq!(engine(TREBLECROSS_SEARCH_CELLS + 1), Engine::TreblecrossGrundy);
/// ```
pub const TREBLECROSS_SEARCH_CELLS: usize = 30;

/// Sums of octal heaps of at most this many tokens in all are also searched, for the remoteness
/// of the sum and of every move (Grundy values tell values only, for heaps of any size). The
/// sums searched grow like the partitions of the tokens: 30 tokens take a few milliseconds.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::budget::Meter;
/// use xo_core::query::{answer, Answer, Query, Question, OCTAL_SEARCH_TOKENS};
/// let q = Request::new("kayles").at(&OCTAL_SEARCH_TOKENS.to_string()).asking(Question::Score).prepare(&[], Runner::Pool).unwrap();
/// let Answer::Solve(r) = answer(&q, &Meter::default()).unwrap() else { panic!() };
/// assert!(r.remoteness.is_some());
/// ```
pub const OCTAL_SEARCH_TOKENS: usize = 30;

/// What a solve question asks an engine for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Asked {
    /// The value alone.
    pub value_only: bool,
    /// Value and remoteness, no moves.
    pub score_only: bool,
    /// Only the winning moves.
    pub winning_only: bool,
}

impl Asked {
    /// What `question` asks, for the solve questions (anything else asks for everything).
    pub fn of(question: Question) -> Asked {
        Asked {
            value_only: question == Question::Value,
            score_only: question == Question::Score,
            winning_only: matches!(question, Question::Analysis { winning_only: true }),
        }
    }
}

/// A gravity position in the layout its board fits, with what the engine is given besides.
#[derive(Debug, Clone)]
pub(crate) struct GravityInput<B: crate::games::gravity::Bits> {
    pub board: GravityBoard<B>,
    pub bits: GravityPosition<B>,
    pub plies: u32,
    pub book: Option<Arc<Book>>,
    pub threads: usize,
    /// Exact scores of positions of this board found elsewhere, read as the book's are:
    /// [`Plan::with_known_scores`].
    pub known: Arc<Known<B>>,
}

/// Exact scores of positions of a gravity board, by symmetric key, and the most stones of
/// those positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Known<B: crate::games::gravity::Bits> {
    pub scores: rustc_hash::FxHashMap<B, i32>,
    pub stones: u32,
}

/// An engine that values positions, with its input.
#[derive(Debug, Clone)]
pub(crate) enum Solver {
    /// Alpha-beta negamax on the bitboard.
    Negamax { board: Box<Board>, bits: BoardPosition },
    /// The gravity engine in 64-bit words.
    Gravity64(GravityInput<u64>),
    /// The gravity engine in 128-bit words.
    Gravity128(GravityInput<u128>),
    /// The LOL component solver; `marks` gives each of the game's two marks (in order) as its
    /// letter, for move names, and the part it plays on the strip.
    Lol { strip: LolStrip, cells: Vec<Cell>, marks: [(char, Cell); 2] },
    /// Treblecross by Grundy values.
    Treblecross(TreblecrossStrip),
    /// Sums of octal heaps by Grundy values; with `search`, also value and remoteness of the
    /// sum and of every move by search.
    Heaps { game: OctalGame, heaps: Vec<usize>, search: bool },
}

/// How a query is answered.
#[derive(Debug, Clone)]
pub(crate) enum Plan {
    /// Value, remoteness and moves, as asked.
    Solve(Solver, Asked),
    /// The best move, by the solver's analysis.
    Best(Solver, Box<Rules>, Position),
    /// The games continuing from a position.
    Count { board: Box<Board>, bits: BoardPosition, by_length: bool, dense: bool },
    /// Whether a position can occur.
    Check { board: Box<Board>, setup: Setup },
    /// A nim-sequence.
    Sequence(SequenceQuery),
    /// The legal moves and the position after each.
    Moves(Box<Rules>, Position),
    /// The position after one move (found legal when the plan was made).
    After { rules: Box<Rules>, mv: String, after: Position },
    /// The legal moves of a sum of heaps (checked few enough to list) and the heaps after each.
    HeapMoves { moves: OctalMoves, heaps: Vec<usize> },
    /// The heaps after one move (found legal when the plan was made).
    HeapAfter { moves: OctalMoves, mv: String, after: Vec<usize> },
    /// The best move of a sum of heaps, by the solver's analysis.
    HeapBest { solver: Solver, moves: OctalMoves, heaps: Vec<usize> },
}

impl Plan {
    /// The engine's name in reports.
    pub fn engine(&self) -> super::game::Engine {
        use super::game::Engine;
        match self {
            Plan::Solve(solver, _) | Plan::Best(solver, ..) | Plan::HeapBest { solver, .. } => {
                solver.engine()
            }
            Plan::Count { .. } => Engine::Census,
            Plan::Check { .. } => Engine::Retrograde,
            Plan::Sequence(_) => Engine::Sequence,
            Plan::Moves(..)
            | Plan::After { .. }
            | Plan::HeapMoves { .. }
            | Plan::HeapAfter { .. } => Engine::Rules,
        }
    }

    /// The same plan, with `book` given to the gravity engine when it is of this board.
    pub fn with_book(&mut self, book: Arc<Book>) {
        fn give<B: crate::games::gravity::Bits>(g: &mut GravityInput<B>, book: Arc<Book>) {
            if book.game() == (g.board.width(), g.board.height(), g.board.k()) {
                g.book = Some(book);
            }
        }
        match self {
            Plan::Solve(Solver::Gravity64(g), _) | Plan::Best(Solver::Gravity64(g), ..) => {
                give(g, book)
            }
            Plan::Solve(Solver::Gravity128(g), _) | Plan::Best(Solver::Gravity128(g), ..) => {
                give(g, book)
            }
            _ => {}
        }
    }

    /// The same plan, the gravity engine reading the exact scores `known` (each a position of
    /// this plan's board, given as `rules`' position text, and its score in Pons' convention
    /// for its player to move) as it reads a book's, before searching. Fails on a position
    /// that is not one of the board's, or a score it cannot have; other plans ignore them.
    pub fn with_known_scores(
        &mut self,
        rules: &Rules,
        known: &[(String, i32)],
    ) -> Result<(), InputError> {
        fn give<B: crate::games::gravity::Bits>(
            g: &mut GravityInput<B>,
            rules: &Rules,
            known: &[(String, i32)],
        ) -> Result<(), InputError> {
            let mut told = Known::default();
            for (text, score) in known {
                let pos = Setup::parse(rules, text)?.validate(rules)?;
                let bits = g
                    .board
                    .from_position(&pos)
                    .map_err(|e| InputError::Unsupported(e.to_string()))?;
                // No score of the board lies beyond its number of cells either way (the range
                // the engine's own searches start from).
                let cells = g.board.cells() as i32;
                if !(-cells..=cells).contains(score) {
                    return Err(InputError::Request(format!(
                        "the score {score} told of {text} is not one a position of {cells} \
                         cells can have ({} to {cells})",
                        -cells
                    )));
                }
                told.scores.insert(g.board.symmetric_key(&bits), *score);
                told.stones = told.stones.max(bits.moves);
            }
            g.known = Arc::new(told);
            Ok(())
        }
        match self {
            Plan::Solve(Solver::Gravity64(g), _) | Plan::Best(Solver::Gravity64(g), ..) => {
                give(g, rules, known)
            }
            Plan::Solve(Solver::Gravity128(g), _) | Plan::Best(Solver::Gravity128(g), ..) => {
                give(g, rules, known)
            }
            _ => Ok(()),
        }
    }

    /// The book the gravity engine was given.
    pub fn book(&self) -> Option<&Arc<Book>> {
        match self {
            Plan::Solve(Solver::Gravity64(g), _) | Plan::Best(Solver::Gravity64(g), ..) => {
                g.book.as_ref()
            }
            Plan::Solve(Solver::Gravity128(g), _) | Plan::Best(Solver::Gravity128(g), ..) => {
                g.book.as_ref()
            }
            _ => None,
        }
    }

    /// Threads for the engines that use them (the gravity engine, the nim-sequence; the Grundy
    /// analyses of sums and strips take the query's threads as they run).
    pub fn set_threads(&mut self, threads: usize) {
        match self {
            Plan::Sequence(seq) => *seq = seq.clone().with_threads(threads),
            Plan::Solve(Solver::Gravity64(g), _) | Plan::Best(Solver::Gravity64(g), ..) => {
                g.threads = threads
            }
            Plan::Solve(Solver::Gravity128(g), _) | Plan::Best(Solver::Gravity128(g), ..) => {
                g.threads = threads
            }
            _ => {}
        }
    }
}

impl Solver {
    fn engine(&self) -> super::game::Engine {
        use super::game::Engine;
        match self {
            Solver::Negamax { .. } => Engine::Negamax,
            Solver::Gravity64(_) | Solver::Gravity128(_) => Engine::Gravity,
            Solver::Lol { .. } => Engine::LolComponents,
            Solver::Treblecross(_) => Engine::TreblecrossGrundy,
            Solver::Heaps { .. } => Engine::HeapsGrundy,
        }
    }

    /// The solver for a validated position of `rules`: the fullest answer an engine gives for
    /// this board (`value_only`: the fastest engine that tells the value).
    pub fn choose(rules: &Rules, pos: &Position, value_only: bool) -> Result<Solver, InputError> {
        let cells = rules.cells();
        let fits = cells <= MAX_BOARD_CELLS;
        let negamax = || -> Result<Solver, InputError> {
            let board = Board::new(rules).map_err(|e| InputError::Unsupported(e.to_string()))?;
            let bits = board.encode(pos).map_err(crate::rules::PositionError::from)?;
            Ok(Solver::Negamax { board: Box::new(board), bits })
        };
        if is_treblecross(rules) && cells >= 3 {
            if cells <= TREBLECROSS_SEARCH_CELLS.min(MAX_BOARD_CELLS) {
                return negamax();
            }
            let strip = pos.cells().iter().map(|&c| c != 0).collect();
            let strip = TreblecrossStrip::from_cells(strip)
                .map_err(|e| InputError::Unsupported(e.to_string()))?;
            return Ok(Solver::Treblecross(strip));
        }
        if let Ok(board) = GravityBoard::<u64>::for_rules(rules) {
            return gravity(board, pos).map(Solver::Gravity64);
        }
        if let Ok(board) = GravityBoard::<u128>::for_rules(rules) {
            return gravity(board, pos).map(Solver::Gravity128);
        }
        if let Some(outer) = lol_outer_mark(rules).filter(|_| !fits || value_only) {
            let alphabet = rules.alphabet();
            let cell = |c: u8| match c {
                0 => Cell::Empty,
                c if c == outer => Cell::L,
                _ => Cell::O,
            };
            let cells: Vec<Cell> = pos.cells().iter().map(|&c| cell(c)).collect();
            let strip = LolStrip::from_cells(cells.clone())
                .map_err(|e| InputError::Unsupported(e.to_string()))?;
            let marks = [(alphabet[0], cell(1)), (alphabet[1], cell(2))];
            return Ok(Solver::Lol { strip, cells, marks });
        }
        if fits {
            return negamax();
        }
        Err(too_large(
            rules,
            "xo solves LOL-like and Treblecross strips of any length, Connect Four's family \
             up to 32 columns with columns*(rows+1) <= 128, and other games on",
        ))
    }
}

/// A gravity engine's input for a validated position.
fn gravity<B: crate::games::gravity::Bits>(
    board: GravityBoard<B>,
    pos: &Position,
) -> Result<GravityInput<B>, InputError> {
    let bits = board.from_position(pos).map_err(|e| InputError::Unsupported(e.to_string()))?;
    Ok(GravityInput {
        board,
        bits,
        plies: pos.plies(),
        book: None,
        threads: 1,
        known: Arc::default(),
    })
}

/// The message for a board too large for what is asked.
pub(crate) fn too_large(rules: &Rules, what: &str) -> InputError {
    InputError::Unsupported(format!(
        "{} has {} cells; {what} boards of at most {MAX_BOARD_CELLS} cells",
        rules.name(),
        rules.cells()
    ))
}

/// The bitboard for counting or checking, or why the board is too large for `what`.
pub(crate) fn board_for(rules: &Rules, what: &str) -> Result<Board, InputError> {
    Board::new(rules).map_err(|_| too_large(rules, what))
}
