//! The engine's own conventions and bounds, tested against plain negamax.

use super::*;

#[test]
fn remoteness_inverts_the_score() {
    for (w, h) in [(7, 6), (5, 3), (3, 3), (4, 4), (1, 1)] {
        let b = GravityBoard::new(w, h, 3).unwrap();
        let n = b.cells() as i32;
        for m in 0..=n {
            for p in m..=n {
                let winner_moves = (p - m) % 2 == 1;
                let s = if winner_moves { win_at(n, p) } else { -win_at(n, p) };
                if p == m && m == 0 {
                    continue;
                }
                let got = to_scored(&b, m as u32, s);
                assert_eq!(got.remoteness as i32, p - m, "{w}x{h} m={m} p={p} s={s}");
                assert!(s != 0);
            }
        }
    }
}

/// The exact score by plain negamax over every move (no pruning, no table).
fn plain_score(b: &GravityBoard, pos: &GravityPosition) -> i32 {
    let n = b.cells() as i32;
    if b.has_line(pos.opponent()) {
        return -win_at(n, pos.moves as i32);
    }
    if pos.moves as i32 == n {
        return 0;
    }
    (0..b.width())
        .filter(|&c| b.can_play(pos, c))
        .map(|c| {
            let mut child = *pos;
            b.play(&mut child, c);
            -plain_score(b, &child)
        })
        .max()
        .expect("a column has room")
}

#[test]
fn the_claimeven_bound_never_undercuts_the_score() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut checked = [0usize; 3];
    let mut proved_on_odd_heights = 0;
    let mut proved_past_a_line = 0;
    let mut proved_sooner = 0;
    // Even heights (the second player claims the even rows) and odd ones (the first player,
    // with the second to move, claims the odd rows).
    let boards = [
        (4, 4, 3, 4),
        (5, 4, 4, 8),
        (4, 6, 4, 10),
        (3, 4, 3, 2),
        (5, 5, 4, 14),
        (4, 5, 3, 10),
        (5, 3, 3, 6),
        (3, 5, 3, 5),
    ];
    for (w, h, k, from) in boards {
        let b = GravityBoard::new(w, h, k).unwrap();
        let solver = GravitySolver::new(&b, 1 << 12);
        for _ in 0..400 {
            let mut pos = b.start();
            while pos.moves < from + (state % 4) as u32 && b.outcome(&pos).is_none() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let col = (state % w as u64) as u32;
                if b.can_play(&pos, col) {
                    b.play(&mut pos, col);
                }
            }
            // The bound holds where the empty cells are even.
            if pos.moves % 2 != solver.claim_parity || b.outcome(&pos).is_some() {
                continue;
            }
            let bound = solver.claimeven_bound(&pos, i32::MAX);
            let score = plain_score(&b, &pos);
            assert!(score <= bound, "{w}x{h} k={k}: score {score} above the bound {bound}");
            // Asked for a bound at most `cut`, the search for a sooner win of the claimer's
            // may prove one: still never below the score.
            for cut in -6..bound.min(1) {
                let sooner = solver.claimeven_bound(&pos, cut);
                assert!(score <= sooner, "{w}x{h} k={k}: score {score} above {sooner} (cut {cut})");
                if sooner < bound {
                    assert!(sooner <= cut, "{w}x{h} k={k}: {sooner} proved above the cut {cut}");
                    proved_sooner += 1;
                }
            }
            assert!(bound >= solver.claimeven_floor, "{w}x{h} k={k}: {bound} below the floor");
            checked[(bound.signum() + 1).min(2) as usize] += 1;
            if h % 2 == 1 && bound <= 0 {
                proved_on_odd_heights += 1;
            }
            // Proved although the mover's cells hold a line (which the claimer's completes
            // before).
            let claimed = solver.claimed_rows & !pos.mask & !b.possible(&pos);
            if bound <= 0 && b.has_line(b.board_mask() & !(pos.opponent() | claimed)) {
                proved_past_a_line += 1;
            }
        }
    }
    assert!(proved_on_odd_heights > 10, "{proved_on_odd_heights}");
    assert!(proved_past_a_line > 10, "{proved_past_a_line}");
    assert!(proved_sooner > 10, "{proved_sooner}");
    // The bound proved something (a draw at best, or a loss) in many positions.
    assert!(checked[0] > 10 && checked[1] > 20, "{checked:?}");
}

#[test]
fn the_order_is_centre_first() {
    let b = GravityBoard::new(7, 6, 4).unwrap();
    assert_eq!(GravitySolver::new(&b, 0).order, vec![3, 2, 4, 1, 5, 0, 6]);
    let b = GravityBoard::new(4, 4, 3).unwrap();
    assert_eq!(GravitySolver::new(&b, 0).order, vec![2, 1, 3, 0]);
}

#[test]
fn probes_ask_the_sign_then_double_outward() {
    use super::search::probe_point;
    // From the empty 7x6 board's range: quick win? quick loss? a win? worth 2? worth 4?
    assert_eq!(probe_point(-20, 18, 5), 9);
    assert_eq!(probe_point(-20, 9, 5), -10);
    assert_eq!(probe_point(-9, 9, 5), 0);
    assert_eq!(probe_point(0, 9, 5), 0);
    assert_eq!(probe_point(1, 9, 5), 1);
    assert_eq!(probe_point(2, 9, 5), 3);
    assert_eq!(probe_point(4, 9, 5), 6); // halving once the doubling passes the middle
    assert_eq!(probe_point(-9, 0, 5), -1); // a loss?
    assert_eq!(probe_point(-9, -1, 5), -2); // as bad as -2?
    assert_eq!(probe_point(-9, -2, 5), -4);
}

#[test]
fn probes_always_narrow_and_find_every_score() {
    use super::search::probe_point;
    for quick in [0, 3, 5] {
        for min in -22..22 {
            for max in min + 1..=22 {
                let k = probe_point(min, max, quick);
                assert!(min <= k && k < max, "[{min}, {max}] probed {k}");
                // Narrowing against every score in the range (a null window at k answers
                // "at most k" or "at least k + 1") ends at the score, in few probes.
                for score in min..=max {
                    let (mut lo, mut hi, mut probes) = (min, max, 0);
                    while lo < hi {
                        let k = probe_point(lo, hi, quick);
                        if score <= k {
                            hi = k;
                        } else {
                            lo = k + 1;
                        }
                        probes += 1;
                    }
                    assert_eq!(lo, score);
                    assert!(probes <= 14, "[{min}, {max}] score {score}: {probes} probes");
                }
            }
        }
    }
}

#[test]
fn huge_pages_only_for_jobs_with_the_time_to_amortise_them() {
    // Issue 46: `connect:32,2,4 --no-moves --timeout 0.2` took 1.6-4.0 s one run in three: the
    // faults on the 1 GiB table's huge pages stalled (memory compaction) between two readings
    // of the clock. A job with under 5 s left maps its table without asking for them.
    let board = GravityBoard::new(7, 6, 4).unwrap();
    use crate::budget::Budget;
    let short = Meter::new(Budget::default().with_timeout(std::time::Duration::from_millis(200)));
    let long = Meter::new(Budget::default().with_timeout(std::time::Duration::from_secs(300)));
    for (meter, huge) in [(&short, false), (&long, cfg!(target_os = "linux"))] {
        let mut solver = GravitySolver::new(&board, 64 << 20);
        solver.allocate(meter, false).unwrap();
        let table = solver.table.as_ref().expect("allocated");
        assert_eq!(table.huge_pages(), huge);
    }
    // A table written at once (a benchmark's, a server's) asks for them whatever the budget.
    let mut solver = GravitySolver::new(&board, 64 << 20);
    solver.prepare(&short).unwrap();
    assert!(solver.table.as_ref().unwrap().huge_pages() || !cfg!(target_os = "linux"));
}

/// Every position of `b` of at most `stones` stones (the game not over), each once.
fn positions_upto(b: &GravityBoard, stones: u32) -> Vec<GravityPosition> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![b.start()];
    while let Some(pos) = stack.pop() {
        if b.outcome(&pos).is_some() || !seen.insert(b.key(&pos)) {
            continue;
        }
        out.push(pos);
        if pos.moves < stones {
            for c in 0..b.width() {
                if b.can_play(&pos, c) {
                    let mut child = pos;
                    b.play(&mut child, c);
                    stack.push(child);
                }
            }
        }
    }
    out
}

/// The book's scores bound the positions one stone past it from below (the floor is at most
/// the score, and is the score for some), and with a book every move's score, every score and
/// every value is the plain engine's: on positions of the book's depth (whose children start
/// from their floors, the moves that cannot be best first, the last move left sometimes worth
/// the position's score with no search) and one past it, on one thread and on two.
#[test]
fn the_book_floor_bounds_and_every_answer_is_the_plain_engines() {
    use crate::solve::book::Book;
    let b = GravityBoard::new(5, 4, 4).unwrap();
    let depth = 4;
    let book = Arc::new(Book::build(&b, depth, 1 << 16, &Meter::default()).unwrap());
    let meter = Meter::default();
    let mut plain = GravitySolver::new(&b, 1 << 16);
    let mut with = GravitySolver::new(&b, 1 << 16);
    with.set_book(book.clone());
    let mut two = GravitySolver::new(&b, 1 << 16);
    two.set_book(book.clone());
    two.set_threads(2);
    two.set_alone_nodes(0);
    let (mut floors, mut exact_floors) = (0, 0);
    let (mut nodes_with, mut nodes_plain) = (0, 0);
    for pos in positions_upto(&b, depth + 1).into_iter().filter(|p| p.moves >= depth) {
        let want = plain.move_scores(&pos, &meter).unwrap();
        nodes_plain += plain.nodes();
        let score = plain.score(&pos, &meter).unwrap();
        if pos.moves == depth + 1 && !b.can_win_next(&pos) {
            let floor = with.book_floor(&pos).expect("a parent in the book");
            assert!(floor <= score, "{pos:?}: floor {floor} above the score {score}");
            floors += 1;
            exact_floors += usize::from(floor == score);
        }
        assert_eq!(with.move_scores(&pos, &meter).unwrap(), want, "{pos:?}");
        nodes_with += with.nodes();
        assert_eq!(with.score(&pos, &meter).unwrap(), score, "{pos:?}");
        assert_eq!(with.value(&pos, &meter).unwrap(), plain.value(&pos, &meter).unwrap());
        assert_eq!(
            with.move_values(&pos, &meter).unwrap(),
            plain.move_values(&pos, &meter).unwrap()
        );
        assert_eq!(two.move_scores(&pos, &meter).unwrap(), want, "{pos:?} on two threads");
        assert_eq!(two.score(&pos, &meter).unwrap(), score, "{pos:?} on two threads");
    }
    assert!(
        floors > 100 && exact_floors > 0 && exact_floors < floors,
        "{exact_floors} of {floors}"
    );
    // The floors save searching (each solver keeps its table from position to position).
    assert!(
        nodes_with < nodes_plain,
        "{nodes_with} positions with the book, {nodes_plain} without"
    );
}
