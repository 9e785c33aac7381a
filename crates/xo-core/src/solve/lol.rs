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

use crate::budget::{Limit, Meter, Stopped, Ticker};
use crate::games::lol::{is_threat, Cell, LolStrip};
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
    /// Whether every sequence of safe moves ends with every cell filled.
    always_fills: bool,
}

/// Where one safe move in a component leads: the components it leaves (sorted), their nim-sum,
/// whether all of them are fillable, and whether all always fill. Moves with the same result are
/// stored once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Option_ {
    /// Where its children lie in the solver's arena of component ids.
    start: u32,
    len: u32,
    nim: u32,
    fillable: bool,
    always_fills: bool,
}

/// A component's cells as bytes, the form its table key takes.
fn cell_bytes(cells: &[Cell]) -> Vec<u8> {
    cells.iter().map(|&c| c as u8).collect()
}

/// The deepest the recursion may go (each level fills one cell), well within a thread's stack; a
/// query that needs more stops as over budget.
pub const MAX_DEPTH: u32 = 4096;

/// Rough bytes held per searched sum and per component with its options, for memory bounds.
const SUM_BYTES: usize = 96;
const COMPONENT_BYTES: usize = 640;

/// Index of an interned component.
type ComponentId = u32;

/// A LOL solver whose tables persist across queries.
///
/// ```
/// use xo_core::budget::Meter;
/// use xo_core::games::lol::LolStrip;
/// use xo_core::solve::lol::LolSolver;
/// use xo_core::Value;
/// let mut solver = LolSolver::new();
/// let meter = Meter::unlimited();
/// assert_eq!(solver.value(&LolStrip::parse(b"L*****L").unwrap(), &meter), Ok(Value::Win));
/// assert_eq!(solver.value(&LolStrip::empty(16).unwrap(), &meter), Ok(Value::Loss));
/// ```
#[derive(Debug)]
pub struct LolSolver {
    /// Interned components: cells to id, and id to cells and what is known of them.
    ids: FxHashMap<Box<[u8]>, ComponentId>,
    /// A reused buffer for a component's cells as bytes (bytes hash in one go).
    key_bytes: Vec<u8>,
    components: Vec<(Component, Option<ComponentInfo>)>,
    /// The distinct options of each component whose info is known, by id.
    options: Vec<(u32, u32)>,
    /// Every stored option, each component's contiguous, and their children's ids.
    all_options: Vec<Option_>,
    arena: Vec<ComponentId>,
    /// Per component id, the option that last settled a sum (tried first next time).
    killers: Vec<u32>,
    /// Reused buffers: reversed spans, window flags.
    scratch: Vec<Cell>,
    flags: Vec<bool>,
    /// Values of searched sums of fillable components, keyed by sorted component ids.
    sums: FxHashMap<Box<[ComponentId]>, Value>,
    /// Positions not yet reported to the query's meter, and its stop.
    ticker: Ticker,
    /// Memory bounds: searched sums kept (a cache, emptied when full) and components known
    /// (past it the query stops, like any other budget).
    max_sums: usize,
    max_components: usize,
    nodes: u64,
    /// Current recursion depth.
    depth: u32,
}

impl Default for LolSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl LolSolver {
    /// A solver with empty tables and no bounds.
    pub fn new() -> Self {
        LolSolver {
            ids: FxHashMap::default(),
            key_bytes: Vec::new(),
            components: Vec::new(),
            options: Vec::new(),
            all_options: Vec::new(),
            arena: Vec::new(),
            killers: Vec::new(),
            scratch: Vec::new(),
            flags: Vec::new(),
            sums: FxHashMap::default(),
            ticker: Ticker::default(),
            max_sums: usize::MAX,
            max_components: usize::MAX,
            nodes: 0,
            depth: 0,
        }
    }

    /// Entries held in the tables (components and searched sums).
    pub fn table_len(&self) -> usize {
        self.components.len() + self.sums.len()
    }

    /// Empties the tables, to bound memory between unrelated queries.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.components.clear();
        self.options.clear();
        self.all_options.clear();
        self.arena.clear();
        self.killers.clear();
        self.sums.clear();
    }

    /// Bounds the tables to about `bytes` bytes: half for the cache of searched sums (emptied when
    /// full), half for components (a query that needs more stops as over budget).
    ///
    /// ```
    /// use xo_core::games::lol::LolStrip;
    /// use xo_core::solve::lol::LolSolver;
    /// let mut solver = LolSolver::new();
    /// solver.set_memory(1 << 16);
    /// let meter = xo_core::budget::Meter::new(Default::default());
    /// assert!(solver.value(&LolStrip::empty(30).unwrap(), &meter).is_err());
    /// ```
    pub fn set_memory(&mut self, bytes: usize) {
        self.max_sums = (bytes / 2 / SUM_BYTES).max(1);
        self.max_components = (bytes / 2 / COMPONENT_BYTES).max(1);
    }

    /// Positions (components and sums) visited by the last query.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `strip` for the player to move under perfect play, or [`Stopped`] when
    /// `meter` runs out first. The tables are bounded by the smaller of
    /// [`LolSolver::set_memory`] and the meter's memory budget. What was proven before stopping
    /// stays in the tables; nothing unproven is stored.
    ///
    /// ```
    /// use xo_core::budget::{Budget, Limit, Meter};
    /// use xo_core::games::lol::LolStrip;
    /// use xo_core::solve::lol::LolSolver;
    /// use xo_core::Value;
    /// let mut solver = LolSolver::new();
    /// let meter = Meter::unlimited();
    /// assert_eq!(solver.value(&LolStrip::parse(b"L**L").unwrap(), &meter), Ok(Value::Loss));
    /// assert_eq!(solver.value(&LolStrip::parse(b"LOL*").unwrap(), &meter), Ok(Value::Loss));
    /// assert_eq!(solver.value(&LolStrip::empty(21).unwrap(), &meter), Ok(Value::Win));
    /// let meter = Meter::new(Budget::default().with_max_nodes(10));
    /// let stopped = solver.value(&LolStrip::empty(40).unwrap(), &meter).unwrap_err();
    /// assert_eq!(stopped.limit, Limit::Nodes);
    /// ```
    pub fn value(&mut self, strip: &LolStrip, meter: &Meter) -> Result<Value, Stopped> {
        let (max_sums, max_components) = (self.max_sums, self.max_components);
        let memory = meter.budget().memory_usize();
        self.max_sums = max_sums.min((memory / 2 / SUM_BYTES).max(1));
        self.max_components = max_components.min((memory / 2 / COMPONENT_BYTES).max(1));
        // Moving in a run of r empty cells makes about 2r children of about r cells each, all
        // interned: a run longer than the memory budget allows stops before it is expanded.
        let run =
            strip.cells().split(|&c| c != Cell::Empty).map(<[Cell]>::len).max().unwrap_or(0) as u64;
        let _run = meter
            .reserve(run.saturating_mul(run).saturating_mul(2))
            .map_err(|s| s.reaching(format!("a run of {run} empty cells")))?;
        self.ticker.reset();
        self.nodes = 0;
        let v = self.strip_value(strip, meter);
        let result = self.ticker.finish(meter, v);
        (self.max_sums, self.max_components) = (max_sums, max_components);
        let known = self.components.len();
        result.map_err(|s| s.reaching(format!("{known} LOL components known")))
    }

    /// Stops the current query at `limit` of `meter`.
    fn halt(&mut self, meter: &Meter, limit: Limit) {
        if !self.ticker.is_stopped() {
            self.ticker.stop(meter.halt(limit));
        }
    }

    /// Counts a visited position; true once the query has stopped.
    fn tick(&mut self, meter: &Meter) -> bool {
        self.nodes += 1;
        self.ticker.tick(meter)
    }

    /// The value of `strip` for the player to move under perfect play, the query's stop aside.
    fn strip_value(&mut self, strip: &LolStrip, meter: &Meter) -> Value {
        if strip.has_lol() {
            return Value::Loss;
        }
        if strip.has_immediate_win() {
            return Value::Win;
        }
        let mut sum = Vec::new();
        self.decompose(meter, strip.cells(), &mut sum);
        sum.sort_unstable();
        self.sum_value(meter, &sum)
    }

    /// The value of a sorted sum of components (a safe position) for the player to move.
    ///
    /// Normal play decides the sum when some component can never be filled. Otherwise the
    /// normal-play winner (non-zero nim-sum) can at least draw by playing normal play, so the value
    /// is Win or Draw, and a win must come from a move to a nim-sum of zero; with a zero nim-sum the
    /// value is Loss or Draw, and every move leads to a non-zero nim-sum.
    fn sum_value(&mut self, meter: &Meter, sum: &[ComponentId]) -> Value {
        self.depth += 1;
        let v = if self.depth > MAX_DEPTH {
            self.halt(meter, Limit::Memory); // deeper than the stack allows: over budget
            Value::Draw
        } else {
            self.sum_value_at_depth(meter, sum)
        };
        self.depth -= 1;
        v
    }

    /// [`LolSolver::sum_value`] once the recursion depth is known to be safe.
    fn sum_value_at_depth(&mut self, meter: &Meter, sum: &[ComponentId]) -> Value {
        // Components that always end filled behave exactly like nim heaps of their nim-values
        // (the Sprague-Grundy copying argument goes through, since they never decide whether the
        // strip fills), so all of them merge into one heap of their nim-sum.
        let (mut heap, mut merged, mut has_heap) = (0, 0, false);
        for &c in sum {
            let info = self.info(meter, c);
            if info.always_fills {
                heap ^= info.nim;
                merged += 1;
                has_heap |= self.is_heap(c);
            }
        }
        if self.ticker.is_stopped() {
            return Value::Draw;
        }
        let normal_form = merged == 0 || (merged == 1 && has_heap && heap != 0);
        if !normal_form {
            let mut reduced: Vec<ComponentId> = Vec::with_capacity(sum.len());
            for &c in sum {
                if !self.info(meter, c).always_fills {
                    reduced.push(c);
                }
            }
            if heap != 0 {
                reduced.push(self.heap_id(meter, heap));
            }
            reduced.sort_unstable();
            return self.sum_value(meter, &reduced);
        }
        if sum.is_empty() {
            return Value::Draw;
        }
        let mut nim = 0;
        let mut all_fillable = true;
        for &c in sum {
            let info = self.info(meter, c);
            nim ^= info.nim;
            all_fillable &= info.fillable;
        }
        if self.ticker.is_stopped() {
            return Value::Draw;
        }
        if !all_fillable {
            return if nim != 0 { Value::Win } else { Value::Loss };
        }
        if let Some(&v) = self.sums.get(sum) {
            return v;
        }
        if self.tick(meter) {
            return Value::Draw;
        }
        // The value reached if no move improves on it, and the child value that would improve.
        let (fallback, wanted) =
            if nim != 0 { (Value::Draw, Value::Loss) } else { (Value::Loss, Value::Draw) };
        // Every child of a sum is the sum with one component replaced by one of its options. A
        // child with an unfillable component is decided by its nim-sum: a loss for its mover when
        // that is zero (only reachable from a non-zero sum), else a win (useless to the mover
        // here, who has a zero sum and wants a draw).
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        for (i, &id) in sum.iter().enumerate() {
            if i > 0 && sum[i - 1] == id {
                continue;
            }
            let rest_nim = nim ^ self.info(meter, id).nim;
            let (first, count) = self.options[id as usize];
            let options = &self.all_options[first as usize..(first + count) as usize];
            for (k, opt) in options.iter().enumerate() {
                let child_nim = rest_nim ^ opt.nim;
                if nim != 0 && child_nim != 0 {
                    continue; // the opponent keeps at least a draw there
                }
                if !opt.fillable {
                    if child_nim == 0 {
                        self.remember(sum, Value::Win);
                        return Value::Win;
                    }
                    continue;
                }
                candidates.push((i, k));
            }
        }
        // Options that settled other sums first: a cheap, effective move ordering.
        candidates.sort_by_key(|&(i, k)| self.killers[sum[i] as usize] != k as u32);
        let mut best = fallback;
        let mut next = Vec::with_capacity(sum.len() + 4);
        for (i, k) in candidates {
            let id = sum[i];
            let opt = self.all_options[self.options[id as usize].0 as usize + k];
            next.clear();
            next.extend(sum[..i].iter().chain(&sum[i + 1..]).copied());
            next.extend_from_slice(&self.arena[opt.start as usize..(opt.start + opt.len) as usize]);
            next.sort_unstable();
            let child = std::mem::take(&mut next);
            let v = self.sum_value(meter, &child);
            next = child;
            if self.ticker.is_stopped() {
                return Value::Draw;
            }
            if v == wanted {
                best = -wanted;
                self.killers[id as usize] = k as u32;
                break;
            }
        }
        self.remember(sum, best);
        best
    }

    /// Caches a sum's value, emptying the cache first when it is full.
    fn remember(&mut self, sum: &[ComponentId], value: Value) {
        if self.sums.len() >= self.max_sums {
            self.sums.clear();
        }
        self.sums.insert(sum.into(), value);
    }

    /// Whether `id` is a synthetic nim heap (see [`LolSolver::heap_id`]).
    fn is_heap(&self, id: ComponentId) -> bool {
        self.components[id as usize].0.first() == Some(&Cell::O)
    }

    /// The id of a synthetic nim heap of size `h >= 1`: its options are the smaller heaps. Its key
    /// is `h + 1` O's, a strip no real component can be (components start with L or an empty cell).
    fn heap_id(&mut self, meter: &Meter, h: u32) -> ComponentId {
        let key = vec![Cell::O; h as usize + 1];
        if let Some(&id) = self.ids.get(cell_bytes(&key).as_slice()) {
            return id;
        }
        let smaller: Vec<ComponentId> = (1..h).map(|k| self.heap_id(meter, k)).collect();
        let options: Vec<(Vec<ComponentId>, u32)> = (0..h)
            .map(|k| (if k == 0 { Vec::new() } else { vec![smaller[k as usize - 1]] }, k))
            .collect();
        let id = self.intern(meter, &key);
        let info = ComponentInfo { nim: h, fillable: true, always_fills: true };
        self.components[id as usize].1 = Some(info);
        let mut stored = Vec::new();
        for (children, nim) in options {
            let start = self.arena.len() as u32;
            self.arena.extend_from_slice(&children);
            stored.push(Option_ {
                start,
                len: children.len() as u32,
                nim,
                fillable: true,
                always_fills: true,
            });
        }
        self.store_options(id, stored);
        id
    }

    /// Records the options of a component whose info is known.
    fn store_options(&mut self, id: ComponentId, options: Vec<Option_>) {
        if self.options.len() <= id as usize {
            self.options.resize(id as usize + 1, (0, 0));
            self.killers.resize(id as usize + 1, u32::MAX);
        }
        self.options[id as usize] = (self.all_options.len() as u32, options.len() as u32);
        self.all_options.extend(options);
    }

    /// The id of a canonical component, interning it on first sight.
    fn intern(&mut self, meter: &Meter, cells: &[Cell]) -> ComponentId {
        let mut key = std::mem::take(&mut self.key_bytes);
        key.clear();
        key.extend(cells.iter().map(|&c| c as u8));
        let id = match self.ids.get(key.as_slice()) {
            Some(&id) => id,
            None => {
                let id = self.components.len() as ComponentId;
                if self.components.len() >= self.max_components {
                    self.halt(meter, Limit::Memory); // over the memory budget: the query stops
                }
                self.components.push((cells.into(), None));
                self.ids.insert(key.as_slice().into(), id);
                id
            }
        };
        self.key_bytes = key;
        id
    }

    /// Nim-value and fillability of one component, memoised with its distinct options.
    fn info(&mut self, meter: &Meter, id: ComponentId) -> ComponentInfo {
        if self.components[id as usize].1.is_none() && self.depth >= MAX_DEPTH {
            self.halt(meter, Limit::Memory); // deeper than the stack allows: over budget
            return ComponentInfo { nim: 0, fillable: true, always_fills: false };
        }
        self.depth += 1;
        let info = self.info_at_depth(meter, id);
        self.depth -= 1;
        info
    }

    /// [`LolSolver::info`] once the recursion depth is known to be safe.
    fn info_at_depth(&mut self, meter: &Meter, id: ComponentId) -> ComponentInfo {
        if let Some(info) = self.components[id as usize].1 {
            return info;
        }
        let unknown = ComponentInfo { nim: 0, fillable: true, always_fills: false };
        if self.tick(meter) {
            return unknown;
        }
        let comp = self.components[id as usize].0.clone();
        // Options as (children's place in `local`, ...) until they move to the shared arena.
        let mut options: Vec<Option_> = Vec::new();
        let mut local: Vec<ComponentId> = Vec::new();
        let mut children = Vec::new();
        let mut played = comp.to_vec();
        for (cell, letter) in safe_moves(&comp) {
            played[cell] = letter;
            children.clear();
            self.decompose(meter, &played, &mut children);
            played[cell] = Cell::Empty;
            children.sort_unstable();
            let seen =
                |o: &Option_| local[o.start as usize..(o.start + o.len) as usize] == children[..];
            if options.iter().any(seen) {
                continue;
            }
            let (mut nim, mut fillable, mut always_fills) = (0, true, true);
            for &child in &children {
                let info = self.info(meter, child);
                nim ^= info.nim;
                fillable &= info.fillable;
                always_fills &= info.always_fills;
            }
            if self.ticker.is_stopped() {
                return unknown;
            }
            options.push(Option_ {
                start: local.len() as u32,
                len: children.len() as u32,
                nim,
                fillable,
                always_fills,
            });
            local.extend_from_slice(&children);
        }
        let base = self.arena.len() as u32;
        self.arena.extend_from_slice(&local);
        for o in &mut options {
            o.start += base;
        }
        let mut reached: Vec<u32> = options.iter().map(|o| o.nim).collect();
        reached.sort_unstable();
        reached.dedup();
        let nim = reached
            .iter()
            .enumerate()
            .find(|&(i, &v)| i as u32 != v)
            .map_or(reached.len(), |(i, _)| i) as u32;
        let info = ComponentInfo {
            nim,
            fillable: options.iter().any(|o| o.fillable),
            always_fills: !options.is_empty() && options.iter().all(|o| o.always_fills),
        };
        self.components[id as usize].1 = Some(info);
        self.store_options(id, options);
        info
    }

    /// Splits a safe strip (or component) into interned canonical components, appended to `out`
    /// unsorted.
    fn decompose(&mut self, meter: &Meter, cells: &[Cell], out: &mut Vec<ComponentId>) {
        let n = cells.len();
        // Which windows are live and hold an empty cell: the only ones that link cells.
        let mut linking = std::mem::take(&mut self.flags);
        linking.clear();
        linking.extend(cells.windows(3).map(|w| {
            w[0] != Cell::O
                && w[1] != Cell::L
                && w[2] != Cell::O
                && (w[0] == Cell::Empty || w[1] == Cell::Empty || w[2] == Cell::Empty)
        }));
        // The current chain of linked windows, as (first window, last window).
        let mut chain: Option<(usize, usize)> = None;
        for j in (0..linking.len()).filter(|&j| linking[j]) {
            chain = match chain {
                Some((first, last))
                    if j <= last + 2 && cells[j..=last + 2].contains(&Cell::Empty) =>
                {
                    Some((first, j))
                }
                Some((first, last)) => {
                    out.push(self.intern_canonical(meter, &cells[first..last + 3]));
                    Some((j, j))
                }
                None => Some((j, j)),
            };
        }
        if let Some((first, last)) = chain {
            out.push(self.intern_canonical(meter, &cells[first..last + 3]));
        }
        // Empty cells in no linking window: lone cells, each its own component.
        let lone = (0..n)
            .filter(|&i| {
                cells[i] == Cell::Empty
                    && !(i.saturating_sub(2)..=i).any(|j| linking.get(j).copied().unwrap_or(false))
            })
            .count();
        self.flags = linking;
        if lone > 0 {
            let id = self.intern(meter, &[Cell::Empty]);
            out.extend(std::iter::repeat_n(id, lone));
        }
    }

    /// Interns a span read in the smaller of its two directions.
    fn intern_canonical(&mut self, meter: &Meter, span: &[Cell]) -> ComponentId {
        let reversed_smaller = span.iter().rev().lt(span.iter());
        if reversed_smaller {
            let mut reversed = std::mem::take(&mut self.scratch);
            reversed.clear();
            reversed.extend(span.iter().rev());
            let id = self.intern(meter, &reversed);
            self.scratch = reversed;
            id
        } else {
            self.intern(meter, span)
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
