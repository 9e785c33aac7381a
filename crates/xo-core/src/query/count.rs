//! Counting games and checking reachability for a query: the census and the retrograde check,
//! run on the bitboard the plan made, their results put into a [`CountReport`] or a
//! [`CheckReport`].

use super::report::{CheckReport, CountReport, LengthCounts, LengthSplit};

use super::prepared::Query;
use crate::budget::{Meter, Stopped};
use crate::games::board::{Board, BoardPosition};
use crate::rules::Setup;
use crate::solve::enumerate::{census_with, CensusError};
use crate::solve::reach::check_setup;

pub(super) fn count(
    query: &Query,
    (board, bits): (&Board, &BoardPosition),
    by_length: bool,
    dense: bool,
    meter: &Meter,
) -> Result<CountReport, Stopped> {
    let census = census_with(board, bits, dense, meter).map_err(|e| match e {
        CensusError::Stopped(s) => s,
        // 2^128 games: no budget lets a census get there.
        CensusError::Overflow => meter.halt(crate::budget::Limit::Nodes),
    })?;
    Ok(CountReport {
        game: query.game().name(),
        position: query.position_text(),
        counts: Some(census.games.into()),
        positions: Some(census.positions),
        by_length: by_length.then(|| {
            LengthSplit::Known(
                census
                    .by_length
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.total() > 0)
                    .map(|(moves, &g)| LengthCounts { moves, counts: g.into() })
                    .collect(),
            )
        }),
        reason: None,
        stopped: None,
    })
}

pub(super) fn check(
    query: &Query,
    board: &Board,
    setup: &Setup,
    meter: &Meter,
) -> Result<CheckReport, Stopped> {
    let verdict = check_setup(board, setup, meter)?;
    Ok(CheckReport {
        game: query.game().name(),
        position: query.position_text(),
        reachable: Some(verdict.is_none()),
        reason: verdict.map(|r| r.to_string()),
        stopped: None,
    })
}
