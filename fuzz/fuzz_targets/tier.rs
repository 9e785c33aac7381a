//! A tier file's bytes (every version; version 3's blocks inflated into a block-sized buffer):
//! the header, the length check, every block's check, lookups; what reads whole and what reads
//! block by block agree.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_store::tier::{format::decode_tier, TierFile};

fuzz_target!(|data: &[u8]| {
    let whole = decode_tier(data, None, None);
    if let Ok(tier) = TierFile::from_bytes("fuzz", data.to_vec(), None, None) {
        assert_eq!(tier.check_all().is_ok(), whole.is_ok());
        let n = tier.len();
        for i in [0, n / 2, n.saturating_sub(1), n, u64::MAX] {
            let _ = tier.get(i);
        }
        let some = tier.records(0..n.min(1 << 16));
        if let (Ok((_, all)), Ok(some)) = (&whole, &some) {
            assert_eq!(&all[..some.len()], &some[..]);
        }
        let _ = tier.damage();
    }
});
