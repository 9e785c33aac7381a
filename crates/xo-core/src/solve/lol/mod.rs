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
//!
//! The module is split by concern: this file holds the solver's tables and its queries, `sums`
//! the search of sums of components, `components` how a strip splits into components and what
//! each is worth, and `plain` the reference.

mod components;
mod plain;
mod sums;

use crate::budget::{Limit, Meter, Stopped, Ticker};
use crate::games::lol::{Cell, LolStrip};
use crate::Value;
use rustc_hash::FxHashMap;

pub use plain::plain_value;

/// A component in canonical form: the cells its live windows span, read in the smaller direction.
type Component = Box<[Cell]>;

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
}
