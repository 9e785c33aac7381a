//! The best move when the exact answer ran out of budget: iterative deepening over the rules,
//! one ply deeper each round within a fixed number of positions, and the best move of the
//! deepest round that finished. A move whose result a round settles (a game that ends within its
//! depth whatever the opponent does, or that the mover can end first) keeps its exact value and
//! remoteness; the others are reported as a draw with no remoteness (not known). So the move
//! wins at once where it can, otherwise never walks into a loss the search could see, and takes
//! the quickest forced win found.
//!
//! ```
//! use xo_core::query::{answer, Answer, Query, Question};
//! use xo_core::budget::{Budget, Meter};
//! use xo_core::Value;
//! // X to move makes an open three on the bottom row (column 2 or 5) and wins in 3 plies; with
//! // one position of budget the exact answer stops, and the look-ahead finds that win.
//! let board = format!("{}..OO.....XX...", ".".repeat(28));
//! let q = Query::parse("connect4", Some(&board), Question::Best).unwrap();
//! let meter = Meter::new(Budget::default().with_max_nodes(1));
//! let Answer::Best(r) = answer(&q, &meter).unwrap() else { panic!() };
//! let best = r.best.unwrap();
//! assert!(!r.proven && r.look_ahead_plies.unwrap() >= 3);
//! assert_eq!((best.value, best.remoteness), (Value::Win, Some(3)));
//! assert!(best.name == "2" || best.name == "5");
//! ```

use super::MoveReport;
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

/// Every move's result by the deepest round that finished within `max_nodes` positions, and
/// that round's depth in plies (`None` on boards past 256 cells or with no move). The moves are
/// in search order on the bitboards (cells most patterns pass through first: the centre of a
/// grid), so that among moves no round settled the first is a promising one; in board order on
/// larger boards.
pub(super) fn deepest(
    rules: &Rules,
    pos: &Position,
    max_nodes: u64,
) -> Option<(Vec<MoveReport>, u32)> {
    if rules.cells() > LOOK_AHEAD_CELLS {
        return None;
    }
    let empty = pos.cells().iter().filter(|&&c| c == 0).count() as u32;
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
            round.push(MoveReport { name: name.clone(), value, remoteness, score: None });
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
mod tests {
    use super::*;
    use crate::query::{answer, Answer, Query, Question};
    use crate::rules::{parse_game, Setup};

    /// Every move's exact value and remoteness, by the engine the query chooses.
    fn exact(game: &str, text: &str) -> Vec<MoveReport> {
        let q = Query::parse(game, Some(text), Question::Analysis { winning_only: false });
        let Answer::Solve(r) = answer(&q.unwrap(), &Default::default()).unwrap() else { panic!() };
        r.moves.unwrap().into_iter().map(|m| MoveReport { score: None, ..m }).collect()
    }

    fn position(rules: &Rules, text: &str) -> Position {
        Setup::parse(rules, text).unwrap().validate(rules).unwrap()
    }

    /// Deep enough to reach every end, the deepening is the exact answer: every move's value and
    /// remoteness equal the engines', on positions of tic-tac-toe and small Connect Fours.
    #[test]
    fn a_search_that_reaches_every_end_is_exact() {
        let cases: [(&str, &[&str]); 2] = [
            ("tictactoe", &[".........", "X...O....", "XX.OO....", "X.O.X.O.."]),
            ("connect:4,3,3", &["............", "....X...O...", "....XO..OX.."]),
        ];
        for (game, positions) in cases {
            let rules = parse_game(game).unwrap();
            for text in positions {
                let (mut moves, _) = deepest(&rules, &position(&rules, text), u64::MAX).unwrap();
                let mut want = exact(game, text);
                moves.sort_by(|a, b| a.name.cmp(&b.name));
                want.sort_by(|a, b| a.name.cmp(&b.name));
                assert_eq!(moves, want, "{game} {text}");
            }
        }
    }

    /// The bitboards and the plain rules give the same rounds, node for node.
    #[test]
    fn bitboards_and_plain_rules_agree() {
        for (game, text) in
            [("connect:5,4,4", "..........X....XO..O"), ("mnk:4,4,3", "X....O..........")]
        {
            let rules = parse_game(game).unwrap();
            let pos = position(&rules, text);
            let board = Board::new(&rules).unwrap();
            let mut legal = Vec::new();
            rules.moves(&pos, &mut legal);
            let plain: Vec<Position> = legal.iter().map(|&m| rules.play(&pos, m)).collect();
            let bits: Vec<BoardPosition> = plain.iter().map(|p| board.encode(p).unwrap()).collect();
            let names: Vec<String> = (0..legal.len()).map(|i| i.to_string()).collect();
            for max in [500, 5_000, 50_000] {
                let a = rounds(&board, &bits, &names, 20, max);
                assert_eq!(a, rounds(&rules, &plain, &names, 20, max), "{game} {max}");
                assert!(a.is_some_and(|(_, depth)| depth >= 2), "{game} {max}");
            }
        }
    }

    /// Past 64 cells the plain rules answer: an immediate win on a 9x8 board.
    #[test]
    fn large_boards_use_the_plain_rules() {
        let rules = parse_game("mnk:9,8,4").unwrap();
        let mut cells = ".".repeat(72);
        cells.replace_range(0..3, "XXX");
        cells.replace_range(9..12, "OOO");
        let (moves, depth) = deepest(&rules, &position(&rules, &cells), 10_000).unwrap();
        let best = crate::query::best_move(&moves).unwrap();
        assert!(depth >= 1);
        assert_eq!((best.name.as_str(), best.value, best.remoteness), ("4", Value::Win, Some(1)));
    }

    /// With few positions, what a round settles is still exact (a cut round is never used).
    #[test]
    fn settled_moves_are_exact_at_every_depth() {
        let (game, text) = ("connect:5,4,4", "..........X....XO..O");
        let rules = parse_game(game).unwrap();
        let want = exact(game, text);
        for max in [10, 100, 1_000, 10_000] {
            let (moves, depth) = deepest(&rules, &position(&rules, text), max).unwrap();
            assert!(depth >= 1);
            assert_eq!(moves.len(), want.len());
            for m in &moves {
                let w = want.iter().find(|w| w.name == m.name).unwrap();
                if m.remoteness.is_some() {
                    assert_eq!(m, w, "{max} positions, depth {depth}");
                }
            }
        }
    }
}
