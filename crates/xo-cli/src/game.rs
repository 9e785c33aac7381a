//! Reading the GAME argument every subcommand takes: a built-in placement game, a TOML rules
//! file, or an octal game played on heaps.

use anyhow::{Context, Result};
use std::path::Path;
use xo_core::games::octal::OctalGame;
use xo_core::rules::{parse_game, Position, Rules, Setup};

/// A game named on the command line.
#[derive(Debug, Clone)]
pub enum GameArg {
    /// A placement game (built-in or from a rules file).
    Placement(Rules),
    /// An octal game whose positions are sums of heaps.
    Octal(OctalGame),
}

impl GameArg {
    /// Resolves a game argument: `octal:CODE`, `kayles` and `dawson-kayles` are heap games; a
    /// path to an existing file is read as TOML rules; anything else is a built-in name.
    ///
    /// ```
    /// use xo_cli::game::GameArg;
    /// assert!(matches!(GameArg::parse("kayles").unwrap(), GameArg::Octal(_)));
    /// assert!(matches!(GameArg::parse("connect4").unwrap(), GameArg::Placement(_)));
    /// assert!(GameArg::parse("chess").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<GameArg> {
        if name.starts_with("octal:") || name == "kayles" || name == "dawson-kayles" {
            return Ok(GameArg::Octal(name.parse()?));
        }
        if name.ends_with(".toml") || Path::new(name).is_file() {
            let text = std::fs::read_to_string(name)
                .with_context(|| format!("cannot read rules file {name}"))?;
            return Ok(GameArg::Placement(Rules::from_toml(&text)?));
        }
        Ok(GameArg::Placement(parse_game(name)?))
    }
}

/// The position argument, with `-` meaning standard input (for boards too long for a command
/// line), read up to 256 MiB.
pub fn position_arg(arg: Option<String>) -> Result<Option<String>> {
    use std::io::Read;
    match arg.as_deref() {
        Some("-") => {
            let mut text = String::new();
            let limit = 256 << 20;
            std::io::stdin().lock().take(limit + 1).read_to_string(&mut text)?;
            if text.len() as u64 > limit {
                anyhow::bail!("the position on standard input is longer than 256 MiB");
            }
            Ok(Some(text))
        }
        _ => Ok(arg),
    }
}

/// Reads a position of `rules` (the empty board when `text` is `None`).
pub fn read_position(rules: &Rules, text: Option<&str>) -> Result<Position> {
    let setup = match text {
        Some(t) => Setup::parse(rules, t)?,
        None => Setup::empty(rules),
    };
    Ok(setup.validate(rules)?)
}
