//! Every binary decoder of the store (tier files of every version, books, stored nim-sequences,
//! book journals, part files) on arbitrary bytes and on valid files with bytes flipped, cut, repeated or inserted:
//! none panics, and what the checks let through is what was written. The fuzz targets (`fuzz/`,
//! `scripts/fuzz.sh`) run the same decoders for longer, guided by coverage; their seeds and every
//! failing input they found (`tests/fuzz-regressions/`) are run here on each decoder.

use proptest::prelude::*;
use xo_core::budget::Meter;
use xo_core::games::gravity::GravityBoard;
use xo_core::games::octal::OctalGame;
use xo_core::rules::parse_game;
use xo_core::solve::book::Book;
use xo_core::solve::grundy::{nim_sequence_plain, StoredSequence};
use xo_core::solve::strong::Record;
use xo_store::journal::{header, record, scan};
use xo_store::part;
use xo_store::tier::format::{
    decode_header, decode_tier, encode_head, encode_tier, encode_tier_v1, encode_tier_v2,
};
use xo_store::tier::TierFile;

/// Runs every decoder on `bytes`; none may panic.
fn decode_all(bytes: &[u8]) {
    let whole = decode_tier(bytes, None, None);
    if let Ok(tier) = TierFile::from_bytes("t", bytes.to_vec(), None, None) {
        assert_eq!(tier.check_all().is_ok(), whole.is_ok());
        let n = tier.len();
        for i in [0, n / 2, n.saturating_sub(1), n, u64::MAX] {
            let _ = tier.get(i);
        }
        let some = tier.records(0..n.min(1 << 16));
        if let (Ok((_, all)), Ok(some)) = (&whole, &some) {
            assert_eq!(&all[..some.len()], &some[..]);
        }
    }
    let _ = Book::file_len(bytes);
    if let Ok(book) = Book::decode(bytes) {
        // Format 2 is written back byte for byte; format 1 (read only) becomes format 2.
        let again = book.encode();
        assert_eq!(Book::decode(&again).as_ref(), Ok(&book));
        if bytes[8..12] == 2u32.to_le_bytes() {
            assert_eq!(again, bytes);
        }
    }
    if let Ok(stored) = StoredSequence::decode(bytes) {
        assert_eq!(StoredSequence::decode(&stored.encode()).as_ref(), Ok(&stored));
    }
    let h = header(5, 4, 4, 6);
    let _ = scan(bytes, &h);
    let mut with = h.clone();
    with.extend_from_slice(bytes);
    let found = scan(&with, &h).expect("the right header");
    assert!(found.valid_end as usize <= with.len());
    if let Ok((header, records)) = part::decode(bytes) {
        assert_eq!(records.len() as u64, 2 * header.count);
    }
}

/// Valid files of every kind.
fn valid_files() -> Vec<Vec<u8>> {
    let ttt = parse_game("tictactoe").unwrap();
    let records: Vec<Record> = (0..5000u32).map(|i| Record((i * 7919) as u16)).collect();
    let board = GravityBoard::new(4, 4, 3).unwrap();
    let book = Book::build(&board, 3, 1 << 16, &Meter::default()).unwrap();
    let mut journal = header(5, 4, 4, 6);
    for k in 0..20 {
        journal.extend_from_slice(&record(k * 1_000_003, (k % 11) as i8 - 5));
    }
    vec![
        encode_tier(&ttt, 4, &records, "test"),
        encode_tier(&ttt, 0, &records[..1], "test"),
        encode_tier_v1(&ttt, 3, &records[..300], "old"),
        book.encode(),
        journal,
        part::encode(4, 1, 3, 100, &records[..50]),
        encode_tier_v2(&ttt, 4, &records, "v2"),
        StoredSequence::new(OctalGame::dot007(), nim_sequence_plain(&OctalGame::dot007(), 300))
            .encode(),
    ]
}

/// A valid file with one of: bytes flipped, cut, a piece repeated, bytes inserted.
fn damaged() -> impl Strategy<Value = Vec<u8>> {
    let files = valid_files();
    (
        0..files.len(),
        any::<u8>(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        0..4u8,
    )
        .prop_map(move |(f, byte, at, to, how)| {
            let mut b = files[f].clone();
            let (i, j) = (at.index(b.len()), to.index(b.len()));
            match how {
                0 => b[i] ^= byte | 1,
                1 => b.truncate(i),
                2 => {
                    let (lo, hi) = (i.min(j), i.max(j));
                    let piece = b[lo..hi].to_vec();
                    b.splice(hi..hi, piece);
                }
                _ => {
                    b.splice(i..i, std::iter::repeat_n(byte, j % 17 + 1));
                }
            }
            b
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        decode_all(&bytes);
    }

    #[test]
    fn damaged_files(bytes in damaged()) {
        decode_all(&bytes);
    }
}

#[test]
fn valid_files_decode() {
    let files = valid_files();
    assert!(decode_tier(&files[0], None, None).is_ok());
    assert!(decode_tier(&files[2], None, None).is_ok());
    assert_eq!(
        decode_tier(&files[6], None, None),
        decode_tier(&files[0], None, None).map(|(mut h, r)| {
            h.made_by = "v2".into();
            (h, r)
        })
    );
    assert!(Book::decode(&files[3]).is_ok());
    assert_eq!(scan(&files[4], &header(5, 4, 4, 6)).unwrap().scores.len(), 20);
    assert!(part::decode(&files[5]).is_ok());
    assert_eq!(StoredSequence::decode(&files[7]).unwrap().values().len(), 301);
    for f in &files {
        decode_all(f);
    }
}

/// A flipped record (version 2) or compressed byte (version 3) is never read as an answer: the
/// block it is in fails its check, every other block reads as written.
#[test]
fn a_flipped_record_fails_only_its_block() {
    let ttt = parse_game("tictactoe").unwrap();
    let records: Vec<Record> = (0..10_000u32).map(|i| Record(i as u16)).collect();
    let v2 = encode_tier_v2(&ttt, 4, &records, "test");
    let at_v2 = v2.len() - 4 * 5 - 2 * (10_000 - 4100); // record 4100, in block 2
    let v3 = encode_tier(&ttt, 4, &records, "test");
    let layout = decode_header(&v3).unwrap().1;
    let end = |b: usize| {
        let at = layout.records_at as usize + 8 * b;
        u64::from_le_bytes(v3[at..at + 8].try_into().unwrap()) as usize
    };
    let at_v3 = layout.blocks_at() as usize + (end(1) + end(2)) / 2; // inside block 2
    for (mut bytes, at) in [(v2, at_v2), (v3, at_v3)] {
        bytes[at] ^= 1;
        let tier = TierFile::from_bytes("t", bytes, None, None).unwrap();
        assert!(tier.get(4100).is_err() && tier.get(4096).is_err() && tier.get(6143).is_err());
        assert!(tier.get(4100).unwrap_err().to_string().contains("block 2 checksum"));
        assert_eq!(tier.get(6144).unwrap(), Some(Record(6144)));
        assert_eq!(tier.get(4095).unwrap(), Some(Record(4095)));
        assert!(tier.records(0..4096).is_ok() && tier.records(0..4097).is_err());
        assert!(tier.damage().is_err());
    }
}

/// A block whose checksum matches but whose bytes do not inflate to exactly its records (a file
/// made to fool the checksum) is refused, never read short or long.
#[test]
fn a_block_that_inflates_wrong_is_refused() {
    let ttt = parse_game("tictactoe").unwrap();
    let short = encode_tier(&ttt, 4, &vec![Record(7); 3000], "test");
    let long = encode_tier(&ttt, 4, &vec![Record(7); 3001], "test");
    // The 3001-record file's index and blocks under a header (its checksum right) that says 3000
    // records: block 1 inflates to one record too many.
    let layout = decode_header(&long).unwrap().1;
    let mut bytes = encode_head(&ttt, 4, 3000, layout.packed, "test");
    bytes.extend_from_slice(&long[layout.records_at as usize..]);
    let tier = TierFile::from_bytes("t", bytes, None, None).unwrap();
    assert!(tier.get(2048).unwrap_err().to_string().contains("does not decompress"));
    assert_eq!(tier.get(0).unwrap(), Some(Record(7)));
    assert!(tier.check_all().is_err() && tier.damage().is_err());
    // And one record too few.
    let layout = decode_header(&short).unwrap().1;
    let mut bytes = encode_head(&ttt, 4, 3001, layout.packed, "test");
    bytes.extend_from_slice(&short[layout.records_at as usize..]);
    let tier = TierFile::from_bytes("t", bytes, None, None).unwrap();
    assert!(tier.get(3000).unwrap_err().to_string().contains("does not decompress"));
}

/// The committed seeds of the fuzz targets and every input fuzzing found, on every decoder.
#[test]
fn fuzz_seeds_and_regressions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("tests/fuzz-regressions")];
    for t in ["tier", "book", "sequence", "journal", "part"] {
        dirs.push(root.join("../../fuzz/seeds").join(t));
    }
    let mut seen = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            decode_all(&std::fs::read(entry.path()).unwrap());
            seen += 1;
        }
    }
    assert!(seen >= 10, "{seen} files");
}
