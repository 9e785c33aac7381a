//! The negamax against Pascal Pons' published Connect 4 test sets (vendored in `tests/data/connect4`): each
//! line is a game so far (columns 1-7) and its score, positive when the player to move wins, and
//! larger the sooner: `(44 - e) / 2` for a game that ends with `e` discs on the board.

use xo_core::budget::Meter;
use xo_core::games::board::Board;
use xo_core::rules::parse_game;
use xo_core::solve::negamax::Searcher;
use xo_core::Value;

fn check(name: &str, take: usize) {
    let board = Board::new(&parse_game("connect4").unwrap()).unwrap();
    let mut searcher = Searcher::new(&board, 1 << 26);
    for (moves, want) in xo_test_support::pons::pons_set(name).into_iter().take(take) {
        let pos = board.play_columns(&moves).expect("a legal game");
        let s = searcher.score(&pos, &Meter::unlimited()).unwrap();
        let end = (pos.plies() + s.remoteness) as i32;
        let got = match s.value {
            Value::Win => (44 - end) / 2,
            Value::Loss => -(44 - end) / 2,
            Value::Draw => 0,
        };
        assert_eq!(got, want, "{name}: {moves}");
        assert_eq!(
            searcher.value(&pos, &Meter::unlimited()).unwrap(),
            s.value,
            "{name}: value of {moves}"
        );
    }
}

#[test]
fn end_game_positions_match_the_published_scores() {
    check("Test_L3_R1", 1000);
}

#[test]
fn middle_game_positions_match_the_published_scores() {
    check("Test_L2_R1", 300);
}
