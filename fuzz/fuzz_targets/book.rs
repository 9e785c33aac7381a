//! An opening book's bytes: its length from the header, then the whole file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_core::solve::book::Book;

fuzz_target!(|data: &[u8]| {
    let _ = Book::file_len(data);
    if let Ok(book) = Book::decode(data) {
        // Format 2 encodes to the same bytes; format 1 (read only) becomes format 2.
        let again = book.encode();
        assert_eq!(Book::decode(&again).as_ref(), Ok(&book));
        if data[8..12] == 2u32.to_le_bytes() {
            assert_eq!(again, data);
        }
        let _ = (book.len(), book.depth(), book.game());
    }
});
