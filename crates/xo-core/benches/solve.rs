//! Solving empty boards: m,n,k games with the negamax, LOL strips with the component solver
//! against a plain exhaustive memoised search. Every answer is asserted against the published
//! value. Run: `cargo bench -p xo-core --bench solve` (XO_LOL_UPTO=N to go further than 32).

use std::collections::HashMap;
use std::time::{Duration, Instant};
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::games::lol::{Cell, LolStrip};
use xo_core::rules::parse_game;
use xo_core::solve::lol::LolSolver;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

/// The baseline: exhaustive search memoised on the whole strip, every move tried.
fn exhaustive(strip: &LolStrip, memo: &mut HashMap<LolStrip, Value>) -> Value {
    if strip.has_lol() {
        return Value::Loss;
    }
    if let Some(&v) = memo.get(strip) {
        return v;
    }
    let mut best = None;
    for i in 0..strip.len() {
        if strip.cells()[i] != Cell::Empty {
            continue;
        }
        for letter in [Cell::L, Cell::O] {
            let v = -exhaustive(&strip.play(i, letter), memo);
            best = Some(best.map_or(v, |b: Value| b.max(v)));
        }
    }
    let v = best.unwrap_or(Value::Draw);
    memo.insert(strip.clone(), v);
    v
}

fn lol_value(n: usize) -> Value {
    match n {
        n if n < 7 => Value::Draw,
        n if n % 2 == 1 => Value::Win,
        n if n <= 14 => Value::Draw,
        _ => Value::Loss,
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn main() {
    for (name, want, target) in [("mnk:4,4,4", Value::Draw, 1.0), ("mnk:5,5,4", Value::Draw, 50.0)]
    {
        let board = Board::new(&parse_game(name).expect("built-in")).expect("fits");
        let mut searcher = Searcher::new(&board, 1 << 30);
        let (t, v) =
            timed(|| searcher.value(&Default::default(), &Meter::unlimited()).expect("no budget"));
        assert_eq!(v, want, "{name}");
        println!(
            "{name:<10} {v:?} in {:>8.3} s ({} positions; target under {target} s)",
            t.as_secs_f64(),
            searcher.nodes()
        );
    }

    for n in [12, 14] {
        let strip = LolStrip::empty(n).expect("non-empty");
        let (tb, vb) = timed(|| exhaustive(&strip, &mut HashMap::new()));
        let (tc, vc) = timed(|| LolSolver::new().value(&strip, &Meter::unlimited()).unwrap());
        assert_eq!((vb, vc), (lol_value(n), lol_value(n)), "lol:{n}");
        println!(
            "lol:{n:<6} exhaustive memo {:>8.3} s, components {:>8.4} s: {:>7.0}x",
            tb.as_secs_f64(),
            tc.as_secs_f64(),
            tb.as_secs_f64() / tc.as_secs_f64()
        );
    }

    let upto: usize = std::env::var("XO_LOL_UPTO").ok().and_then(|v| v.parse().ok()).unwrap_or(32);
    let mut longest_within_10s = 0;
    for n in 16..=upto {
        let (t, v) = timed(|| {
            LolSolver::new()
                .value(&LolStrip::empty(n).expect("non-empty"), &Meter::unlimited())
                .unwrap()
        });
        assert_eq!(v, lol_value(n), "lol:{n}");
        println!("lol:{n:<6} {v:?} in {:>8.3} s", t.as_secs_f64());
        if t.as_secs_f64() <= 10.0 {
            longest_within_10s = n;
        } else {
            break;
        }
    }
    println!(
        "longest empty LOL strip proven within 10 s: {longest_within_10s} (target: at least 30)"
    );
}
