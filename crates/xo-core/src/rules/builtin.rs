//! The built-in game names, each an instance of [`Rules`].

use super::parts::{Goal, Marks, RulesError};
use super::setup::{Rules, RulesSetup};

/// Default strip length for strip games named without a size.
const DEFAULT_STRIP: u32 = 16;

/// Reads a built-in game name: `tictactoe`, `mnk:M,N,K`, `connect:M,N,K`, `connect4`,
/// `treblecross[:N]`, `lol[:N]`, `sos[:N]` (N cells; 16 when omitted), or `NAME:SIZE` generally.
/// `M` is the number of columns and `N` of rows.
///
/// ```
/// use xo_core::rules::parse_game;
/// let c4 = parse_game("connect4").unwrap();
/// assert_eq!((c4.width(), c4.height(), c4.gravity()), (7, 6, true));
/// assert_eq!(parse_game("lol:30").unwrap().width(), 30);
/// assert!(parse_game("mnk:3,3").is_err());
/// assert!(parse_game("chess").is_err());
/// ```
pub fn parse_game(name: &str) -> Result<Rules, RulesError> {
    let unknown = || RulesError::UnknownGame(name.to_string());
    let (base, size) = match name.split_once(':') {
        Some((b, s)) => (b, Some(s)),
        None => (name, None),
    };
    let numbers = |s: &str, want: usize| -> Result<Vec<u32>, RulesError> {
        let what =
            if want == 1 { "a whole number".to_string() } else { format!("{want} whole numbers") };
        let v: Vec<u32> =
            s.split(',')
                .map(|p| p.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| RulesError::Invalid(format!("{name}: expected {what} after ':'")))?;
        if v.len() != want {
            return Err(RulesError::Invalid(format!(
                "{name}: expected {want} numbers after ':', found {}",
                v.len()
            )));
        }
        Ok(v)
    };
    let strip_len = |s: Option<&str>| -> Result<u32, RulesError> {
        s.map_or(Ok(DEFAULT_STRIP), |s| numbers(s, 1).map(|v| v[0]))
    };
    let grid = |w: u32, h: u32, k: u32, gravity: bool| RulesSetup {
        name: String::new(),
        width: w,
        height: h,
        gravity,
        marks: Marks::Own,
        goal: Goal::InRow(k),
        misere: false,
    };
    let strip = |n: u32, marks: Marks, goal: Goal| RulesSetup {
        name: String::new(),
        width: n,
        height: 1,
        gravity: false,
        marks,
        goal,
        misere: false,
    };
    let mut setup = match base {
        "tictactoe" | "ttt" if size.is_none() => grid(3, 3, 3, false),
        "connect4" if size.is_none() => grid(7, 6, 4, true),
        "mnk" => {
            let v = numbers(size.ok_or_else(unknown)?, 3)?;
            grid(v[0], v[1], v[2], false)
        }
        "connect" => {
            let v = numbers(size.ok_or_else(unknown)?, 3)?;
            grid(v[0], v[1], v[2], true)
        }
        "treblecross" => strip(strip_len(size)?, Marks::Same('X'), Goal::InRow(3)),
        "lol" => {
            strip(strip_len(size)?, Marks::Shared(vec!['L', 'O']), Goal::Word(vec!['L', 'O', 'L']))
        }
        "sos" => {
            strip(strip_len(size)?, Marks::Shared(vec!['S', 'O']), Goal::Word(vec!['S', 'O', 'S']))
        }
        _ => return Err(unknown()),
    };
    let k = match setup.goal {
        Goal::InRow(k) => k,
        Goal::Word(ref w) => w.len() as u32,
    };
    setup.name = match base {
        "mnk" | "connect" => format!("{base}:{},{},{k}", setup.width, setup.height),
        "tictactoe" | "ttt" => "tictactoe".into(),
        "connect4" => "connect4".into(),
        _ => format!("{base}:{}", setup.width),
    };
    setup.validate()
}
