//! The table a finished query leaves for the next query of the same board.
//!
//! A batch answers thousands of short queries one after another (Pons' end-game and middle-game
//! sets need a few hundred positions each); a fresh 4 MiB table for each costs more than the
//! search (the system zeroes its pages as they are first written: on `connect4-score` with
//! Pons' begin-easy set, most of the time). A table's entries are true bounds on the scores of
//! its board's positions, whichever query wrote them, so the next query of the same board may
//! keep them: answers are the same, only found sooner.
//!
//! One table is kept, in the process, for solvers that ask for it
//! ([`GravitySolver::reuse_tables`](super::GravitySolver::reuse_tables)), and only up to
//! [`SPARE_MAX_BYTES`]: an idle server holds at most that much.

use super::table::BoundTable;
use crate::games::gravity::{Bits, GravityBoard};
use std::any::Any;
use std::sync::{Arc, Mutex};

/// Tables larger than this are freed when their query ends (an opening's tables are hundreds
/// of MiB, and one query per process needs them).
pub(super) const SPARE_MAX_BYTES: usize = 16 << 20;

/// The kept table and its board (`(GravityBoard<B>, BoundTable<B>)` of some layout `B`).
static SPARE: Mutex<Option<Box<dyn Any + Send>>> = Mutex::new(None);

/// Takes the kept table if it is of `board` and of the shape `(bits, entry)`.
pub(super) fn take<B: Bits>(
    board: &GravityBoard<B>,
    bits: u32,
    entry: usize,
) -> Option<BoundTable<B>> {
    let kept = lock().take()?;
    let (kept_board, table) = *kept.downcast::<(GravityBoard<B>, BoundTable<B>)>().ok()?;
    (kept_board == *board && table.layout() == (bits, entry)).then_some(table)
}

/// Keeps `table` of `board` for the next query, when no other thread shares it and it is small
/// enough (in place of any table kept before).
pub(super) fn keep<B: Bits>(board: &GravityBoard<B>, table: Arc<BoundTable<B>>) {
    if let Some(table) = Arc::into_inner(table) {
        let (bits, entry) = table.layout();
        if BoundTable::<B>::bytes(bits, entry) <= SPARE_MAX_BYTES {
            *lock() = Some(Box::new((board.clone(), table)));
        }
    }
}

/// The slot, even if a thread panicked while holding it (it is always whole).
fn lock() -> std::sync::MutexGuard<'static, Option<Box<dyn Any + Send>>> {
    SPARE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
