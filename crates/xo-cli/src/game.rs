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
        return Ok(Game::Placement(Rules::from_toml(&read_rules(name)?)?));
    }
    Ok(Game::parse_for(name, position)?)
}

/// Reads line `number` (1-based, for messages) of `input` into `line`, at most `max` bytes: the
/// limit is checked as the bytes arrive, so an endless line (`cat /dev/zero`) is refused after
/// `max` bytes instead of filling memory. `Ok(false)` at the end of input.
///
/// ```
/// use xo_cli::game::read_line_within;
/// let mut line = String::new();
/// let mut input = &b"hint\nxxxxxxxx\n"[..];
/// assert!(read_line_within(&mut input, &mut line, 4, 1).unwrap());
/// assert_eq!(line, "hint\n");
/// let err = read_line_within(&mut input, &mut line, 4, 2).unwrap_err().to_string();
/// assert_eq!(err, "line 2 of standard input is longer than 4 bytes");
/// ```
pub fn read_line_within(
    input: &mut impl std::io::BufRead,
    line: &mut String,
    max: u64,
    number: u64,
) -> Result<bool> {
    use std::io::BufRead;
    line.clear();
    let mut bytes = Vec::new();
    let read = input
        .take(max.saturating_add(1))
        .read_until(b'\n', &mut bytes)
        .with_context(|| format!("cannot read line {number} of standard input"))?;
    // Up to `max` bytes of text, plus its newline.
    let text_len = bytes.len() - usize::from(bytes.last() == Some(&b'\n'));
    if text_len as u64 > max {
        bail!("line {number} of standard input is longer than {}", bytes_text(max));
    }
    *line = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("line {number} of standard input is not valid UTF-8"))?;
    Ok(read > 0)
}

/// `n` bytes in words: `1 MiB`, `64 KiB` or `100 bytes`.
fn bytes_text(n: u64) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Puts the GAME argument into `request`: a path to an existing file (or any name ending in
/// `.toml`) is read as TOML rules (checked here, so a bad file is named in the message);
/// anything else is the game's name.
///
/// ```
/// use xo_cli::game::request_game;
/// let mut r = xo_core::request::Request::default();
/// request_game("kayles", &mut r).unwrap();
/// assert_eq!(r.game.as_deref(), Some("kayles"));
/// ```
pub fn request_game(name: &str, request: &mut xo_core::request::Request) -> Result<()> {
    if name.ends_with(".toml") || Path::new(name).is_file() {
        request.rules = Some(read_rules(name)?);
    } else {
        request.game = Some(name.to_string());
    }
    Ok(())
}

/// The text of a rules file, checked.
fn read_rules(name: &str) -> Result<String> {
    // Only a regular file: a FIFO would block the open, a device never end.
    let meta = std::fs::metadata(name).with_context(|| format!("cannot read rules file {name}"))?;
    if !meta.is_file() {
        bail!("rules file {name} is not a regular file");
    }
    let mut text = String::new();
    std::fs::File::open(name)
        .and_then(|f| f.take(MAX_RULES_FILE + 1).read_to_string(&mut text))
        .with_context(|| format!("cannot read rules file {name}"))?;
    if text.len() as u64 > MAX_RULES_FILE {
        bail!("rules file {name} is longer than 1 MiB");
    }
    Rules::from_toml(&text).with_context(|| format!("rules file {name}"))?;
    Ok(text)
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
