//! Every text parser of xo-core on arbitrary input: game names (`parse_game`), rules files
//! (`Rules::from_toml`), positions (`Setup::parse`, then `Setup::validate`) for several games,
//! octal codes (`OctalGame`'s `FromStr`) and LOL strips (`LolStrip::parse`). The property is that
//! none of them panics: any result, `Ok` or `Err`, is fine. Inputs are arbitrary strings and
//! bytes, and strings built from each parser's own alphabet with digits, separators, huge numbers
//! and non-ASCII characters, so that most of them get past the first character.
//!
//! Where a parse succeeds, the cheap follow-ups a caller would make run too (validation, the
//! bitboard for small boards, printing an octal code back), since a parser that accepts what the
//! rest cannot handle is a bug of the same kind.

use proptest::prelude::*;
use xo_core::game::GameTree;
use xo_core::games::board::Board;
use xo_core::games::lol::LolStrip;
use xo_core::games::octal::OctalGame;
use xo_core::rules::{parse_game, Rules, Setup};

/// Numbers that overflow, sit on a boundary or are not plain digits.
const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "3",
    "7",
    "64",
    "65",
    "-1",
    "+3",
    "4294967295",
    "4294967296",
    "16777216",
    "18446744073709551616",
    "99999999999999999999",
    "1e3",
    "0x10",
    "３",
];

/// Odd characters: non-ASCII letters and digits, control characters, a byte-order mark, a
/// right-to-left override, a four-byte character.
const ODD: [&str; 12] =
    ["é", "ß", "Ö", "ǅ", "٣", "𝟘", "\u{0}", "\u{7f}", "\u{feff}", "\u{202e}", "\u{1F600}", "ﬃ"];

/// A string of 0 to `max` pieces, each a token of `tokens`, a number, an odd character or a
/// separator.
fn built_from(tokens: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(tokens),
        2 => prop::sample::select(&NUMBERS[..]),
        1 => prop::sample::select(&ODD[..]),
        2 => prop::sample::select(&[":", ",", ".", " ", "\t", "\n", "\r\n", "=", "-", "_"][..]),
    ];
    prop::collection::vec(piece, 0..=max).prop_map(|p| p.concat())
}

/// Arbitrary text: any string, any printable-ish text, or text built from `tokens`.
fn text(tokens: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), ".*", "[0-9:,. a-z-]{0,24}", built_from(tokens, max),]
}

const GAME_TOKENS: [&str; 18] = [
    "tictactoe",
    "ttt",
    "connect4",
    "connect",
    "mnk",
    "lol",
    "sos",
    "treblecross",
    "kayles",
    "mnk:",
    "connect:",
    "lol:",
    "sos:",
    "treblecross:",
    "3,3,3",
    "7,6,4",
    "100000,100000,3",
    "4096,4096,64",
];

const TOML_TOKENS: [&str; 32] = [
    "width = ",
    "height = ",
    "gravity = true",
    "gravity = false",
    "misere = true",
    "marks = \"own\"",
    "marks = \"shared\"",
    "marks = \"same\"",
    "marks = ",
    "alphabet = \"SO\"",
    "alphabet = \"LO\"",
    "alphabet = \"ss\"",
    "alphabet = \"\"",
    "alphabet = \"é\"",
    "mark = \"X\"",
    "mark = \"\"",
    "word = \"SOS\"",
    "word = \"LOL\"",
    "word = \"\"",
    "k = ",
    "name = \"x\"",
    "name = ",
    "\n",
    "\n",
    "\"",
    "'",
    "[",
    "]",
    "[[a]]",
    "#",
    "{",
    "unknown = 1",
];

const POSITION_TOKENS: [&str; 14] =
    [".", "*", "X", "O", "x", "o", "L", "S", "Q", "l", "...", "XO", " ", "\n"];

const OCTAL_TOKENS: [&str; 18] = [
    "0.",
    "4.",
    "8.",
    ".",
    "0",
    "7",
    "3",
    "f",
    "F",
    "g",
    "kayles",
    "Dawson-Kayles",
    "treblecross",
    "octal:",
    "0.007",
    "0.77",
    "00000000000000000000000000000000",
    "7777777777777777777777777777777",
];

/// A number: small, or one of [`NUMBERS`].
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..80).prop_map(|n| n.to_string()),
        prop::sample::select(&NUMBERS[..]).prop_map(String::from)
    ]
}

/// `BASE:N,N,...` with one to four numbers, sometimes spaced, or a bare base.
fn game_name() -> impl Strategy<Value = String> {
    let base = prop::sample::select(
        &["mnk", "connect", "lol", "sos", "treblecross", "tictactoe", "connect4", "x"][..],
    );
    let sep = prop::sample::select(&[",", ", ", " ,", ",,", ";"][..]);
    let numbers = prop::collection::vec((number(), sep), 1..=4).prop_map(|v| {
        let mut s = String::new();
        for (i, (n, sep)) in v.iter().enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(n);
        }
        s
    });
    (base, prop::option::of(numbers)).prop_map(|(b, n)| match n {
        Some(n) => format!("{b}:{n}"),
        None => b.to_string(),
    })
}

/// A rules file whose fields, each present or not, have values of the right kind mostly
/// (and sometimes of the wrong kind or out of range).
fn rules_file() -> impl Strategy<Value = String> {
    let quoted = |values: &'static [&'static str]| {
        prop_oneof![
            4 => prop::sample::select(values).prop_map(|v| format!("{v:?}")),
            1 => "\"[A-Za-zé ]{0,4}\"",
            1 => number(),
        ]
    };
    let boolean = prop_oneof![Just("true".to_string()), Just("false".to_string()), number()];
    let small = || prop_oneof![3 => (1u32..10).prop_map(|n| n.to_string()), 1 => number()];
    let fields = (
        prop::option::weighted(0.95, small()),
        prop::option::of(small()),
        prop::option::of(boolean.clone()),
        prop::option::weighted(0.95, quoted(&["own", "same", "Own", "", "shared"])),
        prop::option::of(quoted(&["SO", "LO", "so", "ss", "S", "SOX", ""])),
        prop::option::of(quoted(&["X", "q", "XX", ""])),
        prop::option::of(small()),
        prop::option::of(quoted(&["SOS", "LOL", "sos", "S", "XXX", "SOX", ""])),
        prop::option::of(boolean),
        prop::option::of(quoted(&["a game", ""])),
    );
    fields.prop_map(|(width, height, gravity, marks, alphabet, mark, k, word, misere, name)| {
        let keys = [
            "width", "height", "gravity", "marks", "alphabet", "mark", "k", "word", "misere",
            "name",
        ];
        let values = [width, height, gravity, marks, alphabet, mark, k, word, misere, name];
        keys.iter().zip(values).filter_map(|(k, v)| v.map(|v| format!("{k} = {v}\n"))).collect()
    })
}

/// A rules file assembled line by line from fields with arbitrary values.
fn toml_text() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        prop::sample::select(&NUMBERS[..]).prop_map(String::from),
        prop::sample::select(&["true", "false", "\"own\"", "\"SO\"", "\"\"", "[]", "1.5"][..])
            .prop_map(String::from),
        "\"[A-Za-zé]{0,4}\"",
    ];
    let key = prop::sample::select(
        &["width", "height", "gravity", "marks", "alphabet", "mark", "k", "word", "misere", "name"]
            [..],
    );
    let line = (key, value).prop_map(|(k, v)| format!("{k} = {v}"));
    prop_oneof![
        1 => text(&TOML_TOKENS, 24),
        1 => prop::collection::vec(line, 0..10).prop_map(|l| l.join("\n")),
        3 => rules_file(),
    ]
}

/// Small rules, plus cheap checks a caller makes once rules are accepted.
fn use_rules(rules: &Rules) {
    let _ = rules.to_setup().validate();
    let _ = rules.alphabet();
    if rules.cells() <= 64
        && let Ok(board) = Board::new(rules)
    {
        let start = board.start();
        let _ = GameTree::outcome(&board, &start);
        let mut moves = Vec::new();
        GameTree::moves(&board, &start, &mut moves);
    }
}

/// About a board's worth of cells (0 to 45) over marks of every game, with some whitespace.
fn position_text() -> impl Strategy<Value = String> {
    let cells = prop_oneof![
        prop::collection::vec(prop::sample::select(&['.', '.', '.', 'X', 'O'][..]), 0..46),
        prop::collection::vec(
            prop::sample::select(&['.', '*', 'L', 'O', 'S', 'Q', 'x', ' '][..]),
            0..46
        ),
        prop::collection::vec(
            prop::sample::select(&['.', 'X', 'O', 'é', '\n', '\u{0}'][..]),
            0..46
        ),
    ];
    cells.prop_map(|c| c.into_iter().collect())
}

fn games_for_positions() -> Vec<Rules> {
    let mut games: Vec<Rules> =
        ["tictactoe", "connect4", "lol:7", "sos:5", "treblecross:9", "mnk:4,4,4"]
            .iter()
            .map(|n| parse_game(n).unwrap())
            .collect();
    games.push(
        Rules::from_toml(
            "width = 3\nheight = 2\nmarks = \"same\"\nmark = \"Q\"\nk = 2\ngravity = true",
        )
        .unwrap(),
    );
    games
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10000, ..ProptestConfig::default() })]

    #[test]
    fn parse_game_never_panics(name in prop_oneof![text(&GAME_TOKENS, 6), game_name()]) {
        if let Ok(rules) = parse_game(&name) {
            use_rules(&rules);
        }
    }

    #[test]
    fn rules_from_toml_never_panics(file in toml_text()) {
        if let Ok(rules) = Rules::from_toml(&file) {
            prop_assert!(rules.to_setup().validate().is_ok(), "from_toml accepted invalid rules: {:?}", rules);
            use_rules(&rules);
        }
    }

    #[test]
    fn setup_parse_never_panics(
        game in 0usize..7,
        position in prop_oneof![text(&POSITION_TOKENS, 48), position_text()],
    ) {
        let rules = &games_for_positions()[game];
        if let Ok(setup) = Setup::parse(rules, &position) {
            let _ = setup.to_text(rules);
            if let Ok(pos) = setup.validate(rules) {
                let board = Board::new(rules).unwrap();
                let bits = board.encode(&pos).unwrap();
                let _ = GameTree::outcome(&board, &bits);
                let _ = GameTree::outcome(rules, &pos);
            }
        }
    }

    #[test]
    fn setup_parse_of_near_legal_positions_never_panics(
        game in 0usize..7,
        choices in prop::collection::vec(any::<u32>(), 0..42),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(&[".", "X", "O", "L", "S", "Q", "*", " ", "", "é", "XX"][..])), 0..3),
    ) {
        // The text of a position reached by legal moves, with up to two cells rewritten.
        let rules = &games_for_positions()[game];
        let mut pos = rules.start();
        let mut moves = Vec::new();
        for c in choices {
            moves.clear();
            rules.moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = rules.play(&pos, moves[c as usize % moves.len()]);
        }
        let mut chars: Vec<String> = pos.to_text().chars().map(String::from).collect();
        for (at, replacement) in edits {
            let i = at.index(chars.len());
            chars[i] = replacement.to_string();
        }
        let text: String = chars.concat();
        if let Ok(setup) = Setup::parse(rules, &text)
            && let Ok(pos) = setup.validate(rules) {
                let board = Board::new(rules).unwrap();
                prop_assert_eq!(GameTree::outcome(&board, &board.encode(&pos).unwrap()), GameTree::outcome(rules, &pos), "{}", text);
            }
    }

    #[test]
    fn octal_codes_never_panic(
        code in prop_oneof![text(&OCTAL_TOKENS, 8), "(octal:)?[0-9a-gA-G]?\\.[0-9a-gA-G]{0,70}"],
    ) {
        if let Ok(game) = code.parse::<OctalGame>() {
            // What is accepted prints back as a code that reads as the same game.
            let printed = game.to_string();
            prop_assert_eq!(printed.parse::<OctalGame>(), Ok(game), "{:?} printed {:?}", code, printed);
        }
    }

    #[test]
    fn lol_strips_never_panic(
        bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..40),
            prop::collection::vec(prop::sample::select(&b"*.LOlo \r\n\0\xff"[..]), 0..40),
            any::<String>().prop_map(String::into_bytes),
        ]
    ) {
        if let Ok(strip) = LolStrip::parse(&bytes) {
            prop_assert_eq!(strip.len(), bytes.len());
            let _ = strip.has_lol();
            let _ = strip.to_text();
        }
    }
}
