//! Exact values of LOL strips, by splitting strips into independent components.
//!
//! Two rules shape the search. First, a move that leaves the opponent a window one letter short of
//! `LOL` loses at once, so only *safe* moves matter (with no safe move left, every move loses).
//! Second, empty cells interact only through live windows they share, so a strip splits into
//! *components*: maximal chains of live windows linked by shared empty cells, plus lone empty
//! cells no live window reaches. Play in one component never changes another.
//!
//! Each component gets two numbers from a memoised search: its nim-value under "the player with no
//! safe move loses" (normal play), and whether it can be filled completely. A full strip is the only
//! draw, so as soon as some component can never be filled, the game *is* that normal-play game and
//! the Sprague-Grundy theorem decides it from the XOR of the nim-values. Only sums of fillable
//! components are searched move by move, with a table keyed by the sorted multiset of components
//! (each read in its smaller direction), so mirror images and reorderings share entries.
//!
//! [`plain_value`] is the unpruned minimax the solver is tested against.

use crate::games::lol::{is_live, is_threat, Cell, LolStrip};
use crate::Value;
use rustc_hash::FxHashMap;

/// A component in canonical form: the cells its live windows span, read in the smaller direction.
type Component = Box<[Cell]>;

/// Plain minimax: every move of every position, no table, no pruning. Exponential; for tests.
///
/// ```
/// use xo_core::games::lol::LolStrip;
/// use xo_core::solve::lol::plain_value;
/// use xo_core::Value;
/// assert_eq!(plain_value(&LolStrip::parse(b"L**L").unwrap()), Value::Loss);
/// ```
pub fn plain_value(strip: &LolStrip) -> Value {
    if strip.has_lol() {
        return Value::Loss;
    }
    let empties = (0..strip.len()).filter(|&i| strip.cells()[i] == Cell::Empty);
    empties
        .flat_map(|i| [(i, Cell::L), (i, Cell::O)])
        .map(|(i, letter)| -plain_value(&strip.play(i, letter)))
        .max()
        .unwrap_or(Value::Draw)
}

/// What the solver knows of one component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ComponentInfo {
    /// Nim-value under normal play with safe moves.
    nim: u32,
    /// Whether some sequence of safe moves fills every cell.
    fillable: bool,
}

/// Index of an interned component.
type ComponentId = u32;

/// A LOL solver whose tables persist across queries.
///
/// ```
/// use xo_core::games::lol::LolStrip;
/// use xo_core::solve::lol::LolSolver;
/// use xo_core::Value;
/// let mut solver = LolSolver::new();
/// assert_eq!(solver.value(&LolStrip::parse(b"L*****L").unwrap()), Value::Win);
/// assert_eq!(solver.value(&LolStrip::empty(16).unwrap()), Value::Loss);
/// ```
#[derive(Debug, Default)]
pub struct LolSolver {
    /// Interned components: cells to id, and id to cells and what is known of them.
    ids: FxHashMap<Component, ComponentId>,
    components: Vec<(Component, Option<ComponentInfo>)>,
    /// Values of searched sums of fillable components, keyed by sorted component ids.
    sums: FxHashMap<Box<[ComponentId]>, Value>,
}

impl LolSolver {
    /// A solver with empty tables.
    pub fn new() -> Self {
        Self::default()
    }

    /// Entries held in the tables (components and searched sums).
    pub fn table_len(&self) -> usize {
        self.components.len() + self.sums.len()
    }

    /// Empties the tables, to bound memory between unrelated queries.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.components.clear();
        self.sums.clear();
    }

    /// The value of `strip` for the player to move under perfect play.
    pub fn value(&mut self, strip: &LolStrip) -> Value {
        if strip.has_lol() {
            return Value::Loss;
        }
        if strip.has_immediate_win() {
            return Value::Win;
        }
        let mut sum = Vec::new();
        self.decompose(strip.cells(), &mut sum);
        sum.sort_unstable();
        self.sum_value(&sum)
    }

    /// The value of a sorted sum of components (a safe position) for the player to move.
    ///
    /// Normal play decides the sum when some component can never be filled. Otherwise the
    /// normal-play winner (non-zero nim-sum) can at least draw by playing normal play, so the value
    /// is Win or Draw, and a win must come from a move to a nim-sum of zero; with a zero nim-sum the
    /// value is Loss or Draw, and every move leads to a non-zero nim-sum.
    fn sum_value(&mut self, sum: &[ComponentId]) -> Value {
        if sum.is_empty() {
            return Value::Draw;
        }
        let mut nim = 0;
        let mut all_fillable = true;
        for &c in sum {
            let info = self.info(c);
            nim ^= info.nim;
            all_fillable &= info.fillable;
        }
        if !all_fillable {
            return if nim != 0 { Value::Win } else { Value::Loss };
        }
        if let Some(&v) = self.sums.get(sum) {
            return v;
        }
        // The value reached if no move improves on it, and the child value that would improve.
        let (fallback, wanted) =
            if nim != 0 { (Value::Draw, Value::Loss) } else { (Value::Loss, Value::Draw) };
        let mut best = fallback;
        let mut children = Vec::new();
        let mut next = Vec::new();
        'search: for (i, &id) in sum.iter().enumerate() {
            if i > 0 && sum[i - 1] == id {
                continue;
            }
            let comp = self.components[id as usize].0.clone();
            let rest_nim = nim ^ self.info(id).nim;
            for (cell, letter) in safe_moves(&comp) {
                let mut played = comp.to_vec();
                played[cell] = letter;
                children.clear();
                self.decompose(&played, &mut children);
                let child_nim = children.iter().fold(rest_nim, |acc, &c| acc ^ self.info(c).nim);
                if nim != 0 && child_nim != 0 {
                    continue; // the opponent keeps at least a draw there
                }
                next.clear();
                next.extend(sum.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &c)| c));
                next.extend_from_slice(&children);
                next.sort_unstable();
                let child = next.clone();
                if self.sum_value(&child) == wanted {
                    best = -wanted;
                    break 'search;
                }
            }
        }
        self.sums.insert(sum.into(), best);
        best
    }

    /// The id of a canonical component, interning it on first sight.
    fn intern(&mut self, cells: &[Cell]) -> ComponentId {
        if let Some(&id) = self.ids.get(cells) {
            return id;
        }
        let id = self.components.len() as ComponentId;
        self.components.push((cells.into(), None));
        self.ids.insert(cells.into(), id);
        id
    }

    /// Nim-value and fillability of one component, memoised.
    fn info(&mut self, id: ComponentId) -> ComponentInfo {
        if let Some(info) = self.components[id as usize].1 {
            return info;
        }
        let comp = self.components[id as usize].0.clone();
        let mut reached = Vec::new();
        let mut fillable = false;
        let mut children = Vec::new();
        for (cell, letter) in safe_moves(&comp) {
            let mut played = comp.to_vec();
            played[cell] = letter;
            children.clear();
            self.decompose(&played, &mut children);
            let (mut nim, mut fill) = (0, true);
            for &child in &children {
                let info = self.info(child);
                nim ^= info.nim;
                fill &= info.fillable;
            }
            reached.push(nim);
            fillable |= fill;
        }
        reached.sort_unstable();
        reached.dedup();
        let nim = reached
            .iter()
            .enumerate()
            .find(|&(i, &v)| i as u32 != v)
            .map_or(reached.len(), |(i, _)| i) as u32;
        let info = ComponentInfo { nim, fillable };
        self.components[id as usize].1 = Some(info);
        info
    }

    /// Splits a safe strip (or component) into interned canonical components, appended to `out`
    /// unsorted.
    fn decompose(&mut self, cells: &[Cell], out: &mut Vec<ComponentId>) {
        let mut spans = Vec::new();
        let lone = component_spans(cells, &mut spans);
        for (start, end) in spans {
            let span = &cells[start..end];
            let reversed: Vec<Cell> = span.iter().rev().copied().collect();
            let id =
                if reversed.as_slice() < span { self.intern(&reversed) } else { self.intern(span) };
            out.push(id);
        }
        if lone > 0 {
            let id = self.intern(&[Cell::Empty]);
            out.extend(std::iter::repeat_n(id, lone));
        }
    }
}

/// The safe moves of a component: writing a letter in an empty cell without leaving a window one
/// letter short of `LOL` (the position before has none, so only windows through the cell matter).
fn safe_moves(comp: &[Cell]) -> impl Iterator<Item = (usize, Cell)> + '_ {
    (0..comp.len())
        .filter(|&i| comp[i] == Cell::Empty)
        .flat_map(|i| [(i, Cell::L), (i, Cell::O)])
        .filter(|&(i, letter)| {
            (i.saturating_sub(2)..=i).filter(|&j| j + 3 <= comp.len()).all(|j| {
                let mut w = [comp[j], comp[j + 1], comp[j + 2]];
                w[i - j] = letter;
                !is_threat(&w)
            })
        })
}

/// Finds the components of a safe strip: pushes the span `(start, end)` of every chain of live
/// windows linked by shared empty cells, and returns how many empty cells no live window reaches.
fn component_spans(cells: &[Cell], spans: &mut Vec<(usize, usize)>) -> usize {
    let n = cells.len();
    let mut covered = vec![false; n];
    // The current chain of linked live windows, as (first window, last window).
    let mut chain: Option<(usize, usize)> = None;
    for j in 0..n.saturating_sub(2) {
        let w = &cells[j..j + 3];
        if !is_live(w) || !w.contains(&Cell::Empty) {
            continue;
        }
        for (k, &c) in w.iter().enumerate() {
            covered[j + k] |= c == Cell::Empty;
        }
        chain = match chain {
            Some((first, last)) if j <= last + 2 && cells[j..=last + 2].contains(&Cell::Empty) => {
                Some((first, j))
            }
            Some((first, last)) => {
                spans.push((first, last + 3));
                Some((j, j))
            }
            None => Some((j, j)),
        };
    }
    if let Some((first, last)) = chain {
        spans.push((first, last + 3));
    }
    (0..n).filter(|&i| cells[i] == Cell::Empty && !covered[i]).count()
}
