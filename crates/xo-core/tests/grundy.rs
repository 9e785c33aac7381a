//! The Grundy engines against the plain mex loop, brute force and published facts.

use proptest::prelude::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use xo_core::budget::{Budget, Limit, Meter};
use xo_core::games::octal::OctalGame;
use xo_core::solve::grundy::{
    analyse_sum, find_period, nim_sequence, nim_sequence_plain, pass_kernel, Method, NimSequence,
    PassKernel, Periodicity, Summary,
};
use xo_core::Value;

fn game(code: &str) -> OctalGame {
    code.parse().unwrap()
}

fn period_of(code: &str, upto: usize) -> Option<Periodicity> {
    let g = game(code);
    find_period(&g, &nim_sequence(&g, upto, &Meter::unlimited()).unwrap())
}

#[test]
fn published_periods() {
    // Winning Ways; Guy and Smith; Flammenkamp's tables.
    assert_eq!(period_of("0.77", 400), Some(Periodicity { period: 12, preperiod: 71 }));
    assert_eq!(period_of("0.07", 400), Some(Periodicity { period: 34, preperiod: 53 }));
    assert_eq!(period_of("0.137", 400), Some(Periodicity { period: 34, preperiod: 52 }));
    assert_eq!(period_of("0.177", 2000), Some(Periodicity { period: 20, preperiod: 497 }));
    // Nim itself (.3333...) and a subtraction game: period 1 and 3 from the start.
    assert_eq!(period_of("0.3333", 50), Some(Periodicity { period: 5, preperiod: 0 }));
    assert_eq!(period_of("0.33", 50), Some(Periodicity { period: 3, preperiod: 0 }));
}

#[test]
fn periods_need_enough_data() {
    // The Guy-Smith window for Kayles from 71 needs heaps up to 2*71 + 2*12 + 2 - 1 = 167.
    assert_eq!(period_of("0.77", 166), None);
    assert_eq!(period_of("0.77", 167), Some(Periodicity { period: 12, preperiod: 71 }));
    // .007 has no period below 2^12.
    assert_eq!(period_of("0.007", 4096), None);
}

#[test]
fn dot007_facts() {
    let g = nim_sequence(&OctalGame::dot007(), 15, &Meter::unlimited()).unwrap();
    assert_eq!(g, vec![0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4]);
    let treblecross = game("treblecross");
    assert_eq!(nim_sequence(&treblecross, 15, &Meter::unlimited()).unwrap(), g);
    // Its free runs are .11337 heaps of the run's length: the same values, shifted by two.
    let runs = nim_sequence(&game("0.11337"), 2000, &Meter::unlimited()).unwrap();
    let dot007 = nim_sequence(&OctalGame::dot007(), 2002, &Meter::unlimited()).unwrap();
    assert_eq!(&runs[..], &dot007[2..]);
}

#[test]
fn dot007_largest_value_below_2_pow_17() {
    let g = nim_sequence(&OctalGame::dot007(), (1 << 17) - 1, &Meter::unlimited()).unwrap();
    let s = Summary::of(&OctalGame::dot007(), &g);
    assert_eq!((s.largest, s.largest_at), (1024, 109_362));
}

#[test]
fn methods_agree_with_plain_on_named_games() {
    for code in
        ["0.77", "0.07", "0.137", "0.007", "4.07", "0.4", "0.6", "0.16", "0.51", "0.F", "0.8"]
    {
        let g = game(code);
        let n = if g.digits().iter().any(|&d| d & 8 != 0) { 150 } else { 2500 };
        let plain = nim_sequence_plain(&g, n);
        for method in [
            Method::Auto,
            Method::Filtered,
            Method::FilteredOn(PassKernel::Scalar),
            Method::FilteredOn(PassKernel::Avx2),
            Method::FilteredOn(PassKernel::Neon),
            Method::FilteredOn(PassKernel::Avx512),
            Method::Bitset,
            Method::Sparse { review_from: 8, force: true },
            Method::Sparse { review_from: 100, force: false },
            Method::Candidates { prefix: 1 },
            Method::Candidates { prefix: 7 },
            Method::Candidates { prefix: 300 },
        ] {
            let mut seq = NimSequence::with_method(g.clone(), method);
            assert_eq!(
                seq.extend_to(n, &Meter::unlimited()).unwrap(),
                &plain[..],
                "{code} {method:?}"
            );
        }
    }
}

#[test]
fn candidate_testing_on_two_threads_matches_bitset() {
    // From 2^15 heaps on, candidate testing values two heaps at a time on two threads.
    let n = (1 << 15) + 300;
    let mut tested =
        NimSequence::with_method(OctalGame::dot007(), Method::Candidates { prefix: 64 });
    let mut bitset = NimSequence::with_method(OctalGame::dot007(), Method::Bitset);
    tested.extend_to(n, &Meter::unlimited()).unwrap();
    assert_eq!(tested.values(), bitset.extend_to(n, &Meter::unlimited()).unwrap());
    let stats = tested.stats();
    assert_eq!(stats.candidate_heaps, n as u64 + 1);
    assert!(stats.candidates_rejected > 0);
}

/// Says, in the test output, which vector kernels of the filtered pass were skipped, and why.
fn report_kernels(test: &str) {
    for k in PassKernel::ALL {
        if let Some(why) = k.unavailable_reason() {
            eprintln!("note: {test}: the {k} kernel skipped ({why})");
        }
    }
}

/// A vector kernel's tests may skip only where nobody demands them: `.ci/run` sets
/// `XO_REQUIRE_AVX512=1` on a CPU with the AVX-512 kernel's features (from `/proc/cpuinfo`) and
/// `XO_REQUIRE_AVX2=1` on one with AVX2, and `scripts/cross.sh` sets `XO_REQUIRE_NEON=1` for its
/// run under qemu-aarch64; there a kernel that cannot run (a detection or build fault) fails this
/// test instead of skipping.
#[test]
fn vector_kernels_run_where_required() {
    for k in [PassKernel::Avx512, PassKernel::Avx2, PassKernel::Neon] {
        let var = format!("XO_REQUIRE_{}", k.name().to_uppercase());
        let required = std::env::var(&var).is_ok_and(|v| !v.is_empty() && v != "0");
        match k.unavailable_reason() {
            None => eprintln!("note: the {k} kernel runs here; its tests check it"),
            Some(why) if required => panic!("{var} is set, but the {k} kernel cannot run: {why}"),
            Some(why) => {
                eprintln!("note: {k} kernel tests SKIPPED ({why}); {var}=1 makes this a failure")
            }
        }
    }
}

/// Every kernel the CPU has, the scalar one included.
fn every_kernel() -> Vec<PassKernel> {
    PassKernel::available()
}

#[test]
fn filtered_pass_on_threads_matches_bitset() {
    // From 2^12 heaps on, the filtered pass spreads heaps over the cores (as many as the rules'
    // window allows: 3 for .007, 2 for .07 and .0037's relatives, 1 for Kayles).
    for code in ["0.007", "0.07", "0.0037", "0.77", "0.4007", "0.1337"] {
        let g = game(code);
        let n = 12_000;
        let mut filtered = NimSequence::with_method(g.clone(), Method::Filtered);
        let mut bitset = NimSequence::with_method(g.clone(), Method::Bitset);
        // In steps, as `extend_to` and Treblecross analysis grow it.
        for upto in [5000, 5001, 9000, n] {
            filtered.extend_to(upto, &Meter::unlimited()).unwrap();
        }
        assert_eq!(filtered.values(), bitset.extend_to(n, &Meter::unlimited()).unwrap(), "{code}");
        let stats = filtered.stats();
        if pass_kernel().is_some() {
            assert!(stats.filtered_heaps > 10_000, "{code}: {stats:?}");
        } else {
            assert_eq!(stats.filtered_heaps, 0);
        }
        // The same passes with each kernel the CPU has.
        for kernel in every_kernel() {
            let mut on = NimSequence::with_method(g.clone(), Method::FilteredOn(kernel));
            for upto in [5000, 5001, 9000, n] {
                on.extend_to(upto, &Meter::unlimited()).unwrap();
            }
            assert_eq!(on.values(), filtered.values(), "{code} {kernel}");
            let on_stats = on.stats();
            assert!(on_stats.filtered_heaps > 10_000, "{code} {kernel}: {on_stats:?}");
            if pass_kernel().is_some() {
                // The same heaps filtered (which worker took which heaps, and so the guesses
                // and passes, depends on timing).
                assert_eq!(on_stats.filtered_heaps, stats.filtered_heaps, "{code} {kernel}");
            }
        }
    }
    report_kernels("filtered_pass_on_threads_matches_bitset");
}

#[test]
fn incremental_extension_matches_one_shot() {
    let mut seq = NimSequence::new(OctalGame::dot007());
    for upto in [0, 1, 5, 100, 1023, 1024, 1025, 3000, 2999, 5000] {
        seq.extend_to(upto, &Meter::unlimited()).unwrap();
    }
    assert_eq!(seq.values(), &nim_sequence_plain(&OctalGame::dot007(), 5000)[..]);
}

fn code_strategy() -> impl Strategy<Value = String> {
    (prop_oneof![Just(0u8), Just(4u8)], prop::collection::vec(0u8..8, 1..5)).prop_map(|(d0, ds)| {
        let mut s = format!("{d0}.");
        for d in ds {
            s.push(char::from_digit(d as u32, 8).unwrap());
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_octal_codes_match_plain(code in code_strategy(), review in 4usize..200) {
        // All-zero codes are no game: a rejected case, counted by proptest, not a silent pass.
        prop_assume!(code.parse::<OctalGame>().is_ok(), "{} is no game", code);
        let g = game(&code);
        let n = 1500;
        let plain = nim_sequence_plain(&g, n);
        let mut forced = NimSequence::with_method(g.clone(), Method::Sparse { review_from: review, force: true });
        prop_assert_eq!(forced.extend_to(n, &Meter::unlimited()).unwrap(), &plain[..]);
        // Candidate testing from a prefix short enough that most values are decided by the scan.
        let mut tested = NimSequence::with_method(g.clone(), Method::Candidates { prefix: review / 8 + 1 });
        prop_assert_eq!(tested.extend_to(n, &Meter::unlimited()).unwrap(), &plain[..]);
        // The filtered pass filters heaps with more than 1024 splits, and spreads heaps over
        // threads from 4096 on.
        let long = 5000;
        let plain_long = nim_sequence_plain(&g, long);
        let mut filtered = NimSequence::with_method(g.clone(), Method::Filtered);
        prop_assert_eq!(filtered.extend_to(long, &Meter::unlimited()).unwrap(), &plain_long[..]);
        for kernel in every_kernel() {
            let mut on = NimSequence::with_method(g.clone(), Method::FilteredOn(kernel));
            prop_assert_eq!(on.extend_to(long, &Meter::unlimited()).unwrap(), &plain_long[..]);
        }
        prop_assert_eq!(&nim_sequence(&g, n, &Meter::unlimited()).unwrap(), &plain);
        // A reported period holds on three times the data.
        if let Some(p) = find_period(&g, &plain) {
            let more = nim_sequence(&g, 3 * n, &Meter::unlimited()).unwrap();
            for i in p.preperiod..=3 * n - p.period {
                prop_assert_eq!(more[i], more[i + p.period]);
            }
            if p.preperiod > 0 {
                prop_assert_ne!(more[p.preperiod - 1], more[p.preperiod - 1 + p.period]);
            }
        }
    }

    #[test]
    fn random_hex_codes_match_plain(ds in prop::collection::vec(0u8..16, 1..4)) {
        let code: String = std::iter::once("0.".to_string())
            .chain(ds.iter().map(|d| format!("{d:X}")))
            .collect();
        // All-zero codes are no game: a rejected case, counted by proptest, not a silent pass.
        prop_assume!(code.parse::<OctalGame>().is_ok(), "{} is no game", code);
        let g = game(&code);
        let plain = nim_sequence_plain(&g, 120);
        prop_assert_eq!(&nim_sequence(&g, 120, &Meter::unlimited()).unwrap(), &plain);
    }

    #[test]
    fn sums_match_brute_force(code in code_strategy(), heaps in prop::collection::vec(0usize..9, 0..4)) {
        // All-zero codes are no game: a rejected case, counted by proptest, not a silent pass.
        prop_assume!(code.parse::<OctalGame>().is_ok(), "{} is no game", code);
        let g = game(&code);
        let mut seq = NimSequence::new(g.clone());
        let a = analyse_sum(&mut seq, &heaps, &Meter::unlimited()).unwrap();
        let mut memo = HashMap::new();
        prop_assert_eq!(a.value == Value::Win, wins(&g, sorted(heaps.clone()), &mut memo));
        // Every move, by brute force: winning exactly when it leaves a lost position.
        let mut expected = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for (k, leaves) in moves(&g, h) {
                let mut next = heaps.clone();
                next.remove(i);
                next.extend(&leaves);
                if !wins(&g, sorted(next), &mut memo) {
                    expected.push((i, k, leaves));
                }
            }
        }
        let mut got: Vec<_> = a.winning_moves.iter().map(|m| (m.heap, m.removed, m.leaves.clone())).collect();
        got.sort();
        expected.sort();
        prop_assert_eq!(got, expected);
    }
}

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

/// Every move from a heap of `h`: (tokens removed, heaps left, increasing).
fn moves(g: &OctalGame, h: usize) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for (k, &d) in g.digits().iter().enumerate() {
        if k > h {
            break;
        }
        let rest = h - k;
        if d & 1 != 0 && k > 0 && rest == 0 {
            out.push((k, vec![]));
        }
        if d & 2 != 0 && k > 0 && rest > 0 {
            out.push((k, vec![rest]));
        }
        if d & 4 != 0 {
            for a in 1..=rest / 2 {
                out.push((k, vec![a, rest - a]));
            }
        }
    }
    out
}

/// Whether the player to move wins the sum `heaps` (sorted), by plain game-tree search.
fn wins(g: &OctalGame, heaps: Vec<usize>, memo: &mut HashMap<Vec<usize>, bool>) -> bool {
    if let Some(&w) = memo.get(&heaps) {
        return w;
    }
    let mut result = false;
    'outer: for (i, &h) in heaps.iter().enumerate() {
        for (_, leaves) in moves(g, h) {
            let mut next = heaps.clone();
            next.remove(i);
            next.extend(leaves);
            if !wins(g, sorted(next), memo) {
                result = true;
                break 'outer;
            }
        }
    }
    memo.insert(heaps, result);
    result
}

// Budgets: `extend_to` stops at the meter's limits and keeps what it computed.

#[test]
fn a_tiny_node_budget_stops_extend_to_and_keeps_correct_values() {
    let g = OctalGame::dot007();
    let meter = Meter::new(Budget::default().with_max_nodes(100));
    let mut seq = NimSequence::new(g.clone());
    let stopped = seq.extend_to(200_000, &meter).unwrap_err();
    assert_eq!(stopped.limit, Limit::Nodes);
    let got = seq.values().len();
    assert!(got > 100 && got < 200_001, "{got}");
    assert_eq!(stopped.reached, format!("Grundy values up to heap {} of 200000", got - 1));
    assert_eq!(seq.values(), &nim_sequence_plain(&g, got - 1)[..]);
    // The values kept are a good start for the next call.
    assert!(seq.extend_to(got + 10, &Meter::new(Budget::default())).is_ok());
    assert_eq!(seq.values(), &nim_sequence_plain(&g, got + 10)[..]);
}

#[test]
fn a_zero_timeout_stops_extend_to_at_the_first_reading_of_the_clock() {
    let g = game("0.07");
    let meter = Meter::new(Budget::default().with_timeout(Duration::ZERO));
    let mut seq = NimSequence::new(g.clone());
    let stopped = seq.extend_to(1_000_000, &meter).unwrap_err();
    assert_eq!(stopped.limit, Limit::Time);
    let got = seq.values().len();
    assert!(got < 20_000, "{got}");
    assert_eq!(seq.values(), &nim_sequence_plain(&g, got - 1)[..]);
    // A stopped meter stops every later call that has work to do, at once.
    let again = seq.extend_to(1_000_000, &meter).unwrap_err();
    assert_eq!(again.limit, Limit::Time);
}

#[test]
fn a_memory_budget_too_small_stops_extend_to_before_allocating() {
    let mut seq = NimSequence::new(OctalGame::dot007());
    seq.extend_to(100, &Meter::unlimited()).unwrap();
    let meter = Meter::new(Budget::default().with_memory(100_000));
    let stopped = seq.extend_to(1_000_000, &meter).unwrap_err();
    assert_eq!(stopped.limit, Limit::Memory);
    assert_eq!(stopped.nodes, 0);
    assert_eq!(seq.values().len(), 101);
    assert_eq!(stopped.reached, "Grundy values up to heap 100 of 1000000");
    // Within the budget, the same meter would have allowed a smaller extension, but it has
    // stopped: every later call with work to do fails with the same limit.
    assert_eq!(seq.extend_to(200, &meter).unwrap_err().limit, Limit::Memory);
    // Values already there need no memory.
    assert!(seq.extend_to(100, &meter).is_ok());
}

#[test]
fn the_worker_threads_stop_promptly_when_the_meter_does() {
    // From 2^12 heaps the filtered pass runs on worker threads (where the CPU has a vector kernel),
    // and from 2^15 candidate testing (the method of CPUs without one): a timeout, and a cancel
    // from another thread, stop them within milliseconds of work.
    let g = OctalGame::dot007();
    let runs = [(Method::Auto, 300, 4096), (Method::Candidates { prefix: 512 }, 1500, 1 << 15)];
    for ((method, millis, past), cancel) in runs.into_iter().flat_map(|r| [(r, false), (r, true)]) {
        let budget = Budget::default().with_timeout(Duration::from_millis(millis));
        let meter = Meter::new(if cancel { Budget::default() } else { budget });
        let mut seq = NimSequence::with_method(g.clone(), method);
        let started = Instant::now();
        let stopped = std::thread::scope(|s| {
            if cancel {
                s.spawn(|| {
                    // A fixed sleep on purpose, not a wait for a condition: a cancel from
                    // another thread part-way through the work is what is tested.
                    std::thread::sleep(Duration::from_millis(millis));
                    meter.cancel();
                });
            }
            seq.extend_to(10_000_000, &meter).unwrap_err()
        });
        let took = started.elapsed();
        // Issue 20: a cancelled job says it was cancelled, not that it ran out of time.
        let limit = if cancel { Limit::Cancelled } else { Limit::Time };
        assert_eq!(stopped.limit, limit, "{method:?} cancel {cancel}");
        assert!(took < Duration::from_secs(4), "{method:?} cancel {cancel}: took {took:?}");
        let got = seq.values().len();
        assert!(got > past && got < 10_000_001, "{method:?} cancel {cancel}: {got}");
        let check = got.min(20_000);
        let mut bitset = NimSequence::with_method(g.clone(), Method::Bitset);
        assert_eq!(
            &seq.values()[..check],
            bitset.extend_to(check - 1, &Meter::unlimited()).unwrap(),
            "cancel {cancel}"
        );
        assert!(meter.nodes() >= got as u64 - 1, "cancel {cancel}: {} < {got}", meter.nodes());
    }
}
