//! The reference the solver is tested against: plain minimax over every move, with nothing of the
//! solver's components, tables or pruning, so that a bug in those cannot hide in both.

use crate::games::lol::{Cell, LolStrip};
use crate::Value;

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
