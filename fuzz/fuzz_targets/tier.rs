//! A tier file's bytes: the header, the length check, every block's check, lookups.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_store::tier::{format::decode_tier, TierFile};

fuzz_target!(|data: &[u8]| {
    let _ = decode_tier(data, None, None);
    if let Ok(tier) = TierFile::from_bytes("fuzz", data.to_vec(), None, None) {
        let _ = tier.check_all();
        let n = tier.len();
        for i in [0, n / 2, n.saturating_sub(1), n, u64::MAX] {
            let _ = tier.get(i);
        }
        let _ = tier.records(0..n.min(1 << 16));
        let _ = tier.damage();
    }
});
