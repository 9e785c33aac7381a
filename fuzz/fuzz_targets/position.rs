//! A position typed for one of several games (the first byte chooses), parsed and validated.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xo_core::rules::{parse_game, Setup};

const GAMES: [&str; 8] = [
    "tictactoe",
    "connect4",
    "mnk:5,5,4",
    "lol:8",
    "treblecross:10",
    "sos:7",
    "connect:4,4,3",
    "mnk:8,8,5",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let Ok(rules) = parse_game(GAMES[pick as usize % GAMES.len()]) else { return };
    if let Ok(setup) = Setup::parse(&rules, text) {
        let _ = setup.validate(&rules);
    }
});
