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
            assert_eq!(tier.rank(&pos), r, "{} tier {t}: rank/unrank", rules.name());
            let want = searcher.score(&pos, &Meter::unlimited()).unwrap();
            assert_eq!(
                records[r as usize].scored(),
                Some(want),
                "{} tier {t} rank {r}",
                rules.name()
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

/// Every index has exactly one owner, the part whose range holds it, for sizes and part counts
/// around the edges (empty tiers, more parts than positions).
#[test]
fn partition_and_owner_agree() {
    use xo_core::solve::strong::{owner, partition};
    for len in [0u64, 1, 2, 3, 7, 10, 64, 1000, 4097] {
        for parts in 1..=9 {
            let ranges = partition(len, parts);
            assert_eq!(ranges.len(), parts);
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges[parts - 1].end, len);
            for w in ranges.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert!(w[1].end - w[1].start <= w[0].end - w[0].start + 1);
            }
            for i in 0..len {
                assert!(ranges[owner(len, parts, i)].contains(&i), "len {len} parts {parts} i {i}");
            }
        }
    }
    // Huge tiers: no overflow.
    let big = u64::MAX - 5;
    let ranges = partition(big, 7);
    for i in [0, 1, big / 7, big / 2, big - 1] {
        assert!(ranges[owner(big, 7, i)].contains(&i));
    }
}

/// A distributed solve simulated in one process: each tier split among `parts` ranks, each rank
/// expanding its share in chunks, fetching the children it does not hold from their owners, and
/// finishing; the records equal the single-process solve's, and no rank fetches a record it
/// holds or one it does not need.
#[test]
fn split_tiers_solve_to_the_same_records() {
    use xo_core::solve::strong::{owner, partition, Expansion};
    for (name, parts, chunk) in
        [("tictactoe", 3, 7u64), ("mnk:4,3,3", 2, 100), ("connect:4,4,3", 4, 1000), ("lol:8", 5, 3)]
    {
        let board = Board::new(&parse_game(name).unwrap()).unwrap();
        let tiers = tiers(&board).unwrap();
        let meter = Meter::default();
        let mut next: Option<Vec<Record>> = None;
        for (t, tier) in tiers.iter().enumerate().rev() {
            let prev = tiers.get(t + 1);
            let want = solve_tier(&board, tier, prev.zip(next.as_deref()), &meter).unwrap();
            let shares = partition(tier.len(), parts);
            let next_shares = prev.map(|p| partition(p.len(), parts));
            let mut got = Vec::new();
            for (r, share) in shares.iter().enumerate() {
                let held_range = next_shares.as_ref().map_or(0..0, |s| s[r].clone());
                let held = next
                    .as_deref()
                    .map_or(&[][..], |n| &n[held_range.start as usize..held_range.end as usize]);
                let mut s = share.start;
                let (mut x, mut wanted) = (Expansion::default(), Vec::new());
                while s < share.end {
                    let e = (s + chunk).min(share.end);
                    x.expand(&board, tier, s..e, prev);
                    let reads = x.wanted(&held_range, &mut wanted);
                    assert!(reads >= wanted.len() as u64);
                    assert!(wanted.windows(2).all(|w| w[0] < w[1]));
                    let fetched: Vec<Record> = wanted
                        .iter()
                        .map(|&k| {
                            let p = prev.unwrap();
                            assert_ne!(
                                owner(p.len(), parts, k),
                                r,
                                "{name}: fetched a held record"
                            );
                            assert!(x.children.contains(&k));
                            next.as_ref().unwrap()[k as usize]
                        })
                        .collect();
                    let mut out = vec![Record(0); x.len()];
                    x.finish((&held_range, held), (&wanted, &fetched), &mut out, &meter).unwrap();
                    got.extend(out);
                    s = e;
                }
            }
            assert_eq!(got, want, "{name} tier {t}");
            next = Some(want);
        }
    }
}
