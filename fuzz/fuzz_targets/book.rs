//! An opening book's bytes: its length from the header, then the whole file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_core::solve::book::Book;

fuzz_target!(|data: &[u8]| {
    let _ = Book::file_len(data);
    if let Ok(book) = Book::decode(data) {
        // What decodes encodes to the same bytes.
        assert_eq!(book.encode(), data);
        let _ = (book.len(), book.depth(), book.game());
    }
});
