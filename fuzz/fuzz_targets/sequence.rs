//! A stored nim-sequence's bytes (`xo grundy --save`, the .007 values xo ships).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_core::solve::grundy::StoredSequence;

fuzz_target!(|data: &[u8]| {
    if let Ok(stored) = StoredSequence::decode(data) {
        // Written back and read again, the same values of the same game.
        assert_eq!(StoredSequence::decode(&stored.encode()).as_ref(), Ok(&stored));
        let _ = (stored.game(), stored.values().len());
    }
});
