//! The book and its error, in a file of their own so that the file format (`file`) reads and
//! makes books from here rather than from the module that builds them (which uses `file`).

/// The exact scores of positions of a gravity game's first `depth` moves.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::gravity::GravityBoard;
/// use xo_core::solve::book::Book;
/// let board = GravityBoard::new(4, 4, 3).unwrap();
/// let book = Book::build(&board, 3, 1 << 20, &Meter::default()).unwrap();
/// assert_eq!(book.get(&board, &board.start()), Some(4)); // 4x4, three in a row: a first-player win
/// assert!(book.is_complete());
/// let again = Book::decode(&book.encode()).unwrap();
/// assert_eq!(again, book);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) k: u32,
    pub(super) depth: u32,
    /// Deepest-level positions solved, of `deepest` (0 of 0 in format 1, complete books only).
    pub(super) solved: u64,
    pub(super) deepest: u64,
    /// Sorted symmetric keys.
    pub(super) keys: Vec<u64>,
    /// Scores, by the keys' order (Pons' convention, for the player to move).
    pub(super) scores: Vec<i8>,
}

/// Why a book file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// It does not start like a book file.
    #[error("not an xo opening book")]
    NotABook,
    /// It was written by another version of the format.
    #[error("an opening book of format version {0}; this xo reads versions 1 and 2")]
    Version(u32),
    /// It is shorter or longer than its header says, or its checksum fails.
    #[error("the opening book is damaged ({0})")]
    Damaged(&'static str),
}
