//! A rules file (TOML), then what a caller does with rules it accepted.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_core::games::board::Board;
use xo_core::rules::Rules;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(rules) = Rules::from_toml(text) {
        assert!(rules.to_setup().validate().is_ok(), "accepted invalid rules: {rules:?}");
        // Printed and read back: the same rules.
        assert_eq!(Rules::from_toml(&rules.to_toml()).as_ref(), Ok(&rules));
        if rules.cells() <= 64 {
            let _ = Board::new(&rules);
        }
    }
});
