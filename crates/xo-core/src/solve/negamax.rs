//! Exact search of placement games: negamax with alpha-beta over scores that encode the value and
//! how long the game lasts, a bounded transposition table keyed by symmetry-reduced positions,
//! immediate wins taken, moves that hand the opponent an immediate win scored without search, and
//! double threats recognised.
//!
//! Scores follow Pascal Pons' Connect 4 solver: a score says at which ply the game ends, counted from
//! the empty board, so it means the same at every depth and negamax is just `-child`. For a
//! position with `f` marks whose game ends when `e` cells are filled: a win scores `BASE - e`, a
//! loss `-(BASE - e)`, a draw 0. The winner prefers ending early, the loser late.

use super::table::{Bounds, Table};
use crate::budget::{Meter, Stopped, Ticker};
use crate::games::board::{Board, BoardMove, BoardPosition};
use crate::rules::Marks;
use crate::Value;

/// Scores are `±(BASE - e)`; `BASE` exceeds every board's cell count.
const BASE: i32 = 100;
/// Beyond every score.
const INF: i32 = 127;

pub use crate::value::Scored;

/// One legal move and what it is worth to the player making it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub mv: BoardMove,
    /// Its value and remoteness for the mover (remoteness counts the move itself).
    pub scored: Scored,
}

/// A complete answer for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The position's value and remoteness for the player to move.
    pub scored: Scored,
    /// Every legal move, in board order.
    pub moves: Vec<MoveScore>,
}

/// The searcher: a board and a table that persists across queries; each query spends the
/// [`Meter`] it is given ([`Meter::unlimited`] for none).
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::board::Board;
/// use xo_core::rules::parse_game;
/// use xo_core::solve::negamax::Searcher;
/// use xo_core::Value;
///
/// let board = Board::new(&parse_game("mnk:4,3,3").unwrap()).unwrap();
/// let mut searcher = Searcher::new(&board, 1 << 20);
/// let scored = searcher.score(&Default::default(), &Meter::unlimited()).unwrap();
/// assert_eq!(scored.value, Value::Win);
/// ```
pub struct Searcher<'a> {
    board: &'a Board,
    table: Table,
    nodes: u64,
    ticker: Ticker,
    /// Whether double threats may be scored without search (own marks only).
    own_marks: bool,
}

impl<'a> Searcher<'a> {
    /// A searcher with a transposition table of about `table_bytes` bytes. Each query spends the
    /// [`Meter`] it is given (shared with whatever else the job runs); over it the query returns
    /// [`Stopped`].
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// use xo_core::games::board::Board;
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::negamax::Searcher;
    /// let board = Board::new(&parse_game("connect4").unwrap()).unwrap();
    /// let meter = Meter::new(Budget::default().with_max_nodes(10_000));
    /// let mut searcher = Searcher::new(&board, 1 << 20);
    /// assert_eq!(searcher.value(&Default::default(), &meter).unwrap_err().limit, Limit::Nodes);
    /// ```
    pub fn new(board: &'a Board, table_bytes: usize) -> Self {
        Searcher {
            board,
            table: Table::with_bytes(table_bytes),
            nodes: 0,
            ticker: Ticker::default(),
            own_marks: *board.rules().marks() == Marks::Own,
        }
    }

    /// Positions visited by the last query.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn begin(&mut self) {
        self.nodes = 0;
        self.ticker.reset();
    }

    fn finish<T>(&mut self, meter: &Meter, result: T) -> Result<T, Stopped> {
        self.ticker.finish(meter, result)
    }

    /// The value of `pos` for the player to move, without remoteness: the fastest query.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::board::Board;
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::negamax::Searcher;
    /// use xo_core::Value;
    /// let board = Board::new(&parse_game("mnk:4,4,4").unwrap()).unwrap();
    /// assert_eq!(Searcher::new(&board, 1 << 20).value(&Default::default(), &Meter::unlimited()), Ok(Value::Draw));
    /// ```
    pub fn value(&mut self, pos: &BoardPosition, meter: &Meter) -> Result<Value, Stopped> {
        self.begin();
        let s = self.score_of(pos, meter, -1, 1);
        self.finish(meter, value_of(s))
    }

    /// The exact value and remoteness of `pos`.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::board::Board;
    /// use xo_core::rules::{parse_game, Setup};
    /// use xo_core::solve::negamax::Searcher;
    /// use xo_core::Value;
    /// let rules = parse_game("tictactoe").unwrap();
    /// let board = Board::new(&rules).unwrap();
    /// // X to move completes the top row at once.
    /// let pos = Setup::parse(&rules, "XX. OO. ...").unwrap().validate(&rules).unwrap();
    /// let s = Searcher::new(&board, 1 << 20).score(&board.encode(&pos).unwrap(), &Meter::unlimited()).unwrap();
    /// assert_eq!((s.value, s.remoteness), (Value::Win, 1));
    /// // O to move after X takes opposite corners: a draw, which lasts until the board is full.
    /// let pos = Setup::parse(&rules, "X.. .O. ..X").unwrap().validate(&rules).unwrap();
    /// let s = Searcher::new(&board, 1 << 20).score(&board.encode(&pos).unwrap(), &Meter::unlimited()).unwrap();
    /// assert_eq!((s.value, s.remoteness), (Value::Draw, 6));
    /// ```
    pub fn score(&mut self, pos: &BoardPosition, meter: &Meter) -> Result<Scored, Stopped> {
        self.begin();
        let s = self.exact(pos, meter);
        self.finish(meter, self.scored(pos, s))
    }

    /// The value and remoteness of `pos` and of every legal move.
    ///
    /// ```
    /// use xo_core::budget::Meter;
    /// use xo_core::games::board::Board;
    /// use xo_core::rules::parse_game;
    /// use xo_core::solve::negamax::Searcher;
    /// use xo_core::Value;
    ///
    /// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
    /// let a = Searcher::new(&board, 1 << 20).analyse(&Default::default(), &Meter::unlimited()).unwrap();
    /// assert_eq!((a.scored.value, a.scored.remoteness), (Value::Draw, 9));
    /// assert_eq!(a.moves.len(), 9);
    /// assert!(a.moves.iter().all(|m| m.scored.value == Value::Draw));
    /// ```
    pub fn analyse(&mut self, pos: &BoardPosition, meter: &Meter) -> Result<Analysis, Stopped> {
        self.begin();
        let mut moves = Vec::new();
        if self.board.outcome(pos).is_none() {
            self.board.moves_ordered(pos, &mut moves);
            moves.sort();
        }
        let mut scores: Vec<(u128, i32)> = Vec::new();
        let mut result = Vec::with_capacity(moves.len());
        let mut best = -INF;
        for mv in moves {
            let child = self.board.play(pos, mv);
            let key = self.board.canonical_key(&child);
            let s = match scores.iter().find(|(k, _)| *k == key) {
                Some(&(_, s)) => s,
                None => {
                    let s = -self.exact(&child, meter);
                    scores.push((key, s));
                    s
                }
            };
            best = best.max(s);
            result.push(MoveScore { mv, scored: self.scored(pos, s) });
        }
        let s = if result.is_empty() { self.exact(pos, meter) } else { best };
        let scored = self.scored(pos, s);
        self.finish(meter, Analysis { scored, moves: result })
    }

    /// The exact score of any position: first its value with a null window around zero, then
    /// its remoteness on the side of zero the value is on.
    fn exact(&mut self, pos: &BoardPosition, meter: &Meter) -> i32 {
        match self.score_of(pos, meter, -1, 1) {
            s if s > 0 => self.score_of(pos, meter, 0, INF),
            s if s < 0 => self.score_of(pos, meter, -INF, 0),
            _ => 0,
        }
    }

    /// The score of any position (finished ones included) with the same window contract as
    /// [`Searcher::search`].
    fn score_of(&mut self, pos: &BoardPosition, meter: &Meter, alpha: i32, beta: i32) -> i32 {
        let f = pos.plies() as i32;
        match self.board.outcome(pos) {
            Some(Value::Loss) => -(BASE - f),
            Some(Value::Win) => BASE - f,
            Some(Value::Draw) => 0,
            None => self.search(pos, meter, alpha, beta),
        }
    }

    fn scored(&self, pos: &BoardPosition, s: i32) -> Scored {
        let f = pos.plies() as i32;
        let remoteness = match s {
            0 => (self.board.cells() as i32 - f) as u32,
            s => (BASE - s.abs() - f) as u32,
        };
        Scored { value: value_of(s), remoteness }
    }

    /// Searches an unfinished position (no pattern stands, some cell is playable).
    ///
    /// Contract, for `alpha < beta` and true score `s`:
    /// - if `alpha < s < beta`, returns `s`;
    /// - if `s <= alpha`, returns an upper bound `u` with `s <= u <= alpha`;
    /// - if `s >= beta`, returns a lower bound `l` with `beta <= l <= s`.
    ///
    /// After the budget runs out it returns 0 at once; callers discard the result.
    fn search(&mut self, pos: &BoardPosition, meter: &Meter, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.ticker.tick(meter) {
            return 0;
        }
        let board = self.board;
        let f = pos.plies() as i32;
        let scan = board.scan(pos);
        if !scan.mover_live && !scan.opponent_live {
            return 0; // no pattern can ever be completed: the board fills up
        }
        // The earliest ply at which the mover can win and can lose, when each is possible at all.
        let (win_at, lose_at) = if board.misere() {
            (scan.opponent_live.then_some(f + 2), scan.mover_live.then_some(f + 1))
        } else {
            if scan.mover_wins != 0 {
                return BASE - (f + 1);
            }
            if self.own_marks && scan.opponent_wins.count_ones() >= 2 {
                return -(BASE - (f + 2)); // two threats: one block cannot stop both
            }
            (scan.mover_live.then_some(f + 3), scan.opponent_live.then_some(f + 2))
        };
        let max = win_at.map_or(0, |e| BASE - e);
        let min = lose_at.map_or(0, |e| -(BASE - e));
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let key = board.canonical_key(pos);
        if let Some(b) = self.table.get(key) {
            if b.lower as i32 >= beta {
                return b.lower as i32;
            }
            if b.upper as i32 <= alpha {
                return b.upper as i32;
            }
            alpha = alpha.max(b.lower as i32);
            beta = beta.min(b.upper as i32);
            if alpha >= beta {
                return alpha;
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = Vec::with_capacity(board.cells() * 2);
        if !board.misere() && self.own_marks && scan.opponent_wins != 0 {
            // One threat: every move but the block loses at once, which `min` already accounts for.
            let cell = scan.opponent_wins.trailing_zeros() as u8;
            moves.push(BoardMove {
                cell,
                mark: board.marks_to_move(pos).trailing_zeros() as u8 + 1,
            });
        } else {
            board.moves_ordered(pos, &mut moves);
            moves.sort_by_key(|mv| std::cmp::Reverse(scan.weights[mv.cell as usize]));
            if !board.rules().gravity() {
                // Cells no live pattern passes through are interchangeable: try one of them.
                if let Some(first_dead) =
                    moves.iter().position(|mv| scan.weights[mv.cell as usize] == 0)
                {
                    moves.truncate(first_dead + 1);
                }
            }
        }
        let mut best = min;
        for mv in moves {
            let child = board.play(pos, mv);
            let s = self.child_score(&child, meter, mv, f, alpha, beta);
            if self.ticker.is_stopped() {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bounds = if best <= alpha0 {
            Bounds { lower: -INF as i8, upper: best as i8 }
        } else if best >= beta0 {
            Bounds { lower: best as i8, upper: INF as i8 }
        } else {
            Bounds { lower: best as i8, upper: best as i8 }
        };
        self.table.store(key, bounds);
        best
    }

    /// The score, for the player who made `mv` at ply `f + 1`, of the resulting `child`; exact when
    /// it can be told without search, else by [`Searcher::search`] in the window `(alpha, beta)`.
    fn child_score(
        &mut self,
        child: &BoardPosition,
        meter: &Meter,
        mv: BoardMove,
        f: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let board = self.board;
        if board.completes(child, mv.cell) {
            // Only in misère play: the normal case returned before generating moves.
            return if board.misere() { -(BASE - (f + 1)) } else { BASE - (f + 1) };
        }
        if board.playable(child) == 0 {
            return 0;
        }
        -self.search(child, meter, -beta, -alpha)
    }
}

fn value_of(s: i32) -> Value {
    match s {
        s if s > 0 => Value::Win,
        s if s < 0 => Value::Loss,
        _ => Value::Draw,
    }
}
