//! The best move when the exact answer ran out of budget: iterative deepening over the rules,
//! one ply deeper each round within a fixed number of positions, and the best move of the
//! deepest round that finished. A move whose result a round settles (a game that ends within its
//! depth whatever the opponent does, or that the mover can end first) keeps its exact value and
//! remoteness; the others are reported as a draw with no remoteness (not known). So the move
//! wins at once where it can, otherwise never walks into a loss the search could see, and takes
//! the quickest forced win found.
//!
//! ```
//! use xo_core::request::Request;
//! use xo_core::threads::Runner;
//! use xo_core::query::{answer, Answer, Query, Question};
//! use xo_core::budget::{Budget, Meter};
//! use xo_core::Value;
//! // X to move makes an open three on the bottom row (column 2 or 5) and wins in 3 plies; with
//! // one position of budget the exact answer stops, and the look-ahead finds that win.
//! let board = format!("{}..OO.....XX...", ".".repeat(28));
//! let q = Request::new("connect4").at(&board).asking(Question::Best).prepare(&[], Runner::Pool).unwrap();
//! let meter = Meter::new(Budget::default().with_max_nodes(1));
//! let Answer::Best(r) = answer(&q, &meter).unwrap() else { panic!() };
//! let best = r.best.unwrap();
//! assert!(!r.proven && r.look_ahead_plies.unwrap() >= 3);
//! assert_eq!((best.value, best.remoteness), (Value::Win, Some(3)));
//! assert!(best.name == "2" || best.name == "5");
//! ```

use super::report::MoveReport;
use crate::game::GameTree as _;
use crate::games::board::{Board, BoardMove, BoardPosition};
use crate::rules::{move_name, move_order, Position, Rules};
use crate::value::{preference, Scored};
use crate::Value;

/// The most positions the deepening looks at, after the budget ran out (a few hundredths of a
/// second on the bitboards of boards up to 64 cells).
pub const LOOK_AHEAD_NODES: u64 = 200_000;

/// Boards the deepening runs on (past 64 cells, on the plain rules, with a tenth of the
/// positions).
const LOOK_AHEAD_CELLS: usize = 256;

/// The round ran out of positions.
struct OutOfNodes;

/// What the deepening needs of a game: whether a position is over, and the positions after
/// each move. Two kinds: the bitboards ([`Board`]), and the plain rules for larger boards.
trait Tree {
    type Pos;
    /// The value of a finished position for its mover.
    fn outcome(&self, pos: &Self::Pos) -> Option<Value>;
    /// The positions after every legal move.
    fn children(&self, pos: &Self::Pos, out: &mut Vec<Self::Pos>);
}

impl Tree for Board {
    type Pos = BoardPosition;
    fn outcome(&self, pos: &BoardPosition) -> Option<Value> {
        Board::outcome(self, pos)
    }
    fn children(&self, pos: &BoardPosition, out: &mut Vec<BoardPosition>) {
        let mut moves = Vec::new();
        self.moves_ordered(pos, &mut moves);
        out.extend(moves.into_iter().map(|m| self.play(pos, m)));
    }
}

impl Tree for Rules {
    type Pos = Position;
    fn outcome(&self, pos: &Position) -> Option<Value> {
        crate::game::GameTree::outcome(self, pos)
    }
    fn children(&self, pos: &Position, out: &mut Vec<Position>) {
        let mut moves = Vec::new();
        self.moves(pos, &mut moves);
        out.extend(moves.into_iter().map(|m| self.play(pos, m)));
    }
}

/// Every move's result by the deepest round (at most `most_plies` deep) that finished within
/// `max_nodes` positions, and
/// that round's depth in plies (`None` on boards past 256 cells or with no move). The moves are
/// in search order on the bitboards (cells most patterns pass through first: the centre of a
/// grid), so that among moves no round settled the first is a promising one; in board order on
/// larger boards.
pub(super) fn deepest(
    rules: &Rules,
    pos: &Position,
    max_nodes: u64,
    most_plies: u32,
) -> Option<(Vec<MoveReport>, u32)> {
    if rules.cells() > LOOK_AHEAD_CELLS {
        return None;
    }
    let empty = (pos.cells().iter().filter(|&&c| c == 0).count() as u32).min(most_plies);
    let after = |m: &BoardMove| rules.play(pos, (m.cell as usize, m.mark));
    let name = |m: &BoardMove| move_name(rules, *m);
    if let Ok(board) = Board::new(rules) {
        let mut moves = Vec::new();
        board.moves_ordered(&board.encode(pos).ok()?, &mut moves);
        let children: Vec<BoardPosition> =
            moves.iter().map(|m| board.encode(&after(m))).collect::<Result<_, _>>().ok()?;
        let names: Vec<String> = moves.iter().map(name).collect();
        return rounds(&board, &children, &names, empty, max_nodes);
    }
    let mut moves = Vec::new();
    rules.moves(pos, &mut moves);
    let mut moves: Vec<BoardMove> =
        moves.into_iter().map(|(cell, mark)| BoardMove { cell: cell as u8, mark }).collect();
    moves.sort_by_key(|&m| move_order(rules, m));
    let children: Vec<Position> = moves.iter().map(after).collect();
    let names: Vec<String> = moves.iter().map(name).collect();
    rounds(rules, &children, &names, empty, max_nodes / 10)
}

/// Rounds one ply deeper each time over the positions after each move (`children`, named
/// `names`), until every move is settled, `most` plies are searched, or a round runs out of
/// positions; the last round that finished.
fn rounds<T: Tree>(
    tree: &T,
    children: &[T::Pos],
    names: &[String],
    most: u32,
    max_nodes: u64,
) -> Option<(Vec<MoveReport>, u32)> {
    let mut nodes = 0u64;
    let mut finished = None;
    if children.is_empty() {
        return None;
    }
    for depth in 1..=most.max(1) {
        let mut round = Vec::with_capacity(children.len());
        for (child, name) in children.iter().zip(names) {
            let Ok(found) = settle(tree, child, depth - 1, &mut nodes, max_nodes) else {
                return finished;
            };
            let (value, remoteness) = match found {
                Some(s) => (-s.value, Some(s.remoteness + 1)),
                None => (Value::Draw, None),
            };
            round.push(MoveReport {
                name: name.clone(),
                value,
                remoteness,
                score: None,
                line: None,
            });
        }
        let settled = round.iter().all(|m| m.remoteness.is_some());
        finished = Some((round, depth));
        if settled {
            break;
        }
    }
    finished
}

/// The exact result of `pos` for its mover when the game is settled within `depth` plies:
/// over already, or a win the mover forces within them (the quickest, as no unsettled move
/// ends sooner), or every move settled; `None` when it is not.
fn settle<T: Tree>(
    tree: &T,
    pos: &T::Pos,
    depth: u32,
    nodes: &mut u64,
    max_nodes: u64,
) -> Result<Option<Scored>, OutOfNodes> {
    // Every position looked at counts, the last ply's too.
    *nodes += 1;
    if *nodes > max_nodes {
        return Err(OutOfNodes);
    }
    if let Some(v) = tree.outcome(pos) {
        return Ok(Some(Scored { value: v, remoteness: 0 }));
    }
    if depth == 0 {
        return Ok(None);
    }
    let mut children = Vec::new();
    tree.children(pos, &mut children);
    let mut best: Option<Scored> = None;
    let mut open = false;
    for child in &children {
        match settle(tree, child, depth - 1, nodes, max_nodes)? {
            Some(s) => {
                let mine = Scored { value: -s.value, remoteness: s.remoteness + 1 };
                if best.is_none_or(|b| {
                    preference(mine.value, Some(mine.remoteness))
                        > preference(b.value, Some(b.remoteness))
                }) {
                    best = Some(mine);
                }
            }
            None => open = true,
        }
    }
    Ok(match best {
        Some(b) if b.value == Value::Win || !open => Some(b),
        _ => None,
    })
}

#[cfg(test)]
mod tests;
