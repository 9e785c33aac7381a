//! The one request type and what it is prepared into, against plain references: Treblecross
//! strips get exact remoteness by search (plain minimax) up to the threshold and agree with the
//! search past it; the best move follows the one tie rule over plain minimax's move values; the
//! legal moves and the position after a move are the rules' own; columns played read back in
//! the one grammar; the request's fields are the same names in JSON and text parameters.

use rand::{rngs::StdRng, Rng, SeedableRng};
use xo_core::budget::{Budget, Meter};
use xo_core::game::GameTree as _;
use xo_core::games::board::Board;
use xo_core::query::{
    answer, Answer, Engine, Game, MoveReport, Query, Question, TREBLECROSS_SEARCH_CELLS,
};
use xo_core::request::{Ask, Request, FIELDS};
use xo_core::rules::{columns_text, parse_game, parse_move, Position, Rules};
use xo_core::solve::minimax::plain_score;
use xo_core::solve::negamax::Searcher;
use xo_core::threads::Runner;
use xo_core::value::preference;
use xo_core::Value;

/// Every move's value of a Treblecross strip (its length from the text), through the one way in.
fn treblecross_analysis(text: &str) -> Query {
    let analysis = Question::Analysis { winning_only: false };
    Request::new("treblecross").at(text).asking(analysis).prepare(&[], Runner::Pool).unwrap()
}

fn run(query: &Query) -> Answer {
    answer(query, &Meter::new(Budget::default())).expect("within the default budget")
}

/// A random position of `rules` after random legal moves, with at most `most_empty` empty
/// cells left when the game lasts that long.
fn random_position(rules: &Rules, most_empty: usize, rng: &mut StdRng) -> Position {
    let least = rules.cells().saturating_sub(most_empty);
    xo_test_support::positions::random_play(rules, rng.random_range(least..=rules.cells()), rng)
}

/// Plain minimax's value and remoteness of every legal move of `pos`, in board order.
fn plain_moves(rules: &Rules, pos: &Position) -> Vec<MoveReport> {
    let mut moves = Vec::new();
    rules.moves(pos, &mut moves);
    let named =
        |&(cell, mark): &(usize, u8)| xo_core::games::board::BoardMove { cell: cell as u8, mark };
    moves.sort_by_key(|m| xo_core::rules::move_order(rules, named(m)));
    moves
        .iter()
        .map(|m| {
            let child = plain_score(rules, &rules.play(pos, *m));
            MoveReport {
                name: xo_core::rules::move_name(rules, named(m)),
                value: -child.value,
                remoteness: Some(child.remoteness + 1),
                score: None,
                line: None,
            }
        })
        .collect()
}

#[test]
fn short_treblecross_strips_get_exact_remoteness_of_every_move() {
    let mut rng = StdRng::seed_from_u64(20);
    let mut checked = 0;
    for _ in 0..300 {
        let n = rng.random_range(3..=16);
        let rules = parse_game(&format!("treblecross:{n}")).unwrap();
        let pos = random_position(&rules, 8, &mut rng);
        let text = pos.to_text();
        let q = treblecross_analysis(&text);
        assert_eq!(q.engine(), Engine::Negamax, "{text}");
        let Answer::Solve(r) = run(&q) else { panic!("a solve report") };
        let want = plain_score(&rules, &pos);
        assert_eq!((r.value, r.remoteness), (Some(want.value), Some(want.remoteness)), "{text}");
        assert_eq!(r.moves.unwrap(), plain_moves(&rules, &pos), "{text}");
        checked += 1;
    }
    assert_eq!(checked, 300);
    // The regression of issue 20: the position and every move with their remoteness.
    let q = Request::new("treblecross:6")
        .at(".X..X.")
        .asking(Question::Analysis { winning_only: false })
        .prepare(&[], Runner::Pool);
    let Answer::Solve(r) = run(&q.unwrap()) else { panic!("a solve report") };
    assert!(r.remoteness.is_some() && r.moves.unwrap().iter().all(|m| m.remoteness.is_some()));
}

#[test]
fn grundy_values_take_over_past_the_threshold_and_agree_with_the_search() {
    let mut rng = StdRng::seed_from_u64(21);
    let at = |n: usize| {
        Request::new(&format!("treblecross:{n}"))
            .asking(Question::Value)
            .prepare(&[], Runner::Pool)
            .unwrap()
    };
    assert_eq!(at(TREBLECROSS_SEARCH_CELLS).engine(), Engine::Negamax);
    assert_eq!(at(TREBLECROSS_SEARCH_CELLS + 1).engine(), Engine::TreblecrossGrundy);
    for _ in 0..30 {
        let n = rng.random_range(TREBLECROSS_SEARCH_CELLS + 1..=40);
        let rules = parse_game(&format!("treblecross:{n}")).unwrap();
        let pos = random_position(&rules, 18, &mut rng);
        let text = pos.to_text();
        let q = treblecross_analysis(&text);
        assert_eq!(q.engine(), Engine::TreblecrossGrundy, "{text}");
        let Answer::Solve(r) = run(&q) else { panic!("a solve report") };
        // The search (itself tested against plain minimax) on the same strip.
        let board = Board::new(&rules).unwrap();
        let mut searcher = Searcher::new(&board, 1 << 22);
        let a = searcher.analyse(&board.encode(&pos).unwrap(), &Meter::unlimited()).unwrap();
        assert_eq!(r.value, Some(a.scored.value), "{text}");
        let mut want: Vec<(String, Value)> = a
            .moves
            .iter()
            .map(|m| (xo_core::rules::move_name(&rules, m.mv), m.scored.value))
            .collect();
        want.sort_by_key(|(name, _)| name.parse::<usize>().unwrap());
        let got: Vec<(String, Value)> =
            r.moves.unwrap().into_iter().map(|m| (m.name, m.value)).collect();
        assert_eq!(got, want, "{text}");
    }
}

#[test]
fn the_best_move_is_the_first_best_by_the_one_tie_rule() {
    let mut rng = StdRng::seed_from_u64(22);
    for name in ["tictactoe", "mnk:4,3,3", "connect:4,4,3", "lol:8", "treblecross:10", "sos:7"] {
        let rules = parse_game(name).unwrap();
        for _ in 0..40 {
            let pos = random_position(&rules, 6, &mut rng);
            let text = pos.to_text();
            let q = Request::for_game(&Game::Placement(rules.clone()))
                .at(&text)
                .asking(Question::Best)
                .prepare(&[], Runner::Pool)
                .unwrap();
            let Answer::Best(r) = run(&q) else { panic!("a best-move report") };
            assert!(r.proven, "{name} {text}");
            let moves = plain_moves(&rules, &pos);
            let top = moves.iter().map(|m| preference(m.value, m.remoteness)).max();
            let want = moves.iter().find(|m| Some(preference(m.value, m.remoteness)) == top);
            let key = |m: &MoveReport| (m.name.clone(), m.value, m.remoteness);
            assert_eq!(r.best.as_ref().map(key), want.map(key), "{name} {text}");
        }
    }
}

/// A solve report's JSON marks `"best": true` on exactly the moves tied best by the one rule,
/// among them the best-move question's answer, against plain minimax's move values, so that
/// the page (which used to rank moves itself, every draw alike) needs no rule of its own.
#[test]
fn the_report_marks_every_move_tied_best_by_the_one_rule() {
    let mut rng = StdRng::seed_from_u64(23);
    for name in ["tictactoe", "mnk:4,3,3", "connect:4,4,3", "lol:8", "treblecross:10", "sos:7"] {
        let rules = parse_game(name).unwrap();
        for _ in 0..30 {
            let pos = random_position(&rules, 6, &mut rng);
            let text = pos.to_text();
            let ask = |question| {
                let game = Game::Placement(rules.clone());
                run(&Request::for_game(&game)
                    .at(&text)
                    .asking(question)
                    .prepare(&[], Runner::Pool)
                    .unwrap())
            };
            let report = ask(Question::Analysis { winning_only: false });
            let json = serde_json::to_value(&report).unwrap();
            let moves = plain_moves(&rules, &pos);
            let top = moves.iter().map(|m| preference(m.value, m.remoteness)).max();
            let marked: Vec<&str> = json["moves"]
                .as_array()
                .map(|ms| {
                    ms.iter()
                        .filter(|m| m["best"] == serde_json::json!(true))
                        .map(|m| m["move"].as_str().unwrap())
                        .collect()
                })
                .unwrap_or_default();
            let want: Vec<&str> = moves
                .iter()
                .filter(|m| Some(preference(m.value, m.remoteness)) == top)
                .map(|m| m.name.as_str())
                .collect();
            assert_eq!(marked, want, "{name} {text}");
            if let Answer::Best(b) = ask(Question::Best) {
                let best = b.best.map(|m| m.name);
                assert_eq!(best.as_deref(), want.first().copied(), "{name} {text}");
            }
        }
    }
}

#[test]
fn over_the_budget_the_best_move_is_a_legal_unproven_one() {
    let q = Request::new("mnk:5,5,4")
        .at("XO.......................")
        .asking(Question::Best)
        .prepare(&[], Runner::Pool)
        .unwrap();
    let tiny = Meter::new(Budget::default().with_max_nodes(100));
    let Ok(Answer::Best(r)) = answer(&q, &tiny) else { panic!("a best move from the look-ahead") };
    assert!(!r.proven && r.stopped.is_some());
    let rules = parse_game("mnk:5,5,4").unwrap();
    let pos = xo_core::rules::Setup::parse(&rules, "XO.......................").unwrap();
    let pos = pos.validate(&rules).unwrap();
    assert!(parse_move(&rules, &pos, &r.best.unwrap().name).is_some());
    // Nothing worse than a move that wins at once: the look-ahead takes it, exactly.
    let q = Request::new("mnk:5,5,4")
        .at("XXX..OOO.................")
        .asking(Question::Best)
        .prepare(&[], Runner::Pool)
        .unwrap();
    let Ok(Answer::Best(r)) = answer(&q, &tiny) else { panic!("a best move") };
    let best = r.best.unwrap();
    assert_eq!((best.value, best.remoteness), (Value::Win, Some(1)));
}

#[test]
fn moves_and_after_are_the_rules_own() {
    let mut rng = StdRng::seed_from_u64(23);
    for name in ["tictactoe", "connect:5,4,4", "lol:7", "treblecross:9", "connect:12,2,4"] {
        let rules = parse_game(name).unwrap();
        for _ in 0..20 {
            let pos = random_position(&rules, rules.cells(), &mut rng);
            let text = pos.to_text();
            let game = Game::Placement(rules.clone());
            let q = Request::for_game(&game.clone())
                .at(&text)
                .asking(Question::Moves)
                .prepare(&[], Runner::Pool);
            let Answer::Moves(r) = run(&q.unwrap()) else { panic!("a moves report") };
            let mut legal = Vec::new();
            rules.moves(&pos, &mut legal);
            assert_eq!((r.moves.len(), r.over), (legal.len(), legal.is_empty()), "{name} {text}");
            for m in &r.moves {
                let mv = parse_move(&rules, &pos, &m.name).expect("a legal move's name");
                let after = rules.play(&pos, (mv.cell as usize, mv.mark));
                assert_eq!(m.position, after.to_text(), "{name} {text} {}", m.name);
                let q = Request::for_game(&game.clone())
                    .at(&text)
                    .asking(Question::After)
                    .playing(&m.name)
                    .prepare(&[], Runner::Pool);
                let Answer::After(a) = run(&q.unwrap()) else { panic!("an after report") };
                assert_eq!((a.after, a.name.as_str()), (m.position.clone(), m.name.as_str()));
            }
        }
    }
    let ttt = Game::parse("tictactoe").unwrap();
    for (pos, mv) in
        [("X........", "1"), ("X........", "10"), ("XXXOO....", "6"), (".........", "x")]
    {
        let err = Request::for_game(&ttt.clone())
            .at(pos)
            .asking(Question::After)
            .playing(mv)
            .prepare(&[], Runner::Pool);
        assert!(matches!(err, Err(xo_core::query::InputError::Request(_))), "{pos} {mv}");
    }
}

#[test]
fn columns_read_back_in_the_one_grammar() {
    let mut rng = StdRng::seed_from_u64(24);
    for name in ["connect4", "connect:12,3,4", "connect:10,2,3"] {
        let rules = parse_game(name).unwrap();
        for _ in 0..30 {
            // A random game as columns, and the position its moves make.
            let (mut pos, mut columns) = (rules.start(), Vec::new());
            for _ in 0..rng.random_range(0..rules.cells()) {
                let mut moves = Vec::new();
                rules.moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                columns.push(m.0 as u32 % rules.width());
                pos = rules.play(&pos, m);
            }
            let text = columns_text(rules.width(), &columns);
            assert_eq!(Position::from_columns(&rules, &text).unwrap(), pos, "{name} {text}");
            let mut r = Request::new(name);
            r.moves = Some(text.clone());
            assert_eq!(
                r.prepare(&[], xo_core::threads::Runner::Pool).unwrap().position(),
                Some(&pos),
                "{name} {text}"
            );
        }
    }
    // connect:12,2,4 --moves 11 is column 11, never column 1 twice; run-together digits past 9
    // columns are refused naming the grammar, as are letters.
    let wide = parse_game("connect:12,2,4").unwrap();
    assert_eq!(Position::from_columns(&wide, "11").unwrap().plies(), 1);
    let err = Position::from_columns(&wide, "113").unwrap_err().to_string();
    assert!(err.contains("separated by commas"), "{err}");
    assert!(Position::from_columns(&wide, "b").unwrap_err().to_string().contains("not a column"));
}

#[test]
fn a_request_has_the_same_fields_in_json_and_in_text_parameters() {
    let full = Request {
        game: Some("g".into()),
        rules: Some("r".into()),
        position: Some("p".into()),
        moves: Some("m".into()),
        question: Ask::Count,
        value_only: true,
        no_moves: true,
        winning: true,
        line: true,
        threats: true,
        by_length: true,
        dense: true,
        upto: Some(1),
        play: Some("1".into()),
        depth: Some(1),
        threads: Some(1),
        book: Some("b".into()),
        no_book: true,
        database: Some("d".into()),
        timeout: Some(1.0),
        max_nodes: Some(1),
        memory_mib: Some(1),
    };
    let json = serde_json::to_value(&full).unwrap();
    let mut names: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    let mut fields = FIELDS.to_vec();
    names.sort_unstable();
    fields.sort_unstable();
    assert_eq!(names, fields);
    // The same request read from text parameters.
    let pairs: Vec<(String, String)> = json
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().map_or(v.to_string(), str::to_string)))
        .collect();
    assert_eq!(Request::from_pairs(pairs).unwrap(), full);
    // Unknown fields are refused in both.
    assert!(serde_json::from_str::<Request>(r#"{"game":"tictactoe","plies":3}"#).is_err());
    assert!(Request::from_pairs([("plies".into(), "3".into())]).is_err());
    // Fields that do not fit the question are refused by name.
    let mut r = Request::new("tictactoe");
    r.upto = Some(5);
    assert!(r
        .prepare(&[], xo_core::threads::Runner::Pool)
        .unwrap_err()
        .to_string()
        .contains("'upto'"));
}

/// An octal game's sums as plain positions (heap sizes in order), with every move the digits
/// allow written out directly from the code: the reference the heap search is checked against.
struct PlainOctal(Vec<u8>);

impl xo_core::game::GameTree for PlainOctal {
    type Position = Vec<usize>;
    type Move = (usize, usize, [usize; 3]);

    fn start(&self) -> Vec<usize> {
        Vec::new()
    }

    fn moves(&self, pos: &Vec<usize>, out: &mut Vec<Self::Move>) {
        for (i, &h) in pos.iter().enumerate() {
            for (k, &d) in self.0.iter().enumerate() {
                if k > h {
                    break;
                }
                let rest = h - k;
                if k > 0 && d & 1 != 0 && rest == 0 {
                    out.push((i, k, [0, 0, 0]));
                }
                if k > 0 && d & 2 != 0 && rest > 0 {
                    out.push((i, k, [rest, 0, 0]));
                }
                if d & 4 != 0 {
                    out.extend((1..rest).map(|a| (i, k, [a, rest - a, 0])));
                }
                if d & 8 != 0 {
                    for a in 1..rest {
                        out.extend((1..rest - a).map(|b| (i, k, [a, b, rest - a - b])));
                    }
                }
            }
        }
    }

    fn play(&self, pos: &Vec<usize>, (i, _, leaves): Self::Move) -> Vec<usize> {
        let mut next = pos.clone();
        next.remove(i);
        next.extend(leaves.iter().filter(|&&l| l > 0));
        next
    }

    fn outcome(&self, pos: &Vec<usize>) -> Option<Value> {
        let mut moves = Vec::new();
        self.moves(pos, &mut moves);
        moves.is_empty().then_some(Value::Loss)
    }

    fn plies(&self, _: &Vec<usize>) -> u32 {
        0
    }
}

#[test]
fn small_octal_sums_get_remoteness_of_every_move_by_search() {
    let mut rng = StdRng::seed_from_u64(25);
    for code in ["0.77", "0.07", "0.137", "4.07", "0.007", "0.6", "0.51", "0.15"] {
        let game: xo_core::games::octal::OctalGame = code.parse().unwrap();
        let plain = PlainOctal(game.digits().to_vec());
        for _ in 0..20 {
            let heaps: Vec<usize> =
                (0..rng.random_range(1..=2)).map(|_| rng.random_range(0..=4)).collect();
            let text = heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ");
            let q = Request::new(code)
                .at(&text)
                .asking(Question::Analysis { winning_only: false })
                .prepare(&[], Runner::Pool);
            let Answer::Solve(r) = run(&q.unwrap()) else { panic!("a solve report") };
            let want = plain_score(&plain, &heaps);
            assert_eq!(
                (r.value, r.remoteness),
                (Some(want.value), Some(want.remoteness)),
                "{code} {text}"
            );
            // Every move once, each with plain minimax's value and remoteness of the sum after it.
            let mut legal = Vec::new();
            plain.moves(&heaps, &mut legal);
            let mut want: Vec<(usize, usize, Vec<usize>, Value, u32)> = legal
                .iter()
                .map(|&(i, k, leaves)| {
                    let child = plain_score(&plain, &plain.play(&heaps, (i, k, leaves)));
                    let mut left: Vec<usize> = leaves.into_iter().filter(|&l| l > 0).collect();
                    left.sort_unstable();
                    (i + 1, k, left, -child.value, child.remoteness + 1)
                })
                .collect();
            want.sort();
            want.dedup();
            let got: Vec<_> = r
                .heap_moves
                .unwrap()
                .into_iter()
                .map(|m| (m.heap, m.removed, m.leaves, m.value, m.remoteness))
                .collect();
            assert_eq!(got, want, "{code} {text}");
        }
    }
    // Past the threshold: Grundy values alone (no remoteness), for heaps of any size.
    let big = format!("{} 1", xo_core::query::OCTAL_SEARCH_TOKENS);
    let Answer::Solve(r) = run(&Request::new("kayles")
        .at(&big)
        .asking(Question::Value)
        .prepare(&[], Runner::Pool)
        .unwrap())
    else {
        panic!("a solve report")
    };
    assert!(r.remoteness.is_none() && r.heap_moves.is_none());
}

#[test]
fn asking_is_the_inverse_of_question() {
    // Request::asking puts a checked question back into the request's fields; reading them
    // again gives the same question, whatever the request asked before.
    let all = [
        Question::Value,
        Question::Score,
        Question::Analysis { winning_only: false },
        Question::Analysis { winning_only: true },
        Question::Count { by_length: true, dense: false },
        Question::Count { by_length: false, dense: true },
        Question::Reach,
        Question::Grundy { upto: 77 },
        Question::Moves,
        Question::After,
        Question::Best,
    ];
    for before in all {
        for q in all {
            let r = Request::new("tictactoe").at("X........").asking(before).asking(q);
            assert_eq!(r.question().unwrap(), q, "{before:?} then {q:?}");
        }
    }
    // A request read from JSON asks the same as one built with asking.
    let json: Request =
        serde_json::from_str(r#"{"game": "tictactoe", "question": "count", "dense": true}"#)
            .unwrap();
    let built = Request::new("tictactoe").asking(Question::Count { by_length: false, dense: true });
    assert_eq!(json, built);
}

/// `depth` (#45): the best move of a look-ahead that deep, a weaker player than the exact
/// answer, marked not proven; refused outside the best move of a placement game, and out of
/// range.
#[test]
fn a_look_ahead_of_the_depth_asked_gives_the_best_move() {
    use xo_core::query::{answer, Answer, Question};
    use xo_core::threads::Runner;
    let best = |game: &str, position: &str, depth: u32| {
        let mut r = Request::new(game).at(position).asking(Question::Best);
        r.depth = Some(depth);
        let q = r.prepare(&[], Runner::Pool).unwrap();
        let Answer::Best(report) = answer(&q, &Default::default()).unwrap() else { panic!() };
        report
    };
    // One ply sees X's win at once.
    let r = best("tictactoe", "XX.OO....", 1);
    assert_eq!(r.best.as_ref().unwrap().name, "3");
    assert!(!r.proven && r.look_ahead_plies == Some(1));
    assert!(r.reason.unwrap().contains("depth"));
    // Two plies see O's threat and block it; one ply does not look at O's replies.
    let r = best("tictactoe", "OO.XX....", 2);
    assert_eq!(r.best.unwrap().name, "6", "X wins at 6 at once");
    let r = best("tictactoe", "OO..X...X", 2);
    assert_eq!(r.best.unwrap().name, "3", "two plies see O's line and block it");
    // Connect Four from the empty board: a legal move from a shallow look-ahead.
    let r = best("connect4", &".".repeat(42), 3);
    assert!(r.look_ahead_plies.unwrap() <= 3 && r.best.is_some());
    let pairs = |p: &[(&str, &str)]| {
        Request::from_pairs(p.iter().map(|(a, b)| (a.to_string(), b.to_string())))
            .and_then(|r| r.prepare(&[], Runner::Pool))
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let err = pairs(&[("game", "tictactoe"), ("question", "best"), ("depth", "0")]);
    assert!(err.contains("1 to 64"), "{err}");
    let err = pairs(&[("game", "tictactoe"), ("question", "best"), ("depth", "65")]);
    assert!(err.contains("1 to 64"), "{err}");
    let err = pairs(&[("game", "tictactoe"), ("depth", "2")]);
    assert!(err.contains("depth"), "{err}");
    let err = pairs(&[("game", "kayles"), ("question", "best"), ("depth", "2")]);
    assert!(err.contains("placement games"), "{err}");
}
