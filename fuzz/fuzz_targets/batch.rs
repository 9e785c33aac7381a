//! A judge problem file for one of the four batch formats (the first byte chooses), answered
//! under a small budget: any bytes give answers or one error, never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use xo_cli::batch::{
    run, run_all, Connect4ScoreAnswerer, LolAnswerer, TreblecrossAnswerer, TttCountAnswerer,
};
use xo_core::budget::{Budget, Meter};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let budget = Budget::default()
        .with_max_nodes(200_000)
        .with_timeout(Duration::from_secs(2))
        .with_memory(64 << 20);
    let meter = Meter::new(budget);
    let mut out = Vec::new();
    let _ = match pick % 4 {
        0 => run(&mut TttCountAnswerer::with_meter(meter), input, &mut out),
        1 => run(&mut LolAnswerer::with_meter(meter), input, &mut out),
        2 => run(&mut TreblecrossAnswerer::with_meter(meter), input, &mut out),
        _ => run_all(&mut Connect4ScoreAnswerer::with_meter(meter), input, &mut out),
    };
});
