//! The three batch formats (`xo_cli::batch::run` with each answerer) on arbitrary input: random
//! bytes, and inputs shaped like the formats (a count line, then case lines over each format's
//! alphabet with stray characters, odd line endings, huge or malformed counts, non-UTF-8 and
//! non-ASCII bytes, trailing garbage). The property is that a run never panics: `Ok` and `Err`
//! (bad input, named by line) are both fine. Strips stay short (LOL at most 14 cells) so that
//! every case is answered at once.

use proptest::prelude::*;
use std::cell::RefCell;
use std::time::Duration;
use xo_cli::batch::{run, LolAnswerer, TreblecrossAnswerer, TttCountAnswerer};
use xo_core::budget::{Budget, Meter};

thread_local! {
    // One answerer per format for the whole run, as the binary keeps one across its cases (the
    // tic-tac-toe table takes a while to build).
    static TTT: RefCell<TttCountAnswerer> = RefCell::new(TttCountAnswerer::new());
    static LOL: RefCell<LolAnswerer> = RefCell::new(LolAnswerer::new());
    static TREBLE: RefCell<TreblecrossAnswerer> =
        RefCell::new(TreblecrossAnswerer::with_meter(Meter::new(Budget::default().with_timeout(Duration::from_secs(5)))));
}

/// Count lines: plain, signed, spaced, huge, non-ASCII digits, empty.
const COUNTS: [&str; 20] = [
    "0",
    "1",
    "2",
    "3",
    "5",
    "-1",
    "+2",
    " 2",
    "2 ",
    "02",
    "1.0",
    "2x",
    "",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999",
    "1000000000000000000",
    "\u{663}",
    "２",
    "\u{0}",
];

/// Line endings, including none and a lone carriage return.
const ENDINGS: [&str; 7] = ["\n", "\r\n", "\r", " \n", "\t\r\n", "  \n", ""];

/// An input shaped like a batch: a count line (mostly the number of case lines), case lines of
/// cells from `cells` (mostly `usual` of them, else up to `max_len`, with stray characters mixed
/// in now and then), then maybe trailing garbage.
fn shaped(cells: &'static [u8], usual: usize, max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    let stray =
        prop::sample::select(&[b' ', b'\t', b'\0', 0xff, 0xc3, b'x', b'0', b'#', b'.', b'*'][..]);
    let cell = prop_oneof![40 => prop::sample::select(cells), 1 => stray];
    let len = prop_oneof![2 => Just(usual), 1 => 0..=max_len];
    let cells = len.prop_flat_map(move |n| prop::collection::vec(cell.clone(), n));
    let ending = prop_oneof![8 => Just("\n"), 1 => prop::sample::select(&ENDINGS[..])];
    let line = (cells, ending);
    (
        prop::option::weighted(0.3, prop::sample::select(&COUNTS[..])),
        prop::sample::select(&ENDINGS[..]),
        prop::collection::vec(line, 0..6),
        prop::option::weighted(0.3, prop::collection::vec(any::<u8>(), 0..8)),
    )
        .prop_map(|(count, ending, lines, garbage)| {
            let count = count.map_or_else(|| lines.len().to_string(), String::from);
            let mut input = format!("{count}{ending}").into_bytes();
            for (cells, ending) in lines {
                input.extend_from_slice(&cells);
                input.extend_from_slice(ending.as_bytes());
            }
            input.extend_from_slice(&garbage.unwrap_or_default());
            input
        })
}

/// Arbitrary bytes, arbitrary text, a small count then arbitrary bytes, or a shaped input.
fn input(cells: &'static [u8], usual: usize, max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..64),
        1 => any::<String>().prop_map(String::into_bytes),
        1 => (0u8..4, prop::collection::vec(any::<u8>(), 0..64)).prop_map(|(n, rest)| {
            let mut v = format!("{n}\n").into_bytes();
            v.extend(rest);
            v
        }),
        6 => shaped(cells, usual, max_len),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    #[test]
    fn ttt_count_batch_never_panics(bytes in input(b".XO", 9, 11)) {
        TTT.with(|a| {
            let _ = run(&mut *a.borrow_mut(), &bytes[..], Vec::new());
        });
    }

    #[test]
    fn lol_batch_never_panics(bytes in input(b"*LO", 8, 14)) {
        LOL.with(|a| {
            let _ = run(&mut *a.borrow_mut(), &bytes[..], Vec::new());
        });
    }

    #[test]
    fn treblecross_batch_never_panics(bytes in input(b".X", 12, 40)) {
        TREBLE.with(|a| {
            let _ = run(&mut *a.borrow_mut(), &bytes[..], Vec::new());
        });
    }
}
