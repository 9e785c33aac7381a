//! The search of sums of components: how the value of a safe position follows from the
//! components it splits into.
//!
//! Normal play settles a sum with an unfillable component at once; components that always fill
//! merge into one synthetic nim heap; only sums of fillable components are searched move by move,
//! with their values cached.

use super::{ComponentId, ComponentInfo, LolSolver, Option_, MAX_DEPTH};
use crate::budget::{Limit, Meter};
use crate::games::lol::Cell;
use crate::Value;

use super::components::cell_bytes;

impl LolSolver {
    /// The value of a sorted sum of components (a safe position) for the player to move.
    ///
    /// Normal play decides the sum when some component can never be filled. Otherwise the
    /// normal-play winner (non-zero nim-sum) can at least draw by playing normal play, so the value
    /// is Win or Draw, and a win must come from a move to a nim-sum of zero; with a zero nim-sum the
    /// value is Loss or Draw, and every move leads to a non-zero nim-sum.
    pub(super) fn sum_value(&mut self, meter: &Meter, sum: &[ComponentId]) -> Value {
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
}
