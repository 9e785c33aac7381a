//! The tiered retrograde solve against the negamax: every record of small games (and a sample of
//! larger ones) must equal the negamax's value and remoteness for the same position.

use rand::{rngs::StdRng, Rng, SeedableRng};
use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::{parse_game, Rules};
use xo_core::solve::negamax::Searcher;
use xo_core::solve::strong::{solve_tier, tiers, Record};

/// Solves every tier of `rules` and checks `sample` positions per tier (all when `None`).
fn check(rules: &Rules, sample: Option<usize>, seed: u64) {
    let board = Board::new(rules).unwrap();
    let tiers = tiers(&board).unwrap();
    let meter = Meter::default();
    let mut searcher = Searcher::new(&board, 1 << 24);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut next: Option<Vec<Record>> = None;
    let mut checked = 0;
    for (t, tier) in tiers.iter().enumerate().rev() {
        let prev = tiers.get(t + 1);
        let records = solve_tier(&board, tier, prev.zip(next.as_deref()), &meter).unwrap();
        assert_eq!(records.len() as u64, tier.len());
        let ranks: Vec<u64> = match sample {
            Some(n) if (n as u64) < tier.len() => {
                (0..n).map(|_| rng.random_range(0..tier.len())).collect()
            }
            _ => (0..tier.len()).collect(),
        };
        for r in ranks {
            let pos = tier.unrank(r);
            assert_eq!(tier.rank(&pos), r, "{} tier {t}: rank/unrank", rules.name);
            let want = searcher.score(&pos).unwrap();
            assert_eq!(
                records[r as usize].scored(),
                Some(want),
                "{} tier {t} rank {r}",
                rules.name
            );
            checked += 1;
        }
        next = Some(records);
    }
    assert!(checked > 0);
}

#[test]
fn every_record_of_small_games_equals_the_negamax() {
    check(&parse_game("tictactoe").unwrap(), None, 1);
    let misere = Rules::from_toml(
        "name = \"misere ttt\"\nwidth = 3\nheight = 3\nmarks = \"own\"\nk = 3\nmisere = true",
    )
    .unwrap();
    check(&misere, None, 2);
    check(&parse_game("treblecross:12").unwrap(), None, 3);
    check(&parse_game("lol:10").unwrap(), None, 4);
    check(&parse_game("mnk:4,3,3").unwrap(), None, 5);
    check(&parse_game("connect:4,4,3").unwrap(), None, 6);
}
