//! The book against the engine, its files against damage, its budget.

use super::*;
use crate::budget::{Budget, Limit};

#[test]
fn every_entry_is_the_engine_score() {
    // 4x4 with three in a row has finished games within six moves: their entries too.
    for (board, depth) in
        [(GravityBoard::new(5, 4, 4).unwrap(), 4), (GravityBoard::new(4, 4, 3).unwrap(), 6)]
    {
        let meter = Meter::default();
        let book = Book::build(&board, depth, 1 << 20, &meter).unwrap();
        let mut solver = GravitySolver::new(&board, 1 << 20);
        let (levels, _memory) = levels::levels(&board, depth, &meter).unwrap();
        let positions: usize = levels.iter().map(Vec::len).sum();
        assert_eq!(book.len(), positions);
        let finished = levels.iter().flatten().filter(|p| board.outcome(p).is_some()).count();
        assert!(depth == 4 || finished > 0);
        for pos in levels.iter().flatten() {
            assert_eq!(book.get(&board, pos), Some(solver.score(pos, &meter).unwrap()));
        }
    }
    let board = GravityBoard::new(5, 4, 4).unwrap();
    let book = Book::build(&board, 4, 1 << 20, &Meter::default()).unwrap();
    // Mirror images share their entry; deeper positions are not in the book.
    let a = board.from_moves("1").unwrap();
    let b = board.from_moves("5").unwrap();
    assert_eq!(book.get(&board, &a), book.get(&board, &b));
    assert_eq!(book.get(&board, &board.from_moves("12345").unwrap()), None);
}

#[test]
fn damaged_files_are_refused() {
    let board = GravityBoard::new(4, 4, 3).unwrap();
    let bytes = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap().encode();
    assert_eq!(Book::decode(b"hello"), Err(BookError::NotABook));
    let mut flipped = bytes.clone();
    flipped[file::HEADER_2 + 3] ^= 1;
    assert_eq!(Book::decode(&flipped), Err(BookError::Damaged("checksum")));
    assert!(matches!(Book::decode(&bytes[..bytes.len() - 1]), Err(BookError::Damaged(_))));
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(Book::decode(&version), Err(BookError::Version(9)));
}

#[test]
fn a_budget_stops_the_build() {
    let board = GravityBoard::new(6, 5, 4).unwrap();
    let meter = Meter::new(Budget::default().with_max_nodes(10_000));
    assert_eq!(Book::build(&board, 6, 1 << 20, &meter).unwrap_err().limit, Limit::Nodes);
}

#[test]
fn a_stopped_build_is_a_book_of_what_it_solved() {
    let board = GravityBoard::new(5, 4, 4).unwrap();
    let full = Book::build(&board, 5, 1 << 16, &Meter::default()).unwrap();
    let meter = Meter::new(Budget::default().with_max_nodes(30_000));
    let part =
        Book::build_resuming(&board, 5, 1 << 16, &meter, &Default::default(), &|_, _| {}).unwrap();
    assert_eq!(part.stopped.map(|s| s.limit), Some(Limit::Nodes));
    let (solved, deepest) = part.book.progress();
    assert!(solved > 0 && solved < deepest, "{solved} of {deepest}");
    assert!(part.book.len() < full.len());
    // Every score it holds is the complete book's; the file keeps it all.
    for (key, score) in part.book.keys.iter().zip(&part.book.scores) {
        let i = full.keys.binary_search(key).unwrap();
        assert_eq!(full.scores[i], *score);
    }
    assert_eq!(Book::decode(&part.book.encode()).unwrap(), part.book);
    // Its deepest scores are what a resumed build starts from.
    let known = part.book.deepest_scores(&board, &Meter::default()).unwrap();
    assert_eq!(known.len() as u64, solved);
    let resumed =
        Book::build_resuming(&board, 5, 1 << 16, &Meter::default(), &known, &|_, _| {}).unwrap();
    assert_eq!(resumed.book, full);
}

#[test]
fn format_1_books_are_still_read() {
    let board = GravityBoard::new(4, 4, 3).unwrap();
    let book = Book::build(&board, 3, 1 << 16, &Meter::default()).unwrap();
    let mut bytes = file::MAGIC.to_vec();
    for v in [1u32, 4, 4, 3, 3] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&(book.keys.len() as u64).to_le_bytes());
    for (k, s) in book.keys.iter().zip(&book.scores) {
        bytes.extend_from_slice(&k.to_le_bytes());
        bytes.push(*s as u8);
    }
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    assert_eq!(Book::file_len(&bytes), Ok(bytes.len() as u64));
    let old = Book::decode(&bytes).unwrap();
    assert_eq!((old.keys.clone(), old.scores.clone()), (book.keys.clone(), book.scores.clone()));
    assert!(old.is_complete());
}

#[test]
fn lying_entry_counts_and_gaps_are_refused() {
    let board = GravityBoard::new(4, 4, 3).unwrap();
    let book = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap();
    let reseal = |mut bytes: Vec<u8>| {
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
        bytes
    };
    let bytes = book.encode();
    let mut count = bytes.clone();
    count[28..36].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(Book::decode(&reseal(count)), Err(BookError::Damaged(_))));
    let mut fewer = bytes.clone();
    fewer[28..36].copy_from_slice(&(book.len() as u64 - 1).to_le_bytes());
    assert_eq!(Book::decode(&reseal(fewer)), Err(BookError::Damaged("bytes past its last entry")));
    let mut solved = bytes.clone();
    solved[36..44].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(Book::decode(&reseal(solved)), Err(BookError::Damaged(_))));
    // A second gap of zero repeats a key.
    let mut body = bytes.clone();
    body[file::HEADER_2 + 2] = 0;
    assert!(matches!(Book::decode(&reseal(body)), Err(BookError::Damaged(_))));
}
