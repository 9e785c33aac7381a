//! Opening book files: read bounded (a regular file whose length matches its header, checked
//! before the rest is read) and written atomically. The encoding is `xo_core`'s
//! ([`Book::encode`], [`Book::decode`]).

use crate::file::{open_regular, AtomicFile};
use crate::StoreError;
use std::io::{Read, Write};
use std::path::Path;
use xo_core::solve::book::{Book, BookError};

/// The longest book file read (a book of 7x6 to depth 12 is about 100 MB).
pub const MAX_BOOK: u64 = 4 << 30;

/// Reads and checks the book file `path`.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::gravity::GravityBoard;
/// use xo_core::solve::book::Book;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("b.book");
/// let board = GravityBoard::new(4, 4, 3).unwrap();
/// let book = Book::build(&board, 2, 1 << 16, &Meter::default()).unwrap();
/// xo_store::book::write(&path, &book).unwrap();
/// assert_eq!(xo_store::book::read(&path).unwrap(), book);
/// let err = xo_store::book::read(dir.path()).unwrap_err();
/// assert!(err.to_string().contains("not a regular file"));
/// #[cfg(unix)]
/// {
///     let err = xo_store::book::read(std::path::Path::new("/dev/zero")).unwrap_err();
///     assert!(err.to_string().contains("not a regular file"));
/// }
/// ```
pub fn read(path: &Path) -> Result<Book, StoreError> {
    let (file, len) = open_regular(path)?;
    let bad = |error| StoreError::Book { path: path.into(), error };
    let mut bytes = Vec::with_capacity(Book::HEAD);
    let mut file = file;
    (&mut file)
        .take(Book::HEAD as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| StoreError::io("read", path, e))?;
    let expected = Book::file_len(&bytes).map_err(bad)?;
    if expected != len {
        return Err(bad(BookError::Damaged("its length disagrees with its header")));
    }
    if len > MAX_BOOK {
        return Err(StoreError::Damaged {
            path: path.into(),
            what: format!("{len} bytes: larger than the {MAX_BOOK} bytes of any book xo writes"),
        });
    }
    bytes.reserve_exact((len as usize).saturating_sub(bytes.len()));
    file.take(len - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| StoreError::io("read", path, e))?;
    Book::decode(&bytes).map_err(bad)
}

/// Writes `book` to `path` atomically (a regular file or a new one), returning its bytes.
pub fn write(path: &Path, book: &Book) -> Result<u64, StoreError> {
    let bytes = book.encode();
    let mut file = AtomicFile::create(path)?;
    file.write_all(&bytes).map_err(|e| StoreError::io("write", path, e))?;
    file.commit()?;
    Ok(bytes.len() as u64)
}

/// The opening book xo ships for Connect Four (7x6): built by `xo book connect4 --depth 10
/// --out crates/xo-store/books/connect4.book`, resumed from this very file until its deepest
/// level is solved (docs/connect-four.md, "Opening books"). Its positions are the ones it holds so far; a
/// position it lacks is searched.
const CONNECT4: &[u8] = include_bytes!("../books/connect4.book");

/// The book files xo ships, by the names [`xo_core::solve::book::SHIPPED`] gives them, with their
/// bytes: what `xo page` writes beside the static web page, whose WebAssembly core loads them.
///
/// ```
/// use xo_core::solve::book::{Book, SHIPPED};
/// for (name, bytes) in xo_store::book::shipped_files() {
///     let book = Book::decode(bytes).unwrap();
///     assert!(SHIPPED.contains(&(name, book.game())), "{name}");
/// }
/// ```
pub fn shipped_files() -> [(&'static str, &'static [u8]); 1] {
    [(xo_core::solve::book::SHIPPED[0].0, CONNECT4)]
}

/// The books xo ships, decoded and checked at the first call (a few milliseconds), then shared.
/// Front ends hand them to [`Request::prepare`](xo_core::request::Request::prepare) beside any
/// `--book`; a request with `no_book` consults none. [`shipped_for`] decodes only the book of
/// one game.
///
/// ```
/// let books = xo_store::book::shipped();
/// assert_eq!(books[0].game(), (7, 6, 4));
/// assert!(books[0].depth() >= 10);
/// ```
pub fn shipped() -> &'static [std::sync::Arc<Book>] {
    static BOOKS: std::sync::OnceLock<Vec<std::sync::Arc<Book>>> = std::sync::OnceLock::new();
    BOOKS.get_or_init(|| {
        // Checked by the tests (crates/xo-store/tests/shipped_book.rs): a damaged copy fails
        // them, and here it would only mean no book (searched instead), never a wrong score.
        Book::decode(CONNECT4).ok().map(std::sync::Arc::new).into_iter().collect()
    })
}

/// The book xo ships for the game of `rules`, if there is one (Connect Four's); decoded only
/// when asked for, so other games pay nothing for it.
///
/// ```
/// use xo_core::rules::parse_game;
/// assert!(xo_store::book::shipped_for(&parse_game("connect4").unwrap()).is_some());
/// assert!(xo_store::book::shipped_for(&parse_game("connect:7,6,3").unwrap()).is_none());
/// assert!(xo_store::book::shipped_for(&parse_game("tictactoe").unwrap()).is_none());
/// ```
pub fn shipped_for(rules: &xo_core::rules::Rules) -> Option<std::sync::Arc<Book>> {
    let board = xo_core::solve::book::board_of(rules)?;
    xo_core::solve::book::shipped_name(rules)?;
    shipped().iter().find(|b| b.game() == board).cloned()
}

/// The book a query of `rules` consults, by the one rule every front end follows: the book it
/// was given (`--book`, `book=`; whether it is of this board is the core's to decide, when the
/// query takes it), else the book xo ships for the game unless it was told `no_book`. The
/// shipped book is decoded only when a game of its board asks.
///
/// ```
/// use xo_core::rules::parse_game;
/// use xo_store::book::for_game;
/// let c4 = parse_game("connect4").unwrap();
/// assert!(for_game(None, false, &c4).is_some());
/// assert!(for_game(None, true, &c4).is_none());
/// assert!(for_game(None, false, &parse_game("tictactoe").unwrap()).is_none());
/// ```
pub fn for_game(
    given: Option<&std::sync::Arc<Book>>,
    no_book: bool,
    rules: &xo_core::rules::Rules,
) -> Option<std::sync::Arc<Book>> {
    given.cloned().or_else(|| if no_book { None } else { shipped_for(rules) })
}

/// The books a server consults, by the same rule as [`for_game`]: those it was given, and
/// unless `no_book` each book xo ships for a board none of them is of.
///
/// ```
/// let books = xo_store::book::in_use(&[], false);
/// assert_eq!(books[0].game(), (7, 6, 4));
/// assert!(xo_store::book::in_use(&[], true).is_empty());
/// ```
pub fn in_use(given: &[std::sync::Arc<Book>], no_book: bool) -> Vec<std::sync::Arc<Book>> {
    let mut books = given.to_vec();
    if !no_book {
        let shipped = shipped().iter().filter(|s| !given.iter().any(|b| b.game() == s.game()));
        books.extend(shipped.cloned());
    }
    books
}

/// Prepares `request` with the opening book its front end loaded (`given`, from `--book` or
/// `book=`), refused when it is of another board, or else the book xo ships for its game unless
/// the request says `no_book`: the one rule every front end (the command, Python) follows. By
/// the same rule, Treblecross and .007 positions take the nim-sequence xo ships
/// ([`crate::sequence::for_game`]).
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// let mut r = Request::new("connect4");
/// r.moves = Some("4444443333".into());
/// assert!(xo_store::book::prepare(&r, None, Runner::Pool).unwrap().book().is_some());
/// r.no_book = true;
/// assert!(xo_store::book::prepare(&r, None, Runner::Pool).unwrap().book().is_none());
/// let strip = Request::new("treblecross:1000");
/// assert!(xo_store::book::prepare(&strip, None, Runner::Pool).unwrap().stored().is_some());
/// ```
pub fn prepare(
    request: &xo_core::request::Request,
    given: Option<&std::sync::Arc<Book>>,
    runner: xo_core::threads::Runner,
) -> Result<xo_core::query::Query, xo_core::query::InputError> {
    // The game is read first only to know which books it may take (the shipped one is decoded
    // only for its board); the request itself is checked once, by `Request::prepare`.
    let books: Vec<_> = match request.game()? {
        xo_core::query::Game::Placement(rules) => for_game(given, request.no_book, &rules),
        xo_core::query::Game::Octal(_) => given.cloned(),
    }
    .into_iter()
    .collect();
    let mut query = request.prepare(&books, runner)?;
    if let Some(stored) = crate::sequence::for_game(query.game(), request.no_book) {
        query = query.with_stored(stored);
    }
    if let (Some(book), None) = (given, query.book()) {
        // A book of another board would never be consulted: refused, not silently ignored.
        let (w, h, k) = book.game();
        return Err(xo_core::query::InputError::Request(format!(
            "book is a book of connect:{w},{h},{k}, not of {}",
            query.game().name()
        )));
    }
    Ok(query)
}
