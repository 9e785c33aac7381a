//! Components: how a strip splits into independent components, how they are interned in canonical
//! form, and what each is worth (its nim-value and whether it can be filled), from its safe moves.

use super::{ComponentId, ComponentInfo, LolSolver, Option_, MAX_DEPTH};
use crate::budget::{Limit, Meter};
use crate::games::lol::{is_threat, Cell};

/// A component's cells as bytes, the form its table key takes.
pub(super) fn cell_bytes(cells: &[Cell]) -> Vec<u8> {
    cells.iter().map(|&c| c as u8).collect()
}

impl LolSolver {
    /// Records the options of a component whose info is known.
    pub(super) fn store_options(&mut self, id: ComponentId, options: Vec<Option_>) {
        if self.options.len() <= id as usize {
            self.options.resize(id as usize + 1, (0, 0));
            self.killers.resize(id as usize + 1, u32::MAX);
        }
        self.options[id as usize] = (self.all_options.len() as u32, options.len() as u32);
        self.all_options.extend(options);
    }

    /// The id of a canonical component, interning it on first sight.
    pub(super) fn intern(&mut self, meter: &Meter, cells: &[Cell]) -> ComponentId {
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
    pub(super) fn info(&mut self, meter: &Meter, id: ComponentId) -> ComponentInfo {
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
    pub(super) fn decompose(&mut self, meter: &Meter, cells: &[Cell], out: &mut Vec<ComponentId>) {
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
