//! One way in, every output safe (#46): a [`Position`] knows its rules, so the functions that
//! read a position for some rules refuse a position of another game instead of misreading its
//! cells; and [`Rules`] are only made by validating a [`RulesSetup`].

use xo_core::games::board::{Board, BoardPosition};
use xo_core::games::gravity::GravityBoard;
use xo_core::rules::{parse_game, parse_move, Goal, Position, Rules, RulesSetup, Setup};

/// A position of `name` from its text.
fn position(name: &str, text: &str) -> Position {
    let rules = parse_game(name).unwrap();
    Setup::parse(&rules, text).unwrap().validate(&rules).unwrap()
}

#[test]
fn a_board_refuses_a_position_of_another_game() {
    let ttt = position("tictactoe", "X.. .O. ...");
    for other in ["connect:3,3,3", "mnk:3,3,2", "lol:9", "mnk:9,1,3"] {
        let board = Board::new(&parse_game(other).unwrap()).unwrap();
        let err = board.encode(&ttt).unwrap_err();
        assert_eq!((err.found.as_str(), err.expected.as_str()), ("tictactoe", other));
    }
    let misere = Board::new(&parse_game("tictactoe").unwrap().with_misere(true)).unwrap();
    assert!(misere.encode(&ttt).is_err());
    // The same game under another name reads the same cells.
    let same = Board::new(&parse_game("mnk:3,3,3").unwrap().renamed("noughts")).unwrap();
    assert_eq!(same.encode(&ttt), Ok(BoardPosition { a: 1, b: 1 << 4 }));
}

#[test]
fn the_gravity_engine_refuses_a_position_of_another_game() {
    let board = GravityBoard::new(7, 6, 4).unwrap();
    let c4 = Position::from_columns(&parse_game("connect4").unwrap(), "4453").unwrap();
    assert!(board.from_position(&c4).is_ok());
    for other in ["connect:7,6,5", "connect:6,7,4", "mnk:7,6,4"] {
        let rules = parse_game(other).unwrap();
        let pos = Setup::empty(&rules).validate(&rules).unwrap();
        assert!(board.from_position(&pos).is_err(), "{other}");
    }
}

#[test]
fn move_names_are_read_only_for_the_position_s_game() {
    let ttt = parse_game("tictactoe").unwrap();
    let pos = position("connect:3,3,3", "... ... X..");
    assert!(parse_move(&parse_game("connect:3,3,3").unwrap(), &pos, "2").is_some());
    assert_eq!(parse_move(&ttt, &pos, "2"), None);
}

#[test]
fn positions_of_different_games_differ() {
    let empty = |name: &str| position(name, &".".repeat(9));
    assert_ne!(empty("tictactoe"), empty("mnk:3,3,2"));
    assert_ne!(empty("tictactoe"), empty("connect:3,3,3"));
    assert_eq!(empty("tictactoe"), empty("mnk:3,3,3"));
    assert_eq!(empty("tictactoe").to_text(), ".........");
}

#[test]
fn rules_are_made_only_by_validating_a_setup() {
    let mut setup = parse_game("connect4").unwrap().to_setup();
    setup.goal = Goal::InRow(0);
    assert!(setup.clone().validate().is_err());
    setup.width = 0;
    setup.goal = Goal::InRow(4);
    assert!(setup.validate().is_err());
    let edited = RulesSetup { misere: true, ..parse_game("connect4").unwrap().to_setup() };
    let rules: Rules = edited.validate().unwrap();
    assert_eq!(rules, parse_game("connect4").unwrap().with_misere(true));
    // A literal `Rules { .. }` or a field write does not compile: see the `compile_fail`
    // examples on `Rules`.
}
