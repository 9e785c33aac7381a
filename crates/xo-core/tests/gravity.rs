//! The dedicated gravity solver against plain minimax on small boards (value and remoteness of
//! positions and of every move), against Pascal Pons' published Connect 4 test sets, and against
//! the general negamax on small empty boards.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use xo_core::budget::{Budget, Limit, Meter, Ticker};
use xo_core::game::GameTree;
use xo_core::games::board::Board;
use xo_core::games::gravity::{fits_gravity, Bits, GravityBoard};
use xo_core::rules::{parse_game, Position, PositionError, Rules};
use xo_core::solve::gravity::{to_scored, GravitySolver};
use xo_core::solve::minimax::plain_score;
use xo_core::solve::negamax::Searcher;
use xo_core::value::Scored;
use xo_core::Value;
use xo_test_support::pons::pons_set;
use xo_test_support::positions::random_play;

/// A random position of `rules` with `stones` stones (fewer when the game ended first).
fn random_position(rules: &Rules, rng: &mut StdRng, stones: u32) -> Position {
    random_play(rules, stones as usize, rng)
}

fn differential(game: &str, min_stones: u32, positions: usize) {
    differential_in::<u64>(game, min_stones, positions, 1);
}

/// [`differential`] in the layout of words `B`, the solver on `threads` threads.
fn differential_in<B: Bits>(game: &str, min_stones: u32, positions: usize, threads: usize) {
    let rules = parse_game(game).unwrap();
    let board = GravityBoard::<B>::for_rules(&rules).unwrap();
    let mut solver = GravitySolver::new(&board, 1 << 16);
    solver.set_threads(threads);
    // Helpers from the first position (small boards' searches end before the default try).
    solver.set_alone_nodes(0);
    let meter = Meter::default();
    let mut rng = StdRng::seed_from_u64(0xC4 ^ rules.cells() as u64);
    let cells = rules.cells() as u32;
    for _ in 0..positions {
        let stones = rng.random_range(min_stones..=cells);
        let pos = random_position(&rules, &mut rng, stones);
        let g = board.from_position(&pos).unwrap();
        let text = pos.to_text();
        let want = plain_score(&rules, &pos);
        let score = solver.score(&g, &meter).unwrap();
        assert_eq!(to_scored(&board, g.plies(), score), want, "{game} {text}: score {score}");
        assert_eq!(solver.value(&g, &meter).unwrap(), want.value, "{game} {text}: value");
        assert_eq!(solver.scored(&g, &meter).unwrap(), want, "{game} {text}: scored");
        let scores = solver.move_scores(&g, &meter).unwrap();
        assert_eq!(scores.len(), rules.width() as usize);
        let values = solver.move_values(&g, &meter).unwrap();
        for (&(col, s), &(c, v)) in scores.iter().zip(&values) {
            assert_eq!((col, s.map(|s| to_scored(&board, g.plies(), s).value)), (c, v));
        }
        let scored = solver.move_scored(&g, &meter).unwrap();
        for (&(col, s), &(c, sc)) in scores.iter().zip(&scored) {
            assert_eq!((col, s.map(|s| to_scored(&board, g.plies(), s))), (c, sc));
        }
        let mut moves = Vec::new();
        rules.moves(&pos, &mut moves);
        let w = rules.width() as usize;
        let legal: Vec<usize> = moves.iter().map(|&(cell, _)| cell % w).collect();
        for (col, s) in scores {
            let col = col as usize;
            match legal.iter().position(|&c| c == col) {
                None => assert_eq!(s, None, "{game} {text}: column {}", col + 1),
                Some(i) => {
                    let child = plain_score(&rules, &rules.play(&pos, moves[i]));
                    let want = Scored { value: -child.value, remoteness: child.remoteness + 1 };
                    let s = s.unwrap_or_else(|| panic!("{game} {text}: column {}", col + 1));
                    assert_eq!(
                        to_scored(&board, g.plies(), s),
                        want,
                        "{game} {text}: column {} scores {s}",
                        col + 1
                    );
                }
            }
        }
    }
}

#[test]
fn connect_4x4x3_matches_plain_minimax() {
    differential("connect:4,4,3", 6, 300);
}

#[test]
fn connect_5x4x3_matches_plain_minimax() {
    differential("connect:5,4,3", 9, 150);
}

#[test]
fn connect_4x4x4_matches_plain_minimax() {
    differential("connect:4,4,4", 7, 200);
}

#[test]
fn connect_5x4x4_matches_plain_minimax() {
    differential("connect:5,4,4", 10, 100);
}

#[test]
fn connect_4x5x3_matches_plain_minimax() {
    differential("connect:4,5,3", 9, 150);
}

/// Odd height: the claimeven bound of the first player, who takes the odd rows.
#[test]
fn connect_4x5x4_matches_plain_minimax() {
    differential("connect:4,5,4", 9, 100);
}

#[test]
fn the_128_bit_layout_matches_plain_minimax() {
    // The same engine in 128-bit words, on boards small enough for plain minimax...
    differential_in::<u128>("connect:4,4,3", 6, 150, 1);
    differential_in::<u128>("connect:5,4,4", 10, 60, 1);
    differential_in::<u128>("connect:3,3,3", 0, 50, 1);
    differential_in::<u128>("connect:4,5,3", 9, 60, 1);
    // ...and on boards only 128 bits hold (8x8: 72 bits, 13x4: 65, 9x7: 72, 16x4: 80, 32x3:
    // 128), late enough for plain minimax.
    for (game, min_stones, positions) in [
        ("connect:8,8,4", 55, 40),
        ("connect:13,4,4", 43, 40),
        ("connect:9,7,4", 54, 40),
        ("connect:16,4,3", 55, 40),
        ("connect:32,3,5", 87, 20),
    ] {
        let rules = parse_game(game).unwrap();
        assert_eq!(fits_gravity(rules.width(), rules.height()), Some(128), "{game}");
        differential_in::<u128>(game, min_stones, positions, 1);
    }
}

#[test]
fn the_128_bit_layout_matches_the_general_negamax_in_the_middle_game() {
    // Positions with about 20 empty cells on boards past 64 bits, against the general engine.
    let meter = Meter::default();
    for (game, stones) in [("connect:8,8,4", 44), ("connect:10,6,4", 40), ("connect:9,7,4", 43)] {
        let rules = parse_game(game).unwrap();
        let board = GravityBoard::<u128>::for_rules(&rules).unwrap();
        let general = Board::new(&rules).unwrap();
        let mut solver = GravitySolver::new(&board, 1 << 20);
        let mut searcher = Searcher::new(&general, 1 << 22);
        let mut rng = StdRng::seed_from_u64(0x128 ^ rules.cells() as u64);
        for _ in 0..6 {
            let pos = random_position(&rules, &mut rng, stones);
            let g = board.from_position(&pos).unwrap();
            let want = searcher.score(&general.encode(&pos).unwrap(), &Meter::unlimited()).unwrap();
            let score = solver.score(&g, &meter).unwrap();
            assert_eq!(to_scored(&board, g.plies(), score), want, "{game} {}", pos.to_text());
        }
    }
}

#[test]
fn odd_boards_and_unusual_k_match_plain_minimax() {
    // Odd cell counts (the last stone is the first player's), k = 1 and 2, and k longer than
    // any line.
    differential("connect:3,3,3", 0, 100);
    differential("connect:5,3,3", 6, 100);
    differential("connect:3,5,3", 6, 100);
    differential("connect:3,3,2", 0, 50);
    differential("connect:3,2,1", 0, 20);
    differential("connect:3,3,4", 0, 50);
}

fn pons(name: &str, take: usize) {
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let mut solver = GravitySolver::new(&board, 1 << 24);
    let meter = Meter::default();
    for (moves, want) in pons_set(name).into_iter().take(take) {
        let pos = board.from_moves(&moves).unwrap();
        assert_eq!(solver.score(&pos, &meter).unwrap(), want, "{name}: {moves}");
        let value = solver.value(&pos, &meter).unwrap();
        assert_eq!(value.as_i8() as i32, want.signum(), "{name}: value of {moves}");
    }
}

#[test]
fn pons_end_game_easy() {
    pons("Test_L3_R1", 1000);
}

#[test]
fn pons_middle_game_easy() {
    pons("Test_L2_R1", 1000);
}

#[test]
fn pons_middle_game_medium_first_lines() {
    pons("Test_L2_R2", 100);
}

#[test]
fn pons_beginning_easy_all_lines() {
    pons("Test_L1_R1", 1000);
}

#[test]
fn pons_beginning_medium_first_lines() {
    pons("Test_L1_R2", 10);
}

#[test]
#[ignore = "slow: 17 s of searches on one and several threads (in .ci/run's slow group)"]
fn threads_change_no_answer() {
    // Several threads sharing a table, against plain minimax on small boards (both layouts;
    // 128-bit tables of two-word entries stay on one thread)...
    differential_in::<u64>("connect:4,4,3", 6, 150, 2);
    differential_in::<u64>("connect:5,4,4", 10, 60, 3);
    differential_in::<u128>("connect:4,4,4", 7, 60, 2);
    // Opening positions (where a position's score runs on every thread): every position of
    // up to one stone on boards up to 6x5, against the general negamax.
    let meter = Meter::default();
    for (w, h, k) in [(4, 4, 3), (5, 4, 4), (4, 5, 3), (5, 5, 4), (6, 4, 4), (6, 5, 4)] {
        let game = format!("connect:{w},{h},{k}");
        let rules = parse_game(&game).unwrap();
        let board = GravityBoard::from_rules(&rules).unwrap();
        let general = Board::new(&rules).unwrap();
        let mut searcher = Searcher::new(&general, 1 << 22);
        let mut solver = GravitySolver::new(&board, 1 << 22);
        solver.set_threads(2);
        solver.set_alone_nodes(0);
        let openings = std::iter::once(String::new()).chain((1..=w).map(|c| c.to_string()));
        for moves in openings {
            let g = board.from_moves(&moves).unwrap();
            let want = searcher
                .score(&general.play_columns(&moves).unwrap(), &Meter::unlimited())
                .unwrap();
            let score = solver.score(&g, &meter).unwrap();
            assert_eq!(to_scored(&board, g.plies(), score), want, "{game} after {moves:?}");
            assert_eq!(solver.value(&g, &meter).unwrap(), want.value, "{game} after {moves:?}");
        }
    }
    // ...and on Pons' sets: the score and every move's score with 2 and 3 threads equal the
    // published score and the one-thread scores.
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let mut one = GravitySolver::new(&board, 1 << 22);
    let sets = [("Test_L2_R2", 40), ("Test_L2_R1", 40), ("Test_L1_R2", 3)];
    for (set, take) in sets {
        for (i, (moves, want)) in pons_set(set).into_iter().take(take).enumerate() {
            let mut many = GravitySolver::new(&board, 1 << 22);
            many.set_threads(2 + i % 2);
            // Helpers at once, or after a try alone (the default).
            if i % 4 < 2 {
                many.set_alone_nodes(0);
            }
            let pos = board.from_moves(&moves).unwrap();
            assert_eq!(many.score(&pos, &meter), Ok(want), "{set} {moves}");
            let value = many.value(&pos, &meter).unwrap();
            assert_eq!(value.as_i8(), want.signum() as i8, "{set} {moves}: value");
            let scores = many.move_scores(&pos, &meter).unwrap();
            assert_eq!(scores, one.move_scores(&pos, &meter).unwrap(), "{set} {moves}: moves");
        }
    }
}

#[test]
fn every_move_of_pons_positions_agrees_with_the_score() {
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let mut solver = GravitySolver::new(&board, 1 << 24);
    let meter = Meter::default();
    for (moves, want) in pons_set("Test_L3_R1").into_iter().take(100) {
        let pos = board.from_moves(&moves).unwrap();
        let scores = solver.move_scores(&pos, &meter).unwrap();
        let best = scores.iter().filter_map(|&(_, s)| s).max().unwrap();
        assert_eq!(best, want, "{moves}");
        let values = solver.move_values(&pos, &meter).unwrap();
        for (&(_, s), &(col, v)) in scores.iter().zip(&values) {
            let sign = s.map(|s| s.signum() as i8);
            assert_eq!(v.map(|v| v.as_i8()), sign, "{moves}: value of column {}", col + 1);
        }
        for (col, s) in scores {
            assert_eq!(s.is_some(), board.can_play(&pos, col), "{moves}: column {}", col + 1);
            if let Some(s) = s {
                let mut child = pos;
                board.play(&mut child, col);
                let direct = if board.is_winning_move(&pos, col) {
                    s
                } else {
                    -solver.score(&child, &meter).unwrap()
                };
                assert_eq!(s, direct, "{moves}: column {}", col + 1);
            }
        }
    }
}

#[test]
fn small_empty_boards_agree_with_the_general_negamax() {
    // k = 4 on boards up to 6x5 (John Tromp's table of small boards: all of these are draws
    // except where the general negamax says otherwise; the negamax is the oracle here).
    let meter = Meter::default();
    for (w, h) in [(4, 4), (5, 4), (6, 4), (4, 5), (5, 5), (4, 6)] {
        let game = format!("connect:{w},{h},4");
        let rules = parse_game(&game).unwrap();
        let board = GravityBoard::from_rules(&rules).unwrap();
        let mut solver = GravitySolver::new(&board, 1 << 24);
        let score = solver.score(&board.start(), &meter).unwrap();
        let general = Board::new(&rules).unwrap();
        let mut searcher = Searcher::new(&general, 1 << 24);
        let want = searcher.score(&Default::default(), &Meter::unlimited()).unwrap();
        assert_eq!(to_scored(&board, 0, score), want, "{game}: score {score}");
        assert_eq!(solver.value(&board.start(), &meter).unwrap(), want.value, "{game}");
    }
}

#[test]
fn known_small_board_values() {
    // Small boards whose values are classical (John Tromp's table): 4x4, 5x4 and 4x5 are draws,
    // 6x4 is a win for the second player (the general negamax agrees); with k = 3 the first
    // player wins 4x4.
    let meter = Meter::default();
    for (w, h, k, want) in [
        (4, 4, 4, Value::Draw),
        (5, 4, 4, Value::Draw),
        (4, 5, 4, Value::Draw),
        (6, 4, 4, Value::Loss),
        (6, 5, 4, Value::Draw),
        (5, 6, 4, Value::Draw),
        (4, 7, 4, Value::Draw),
        (4, 4, 3, Value::Win),
    ] {
        let board = GravityBoard::new(w, h, k).unwrap();
        let mut solver = GravitySolver::new(&board, 1 << 22);
        assert_eq!(solver.value(&board.start(), &meter).unwrap(), want, "{w}x{h} k={k}");
    }
}

#[test]
fn budgets_stop_the_search() {
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let mut solver = GravitySolver::new(&board, 1 << 20);
    let meter = Meter::new(Budget::default().with_max_nodes(50_000));
    let err = solver.score(&board.start(), &meter).unwrap_err();
    assert_eq!(err.limit, Limit::Nodes);
    let meter = Meter::new(Budget::default().with_memory(1 << 10));
    let mut solver = GravitySolver::new(&board, 1 << 20);
    assert_eq!(solver.score(&board.start(), &meter).unwrap_err().limit, Limit::Memory);
    // On several threads, the score and every move's score stop the same way.
    let mut solver = GravitySolver::new(&board, 1 << 20);
    solver.set_threads(2);
    let meter = Meter::new(Budget::default().with_max_nodes(50_000));
    assert_eq!(solver.score(&board.start(), &meter).unwrap_err().limit, Limit::Nodes);
    let meter = Meter::new(Budget::default().with_max_nodes(50_000));
    assert_eq!(solver.move_scores(&board.start(), &meter).unwrap_err().limit, Limit::Nodes);
    // A budget reached while the search tries alone, or after it started its helpers.
    for nodes in [10_000, 100_000, 300_000] {
        let mut solver = GravitySolver::new(&board, 1 << 20);
        solver.set_threads(2);
        solver.set_alone_nodes(50_000);
        let meter = Meter::new(Budget::default().with_max_nodes(nodes));
        let pos = board.from_moves("44").unwrap();
        assert_eq!(solver.score(&pos, &meter).unwrap_err().limit, Limit::Nodes, "{nodes}");
    }
    // After a stop, the solver still answers right with a fresh meter.
    let mut solver = GravitySolver::new(&board, 1 << 20);
    let stopped = Meter::new(Budget::default().with_max_nodes(5_000));
    let pos = board.from_moves("2252576253462244111563365343671351441").unwrap();
    let _ = solver.score(&board.from_moves("4").unwrap(), &stopped);
    assert_eq!(solver.score(&pos, &Meter::default()), Ok(-1));
}

#[test]
fn a_job_on_two_threads_spends_one_node_budget() {
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let budget = 200_000;
    for threads in [1, 2] {
        // Every thread's positions count against the one budget: the job passes it by at most
        // the batch each thread has not yet reported, however many threads it has.
        let mut solver = GravitySolver::new(&board, 1 << 20);
        solver.set_threads(threads);
        let meter = Meter::new(Budget::default().with_max_nodes(budget));
        assert_eq!(solver.score(&board.start(), &meter).unwrap_err().limit, Limit::Nodes);
        let most = budget + 2 * Ticker::BATCH;
        assert!(solver.nodes() <= most, "{threads} threads: {} positions", solver.nodes());
        assert!(meter.nodes() <= most, "{threads} threads: {} counted", meter.nodes());
    }
}

#[test]
fn positions_convert_from_xo_positions() {
    let rules = parse_game("connect4").unwrap();
    let board = GravityBoard::from_rules(&rules).unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let stones = rng.random_range(0..=42);
        let pos = random_position(&rules, &mut rng, stones);
        let g = board.from_position(&pos).unwrap();
        assert_eq!(board.to_cells(&g), pos.cells());
        assert_eq!(g.plies(), pos.plies());
        assert_eq!(board.outcome(&g), rules.outcome(&pos));
    }
    let err = board.from_moves("44x").unwrap_err();
    assert!(matches!(err, PositionError::IllegalMove { .. }), "{err:?}");
    assert_eq!(err, Position::from_columns(&rules, "44x").unwrap_err());
    assert_eq!(
        board.from_moves("44448").unwrap_err(),
        Position::from_columns(&rules, "44448").unwrap_err()
    );
    assert!(GravityBoard::from_rules(&parse_game("connect:8,8,4").unwrap()).is_err());
}

/// Late positions of larger boards (wide table entries on 8x7, the general-k shifts on tall
/// boards) against the general negamax's exact value and remoteness.
fn against_general(game: &str, min_stones: u32, positions: usize) {
    let rules = parse_game(game).unwrap();
    let board = GravityBoard::from_rules(&rules).unwrap();
    let general = Board::new(&rules).unwrap();
    let mut solver = GravitySolver::new(&board, 1 << 20);
    let mut searcher = Searcher::new(&general, 1 << 20);
    let meter = Meter::default();
    let mut rng = StdRng::seed_from_u64(0x5EED ^ rules.cells() as u64);
    for _ in 0..positions {
        let stones = rng.random_range(min_stones..=rules.cells() as u32);
        let pos = random_position(&rules, &mut rng, stones);
        let g = board.from_position(&pos).unwrap();
        let want = searcher.score(&general.encode(&pos).unwrap(), &Meter::unlimited()).unwrap();
        let score = solver.score(&g, &meter).unwrap();
        let text = pos.to_text();
        assert_eq!(to_scored(&board, g.plies(), score), want, "{game} {text}: score {score}");
    }
}

#[test]
fn larger_boards_agree_with_the_general_negamax() {
    against_general("connect:8,7,4", 30, 40);
    against_general("connect:9,6,4", 30, 40);
    against_general("connect:6,9,5", 32, 40);
    against_general("connect:3,20,4", 36, 40);
    against_general("connect:16,3,4", 30, 40);
}

/// With an opening book, every answer is the same as without: the score, the value and every
/// move's score of random positions inside and beyond the book's depth (plain minimax checks
/// those with at most 9 empty cells).
#[test]
fn an_opening_book_changes_no_answer() {
    use std::sync::Arc;
    use xo_core::solve::book::Book;
    let meter = Meter::default();
    for (game, depth) in [("connect:4,4,3", 6), ("connect:5,4,4", 6), ("connect:4,5,4", 5)] {
        let rules = parse_game(game).unwrap();
        let board = GravityBoard::from_rules(&rules).unwrap();
        let book = Arc::new(Book::build(&board, depth, 1 << 18, &meter).unwrap());
        let mut plain = GravitySolver::new(&board, 1 << 16);
        let mut with_book = GravitySolver::new(&board, 1 << 16);
        with_book.set_book(book.clone());
        let mut rng = StdRng::seed_from_u64(0xB00C);
        for _ in 0..150 {
            let stones = rng.random_range(0..=rules.cells() as u32);
            let pos = random_position(&rules, &mut rng, stones);
            let g = board.from_position(&pos).unwrap();
            let text = pos.to_text();
            let want = plain.score(&g, &meter).unwrap();
            assert_eq!(with_book.score(&g, &meter).unwrap(), want, "{game} {text}");
            if rules.cells() as u32 - pos.plies() <= 9 {
                let plain_minimax = plain_score(&rules, &pos);
                assert_eq!(to_scored(&board, g.plies(), want), plain_minimax, "{game} {text}");
            }
            assert_eq!(with_book.value(&g, &meter).unwrap(), plain.value(&g, &meter).unwrap());
            assert_eq!(
                with_book.move_scores(&g, &meter).unwrap(),
                plain.move_scores(&g, &meter).unwrap(),
                "{game} {text}: moves"
            );
        }
        // A book of another board is not used.
        let other = Arc::new(
            Book::build(&GravityBoard::new(4, 4, 4).unwrap(), 2, 1 << 16, &meter).unwrap(),
        );
        let mut solver = GravitySolver::new(&board, 1 << 16);
        solver.set_book(other);
        assert_eq!(
            solver.score(&board.start(), &meter).unwrap(),
            plain.score(&board.start(), &meter).unwrap()
        );
    }
}

/// A book that stopped part-way (the shipped book until its build finishes) and two threads
/// give the answers of one thread and no book.
#[test]
fn a_partial_book_and_threads_change_no_answer() {
    use std::sync::Arc;
    use xo_core::solve::book::Book;
    let meter = Meter::default();
    let rules = parse_game("connect:5,5,4").unwrap();
    let board = GravityBoard::from_rules(&rules).unwrap();
    let small = Meter::new(Budget::default().with_max_nodes(2_000_000));
    let build =
        Book::build_resuming(&board, 7, 1 << 18, &small, &Default::default(), &|_, _| {}).unwrap();
    assert!(build.stopped.is_some() && !build.book.is_complete() && build.book.len() > 100);
    let book = Arc::new(build.book);
    let mut plain = GravitySolver::new(&board, 1 << 18);
    let mut with_book = GravitySolver::new(&board, 1 << 18);
    with_book.set_book(book.clone());
    with_book.set_threads(2);
    let mut rng = StdRng::seed_from_u64(0xB00D);
    let mut in_book = 0;
    for _ in 0..60 {
        let stones = rng.random_range(4..=12);
        let pos = random_position(&rules, &mut rng, stones);
        let g = board.from_position(&pos).unwrap();
        in_book += usize::from(book.get(&board, &g).is_some());
        let text = pos.to_text();
        assert_eq!(with_book.score(&g, &meter), plain.score(&g, &meter), "{text}");
        assert_eq!(with_book.move_scores(&g, &meter), plain.move_scores(&g, &meter), "{text}");
    }
    assert!(in_book > 0, "no sampled position was in the book");
}

#[test]
fn tables_kept_between_queries_change_no_answer() {
    // Queries one after another, each a new solver taking the table the last one left (as in a
    // batch): the published scores, also when another board's query (whose table is not
    // this board's) or one in the 128-bit layout comes in between...
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let small = GravityBoard::new(5, 4, 4).unwrap();
    let wide = GravityBoard::<u128>::sized(4, 4, 3).unwrap();
    let meter = Meter::default();
    let mut positions = pons_set("Test_L2_R1");
    positions.truncate(60);
    positions.extend(pons_set("Test_L1_R1").into_iter().take(60));
    positions.extend(pons_set("Test_L2_R2").into_iter().take(5));
    let solve = |moves: &str| {
        let mut solver = GravitySolver::new(&board, 1 << 22);
        solver.reuse_tables();
        let score = solver.score(&board.from_moves(moves).unwrap(), &meter);
        (score, solver.nodes())
    };
    for (i, (moves, want)) in positions.iter().enumerate() {
        assert_eq!(solve(moves).0, Ok(*want), "{moves}");
        if i % 10 == 9 {
            let mut other = GravitySolver::new(&small, 1 << 22);
            other.reuse_tables();
            assert_eq!(other.score(&small.start(), &meter), Ok(0), "5x4 is a draw");
            let mut other = GravitySolver::new(&wide, 1 << 22);
            other.reuse_tables();
            let fresh = GravitySolver::new(&wide, 1 << 22).score(&wide.start(), &meter);
            assert_eq!(other.score(&wide.start(), &meter), fresh, "4x4, 3 in a row");
        }
    }
    // ...and the second time through, with nothing in between, the first time's entries save
    // positions.
    let mut nodes = [0, 0];
    for pass in &mut nodes {
        for (moves, want) in &positions {
            let (score, n) = solve(moves);
            assert_eq!(score, Ok(*want), "{moves}");
            *pass += n;
        }
    }
    assert!(nodes[1] < nodes[0], "positions by pass: {nodes:?}");
}

/// What a score search had proven when its node budget stopped it always holds the exact score
/// (one thread and two, value and score queries), and it often tells the value already.
#[test]
fn bounds_proven_before_a_stop_hold_the_score() {
    let mut rng = StdRng::seed_from_u64(0xB0_0D5);
    let (mut narrowed, mut told_value) = (0, 0);
    for (game, threads) in [("connect:6,5,4", 1), ("connect:7,4,4", 2), ("connect:5,5,4", 1)] {
        let rules = parse_game(game).unwrap();
        let board = GravityBoard::<u64>::for_rules(&rules).unwrap();
        for _ in 0..6 {
            let stones = rng.random_range(0..=4);
            let pos = board.from_position(&random_position(&rules, &mut rng, stones)).unwrap();
            let exact = GravitySolver::new(&board, 1 << 20).score(&pos, &Meter::default()).unwrap();
            for nodes in [5_000, 20_000, 60_000, 200_000, 600_000] {
                for value_only in [false, true] {
                    let mut solver = GravitySolver::new(&board, 1 << 20);
                    solver.set_threads(threads);
                    let meter = Meter::new(Budget::default().with_max_nodes(nodes));
                    let found = if value_only {
                        solver.value(&pos, &meter).map(|v| v.as_i8() as i32)
                    } else {
                        solver.score(&pos, &meter)
                    };
                    let b = solver.proven_score();
                    let what = format!("{game} {pos:?} {nodes} nodes, value only: {value_only}");
                    assert!(b.at_least <= exact && exact <= b.at_most, "{what}: {b:?}, {exact}");
                    match found {
                        Ok(score) if value_only => assert_eq!(score, exact.signum(), "{what}"),
                        Ok(score) => {
                            assert_eq!(score, exact, "{what}");
                            assert_eq!((b.at_least, b.at_most), (exact, exact), "{what}");
                        }
                        Err(_) => {
                            narrowed += usize::from(b.at_least > -(board.cells() as i32) / 2);
                            if let Some(v) = b.value() {
                                assert_eq!(v.as_i8() as i32, exact.signum(), "{what}");
                                told_value += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        narrowed >= 5 && told_value >= 3,
        "{narrowed} stops narrowed, {told_value} told the value"
    );
}
