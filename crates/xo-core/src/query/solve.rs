//! Solving a position with the engine its plan holds: each engine runs on the input the plan
//! converted when the query was prepared, and its result goes into one [`SolveReport`].

use super::plan::{Asked, GravityInput, Solver};
use super::prepared::Query;
use super::question::Question;
use super::report::{HeapMove, HeapMoveReport, MoveReport, SolveReport};
use crate::budget::{Meter, Stopped};
use crate::games::board::{Board, BoardPosition};
use crate::games::lol::{Cell, LolStrip};
use crate::games::treblecross::TreblecrossStrip;
use crate::rules::{move_name, move_order, Rules};
use crate::solve::grundy::{analyse_sum, NimSequence, SumError};
use crate::solve::lol::LolSolver;
use crate::solve::negamax::Searcher;
use crate::Value;

/// Bytes of transposition table a search from a position with `empty` empty cells can use at
/// most: about 32 for each position it can reach (at most 3^empty: each empty cell stays empty
/// or takes one of two marks). A small table for a small search: allocating and clearing the
/// whole board's table would cost more than searching a nearly full board.
fn table_bytes(empty: u32, budget: u64) -> u64 {
    let most = 3u64.checked_pow(empty).map_or(u64::MAX, |n| n.saturating_mul(32));
    budget.min(most).max(1 << 16)
}

/// Solves with `solver` what `asked` asks, into `report` (the query's report with nothing found
/// yet); Pons' scores are added for Connect Four's family.
pub(super) fn solve(
    query: &Query,
    solver: &Solver,
    asked: Asked,
    meter: &Meter,
) -> Result<SolveReport, Stopped> {
    let mut report = query.solve_report();
    let r = &mut report;
    match solver {
        Solver::Negamax { board, bits } => negamax(board, bits, asked, meter, r)?,
        Solver::Gravity64(input) => gravity(input, asked, meter, r)?,
        Solver::Gravity128(input) => gravity(input, asked, meter, r)?,
        Solver::Lol { strip, cells, marks } => {
            lol_components(strip, cells, *marks, asked, meter, r)?
        }
        Solver::Treblecross(strip) => treblecross(strip, asked, query, meter, r)?,
        Solver::Heaps { game, heaps, search } => {
            let mut seq = NimSequence::new(game.clone());
            seq.set_threads(query.threads());
            if let Some(stored) = query.stored() {
                seq.adopt(stored, heaps.iter().copied().max().unwrap_or(0));
            }
            let a = analyse_sum(&mut seq, heaps, meter).map_err(|e| match e {
                SumError::Stopped(s) => s,
                // Heap sizes were checked when the query was made; a size past the engines'
                // would need more memory than any budget gives.
                SumError::HeapTooLarge { .. } => meter.halt(crate::budget::Limit::Memory),
            })?;
            r.value = Some(a.value);
            r.nim_sum = Some(a.nim_sum);
            if !asked.value_only && !asked.score_only {
                r.heap_values = Some(a.heap_values);
                r.winning_moves = Some(
                    a.winning_moves
                        .into_iter()
                        .map(|m| HeapMove {
                            heap: m.heap + 1,
                            removed: m.removed,
                            leaves: m.leaves,
                        })
                        .collect(),
                );
            }
            if *search && !asked.value_only {
                heap_search(game, heaps, asked, meter, r)?;
            }
        }
    }
    if let Some(rules) = query.rules() {
        pons_scores(rules, query.plies(), &mut report);
    }
    Ok(report)
}

/// The remoteness of a small sum of heaps and every move's value and remoteness, by search.
fn heap_search(
    game: &crate::games::octal::OctalGame,
    heaps: &[usize],
    asked: Asked,
    meter: &Meter,
    report: &mut SolveReport,
) -> Result<(), Stopped> {
    let mut search = crate::solve::heaps::HeapSearch::new(game);
    report.remoteness = Some(search.score(heaps, meter)?.remoteness);
    if asked.score_only {
        return Ok(());
    }
    let moves = search.moves(heaps, meter)?;
    report.heap_moves = Some(
        moves
            .into_iter()
            .filter(|m| !asked.winning_only || m.scored.value == Value::Win)
            .map(|m| HeapMoveReport {
                heap: m.heap + 1,
                removed: m.removed,
                leaves: m.leaves,
                value: m.scored.value,
                remoteness: m.scored.remoteness,
            })
            .collect(),
    );
    Ok(())
}

/// Pascal Pons' score of a game won at ply `end` (counted from the empty board), for the winner:
/// `(W*H + 2 - end) / 2`, the stones a win leaves unplayed plus one on even boards.
///
/// ```
/// // On Connect Four's board, a win with the first stone would score 21, with the last 1.
/// # fn pons(cells: u32, end: u32) -> i32 { ((cells + 2 - end) / 2) as i32 }
/// assert_eq!((pons(42, 7), pons(42, 41)), (18, 1));
/// ```
fn pons(cells: u32, end: u32) -> i32 {
    (cells.saturating_add(2).saturating_sub(end) / 2) as i32
}

/// Fills Pons' scores (the position's and each move's) for Connect Four's family, where the
/// remoteness is known.
fn pons_scores(rules: &Rules, plies: u32, report: &mut SolveReport) {
    let family = rules.gravity()
        && *rules.marks() == crate::rules::Marks::Own
        && matches!(rules.goal(), crate::rules::Goal::InRow(_))
        && !rules.misere();
    if !family {
        return;
    }
    let cells = rules.cells() as u32;
    let score = |value: Value, remoteness: u32| match value {
        Value::Win => pons(cells, plies + remoteness),
        Value::Loss => -pons(cells, plies + remoteness),
        Value::Draw => 0,
    };
    if let (Some(v), Some(r)) = (report.value, report.remoteness) {
        report.score = Some(score(v, r));
    }
    for m in report.moves.iter_mut().flatten() {
        if let Some(r) = m.remoteness {
            m.score = Some(score(m.value, r));
        }
    }
}

/// Keeps only the winning moves when asked to.
fn keep(moves: Vec<MoveReport>, winning_only: bool) -> Vec<MoveReport> {
    if winning_only {
        moves.into_iter().filter(|m| m.value == Value::Win).collect()
    } else {
        moves
    }
}

fn negamax(
    board: &Board,
    bits: &BoardPosition,
    asked: Asked,
    meter: &Meter,
    report: &mut SolveReport,
) -> Result<(), Stopped> {
    let Asked { value_only, score_only, winning_only } = asked;
    let rules = board.rules();
    let empty = rules.cells() as u32 - bits.filled().count_ones();
    let bytes = table_bytes(empty, meter.budget().memory_bytes);
    let _table = meter.reserve(bytes)?;
    let mut searcher = Searcher::new(board, usize::try_from(bytes).unwrap_or(usize::MAX));
    if value_only {
        report.value = Some(searcher.value(bits, meter)?);
        return Ok(());
    }
    if score_only {
        let scored = searcher.score(bits, meter)?;
        (report.value, report.remoteness) = (Some(scored.value), Some(scored.remoteness));
        return Ok(());
    }
    let a = searcher.analyse(bits, meter)?;
    report.value = Some(a.scored.value);
    report.remoteness = Some(a.scored.remoteness);
    let mut moves = a.moves;
    moves.sort_by_key(|m| move_order(rules, m.mv));
    let moves = moves
        .into_iter()
        .map(|m| MoveReport {
            name: move_name(rules, m.mv),
            value: m.scored.value,
            remoteness: Some(m.scored.remoteness),
            score: None,
            line: None,
        })
        .collect();
    report.moves = Some(keep(moves, winning_only));
    Ok(())
}

/// The gravity engine, in the layout the plan chose (64 bits for Connect Four and every board
/// up to 8x7, 128 bits for the rest).
fn gravity<B: crate::games::gravity::Bits>(
    input: &GravityInput<B>,
    asked: Asked,
    meter: &Meter,
    report: &mut SolveReport,
) -> Result<(), Stopped> {
    let Asked { value_only, score_only, winning_only } = asked;
    use crate::solve::gravity::{to_scored, GravitySolver};
    let GravityInput { board, bits, plies, book, threads, known } = input;
    let bytes = GravitySolver::suggested_table_bytes(board, *plies, meter.budget().memory_bytes);
    // The solver reserves its table on the meter as it allocates it.
    let mut solver = GravitySolver::new(board, bytes);
    // Queries one after another (a batch) keep what the last one learned of the same board.
    solver.reuse_tables();
    solver.set_threads(*threads);
    if !known.scores.is_empty() {
        let told = Told { known: known.clone(), book: book.clone() };
        solver.set_book(std::sync::Arc::new(told));
    } else if let Some(book) = book {
        solver.set_book(book.clone());
    }
    if value_only {
        let value = solver.value(bits, meter);
        report.value = Some(value.map_err(|stop| with_proven(stop, &solver))?);
        return Ok(());
    }
    if score_only {
        let scored = solver.scored(bits, meter).map_err(|stop| with_proven(stop, &solver))?;
        (report.value, report.remoteness) = (Some(scored.value), Some(scored.remoteness));
        return Ok(());
    }
    // Every move's exact score; the position's is the best of them (no search of its own).
    let scores = solver.move_scores(bits, meter)?;
    let scored = match scores.iter().filter_map(|&(_, s)| s).max() {
        Some(best) => to_scored(board, *plies, best),
        None => solver.scored(bits, meter)?,
    };
    (report.value, report.remoteness) = (Some(scored.value), Some(scored.remoteness));
    let moves = scores
        .into_iter()
        .filter_map(|(col, s)| {
            let s = to_scored(board, *plies, s?);
            Some(MoveReport {
                name: (col + 1).to_string(),
                value: s.value,
                remoteness: Some(s.remoteness),
                score: None,
                line: None,
            })
        })
        .collect();
    report.moves = Some(keep(moves, winning_only));
    Ok(())
}

/// Exact scores the query was told ([`Query::with_known_scores`]), read before its book's.
struct Told<B: crate::games::gravity::Bits> {
    known: std::sync::Arc<super::plan::Known<B>>,
    book: Option<std::sync::Arc<crate::solve::book::Book>>,
}

impl<B: crate::games::gravity::Bits> crate::solve::gravity::KnownScores<B> for Told<B> {
    fn fits(&self, board: &crate::games::gravity::GravityBoard<B>) -> bool {
        self.book.as_ref().is_none_or(|b| b.fits(board))
    }

    fn depth(&self) -> u32 {
        self.book.as_ref().map_or(0, |b| b.depth()).max(self.known.stones)
    }

    fn score(
        &self,
        board: &crate::games::gravity::GravityBoard<B>,
        pos: &crate::games::gravity::GravityPosition<B>,
    ) -> Option<i32> {
        let told = self.known.scores.get(&board.symmetric_key(pos)).copied();
        told.or_else(|| self.book.as_ref().and_then(|b| b.get(board, pos)))
    }
}

/// A gravity score or value search's stop, with what its finished searches proved of the score
/// when that tells something of the value (at least or at most a draw).
fn with_proven<B: crate::games::gravity::Bits>(
    stop: Stopped,
    solver: &crate::solve::gravity::GravitySolver<B>,
) -> Stopped {
    let bounds = solver.proven_score();
    if bounds.at_least >= 0 || bounds.at_most <= 0 {
        stop.proving(bounds)
    } else {
        stop
    }
}

fn lol_components(
    strip: &LolStrip,
    cells: &[Cell],
    marks: [(char, Cell); 2],
    asked: Asked,
    meter: &Meter,
    report: &mut SolveReport,
) -> Result<(), Stopped> {
    let (value_only, winning_only) = (asked.value_only || asked.score_only, asked.winning_only);
    let _strip = meter.reserve(cells.len() as u64)?;
    let mut solver = LolSolver::new();
    report.value = Some(solver.value(strip, meter)?);
    if value_only {
        return Ok(());
    }
    // Every move's value: the value of the strip after it, for the opponent, negated.
    let mut moves = Vec::new();
    if !strip.has_lol() {
        for (i, &c) in cells.iter().enumerate() {
            if c != Cell::Empty {
                continue;
            }
            for (letter, cell) in marks {
                let value = -solver.value(&strip.play(i, cell), meter)?;
                if !winning_only || value == Value::Win {
                    let name = format!("{}{letter}", i + 1);
                    moves.push(MoveReport {
                        name,
                        value,
                        remoteness: None,
                        score: None,
                        line: None,
                    });
                }
            }
        }
    }
    report.moves = Some(moves);
    report.note = Some("the LOL component solver tells values, not remoteness".into());
    Ok(())
}

fn treblecross(
    strip: &TreblecrossStrip,
    asked: Asked,
    query: &Query,
    meter: &Meter,
    report: &mut SolveReport,
) -> Result<(), Stopped> {
    let (value_only, winning_only) = (asked.value_only || asked.score_only, asked.winning_only);
    let _strip = meter.reserve(strip.len() as u64)?;
    let mut seq = NimSequence::new(crate::games::octal::OctalGame::dot007());
    seq.set_threads(query.threads());
    if let Some(stored) = query.stored() {
        seq.adopt(stored, strip.largest_heap());
    }
    let analysis = strip.analyse(&mut seq, meter)?;
    meter.check()?;
    report.value = Some(if analysis.winning { Value::Win } else { Value::Loss });
    if value_only {
        return Ok(());
    }
    if strip.is_won() {
        report.moves = Some(Vec::new()); // the game is over: no moves
        return Ok(());
    }
    let winning: Vec<usize> = analysis.winning_moves;
    let moves: Vec<MoveReport> = if winning_only {
        winning
            .iter()
            .map(|&i| MoveReport {
                name: (i + 1).to_string(),
                value: Value::Win,
                remoteness: None,
                score: None,
                line: None,
            })
            .collect()
    } else {
        let mut next = winning.iter().peekable();
        (0..strip.len())
            .filter(|&i| !strip.cells()[i])
            .map(|i| {
                let wins = next.next_if(|&&w| w == i).is_some();
                let value = if wins { Value::Win } else { Value::Loss };
                MoveReport {
                    name: (i + 1).to_string(),
                    value,
                    remoteness: None,
                    score: None,
                    line: None,
                }
            })
            .collect()
    };
    report.moves = Some(moves);
    report.note = Some("Grundy values tell the value of every move, not remoteness".into());
    Ok(())
}

/// The report of a solve `query` answered from a strong database: `tier` holds the records of
/// the position's tier, `next` those of the tier after it (for the moves; `None` on a full
/// board). The same report `answer` gives, from the engine `database`.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::budget::Meter;
/// use xo_core::games::board::Board;
/// use xo_core::query::{from_database, Query, Question};
/// use xo_core::rules::parse_game;
/// use xo_core::solve::strong::{solve_tier, tiers};
/// let board = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
/// let tiers = tiers(&board).unwrap();
/// let meter = Meter::default();
/// let nine = solve_tier(&board, &tiers[9], None, &meter).unwrap();
/// let eight = solve_tier(&board, &tiers[8], Some((&tiers[9], &nine)), &meter).unwrap();
/// let q = Request::new("tictactoe").at("XOXOOXOX.").asking(Question::Analysis { winning_only: false }).prepare(&[], Runner::Pool).unwrap();
/// let r = from_database(&q, &eight, Some(&nine));
/// assert_eq!((r.value, r.remoteness, r.engine), (Some(xo_core::Value::Win), Some(1), "database"));
/// ```
pub fn from_database<T, N>(query: &Query, tier: &T, next: Option<&N>) -> SolveReport
where
    T: crate::solve::strong::Records + ?Sized,
    N: crate::solve::strong::Records + ?Sized,
{
    use crate::game::GameTree as _;
    use crate::solve::strong::Tier;
    let mut report = query.solve_report();
    report.engine = "database";
    let (Some(rules), Some(pos)) = (query.rules(), query.position()) else {
        return report;
    };
    let Ok(board) = Board::new(rules) else { return report };
    let Ok(bits) = board.encode(pos) else { return report };
    let plies = pos.plies();
    // The rankings of the position's tier and the next, built once.
    let (this_tier, next_tier) = (Tier::new(&board, plies), Tier::new(&board, plies + 1));
    fn lookup<R: crate::solve::strong::Records + ?Sized>(
        records: &R,
        ranking: &Option<Tier>,
        p: &crate::games::board::BoardPosition,
    ) -> Option<crate::value::Scored> {
        ranking.as_ref().and_then(|t| records.record(t.rank(p))).and_then(|r| r.scored())
    }
    if let Some(s) = lookup(tier, &this_tier, &bits) {
        report.value = Some(s.value);
        report.remoteness = Some(s.remoteness);
    }
    if query.question() == Question::Value || query.question() == Question::Score {
        report.remoteness = report.remoteness.filter(|_| query.question() == Question::Score);
        pons_scores(rules, plies, &mut report);
        return report;
    }
    let winning_only = matches!(query.question(), Question::Analysis { winning_only: true });
    let mut moves = Vec::new();
    board.moves(&bits, &mut moves);
    moves.sort_by_key(|&m| move_order(rules, m));
    let mut listed = Vec::new();
    for mv in moves {
        let child = board.play(&bits, mv);
        let Some(s) = next.and_then(|n| lookup(n, &next_tier, &child)) else { continue };
        let value = -s.value;
        if !winning_only || value == Value::Win {
            listed.push(MoveReport {
                name: move_name(rules, mv),
                value,
                remoteness: Some(s.remoteness + 1),
                score: None,
                line: None,
            });
        }
    }
    report.moves = Some(listed);
    pons_scores(rules, plies, &mut report);
    report
}
