//! Reading what every subcommand is given: the GAME argument (a built-in name, an octal code, or
//! a TOML rules file) and the POSITION argument (text, or `-` for standard input).

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::Path;
use xo_core::query::Game;
use xo_core::rules::Rules;

/// The longest rules file read.
const MAX_RULES_FILE: u64 = 1 << 20;

/// The longest position read from standard input.
const MAX_POSITION: u64 = 256 << 20;

/// Resolves a game argument for a position: a path to an existing file (or any name ending in
/// `.toml`) is read as TOML rules; anything else is a built-in name or an octal code, and strip
/// games named without a length take it from `position`.
///
/// ```
/// use xo_cli::game::resolve_game;
/// assert_eq!(resolve_game("lol", Some("*L**")).unwrap().name(), "lol:4");
/// assert_eq!(resolve_game("kayles", None).unwrap().name(), "octal:0.77");
/// assert!(resolve_game("chess", None).is_err());
/// ```
pub fn resolve_game(name: &str, position: Option<&str>) -> Result<Game> {
    if name.ends_with(".toml") || Path::new(name).is_file() {
        let mut text = String::new();
        std::fs::File::open(name)
            .and_then(|f| f.take(MAX_RULES_FILE + 1).read_to_string(&mut text))
            .with_context(|| format!("cannot read rules file {name}"))?;
        if text.len() as u64 > MAX_RULES_FILE {
            bail!("rules file {name} is longer than 1 MiB");
        }
        let rules = Rules::from_toml(&text).with_context(|| format!("rules file {name}"))?;
        return Ok(Game::Placement(rules));
    }
    Ok(Game::parse_for(name, position)?)
}

/// The position argument, with `-` meaning standard input (for boards too long for a command
/// line), read up to 256 MiB.
pub fn position_arg(arg: Option<String>) -> Result<Option<String>> {
    match arg.as_deref() {
        Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .lock()
                .take(MAX_POSITION + 1)
                .read_to_string(&mut text)
                .context("cannot read the position from standard input")?;
            if text.len() as u64 > MAX_POSITION {
                bail!("the position on standard input is longer than 256 MiB");
            }
            Ok(Some(text))
        }
        _ => Ok(arg),
    }
}
