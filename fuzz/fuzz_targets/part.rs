//! A part file of the distributed solve: header, length, records' checksum.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_store::part::{decode, PartHeader};

fuzz_target!(|data: &[u8]| {
    let _ = PartHeader::decode(data).map(|h| h.file_len());
    if let Ok((header, records)) = decode(data) {
        assert_eq!(records.len() as u64, 2 * header.count);
    }
});
