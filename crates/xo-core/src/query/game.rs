//! What a question is asked about: a game named in text (or rules read from a file), what can
//! go wrong with it ([`InputError`]), and the names of the engines that answer.

use crate::games::octal::{OctalError, OctalGame};
use crate::rules::{parse_game, Goal, Marks, PositionError, Rules, RulesError};

/// A game: a placement game (built in, or rules the caller read from a file) or an octal game
/// played on sums of heaps.
///
/// ```
/// use xo_core::query::Game;
/// assert_eq!(Game::parse("kayles").unwrap().name(), "octal:0.77");
/// assert_eq!(Game::parse(".07").unwrap().name(), "octal:0.07");
/// assert_eq!(Game::parse("ttt").unwrap().name(), "tictactoe");
/// assert!(Game::parse("chess").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    /// A placement game.
    Placement(Rules),
    /// An octal game; its positions are sums of heaps.
    Octal(OctalGame),
}

/// Why a question cannot be asked: the game, the position or the combination is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// An unknown or malformed game.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A malformed octal code.
    #[error(transparent)]
    Octal(#[from] OctalError),
    /// A malformed position, or one that cannot occur.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A question xo has no engine for on this game, or a size beyond every engine.
    #[error("{0}")]
    Unsupported(String),
    /// Fields of a request that are missing, malformed or do not go together.
    #[error("{0}")]
    Request(String),
}

/// The strip games whose length may be left out of their name.
const STRIP_NAMES: [&str; 3] = ["lol", "sos", "treblecross"];

impl Game {
    /// Reads a game name: a built-in placement game (`tictactoe`, `mnk:M,N,K`, `connect:M,N,K`,
    /// `connect4`, `treblecross:N`, `lol:N`, `sos:N`) or an octal game in any of its forms
    /// (`octal:0.77`, `0.77`, `.77`, `kayles`, `dawson-kayles`, hexadecimal digits).
    pub fn parse(name: &str) -> Result<Game, InputError> {
        Game::parse_for(name, None)
    }

    /// Like [`Game::parse`], but a strip game named without its length (`lol`, `sos`,
    /// `treblecross`) takes it from `position`, the position text it is asked about.
    ///
    /// ```
    /// use xo_core::query::Game;
    /// assert_eq!(Game::parse_for("lol", Some("*L**")).unwrap().name(), "lol:4");
    /// assert_eq!(Game::parse_for("treblecross", Some(".X..X.")).unwrap().name(), "treblecross:6");
    /// assert_eq!(Game::parse_for("lol", None).unwrap().name(), "lol:16");
    /// ```
    pub fn parse_for(name: &str, position: Option<&str>) -> Result<Game, InputError> {
        let name = name.trim();
        let cells = position.map_or(0, |p| p.chars().filter(|c| !c.is_whitespace()).count());
        let sized;
        let name = if STRIP_NAMES.contains(&name) && cells > 0 {
            sized = format!("{name}:{cells}");
            sized.as_str()
        } else {
            name
        };
        match parse_game(name) {
            Ok(rules) => Ok(Game::Placement(rules)),
            Err(RulesError::UnknownGame(_)) if looks_octal(name) => Ok(Game::Octal(name.parse()?)),
            Err(e) => Err(e.into()),
        }
    }

    /// The one name reports use for this game.
    pub fn name(&self) -> String {
        match self {
            Game::Placement(rules) => rules.name().to_string(),
            Game::Octal(game) => format!("octal:{game}"),
        }
    }

    /// The octal game this game is, where it is one: an octal game itself, or Treblecross (whose
    /// free runs are heaps of .007).
    ///
    /// ```
    /// use xo_core::query::Game;
    /// assert_eq!(Game::parse("treblecross").unwrap().octal().unwrap().to_string(), "0.007");
    /// assert!(Game::parse("tictactoe").unwrap().octal().is_none());
    /// ```
    pub fn octal(&self) -> Option<OctalGame> {
        match self {
            Game::Octal(game) => Some(game.clone()),
            Game::Placement(rules) if is_treblecross(rules) => Some(OctalGame::dot007()),
            Game::Placement(_) => None,
        }
    }
}

/// Whether a name that is no built-in game should be read as an octal code.
fn looks_octal(name: &str) -> bool {
    name.starts_with("octal:")
        || name.contains('.')
        || ["kayles", "dawson-kayles", "dawsons-kayles"]
            .contains(&name.to_ascii_lowercase().as_str())
}

/// Whether the game is Treblecross: one shared mark, three in a row on a strip, normal play.
pub(crate) fn is_treblecross(rules: &Rules) -> bool {
    matches!((rules.marks(), rules.goal()), (Marks::Same(_), Goal::InRow(3)))
        && rules.height() == 1
        && !rules.gravity()
        && !rules.misere()
}

/// When the game is LOL up to renaming letters (a strip, two shared letters, a word `pqp`, normal
/// play), the mark (1 or 2) playing L's part.
pub(crate) fn lol_outer_mark(rules: &Rules) -> Option<u8> {
    match (rules.marks(), rules.goal()) {
        (Marks::Shared(letters), Goal::Word(w))
            if rules.height() == 1
                && !rules.gravity()
                && !rules.misere()
                && letters.len() == 2
                && w.len() == 3
                && w[0] == w[2]
                && w[0] != w[1] =>
        {
            letters.iter().position(|&l| l == w[0]).map(|i| i as u8 + 1)
        }
        _ => None,
    }
}

/// The engine that answers a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Alpha-beta negamax on the bitboard (boards of at most 64 cells).
    Negamax,
    /// Connect Four's family (gravity, own marks, k in a row) by Pascal Pons' method: exact
    /// scores by null-window searches on a two-bitboard layout.
    Gravity,
    /// The LOL solver that splits a strip into independent components (any length).
    LolComponents,
    /// Treblecross strips longer than search takes, by Grundy values of .007.
    TreblecrossGrundy,
    /// Sums of octal-game heaps by Grundy values (periods where proven).
    HeapsGrundy,
    /// Games by outcome, one depth at a time.
    Census,
    /// Reachability by playing backwards.
    Retrograde,
    /// The nim-sequence of an octal game.
    Sequence,
    /// The rules themselves: legal moves and the positions after them.
    Rules,
}

impl Engine {
    /// The engine's name in reports.
    ///
    /// ```
    /// assert_eq!(xo_core::query::Engine::LolComponents.name(), "lol-components");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Engine::Negamax => "negamax",
            Engine::Gravity => "gravity",
            Engine::LolComponents => "lol-components",
            Engine::TreblecrossGrundy | Engine::HeapsGrundy => "grundy",
            Engine::Census => "census",
            Engine::Retrograde => "retrograde",
            Engine::Sequence => "grundy",
            Engine::Rules => "rules",
        }
    }
}

/// Text quoted in a message, cut to 40 characters.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{:?}...", &text[..at]),
        None => format!("{text:?}"),
    }
}
