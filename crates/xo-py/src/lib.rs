//! `xo._xo`, the native half of the Python package `xo`: a front end of the core like the
//! command and the server, and as thin. Everything here is parse, build the core's one
//! [`Request`], answer it through the core's one entry point, and hand back the report as the
//! JSON `xo ... --json` prints (the same serde types, so `.to_dict()` in Python equals the
//! command's output by construction). No rule of any game lives here.
//!
//! Each call returns an outcome `(code, text, message)` with the command's exit statuses:
//! `0` answered (`text` is the report), `2` bad input (`message` is what the command prints
//! after `xo: error:`), `3` stopped at a budget (`text` is the report of unknown value, as
//! `--json` prints it, and `message` names the budget and the keyword that raises it). The
//! Python half (`python/xo/__init__.py`) turns them into result objects and the exceptions
//! `xo.BadInput` and `xo.OverBudget`. Every answer runs on a worker thread while the calling
//! thread watches for Ctrl-C ([`watch`]).
//!
//! The two builds (`xo.build_database`, `xo.build_book`) are no question: they run the code
//! `xo solve --strong` and `xo book` run (`xo_cli::strong`, `xo_cli::book`), with the budget
//! read and checked by the request's own [`Request::budget`], and a meter of their own that Ctrl-C
//! cancels.

mod watch;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;
use xo_core::budget::{Budget, Limit, Meter, Stopped};
use xo_core::query::{answer, describe, Answer, Query, Question};
use xo_core::request::{Ask, Request};
use xo_core::solve::book::Book;

/// What a call hands back to Python: exit status, report (JSON) and message.
type Outcome = (u8, String, String);

/// Answered.
const ANSWERED: u8 = 0;
/// Bad input.
const BAD_INPUT: u8 = 2;
/// Stopped at a budget.
const OVER_BUDGET: u8 = 3;

/// The outcome of bad input: the message alone.
fn bad(message: impl std::fmt::Display) -> Outcome {
    (BAD_INPUT, String::new(), message.to_string())
}

/// The keyword that raises `limit`, for the message (the command names its flag instead).
fn keyword(limit: Limit) -> &'static str {
    match limit {
        Limit::Nodes => "max_nodes=",
        Limit::Time => "timeout=",
        Limit::Memory => "memory_mib=",
        Limit::Cancelled => "nothing: it was cancelled",
    }
}

/// The message of a job stopped at its budget: the stop, then how to raise the budget (a
/// cancelled job says so, and names no budget).
fn over_message(stopped: &Stopped) -> String {
    match stopped.limit {
        Limit::Cancelled => stopped.to_string(),
        limit => format!("{stopped}; raise it with {}", keyword(limit)),
    }
}

/// A report as the command's `--json` prints it.
fn json(answer: &Answer) -> String {
    // The reports are plain data (strings, numbers, lists): serialising cannot fail.
    serde_json::to_string(answer).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The outcome of a prepared query's answer (or of where it stopped).
fn outcome(query: &Query, result: Result<Answer, Stopped>) -> Outcome {
    match result {
        Ok(answer) => match answer.stopped() {
            // A best move found by look-ahead when the exact answer ran out (`xo moves --best`
            // exits 3 with it too).
            Some(stopped) => (OVER_BUDGET, json(&answer), over_message(stopped)),
            None => (ANSWERED, json(&answer), String::new()),
        },
        Err(stopped) => (OVER_BUDGET, json(&query.unanswered(&stopped)), over_message(&stopped)),
    }
}

/// A keyword argument's value, or the message naming it and what it must be.
fn field<'py, T: FromPyObjectOwned<'py>>(
    name: &str,
    value: &Bound<'py, PyAny>,
    what: &str,
) -> Result<T, String> {
    value.extract::<T>().map_err(|_| {
        let shown = value.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
        format!("{name} must be {what}, not {}", shown.chars().take(60).collect::<String>())
    })
}

/// The core's request from the keyword arguments Python collected (`None` values left out):
/// the fields of [`Request`] by their names.
fn request(fields: &Bound<'_, PyDict>) -> Result<Request, String> {
    let mut r = Request::default();
    for (name, value) in fields.iter() {
        if value.is_none() {
            continue;
        }
        let name: String = name.extract().map_err(|_| "a keyword is not a string".to_string())?;
        let text = |what| field::<String>(&name, &value, what);
        let flag = || field::<bool>(&name, &value, "True or False");
        let number = || field::<u64>(&name, &value, "a whole number (0 or more)");
        match name.as_str() {
            "game" => r.game = Some(text("a game's name")?),
            "rules" => r.rules = Some(text("TOML rules text")?),
            "position" => r.position = Some(text("a string")?),
            "moves" => r.moves = Some(text("a string of columns played")?),
            "question" => {
                r.question = text("a question")?.parse::<Ask>().map_err(|e| e.to_string())?
            }
            "value_only" => r.value_only = flag()?,
            "no_moves" => r.no_moves = flag()?,
            "winning" => r.winning = flag()?,
            "line" => r.line = flag()?,
            "threats" => r.threats = flag()?,
            "by_length" => r.by_length = flag()?,
            "dense" => r.dense = flag()?,
            "no_book" => r.no_book = flag()?,
            "upto" => r.upto = Some(number()?),
            "move" => r.play = Some(text("a move's name (a string)")?),
            "depth" => r.depth = Some(u32::try_from(number()?).unwrap_or(u32::MAX)),
            "threads" => {
                r.threads = Some(usize::try_from(number()?).unwrap_or(usize::MAX));
            }
            "timeout" => {
                r.timeout = Some(field::<f64>(&name, &value, "a number of seconds")?);
            }
            "max_nodes" => r.max_nodes = Some(number()?),
            "memory_mib" => r.memory_mib = Some(number()?),
            other => return Err(format!("no parameter '{other}'")),
        }
    }
    // The budgets' own checks, before anything runs.
    r.budget(Budget::default()).map_err(|e| e.to_string())?;
    // The command's refusal of an `XO_GRUNDY_KERNEL` that names no kernel (the core ignores it).
    xo_core::solve::grundy::PassKernel::cap_from_env()?;
    Ok(r)
}

/// The query `request` asks, with the books the command consults: `book` when given (refused
/// when it is a book of another board, as the command refuses it), else the one xo ships for
/// the game (Connect Four's), unless `no_book` (as `xo solve` does).
fn prepare(
    request: &Request,
    book: Option<&Arc<Book>>,
    runner: xo_core::threads::Runner,
) -> Result<Query, String> {
    xo_store::book::prepare(request, book, runner).map_err(|e| e.to_string())
}

/// Answers one request (the keyword arguments of `xo.solve`, `xo.count`, `xo.check`,
/// `xo.grundy` and the `xo.Game` methods, with `question` naming which), within its budget
/// (the command's defaults for those not given), on every core by default.
#[pyfunction]
#[pyo3(signature = (fields, book=None))]
fn ask(
    py: Python<'_>,
    fields: &Bound<'_, PyDict>,
    book: Option<PyRef<'_, PyBook>>,
) -> PyResult<Outcome> {
    let request = match request(fields) {
        Ok(r) => r,
        Err(message) => return Ok(bad(message)),
    };
    let book = book.map(|b| b.inner.clone());
    let query = match prepare(&request, book.as_ref(), xo_core::threads::Runner::Alone) {
        Ok(q) => q,
        Err(message) => return Ok(bad(message)),
    };
    let Ok(budget) = request.budget(Budget::default()) else { unreachable!("checked above") };
    let query = Arc::new(query);
    let asked = query.clone();
    let result = watch::answer(py, budget, move |meter| answer(&asked, meter))?;
    Ok(outcome(&query, result))
}

/// Answers one request for each of `positions` (strings), in parallel on `threads` threads (all
/// cores by default) with the GIL released, within one budget for them all. The same position
/// text is answered once. Returns `(code, answers, message, index)`: with code 0, `answers` is
/// the list of `make(report)` for each position (the same object for the same text); otherwise
/// `index` is the first position that failed and `answers` its report (over budget) or `None`.
/// With `columns`, each string is a gravity game's columns played (the request's `moves`).
#[pyfunction]
#[pyo3(signature = (fields, positions, make, book=None, columns=false))]
fn ask_many<'py>(
    py: Python<'py>,
    fields: &Bound<'py, PyDict>,
    positions: &Bound<'py, PyAny>,
    make: &Bound<'py, PyAny>,
    book: Option<PyRef<'py, PyBook>>,
    columns: bool,
) -> PyResult<(u8, Py<PyAny>, String, usize)> {
    let none = || py.None();
    let request = match request(fields) {
        Ok(r) => r,
        Err(message) => return Ok((BAD_INPUT, none(), message, 0)),
    };
    let threads = request.threads.map(|t| xo_core::threads::allowed(Some(t), 1));
    // Distinct texts (by a dict of the strings themselves: their hashes are cached, and most
    // positions of a large batch are repeats), and each position's index among them.
    let seen = PyDict::new(py);
    let mut texts: Vec<String> = Vec::new();
    let mut index: Vec<usize> = Vec::new();
    for (i, item) in positions.try_iter()?.enumerate() {
        let item = item?;
        if !item.is_instance_of::<PyString>() {
            let message = format!("positions[{i}] is not a string");
            return Ok((BAD_INPUT, none(), message, i));
        }
        match seen.get_item(&item)? {
            Some(at) => index.push(at.extract()?),
            None => {
                seen.set_item(&item, texts.len())?;
                index.push(texts.len());
                texts.push(item.extract()?);
            }
        }
    }
    drop(seen);
    let book = book.map(|b| b.inner.clone());
    let Ok(budget) = request.budget(Budget::default()) else { unreachable!("checked above") };
    let meter = Meter::new(budget);
    let watched = meter.clone();
    let outcomes = watch::run(py, &watched, move || {
        let one = |text: &String| {
            if meter.is_stopped() {
                return None;
            }
            let mut r = request.clone();
            if columns {
                r.moves = Some(text.clone());
            } else {
                r.position = Some(text.clone());
            }
            // One thread a position: the positions are the parallel work.
            Some(match prepare(&r, book.as_ref(), xo_core::threads::Runner::Pool) {
                Ok(query) => {
                    let result = answer(&query, &meter);
                    outcome(&query, result)
                }
                Err(message) => bad(message),
            })
        };
        let all = || texts.par_iter().map(one).collect::<Vec<Option<Outcome>>>();
        match threads {
            Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                Ok(pool) => pool.install(all),
                Err(_) => all(),
            },
            None => all(),
        }
    })?;
    // The first position, in the order given, that was not answered.
    let first_failed = index.iter().enumerate().find_map(|(i, &d)| match &outcomes[d] {
        Some((ANSWERED, ..)) => None,
        _ => Some(i),
    });
    if let Some(i) = first_failed {
        let failed = outcomes[index[i]].clone().or_else(|| {
            // Skipped once the budget ran out: the stop that ran it out speaks for it.
            outcomes.iter().flatten().find(|o| o.0 == OVER_BUDGET).cloned()
        });
        let (code, text, message) = failed.unwrap_or_else(|| bad("the budget ran out"));
        let report: Py<PyAny> =
            if text.is_empty() { none() } else { PyString::new(py, &text).into_any().unbind() };
        return Ok((code, report, format!("positions[{i}]: {message}"), i));
    }
    let made = outcomes
        .iter()
        .map(|o| {
            let (_, text, _) = o.as_ref().expect("every distinct position was answered");
            make.call1((text.as_str(),)).map(Bound::unbind)
        })
        .collect::<PyResult<Vec<Py<PyAny>>>>()?;
    let list = PyList::new(py, index.iter().map(|&d| made[d].clone_ref(py)))?;
    Ok((ANSWERED, list.into_any().unbind(), String::new(), 0))
}

/// The game named `game` (or given by TOML `rules`) described for drawing it, as the server's
/// `/api/game` returns it: board or heaps, marks, the empty position's text, octal moves.
#[pyfunction]
#[pyo3(signature = (fields))]
fn describe_game(fields: &Bound<'_, PyDict>) -> Outcome {
    let game = request(fields).and_then(|r| r.game().map_err(|e| e.to_string()));
    match game {
        Ok(game) => match serde_json::to_string(&describe(&game)) {
            Ok(text) => (ANSWERED, text, String::new()),
            Err(e) => bad(e),
        },
        Err(message) => bad(message),
    }
}

/// The outcome of a build that failed: over its budget (`text` is the stop, as a report's
/// `stopped` field, and `message` names the keyword that raises it, after where it stopped), or
/// bad input with the command's message (after `xo: error:` there).
fn build_failed(error: &anyhow::Error) -> Outcome {
    match error.downcast_ref::<xo_cli::budget::OverBudget>() {
        Some(over) => {
            let message = match &over.context {
                Some(at) => format!("{at}: {}", over_message(&over.stopped)),
                None => over_message(&over.stopped),
            };
            let stopped = serde_json::to_string(&over.stopped).unwrap_or_default();
            (OVER_BUDGET, stopped, message)
        }
        None => bad(format!("{error:#}")),
    }
}

/// The budget of a build from the keyword arguments (`timeout`, `max_nodes`, `memory_mib`,
/// `threads`): the command's flags and their checks, and the threads the thread policy allows.
fn build_budget(fields: &Bound<'_, PyDict>) -> Result<(xo_cli::budget::BudgetArgs, usize), String> {
    let request = request(fields)?;
    let budget = request.budget(Budget::default()).map_err(|e| e.to_string())?;
    let args = xo_cli::budget::BudgetArgs {
        timeout: budget.timeout,
        max_nodes: budget.max_nodes,
        memory_mib: budget.memory_bytes >> 20,
    };
    let default = xo_core::threads::Runner::Alone.default_threads();
    Ok((args, xo_core::threads::allowed(request.threads, default)))
}

/// Strong-solves `game` (a name or a rules file's path) into the folder `path`, as `xo solve
/// GAME --strong --db DIR` does (the same driver, files, resume and refusals), within the
/// budget of `fields`; the outcome's text is the command's summary.
#[pyfunction]
#[pyo3(signature = (game, path, fields))]
fn build_database(
    py: Python<'_>,
    game: String,
    path: std::path::PathBuf,
    fields: &Bound<'_, PyDict>,
) -> PyResult<Outcome> {
    let (args, threads) = match build_budget(fields) {
        Ok(b) => b,
        Err(message) => return Ok(bad(message)),
    };
    let meter = Meter::new(args.budget());
    let watched = meter.clone();
    watch::run(py, &watched, move || {
        let mut out = Vec::new();
        match xo_cli::strong::solve_within(&game, &path, &args, threads, meter, &mut out) {
            Ok(()) => (ANSWERED, String::from_utf8_lossy(&out).into_owned(), String::new()),
            Err(e) => build_failed(&e),
        }
    })
}

/// Builds the opening book of the gravity game `game` to `depth` moves into the file `path`, as
/// `xo book GAME --depth D --out FILE` does (the same build, journal, resume and refusals),
/// within the budget of `fields`; the outcome's text is the command's summary.
#[pyfunction]
#[pyo3(signature = (game, path, depth, fields))]
fn build_book(
    py: Python<'_>,
    game: String,
    path: std::path::PathBuf,
    depth: u32,
    fields: &Bound<'_, PyDict>,
) -> PyResult<Outcome> {
    let (budget, _) = match build_budget(fields) {
        Ok(b) => b,
        Err(message) => return Ok(bad(message)),
    };
    if depth > 63 {
        return Ok(bad(format!("depth must be 0 to 63 (moves from the empty board), not {depth}")));
    }
    let args = xo_cli::book::BookArgs { game, depth, out: Some(path), budget };
    let meter = Meter::new(budget.budget());
    let watched = meter.clone();
    watch::run(py, &watched, move || {
        let mut out = Vec::new();
        match xo_cli::book::build(&args, &meter, None, &mut out) {
            Ok(()) => (ANSWERED, String::from_utf8_lossy(&out).into_owned(), String::new()),
            Err(e) => build_failed(&e),
        }
    })
}

/// A strong database folder (written by `xo solve GAME --strong --db DIR`), open for queries;
/// each query maps the two tiers it needs and reads a few of their blocks.
#[pyclass(frozen, name = "Database", module = "xo._xo")]
struct PyDatabase {
    inner: Arc<xo_store::database::Database>,
}

#[pymethods]
impl PyDatabase {
    /// Opens the folder `path` (its game from its manifest); a folder that is not a database
    /// raises `ValueError` with the message `xo query` prints.
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<PyDatabase> {
        xo_store::database::Database::open(&path)
            .map(|db| PyDatabase { inner: Arc::new(db) })
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    /// The canonical name of the database's game.
    #[getter]
    fn game(&self) -> String {
        self.inner.rules().name().to_string()
    }

    /// The folder.
    #[getter]
    fn path(&self) -> std::path::PathBuf {
        self.inner.dir().to_path_buf()
    }

    /// The report `xo query DIR POSITION --json` prints, as an outcome.
    #[pyo3(signature = (position, winning, fields))]
    fn query(
        &self,
        py: Python<'_>,
        position: Option<String>,
        winning: bool,
        fields: &Bound<'_, PyDict>,
    ) -> PyResult<Outcome> {
        let budget = match request(fields)
            .and_then(|r| r.budget(Budget::default()).map_err(|e| e.to_string()))
        {
            Ok(b) => b,
            Err(message) => return Ok(bad(message)),
        };
        let db = self.inner.clone();
        let meter = Meter::new(budget);
        let watched = meter.clone();
        watch::run(py, &watched, move || {
            use xo_store::database::QueryError;
            let question = Question::Analysis { winning_only: winning };
            match db.answer(position.as_deref(), question, &meter) {
                Ok((query, answer)) => outcome(&query, Ok(answer)),
                Err(QueryError::Stopped(stopped)) => {
                    (OVER_BUDGET, String::new(), over_message(&stopped))
                }
                Err(e) => bad(e),
            }
        })
    }
}

/// An opening book of a gravity game (made by `xo book`), read and checked, for the gravity
/// engine to consult.
#[pyclass(frozen, name = "Book", module = "xo._xo")]
struct PyBook {
    inner: Arc<Book>,
}

#[pymethods]
impl PyBook {
    /// Reads the book file `path`; a file that is not a book raises `ValueError` with the
    /// command's message.
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<PyBook> {
        xo_store::book::read(Path::new(&path))
            .map(|b| PyBook { inner: Arc::new(b) })
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    /// The board's canonical name (`connect:W,H,K`).
    #[getter]
    fn game(&self) -> String {
        let (w, h, k) = self.inner.game();
        if (w, h, k) == (7, 6, 4) {
            "connect4".into()
        } else {
            format!("connect:{w},{h},{k}")
        }
    }

    /// Moves from the empty board the book covers.
    #[getter]
    fn depth(&self) -> u32 {
        self.inner.depth()
    }

    /// Positions held.
    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// The native half of `xo`; see the package's documentation.
#[pymodule]
fn _xo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ask, m)?)?;
    m.add_function(wrap_pyfunction!(ask_many, m)?)?;
    m.add_function(wrap_pyfunction!(describe_game, m)?)?;
    m.add_function(wrap_pyfunction!(build_database, m)?)?;
    m.add_function(wrap_pyfunction!(build_book, m)?)?;
    m.add_class::<PyDatabase>()?;
    m.add_class::<PyBook>()?;
    m.add("CORES", xo_core::threads::cores())?;
    Ok(())
}
