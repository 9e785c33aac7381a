//! The opening book xo ships for Connect Four (crates/xo-store/books/connect4.book, built by
//! `xo book connect4 --depth 10`): it reads, every entry is a position of its board, every
//! entry whose children it also holds is the best of them, and a sample of its entries is what
//! the engine finds with no book at all.

use xo_core::budget::Meter;
use xo_core::games::gravity::{GravityBoard, GravityPosition};
use xo_core::solve::book::Book;
use xo_core::solve::gravity::GravitySolver;

fn shipped() -> (GravityBoard, &'static Book) {
    let books = xo_store::book::shipped();
    assert_eq!(books.len(), 1, "the shipped book does not decode");
    (GravityBoard::new(7, 6, 4).unwrap(), &books[0])
}

/// Pons' score for the mover of a position with a win at once, or of a finished one.
fn win_at(board: &GravityBoard, ply: u32) -> i32 {
    (board.cells() as i32 + 2 - ply as i32) / 2
}

#[test]
fn the_book_is_of_connect_four_to_ten_moves() {
    let (board, book) = shipped();
    assert_eq!(book.game(), (7, 6, 4));
    assert_eq!(book.depth(), 10);
    let (solved, deepest) = book.progress();
    // The distinct positions of ten moves, mirror images merged (1,662,623 in all: OEIS A212693).
    assert_eq!(deepest, 831_581);
    assert!(solved <= deepest);
    assert_eq!(book.get(&board, &board.start()).is_some(), book.is_complete());
}

#[test]
fn every_entry_agrees_with_its_children() {
    let (board, book) = shipped();
    let mut checked = 0;
    for (key, score) in book.entries() {
        let pos = Book::position_of(&board, key).expect("a key of the board");
        assert!(pos.moves <= 10, "{key:#x} has {} stones", pos.moves);
        assert_eq!(board.symmetric_key(&pos), key);
        assert_eq!(book.get(&board, &pos), Some(i32::from(score)));
        if board.outcome(&pos).is_some() {
            continue;
        }
        let columns: Vec<u32> = (0..7).filter(|&c| board.can_play(&pos, c)).collect();
        if columns.iter().any(|&c| board.is_winning_move(&pos, c)) {
            assert_eq!(i32::from(score), win_at(&board, pos.moves + 1), "{key:#x}");
            continue;
        }
        let children: Option<Vec<i32>> = columns
            .iter()
            .map(|&c| {
                let mut child: GravityPosition = pos;
                board.play(&mut child, c);
                book.get(&board, &child).map(|s| -s)
            })
            .collect();
        if let Some(children) = children {
            assert_eq!(Some(i32::from(score)), children.into_iter().max(), "{key:#x}");
            checked += 1;
        }
    }
    // Positions of fewer than ten moves held because their children are.
    assert!(checked > 0 || book.progress().0 == 0);
}

#[test]
fn sampled_entries_are_the_engine_scores() {
    let (board, book) = shipped();
    // Entries the engine has to search for (not finished, no win at once), of eight moves or
    // more (a second or less each), sampled evenly.
    let searched: Vec<(GravityPosition, i8)> = book
        .entries()
        .map(|(key, score)| (Book::position_of(&board, key).unwrap(), score))
        .filter(|(pos, _)| {
            pos.moves >= 8
                && board.outcome(pos).is_none()
                && !(0..7).any(|c| board.can_play(pos, c) && board.is_winning_move(pos, c))
        })
        .collect();
    let step = (searched.len() / 12).max(1);
    let mut solver = GravitySolver::new(&board, 16 << 20);
    for (pos, score) in searched.iter().step_by(step).take(12) {
        assert_eq!(solver.score(pos, &Meter::default()), Ok(i32::from(*score)));
    }
}

/// Positions of ten moves, whose children the book does not hold: every move's score with the
/// book (each child's search starting from the floor its parents in the book give, the last move
/// sometimes the position's score with no search) is the engine's with no book, on one thread
/// and on two.
#[test]
fn every_move_past_the_book_is_the_engines_without_it() {
    let (board, book) = shipped();
    let shared = xo_store::book::shipped()[0].clone();
    let tens: Vec<GravityPosition> = book
        .entries()
        .map(|(key, _)| Book::position_of(&board, key).unwrap())
        .filter(|pos| pos.moves == 10 && board.outcome(pos).is_none())
        .collect();
    let step = tens.len() / 6;
    let mut plain = GravitySolver::new(&board, 4 << 20);
    for pos in tens.iter().step_by(step).take(6) {
        let want = plain.move_scores(pos, &Meter::default()).unwrap();
        for threads in [1, 2] {
            let mut with = GravitySolver::new(&board, 4 << 20);
            with.set_book(shared.clone());
            with.set_threads(threads);
            assert_eq!(with.move_scores(pos, &Meter::default()).unwrap(), want, "{pos:?}");
        }
    }
}
