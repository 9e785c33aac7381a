//! A book build's journal: every valid record kept, damage skipped.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_store::journal::{header, scan, RECORD};

fuzz_target!(|data: &[u8]| {
    let h = header(5, 4, 4, 6);
    // As it is, and after the right header (so the records are reached).
    let _ = scan(data, &h);
    let mut with = h.clone();
    with.extend_from_slice(data);
    let found = scan(&with, &h).expect("the right header");
    assert!(found.scores.len() * RECORD + found.skipped as usize <= data.len());
    assert!(found.valid_end as usize <= with.len());
});
