//! The one entry point (`xo_core::query`) against plain references: whichever engine the query
//! chooses (negamax, the LOL component solver, Treblecross by Grundy values, octal sums with
//! periods), its report must agree with plain minimax on the rules, or with the plain mex, on
//! random positions; and the choice itself must be the one the issue asks for.

use rand::{rngs::StdRng, Rng, SeedableRng};
use xo_core::budget::{Budget, Limit, Meter};
use xo_core::game::GameTree as _;
use xo_core::query::{answer, Answer, Engine, Game, InputError, Query, Question, SolveReport};
use xo_core::request::Request;
use xo_core::rules::{parse_game, parse_move, Position, Rules};
use xo_core::solve::grundy::nim_sequence_plain;
use xo_core::solve::minimax::plain_score;
use xo_core::threads::Runner;
use xo_core::Value;

/// A query through the one way in: `question` about `position` of `game`.
fn query(game: &str, position: Option<&str>, question: Question) -> Result<Query, InputError> {
    let mut request = Request::new(game).asking(question);
    request.position = position.map(str::to_string);
    request.prepare(&[], Runner::Pool)
}

fn solve(query: &Query) -> SolveReport {
    match answer(query, &Meter::new(Budget::default())).expect("within the default budget") {
        Answer::Solve(r) => r,
        other => panic!("not a solve report: {other:?}"),
    }
}

/// A random position after a random number of random legal moves (it may be finished), with at
/// most 7 empty cells (6 where the mover picks letters) so that plain minimax stays quick.
fn random_position(rules: &Rules, rng: &mut StdRng) -> Position {
    let most_empty = if rules.alphabet().len() > 1 && *rules.marks() != xo_core::rules::Marks::Own {
        6
    } else {
        7
    };
    let least = rules.cells().saturating_sub(most_empty);
    xo_test_support::positions::random_play(rules, rng.random_range(least..rules.cells()), rng)
}

/// Every move in the report is a legal move of the position, listed once, in board order, with
/// the value (and remoteness, where told) plain minimax gives the position after it.
fn check_report(rules: &Rules, pos: &Position, report: &SolveReport, remoteness: bool) {
    let text = pos.to_text();
    let want = plain_score(rules, pos);
    assert_eq!(report.value, Some(want.value), "{} {text}", rules.name());
    if remoteness {
        assert_eq!(report.remoteness, Some(want.remoteness), "{} {text}", rules.name());
    }
    let moves = report.moves.as_ref().expect("moves listed");
    let mut legal = Vec::new();
    rules.moves(pos, &mut legal);
    if rules.outcome(pos).is_none() {
        assert_eq!(moves.len(), legal.len(), "{} {text}: every legal move once", rules.name());
    }
    let mut last = None;
    for m in moves {
        let mv = parse_move(rules, pos, &m.name).expect("a move name that reads back");
        let order = xo_core::rules::move_order(rules, mv);
        assert!(last < Some(order), "{} {text}: board order at {}", rules.name(), m.name);
        last = Some(order);
        let child = plain_score(rules, &rules.play(pos, (mv.cell as usize, mv.mark)));
        assert_eq!(m.value, -child.value, "{} {text} move {}", rules.name(), m.name);
        if remoteness {
            assert_eq!(
                m.remoteness,
                Some(child.remoteness + 1),
                "{} {text} {}",
                rules.name(),
                m.name
            );
        }
    }
}

#[test]
fn every_engine_agrees_with_plain_minimax_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(10);
    let games = [
        ("tictactoe", Engine::Negamax),
        ("mnk:4,3,3", Engine::Negamax),
        ("connect:4,4,3", Engine::Gravity),
        ("sos:8", Engine::Negamax),
        ("lol:9", Engine::Negamax),
        // Issue 20: short strips are searched (exact remoteness); Grundy values take over past
        // TREBLECROSS_SEARCH_CELLS (tests/request.rs checks them against the search).
        ("treblecross:11", Engine::Negamax),
    ];
    for (name, engine) in games {
        let rules = parse_game(name).unwrap();
        for _ in 0..40 {
            let pos = random_position(&rules, &mut rng);
            let text = pos.to_text();
            let q = Request::new(name)
                .at(&text)
                .asking(Question::Analysis { winning_only: false })
                .prepare(&[], Runner::Pool);
            let q = q.unwrap();
            assert_eq!(q.engine(), engine, "{name}");
            check_report(
                &rules,
                &pos,
                &solve(&q),
                matches!(engine, Engine::Negamax | Engine::Gravity),
            );
            // Only the winning moves, when asked: exactly those of the full list.
            let winning = Request::new(name)
                .at(&text)
                .asking(Question::Analysis { winning_only: true })
                .prepare(&[], Runner::Pool);
            let winning = solve(&winning.unwrap()).moves.unwrap();
            let all = solve(&q).moves.unwrap();
            let expect: Vec<_> = all.into_iter().filter(|m| m.value == Value::Win).collect();
            assert_eq!(winning, expect, "{name} {text}");
        }
    }
}

#[test]
fn the_lol_component_solver_agrees_with_plain_minimax_move_by_move() {
    // Strips over 64 cells use the component solver for the moves too; on short strips the
    // same code path is forced by asking for the value only and for each child.
    let mut rng = StdRng::seed_from_u64(11);
    let rules = parse_game("lol:9").unwrap();
    for _ in 0..60 {
        let pos = random_position(&rules, &mut rng);
        let text = pos.to_text();
        let q = Request::new("lol:9")
            .at(&text)
            .asking(Question::Value)
            .prepare(&[], Runner::Pool)
            .unwrap();
        assert_eq!(q.engine(), Engine::LolComponents);
        assert_eq!(solve(&q).value, Some(plain_score(&rules, &pos).value), "lol {text}");
    }
    // A long strip: every move's value from the component solver, checked against the value of
    // the child position from the same entry point. Mostly O's, with 16 empty cells and a few
    // L's, so that each solve is quick.
    let long: String = (0..70)
        .map(|i| match (i * 37 + 11) % 70 {
            k if k < 16 => '.',
            k if k % 9 == 0 => 'L',
            _ => 'O',
        })
        .collect();
    let q = Request::new("lol")
        .at(&long)
        .asking(Question::Analysis { winning_only: false })
        .prepare(&[], Runner::Pool)
        .unwrap();
    assert_eq!((q.game().name(), q.engine()), ("lol:70".to_string(), Engine::LolComponents));
    let report = solve(&q);
    let moves = report.moves.unwrap();
    assert_eq!(moves.len(), 2 * 16, "{long}");
    for m in &moves {
        let rules = parse_game("lol:70").unwrap();
        let pos = q.position().unwrap();
        let mv = parse_move(&rules, pos, &m.name).unwrap();
        let child = rules.play(pos, (mv.cell as usize, mv.mark)).to_text();
        let c = Request::new("lol:70")
            .at(&child)
            .asking(Question::Value)
            .prepare(&[], Runner::Pool)
            .unwrap();
        assert_eq!(Some(m.value), solve(&c).value.map(|v| -v), "move {}", m.name);
    }
}

#[test]
fn octal_sums_agree_with_the_plain_mex_and_use_proven_periods() {
    // Kayles (period 12 from 71) and Dawson's Kayles (period 34 from 52): heaps far beyond the
    // computed values are looked up in the period, and agree with the plain definition where it
    // can be computed.
    for (name, code) in [("kayles", "0.77"), ("dawson-kayles", "0.07")] {
        let plain = nim_sequence_plain(&code.parse().unwrap(), 3000);
        let mut rng = StdRng::seed_from_u64(12);
        for _ in 0..30 {
            let heaps: Vec<usize> =
                (0..rng.random_range(1..4)).map(|_| rng.random_range(0..3000)).collect();
            let text: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
            let q = Request::new(name)
                .at(&text.join(" "))
                .asking(Question::Analysis { winning_only: true })
                .prepare(&[], Runner::Pool);
            let r = solve(&q.unwrap());
            let want: Vec<u32> = heaps.iter().map(|&h| plain[h]).collect();
            assert_eq!(r.heap_values.as_ref(), Some(&want), "{name} {heaps:?}");
            let nim = want.iter().fold(0, |a, v| a ^ v);
            assert_eq!(r.value, Some(if nim == 0 { Value::Loss } else { Value::Win }));
            // Every winning move leaves a sum of nim-sum zero.
            for m in r.winning_moves.unwrap() {
                let mut rest: Vec<u32> = want.clone();
                rest[m.heap - 1] = m.leaves.iter().fold(0, |a, &l| a ^ plain[l]);
                assert_eq!(rest.iter().fold(0, |a, v| a ^ v), 0, "{name} {heaps:?} {m:?}");
            }
        }
        // A million tokens: answered from the period, at once, with a tiny node budget to spare.
        let q = Request::new(name)
            .at("1000000 999999")
            .asking(Question::Value)
            .prepare(&[], Runner::Pool)
            .unwrap();
        let r = answer(
            &q,
            &Meter::new(Budget::default().with_timeout(std::time::Duration::from_secs(5))),
        );
        assert!(r.is_ok(), "{name}: {r:?}");
    }
}

#[test]
fn the_engine_is_chosen_by_the_game_and_the_question() {
    let engine = |g: &str, p: Option<&str>, q| query(g, p, q).unwrap().engine();
    let analysis = Question::Analysis { winning_only: false };
    assert_eq!(engine("treblecross:40", None, analysis), Engine::TreblecrossGrundy);
    assert_eq!(engine("treblecross:1000000", None, Question::Value), Engine::TreblecrossGrundy);
    assert_eq!(engine("lol:30", None, Question::Value), Engine::LolComponents);
    assert_eq!(engine("lol:30", None, analysis), Engine::Negamax);
    assert_eq!(engine("lol:100", None, analysis), Engine::LolComponents);
    assert_eq!(engine("sos:1000", None, Question::Value), Engine::LolComponents);
    assert_eq!(engine("connect4", None, analysis), Engine::Gravity);
    assert_eq!(engine("kayles", Some("5 7"), analysis), Engine::HeapsGrundy);
    assert_eq!(
        engine("tictactoe", None, Question::Count { by_length: false, dense: false }),
        Engine::Census
    );
    assert_eq!(engine("tictactoe", Some("XXX......"), Question::Reach), Engine::Retrograde);
    // No engine: refused before anything is allocated.
    for (g, q) in
        [("mnk:2000,2000,5", analysis), ("mnk:9,9,5", Question::Reach), ("kayles", Question::Reach)]
    {
        assert!(Request::new(g).asking(q).prepare(&[], Runner::Pool).is_err(), "{g}");
    }
    // The same name means the same game everywhere; octal codes in every form.
    assert_eq!(Game::parse("0.77").unwrap(), Game::parse("kayles").unwrap());
    assert_eq!(Game::parse("octal:.77").unwrap(), Game::parse("kayles").unwrap());
    assert_eq!(Game::parse("treblecross").unwrap().octal(), Game::parse(".007").unwrap().octal());
}

#[test]
fn treblecross_of_forty_cells_is_instant_and_right() {
    // It took 15 s by negamax; by Grundy values it takes microseconds. The value of the empty
    // strip of n cells is a win exactly when g(n + 2) of .007 is not zero (the whole strip is one
    // free run of n cells, a heap of n + 2).
    let g = nim_sequence_plain(&".007".parse().unwrap(), 102);
    for n in [40usize, 50, 65, 100] {
        let q = Request::new(&format!("treblecross:{n}"))
            .asking(Question::Value)
            .prepare(&[], Runner::Pool)
            .unwrap();
        let meter = Meter::new(Budget::default().with_max_nodes(1_000_000));
        let Ok(Answer::Solve(r)) = answer(&q, &meter) else { panic!("treblecross:{n}") };
        assert_eq!(r.value, Some(if g[n + 2] != 0 { Value::Win } else { Value::Loss }), "{n}");
    }
}

#[test]
fn every_engine_stops_at_every_limit() {
    let analysis = Question::Analysis { winning_only: false };
    let cases = [
        ("connect4", None, analysis),
        ("lol:60", None, Question::Value),
        ("mnk:5,5,4", None, Question::Count { by_length: false, dense: false }),
    ];
    for (game, position, question) in cases {
        let q = query(game, position, question).unwrap();
        let nodes = answer(&q, &Meter::new(Budget::default().with_max_nodes(100))).unwrap_err();
        assert_eq!(nodes.limit, Limit::Nodes, "{game}");
        let time = Budget::default().with_timeout(std::time::Duration::ZERO);
        assert_eq!(answer(&q, &Meter::new(time)).unwrap_err().limit, Limit::Time, "{game}");
        let memory = Budget::default().with_memory(1 << 10);
        assert_eq!(answer(&q, &Meter::new(memory)).unwrap_err().limit, Limit::Memory, "{game}");
        // The unknown answer keeps the shape of the known one, and says why.
        let json = serde_json::to_value(q.unanswered(&nodes)).unwrap();
        assert_eq!(json["stopped"]["limit"], "nodes");
        assert!(json["reason"].as_str().unwrap().contains("node budget"));
    }
    // The reachability check and Grundy values too.
    let q = Request::new("mnk:4,4,4")
        .at("XOXOXOXO........")
        .asking(Question::Reach)
        .prepare(&[], Runner::Pool)
        .unwrap();
    let stop = answer(&q, &Meter::new(Budget::default().with_max_nodes(1))).unwrap_err();
    assert_eq!(stop.limit, Limit::Nodes);
    let q = Request::new("octal:0.007")
        .at("50000000")
        .asking(Question::Value)
        .prepare(&[], Runner::Pool)
        .unwrap();
    let time = Budget::default().with_timeout(std::time::Duration::from_millis(50));
    assert_eq!(answer(&q, &Meter::new(time)).unwrap_err().limit, Limit::Time);
}

#[test]
fn a_gravity_strip_of_64_cells_is_played() {
    // Found by the rules-file fuzzer: the bitboard shifted by the width (64) to find the cells
    // above the bottom row.
    let rules = Rules::from_toml("width = 64\ngravity = true\nmarks = \"own\"\nk = 2\n").unwrap();
    let q = Request::for_game(&Game::Placement(rules))
        .asking(Question::Value)
        .prepare(&[], Runner::Pool)
        .unwrap();
    let Ok(Answer::Solve(r)) = answer(&q, &Meter::new(Budget::default())) else { panic!() };
    // Sixty-four cells in a row, two in a row wins: X wins at once? No: X needs two of its own
    // marks, and O blocks; the strip fills. Plain minimax on a shorter strip says the same.
    let short = Rules::from_toml("width = 6\ngravity = true\nmarks = \"own\"\nk = 2\n").unwrap();
    assert_eq!(r.value, Some(plain_score(&short, &short.start()).value));
}

#[test]
fn a_stopped_gravity_score_tells_the_value_it_proved() {
    // The empty 6x4 board: a loss for the first player on the last stone (score -1). Its
    // searches prove "no win" ([0, 1]) and "a loss" ([-1, 0]) before the score itself.
    let q =
        Request::new("connect:6,4,4").asking(Question::Score).prepare(&[], Runner::Pool).unwrap();
    let (mut told, mut untold) = (0, 0);
    let mut nodes = 4_000u64;
    while nodes < 50_000_000 {
        match answer(&q, &Meter::new(Budget::default().with_max_nodes(nodes))) {
            Ok(Answer::Solve(r)) => {
                assert_eq!((r.value, r.score), (Some(Value::Loss), Some(-1)), "{nodes} nodes");
                break;
            }
            Ok(other) => panic!("not a solve report: {other:?}"),
            Err(stop) => {
                let report = match q.unanswered(&stop) {
                    Answer::Solve(r) => r,
                    other => panic!("not a solve report: {other:?}"),
                };
                let bounds = stop.proven;
                assert!(bounds.is_none_or(|b| b.at_least <= -1 && -1 <= b.at_most), "{stop}");
                assert_eq!(report.value, bounds.and_then(|b| b.value()), "{stop}");
                assert_eq!(report.remoteness, None);
                match report.value {
                    Some(v) => {
                        assert_eq!(v, Value::Loss, "{stop}");
                        assert!(stop.to_string().contains("proven: a loss"), "{stop}");
                        let json = serde_json::to_value(&report).unwrap();
                        assert_eq!(json["value"], "loss");
                        assert_eq!(json["stopped"]["proven"]["at_most"], -1);
                        told += 1;
                    }
                    None => untold += 1,
                }
            }
        }
        nodes = nodes * 5 / 4;
    }
    assert!(told >= 1 && untold >= 1, "{told} stops told the value, {untold} did not");
}
