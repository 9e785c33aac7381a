//! The nim-sequence xo ships (crates/xo-store/sequences/dot007.seq, written by `xo grundy
//! treblecross --upto 1048576 --save`): it decodes, it is .007 to heap 2^20, and its values are
//! the engine's (to 2^16 here, 2^18 in the slow group, to its end in the Grundy bench,
//! `cargo bench -p xo-core --bench grundy`) and the plain definition's (to 2^12), and
//! Treblecross answers from it equal those computed without it.

use std::sync::Arc;
use xo_core::budget::{Budget, Meter};
use xo_core::games::octal::OctalGame;
use xo_core::query::Judge;
use xo_core::solve::grundy::{nim_sequence_plain, NimSequence, StoredSequence};

fn shipped() -> Arc<StoredSequence> {
    xo_store::sequence::shipped_dot007().expect("the shipped nim-sequence decodes")
}

/// Asserts the shipped values equal the engine's for heaps `0..=upto`.
fn agrees_with_the_engine_to(upto: usize) {
    let stored = shipped();
    let mut seq = NimSequence::new(OctalGame::dot007());
    let computed = seq.extend_to(upto, &Meter::unlimited()).unwrap();
    if let Some(n) = (0..=upto).find(|&n| computed[n] != stored.values()[n]) {
        panic!("heap {n}: stored {}, computed {}", stored.values()[n], computed[n]);
    }
}

#[test]
fn it_is_dot007_to_heap_two_to_the_twenty() {
    let stored = shipped();
    assert_eq!(stored.game(), &OctalGame::dot007());
    assert_eq!(stored.values().len(), (1 << 20) + 1);
    let plain = nim_sequence_plain(&OctalGame::dot007(), 4096);
    assert_eq!(&stored.values()[..=4096], &plain[..]);
}

#[test]
fn its_values_are_the_engines_to_two_to_the_sixteen() {
    agrees_with_the_engine_to(1 << 16);
}

#[test]
#[ignore = "slow: the engine to heap 2^18 (seconds; to 2^20, a minute, in the Grundy bench)"]
fn its_values_are_the_engines_to_two_to_the_eighteen() {
    agrees_with_the_engine_to(1 << 18);
}

#[test]
fn treblecross_answers_from_it_equal_those_computed() {
    let stored = shipped();
    // A budget of one heap valued: the judge with the stored values computes none.
    let none = Meter::new(Budget::default().with_max_nodes(1));
    let mut from_file = Judge::new().with_stored(stored);
    let mut computing = Judge::new();
    let ample = Meter::default();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for case in 0..60 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = 3 + (state % 20_000) as usize;
        // About one X in 300 cells (none in a third of the cases): long free runs between.
        let mut cell = state;
        let strip: Vec<u8> = (0..len)
            .map(|_| {
                cell = cell
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                if case % 3 > 0 && (cell >> 33).is_multiple_of(300) {
                    b'X'
                } else {
                    b'.'
                }
            })
            .collect();
        let want = computing.treblecross(&strip, &ample).unwrap();
        assert_eq!(from_file.treblecross(&strip, &none).unwrap(), want, "case {case}");
    }
}

#[test]
fn a_copy_on_disk_reads_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dot007.seq");
    let stored = shipped();
    xo_store::sequence::write(&path, &stored).unwrap();
    assert_eq!(xo_store::sequence::read(&path).unwrap(), *stored);
    // The same bytes as the file shipped: the writer is the one that made it.
    let shipped_bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sequences/dot007.seq"),
    )
    .unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), shipped_bytes);
}
