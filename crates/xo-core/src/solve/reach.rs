//! Whether a position can arise in a legal game, by playing backwards.
//!
//! A position is reachable when it is the start, or when some position one move earlier is
//! reachable and was not already finished (a game stops at its first win). Un-playing the last
//! mover's marks finds those earlier positions without any rule written per game.

use crate::game::Retrograde;
use std::collections::HashMap;

/// A memoised retrograde reachability checker.
///
/// ```
/// use xo_core::games::grid::{GridPosition, MnkGame};
/// use xo_core::solve::reach::Reachability;
///
/// let ttt = MnkGame::tic_tac_toe();
/// let mut reach = Reachability::new(&ttt);
/// assert!(reach.is_reachable(&GridPosition { x: 0b1, o: 0 }));
/// // Three O's against no X: O cannot have moved first.
/// assert!(!reach.is_reachable(&GridPosition { x: 0, o: 0b111 }));
/// ```
pub struct Reachability<'g, G: Retrograde> {
    game: &'g G,
    memo: HashMap<G::Position, bool>,
}

impl<'g, G: Retrograde> Reachability<'g, G> {
    /// A checker with an empty memo.
    pub fn new(game: &'g G) -> Self {
        Reachability { game, memo: HashMap::new() }
    }

    /// Whether `pos` occurs in some legal game from the start.
    pub fn is_reachable(&mut self, pos: &G::Position) -> bool {
        if *pos == self.game.start() {
            return true;
        }
        if let Some(&r) = self.memo.get(pos) {
            return r;
        }
        let mut preds = Vec::new();
        self.game.unmoves(pos, &mut preds);
        let reachable =
            preds.iter().any(|p| self.game.outcome(p).is_none() && self.is_reachable(p));
        self.memo.insert(pos.clone(), reachable);
        reachable
    }
}
