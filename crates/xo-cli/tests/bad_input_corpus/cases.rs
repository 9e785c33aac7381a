//! What a case is (its input, the promise, its time box) and reading the case files of
//! `tests/bad_input/` into the corpus.

use super::named::{made, then};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;
use xo_test_support::bin::Run;

/// The default time box of one run: far above any honest run of these cases.
pub const BOX: Duration = Duration::from_secs(20);

/// What a case feeds on standard input.
#[derive(Clone, Copy)]
pub enum Input {
    /// Standard input is closed (`/dev/null`).
    None,
    /// These bytes, then end of input.
    Bytes(&'static [u8]),
    /// Bytes made when the case runs (large inputs).
    Made(fn() -> Vec<u8>),
    /// These bytes, then the line after them over and over (`yes`), until xo stops reading.
    Yes(&'static [u8], &'static [u8]),
}

/// What the contract promises for a case.
#[derive(Clone, Copy)]
pub enum Expect {
    /// Exit 0 and stdout contains this.
    Answer(&'static str),
    /// Exit 0 and stdout is exactly this.
    Exactly(&'static str),
    /// Exit 1 (`check`: unreachable) and stdout contains this reason.
    Unreachable(&'static str),
    /// Exit 2 with one `xo: ` line on stderr containing this; stdout empty.
    Bad(&'static str),
    /// Exit 2 like `Bad`, but stdout may hold the answers to the lines before the bad one: it must
    /// be a prefix of what the same command prints for the first `n` lines of the input alone.
    BadAfter(&'static str, usize),
    /// Exit 2 like `Bad`, but stdout must be a prefix of the given answers (batch formats).
    BadAfterAnswers(&'static str, &'static str),
    /// Exit 3 with one `xo: ` line on stderr naming a budget and this flag.
    Stopped(&'static str),
    /// Exit 0 (stdout contains the first string) or exit 3 (stderr names the second), nothing else.
    AnswerOrStopped(&'static str, &'static str),
}

/// A further check on a run: `Err` says what is wrong.
pub type Extra = fn(&Run) -> Result<(), String>;

#[derive(Clone, Copy)]
pub struct Case {
    /// A short unique name, used by the known-failure tests.
    pub name: &'static str,
    pub args: &'static [&'static str],
    pub input: Input,
    pub expect: Expect,
    /// The time box of this run.
    pub limit: Duration,
    /// Further checks on a run that met `expect`.
    pub extra: Option<Extra>,
    /// In the slow group (see `corpus_slow`): not run by `cargo test --workspace`.
    pub slow: bool,
}

use Expect::*;

pub const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// The keys a case file may have. `args` (the arguments, a list of strings), `expect` (the
/// promise: `answer`, `exactly`, `unreachable` (exit 0, 0, 1); `bad`, `bad_after`,
/// `bad_after_answers` (exit 2); `stopped` (exit 3); `answer_or_stopped`) and `text` (the
/// fragment of the answer or message) are needed; `stdin` (text; `stdin_hex` for other bytes),
/// `stdin_repeat` (a line fed over and over after `stdin`), `stdin_made` (the name of an input
/// made when the case runs), `good_lines` (`bad_after`), `answers` (`bad_after_answers`),
/// `flag` (`answer_or_stopped`), `limit_s` (the time box, 20 s if not given), `then` (the name
/// of a further check) and `slow` (true: in the slow group) are optional; `note` says why.
pub const KEYS: &[&str] = &[
    "args",
    "expect",
    "text",
    "stdin",
    "stdin_hex",
    "stdin_repeat",
    "stdin_repeat_hex",
    "stdin_made",
    "good_lines",
    "answers",
    "flag",
    "limit_s",
    "then",
    "slow",
    "note",
];

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Reads one case file.
fn load(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let map = json.as_object().ok_or("not a JSON object")?;
    if let Some(key) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    let text_of = |key: &str| -> Result<Option<&'static str>, String> {
        match map.get(key) {
            None => Ok(None),
            Some(v) => v.as_str().map(|s| Some(leak(s))).ok_or(format!("{key} is not a string")),
        }
    };
    let bytes_of = |key: &str| -> Result<Option<&'static [u8]>, String> {
        if let Some(text) = text_of(key)? {
            return Ok(Some(text.as_bytes()));
        }
        let Some(hex) = text_of(&format!("{key}_hex"))? else { return Ok(None) };
        let bytes: Result<Vec<u8>, _> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("?"), 16))
            .collect();
        Ok(Some(Box::leak(bytes.map_err(|e| format!("{key}_hex: {e}"))?.into_boxed_slice())))
    };
    let needed = |key: &str| text_of(key)?.ok_or(format!("no {key}"));
    let name = leak(&path.file_stem().unwrap().to_string_lossy());
    let args: Vec<&'static str> = map
        .get("args")
        .and_then(|a| a.as_array())
        .ok_or("no args")?
        .iter()
        .map(|a| a.as_str().map(leak).ok_or("an argument is not a string"))
        .collect::<Result<_, _>>()?;
    let input = match (text_of("stdin_made")?, bytes_of("stdin")?, bytes_of("stdin_repeat")?) {
        (Some(make), None, None) => Input::Made(made(make)?),
        (None, first, Some(again)) => Input::Yes(first.unwrap_or_default(), again),
        (None, Some(bytes), None) => Input::Bytes(bytes),
        (None, None, None) => Input::None,
        _ => return Err("stdin_made goes with no other stdin".into()),
    };
    let number = |key: &str| map.get(key).map(|v| v.as_u64().ok_or(format!("{key}: a number")));
    let text = needed("text")?;
    let expect = match needed("expect")? {
        "answer" => Answer(text),
        "exactly" => Exactly(text),
        "unreachable" => Unreachable(text),
        "bad" => Bad(text),
        "bad_after" => BadAfter(text, number("good_lines").ok_or("no good_lines")?? as usize),
        "bad_after_answers" => BadAfterAnswers(text, needed("answers")?),
        "stopped" => Stopped(text),
        "answer_or_stopped" => AnswerOrStopped(text, needed("flag")?),
        other => return Err(format!("no promise {other:?}")),
    };
    Ok(Case {
        name,
        args: Box::leak(args.into_boxed_slice()),
        input,
        expect,
        limit: number("limit_s").transpose()?.map_or(BOX, secs),
        extra: text_of("then")?.map(then).transpose()?,
        slow: map.get("slow").map(|v| v.as_bool().ok_or("slow: true or false")).transpose()?
            == Some(true),
    })
}

/// Every case file, by name.
pub fn corpus() -> &'static [Case] {
    static CORPUS: OnceLock<Vec<Case>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bad_input");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        paths.iter().map(|p| load(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).collect()
    })
}
