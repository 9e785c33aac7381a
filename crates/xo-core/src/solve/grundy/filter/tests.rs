//! Tests of the filtered pass: the kernels against the definition, and the pass against
//! scattering every split.

use super::*;
use crate::games::octal::OctalGame;
use crate::solve::grundy::PassKernel;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The kernels every test runs on: the scalar one always, and every vector kernel the CPU has;
/// a line in the test output names each one skipped, and why.
fn kernels(test: &str) -> Vec<Kernel> {
    let mut kernels = vec![Kernel::Scalar];
    for which in PassKernel::ALL.into_iter().filter(|&k| k != PassKernel::Scalar) {
        match Kernel::of(which) {
            Some(kernel) => kernels.push(kernel),
            None => {
                let why = which.unavailable_reason().unwrap_or_default();
                eprintln!("note: {test}: the {which} kernel skipped ({why})");
            }
        }
    }
    kernels
}

/// The work counters of a scratch space.
fn counters(s: &Scratch) -> [u64; 4] {
    [s.heaps, s.passes, s.hits, s.splits]
}

#[test]
fn kernel_choice_follows_detection() {
    for which in PassKernel::ALL {
        assert_eq!(Kernel::of(which).is_some(), which.is_available(), "{which}");
        assert_eq!(Kernel::of(which).map(Kernel::name), which.is_available().then_some(which));
        // A kernel the CPU lacks gives way to the fastest weaker one it has.
        let fallback = Kernel::at_most(which).name();
        assert!(fallback.is_available() && fallback.rank() <= which.rank(), "{which}");
        if which.is_available() {
            assert_eq!(fallback, which);
        }
    }
    assert_eq!(Kernel::at_most(PassKernel::Scalar), Kernel::Scalar);
    assert_eq!(Kernel::best().name(), PassKernel::best());
    assert_eq!(Kernel::vector().map(Kernel::name), crate::solve::grundy::pass_kernel());
}

/// Heap `n`'s value by scattering every option: the plain definition over arbitrary values.
fn plain_value(g: &[u16], rules: &OctalMoves, n: usize) -> Grundy {
    let mut seen = vec![false; 1 << 13];
    for &k in &rules.take_all {
        seen[0] |= n == k;
    }
    for &k in &rules.take_some {
        if n > k {
            seen[g[n - k] as usize] = true;
        }
    }
    for &k in &rules.split2 {
        if n >= k + 2 {
            let rest = n - k;
            for a in 1..=rest / 2 {
                seen[(g[a] ^ g[rest - a]) as usize] = true;
            }
        }
    }
    seen.iter().position(|&s| !s).unwrap() as Grundy
}

/// Both planes of `values`, as [`Mirror::sides`] gives them.
fn planes(values: &[u16]) -> [Vec<u8>; 2] {
    use crate::solve::grundy::scan::{high_byte, low_byte};
    [values.iter().map(|&v| high_byte(v)).collect(), values.iter().map(|&v| low_byte(v)).collect()]
}

#[test]
fn kernels_agree_with_the_definition_on_random_tables() {
    // The contract itself: `unseen` makes the table of unseen values below the limit, and
    // `mark_options` clears exactly the XORs of the splits; every kernel gives the same
    // tables and the same count of hits.
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let kernels = kernels("kernels_agree_with_the_definition_on_random_tables");
    for round in 0..300 {
        let pairs: usize = [1, 2, 4][round % 3];
        let size = 1024 * pairs;
        let len = [0, 1, 63, 64, 65, 255, 256, 257, 1000, 5000, 20_000][round % 11];
        // XORs mostly inside the table, some (for 1 and 2 pairs) beyond it, up to 4095.
        let top = [size, 4096][round % 2];
        let value = |rng: &mut rand::rngs::StdRng| {
            let bits = 12 - (4096 / top).trailing_zeros();
            (rng.random_range(0..top as u32) >> rng.random_range(0..bits)) as u16
        };
        let lo: Vec<u16> = (0..len).map(|_| value(&mut rng)).collect();
        let his: [Vec<u16>; 2] = std::array::from_fn(|_| {
            lo.iter().map(|&x| x ^ value(&mut rng)).map(|v| v & 4095).collect()
        });
        let seen: [Vec<u8>; 2] = std::array::from_fn(|_| {
            let dense = rng.random_range(0..100);
            let mut seen: Vec<u8> =
                (0..size).map(|_| u8::from(rng.random_range(0..100) < dense)).collect();
            if round % 4 == 1 {
                // Only values high in the table unseen (the low pieces or half empty).
                let cut = rng.random_range(0..size);
                seen[..cut].fill(1);
            }
            if round % 4 == 2 {
                // Only a band unseen, of every width around the kernels' windows (256, 512 and
                // 1024 values), anywhere.
                let width = [1, 100, 255, 256, 257, 500, 512, 513, 1000, 1024, 1025][round % 11];
                let from = rng.random_range(0..size);
                for (v, s) in seen.iter_mut().enumerate() {
                    *s |= u8::from(v < from || v >= from + width);
                }
            }
            seen
        });
        let limits = [rng.random_range(0..=size), size];
        let lo_planes = planes(&lo);
        let lo_side = SplitSide { values: &lo, planes: [&lo_planes[0], &lo_planes[1]] };
        let hi_planes = his.each_ref().map(|h| planes(h));
        let hi_sides: [SplitSide; 2] = std::array::from_fn(|h| SplitSide {
            values: &his[h],
            planes: [&hi_planes[h][0], &hi_planes[h][1]],
        });
        let mut outcomes = Vec::new();
        for &kernel in &kernels {
            let tables = [0, 1].map(|h| kernel.unseen(pairs, &seen[h], limits[h]));
            for (h, table) in tables.iter().enumerate() {
                for v in 0..4096 {
                    let unseen = v < limits[h] && seen[h][v] == 0;
                    assert_eq!(table[v / 64] >> (v % 64) & 1 == 1, unseen, "{kernel:?} {v}");
                }
            }
            let (mut one, mut two) = ([tables[0]], tables);
            let (mut count_one, mut count_two, mut hits) = (0, 0, Vec::new());
            kernel.mark_options(
                pairs,
                &lo_side,
                &[hi_sides[0]],
                &mut one,
                &mut hits,
                &mut count_one,
            );
            kernel.mark_options(pairs, &lo_side, &hi_sides, &mut two, &mut hits, &mut count_two);
            assert_eq!(one[0], two[0], "{kernel:?}: a heap alone and in a pair");
            for (h, table) in two.iter().enumerate() {
                let mut expected = tables[h];
                for (&x, &y) in lo.iter().zip(&his[h]) {
                    let v = usize::from(x ^ y);
                    expected[v / 64] &= !(1 << (v % 64));
                }
                assert_eq!(table, &expected, "{kernel:?} round {round} heap {h}");
            }
            outcomes.push((two, count_one, count_two));
        }
        // Every kernel gives the scalar one's tables and counts, word for word.
        for (kernel, outcome) in kernels.iter().zip(&outcomes).skip(1) {
            assert_eq!(
                &outcomes[0], outcome,
                "{kernel:?} round {round}: pairs {pairs}, {len} splits"
            );
        }
    }
}

#[test]
fn kernel_matches_scatter_on_random_values() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let kernels = kernels("kernel_matches_scatter_on_random_values");
    let mut checked = [0usize; 3];
    for code in ["0.007", "0.77", "0.137", "4.07", "0.0037"] {
        let rules = OctalMoves::new(&code.parse::<OctalGame>().unwrap());
        for bits in [6, 9, 10, 11, 12] {
            for _ in 0..6 {
                // Values skewed to small ones, as in real sequences, so the mex varies.
                let len = rng.random_range(3000..40_000);
                let top = 1u32 << bits;
                let values: Vec<u16> = (0..len)
                    .map(|_| {
                        let v = rng.random_range(0..top);
                        (v >> rng.random_range(0..bits)) as u16
                    })
                    .collect();
                let mut m = Mirror::default();
                for &v in &values {
                    m.push(v as Grundy);
                }
                let mut work = Vec::new();
                for &kernel in &kernels {
                    let mut s = Scratch::new(kernel);
                    for n in [len - 1, len / 2, 2000, 1500] {
                        // Guesses far too low, about right, and the whole table.
                        let guess = [1, 100, 1 << bits][n % 3];
                        let got = heap_value(&m, &rules, n, bits, guess, &mut s);
                        assert_eq!(
                            got,
                            plain_value(&values, &rules, n),
                            "{kernel:?} {code} bits {bits} n {n}"
                        );
                        checked[(bits.max(10) - 10) as usize] += 1;
                    }
                    work.push(counters(&s));
                }
                // Every kernel did the same work.
                assert!(work.windows(2).all(|w| w[0] == w[1]), "{code} bits {bits}: {work:?}");
            }
        }
    }
    // Every table size (1024, 2048 and 4096 bits) was exercised.
    assert!(checked.iter().all(|&c| c > 0));
}

#[test]
fn pairs_with_late_values_match_scatter() {
    // Heaps n and n + 1 valued in one pass, as the worker threads do: the mirror holds only
    // the values the splits reach, and the rest (for the moves leaving one heap) arrive
    // after the pass. Games whose heap n + 1 does not need heap n (window of 2 or more).
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let kernels = kernels("pairs_with_late_values_match_scatter");
    let mut joint = 0;
    // Heaps told before their late values (`Outcome::Either`), and passes that waited for them.
    let (mut told_early, waited) = (0, std::cell::Cell::new(0));
    for code in ["0.007", "0.137", "0.0037"] {
        let rules = OctalMoves::new(&code.parse::<OctalGame>().unwrap());
        let window = rules.window();
        let reach = rules.split2.iter().map(|&k| k + 1).min().unwrap();
        assert!(window >= 2);
        for bits in [6, 10, 11, 12] {
            for round in 0..4 {
                let len = rng.random_range(3000..30_000);
                let top = 1u32 << bits;
                let mut values: Vec<u16> = (0..len)
                    .map(|_| (rng.random_range(0..top) >> rng.random_range(0..bits)) as u16)
                    .collect();
                if round == 0 && bits == 12 {
                    // Distinct values: the only split with XOR 0 is into two equal heaps,
                    // which heap n + 1 has and heap n lacks (so the pair pass must see it).
                    values = (0..4096).collect();
                    values.shuffle(&mut rng);
                }
                let len = values.len();
                // Each kernel both ways: the two heaps in one pass and one after the other
                // (whichever its CPU's runs take).
                let mut work = Vec::new();
                for (&kernel, pairs) in kernels.iter().flat_map(|k| [(k, true), (k, false)]) {
                    let mut s = Scratch::new(kernel);
                    s.pairs = pairs;
                    for n in [len - 2, len / 2, 2001, 1200] {
                        let mut m = Mirror::default();
                        for &v in &values[..n + 2 - reach] {
                            m.push(v as Grundy);
                        }
                        let guess = [1, 100, 1 << bits][n % 3];
                        let late = |m: &mut Mirror| {
                            waited.set(waited.get() + 1);
                            while m.len() < n + 2 - window {
                                m.push(values[m.len()] as Grundy);
                            }
                            true
                        };
                        let outcomes =
                            unit_values(&mut m, &rules, n..=n + 1, bits, guess, late, &mut s)
                                .expect("the late values are given");
                        // An outcome told before the late values is resolved from them.
                        told_early +=
                            outcomes.iter().filter(|o| matches!(o, Outcome::Either { .. })).count();
                        let got: Vec<Grundy> = (n..=n + 1)
                            .zip(&outcomes)
                            .map(|(h, o)| o.resolve(&rules, h, |x| Grundy::from(values[x])))
                            .collect();
                        let expected = [n, n + 1].map(|h| plain_value(&values, &rules, h));
                        assert_eq!(got, expected, "{kernel:?} {code} bits {bits} n {n}");
                        joint += usize::from(n > 2100);
                    }
                    work.push((pairs, counters(&s)));
                }
                // Every kernel did the same work, valuing the heaps the same way.
                for way in [true, false] {
                    let same: Vec<_> = work.iter().filter(|w| w.0 == way).collect();
                    assert!(same.windows(2).all(|w| w[0] == w[1]), "{code} bits {bits}: {work:?}");
                }
            }
        }
    }
    assert!(joint > 0);
    assert!(told_early > 0 && waited.get() > 0, "{told_early} {}", waited.get());
}

#[test]
fn every_value_an_option_gives_the_table_size() {
    // Random values below 1024: the 10^4 splits of a large heap reach every XOR below 1024.
    let rules = OctalMoves::new(&OctalGame::dot007());
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut m = Mirror::default();
    for _ in 0..20_000 {
        m.push(rng.random_range(0..1024));
    }
    let n = 19_999;
    let expected = plain_value(m.values(), &rules, n);
    assert_eq!(expected, 1024);
    for kernel in kernels("every_value_an_option_gives_the_table_size") {
        let mut s = Scratch::new(kernel);
        assert_eq!(heap_value(&m, &rules, n, 10, 200, &mut s), 1024, "{kernel:?}");
        assert_eq!(heap_value(&m, &rules, n, 10, 5000, &mut s), 1024, "{kernel:?}");
    }
}
