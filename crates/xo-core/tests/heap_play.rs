//! Playing octal games through the one entry point (moves, after, best) against the plain
//! search of heap sums ([`HeapSearch`]) on many random sums of several games.

use xo_core::budget::Meter;
use xo_core::games::octal::OctalGame;
use xo_core::query::{answer, Answer, Question};
use xo_core::request::Request;
use xo_core::solve::heaps::HeapSearch;
use xo_core::threads::Runner;

/// A small deterministic generator (no seed to keep).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *state >> 33
}

fn ask(game: &str, heaps: &str, question: Question, mv: Option<&str>) -> Answer {
    let mut request = Request::new(game).at(heaps).asking(question);
    request.play = mv.map(str::to_string);
    let q = request.prepare(&[], Runner::Pool).unwrap();
    answer(&q, &Meter::default()).unwrap()
}

#[test]
fn moves_after_and_best_agree_with_the_plain_search() {
    let mut state = 7;
    for code in ["0.77", "0.07", "0.137", "4.7", "0.6", "0.8", "0.f3"] {
        let octal: OctalGame = code.parse().unwrap();
        let mut search = HeapSearch::new(&octal);
        for _ in 0..25 {
            let heaps: Vec<usize> =
                (0..1 + next(&mut state) % 3).map(|_| (next(&mut state) % 7) as usize).collect();
            let text = heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ");
            let game = format!("octal:{code}");
            let Answer::Moves(listed) = ask(&game, &text, Question::Moves, None) else { panic!() };
            // The reference: every move the search tries, named as the core names moves.
            let reference = search.moves(&heaps, &Meter::default()).unwrap();
            let names: Vec<String> = reference
                .iter()
                .map(|m| {
                    let leaves: Vec<String> = m.leaves.iter().map(|l| l.to_string()).collect();
                    let name = format!("{}:{}", m.heap + 1, m.removed);
                    if leaves.is_empty() {
                        name
                    } else {
                        format!("{name}:{}", leaves.join(","))
                    }
                })
                .collect();
            let got: Vec<&str> = listed.moves.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(got, names, "{game} {text}");
            assert_eq!(listed.over, reference.is_empty(), "{game} {text}");
            for m in &listed.moves {
                let Answer::After(a) = ask(&game, &text, Question::After, Some(&m.name)) else {
                    panic!()
                };
                assert_eq!((a.name.as_str(), a.after.as_str()), (m.name.as_str(), &*m.position));
                let children = search.moves(&heaps_of(&a.after), &Meter::default()).unwrap();
                assert_eq!(a.over, children.is_empty(), "{game} {text} {}", m.name);
            }
            let Answer::Best(best) = ask(&game, &text, Question::Best, None) else { panic!() };
            let position = search.score(&heaps, &Meter::default()).unwrap();
            match best.best {
                None => assert!(reference.is_empty(), "{game} {text}: no best move"),
                Some(b) => {
                    assert!(best.proven);
                    assert_eq!(b.value, position.value, "{game} {text}");
                    assert_eq!(b.remoteness, Some(position.remoteness), "{game} {text}");
                    // The first of the best, by the one tie rule.
                    let first = reference.iter().position(|m| m.scored == position).unwrap();
                    assert_eq!(b.name, names[first], "{game} {text}");
                }
            }
        }
    }
}

fn heaps_of(text: &str) -> Vec<usize> {
    text.split_whitespace().map(|h| h.parse().unwrap()).collect()
}

#[test]
fn large_sums_get_a_winning_move_from_grundy_values_and_refuse_listing() {
    let Answer::Best(best) = ask("kayles", "1000000 999", Question::Best, None) else { panic!() };
    let b = best.best.unwrap();
    assert_eq!((b.value, b.remoteness), (xo_core::Value::Win, None));
    // The move it names is legal and leaves a lost sum: nim-sum 0.
    let Answer::After(a) = ask("kayles", "1000000 999", Question::After, Some(&b.name)) else {
        panic!()
    };
    let Answer::Solve(after) = ask("kayles", &a.after, Question::Value, None) else { panic!() };
    assert_eq!(after.value, Some(xo_core::Value::Loss));
    let game = xo_core::query::Game::parse("kayles").unwrap();
    let listing =
        Request::for_game(&game).at("1000000").asking(Question::Moves).prepare(&[], Runner::Pool);
    assert!(listing.unwrap_err().to_string().contains("listed for at most"));
}
