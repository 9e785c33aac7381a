//! Counting games and checking reachability for a query: the census and the retrograde check,
//! their results put into a [`CountReport`] or a [`CheckReport`].

use super::game::Subject;
use super::{CheckReport, CountReport, LengthCounts, Query};
use crate::budget::{Meter, Stopped};
use crate::games::board::Board;
use crate::solve::enumerate::{census_with, CensusError};
use crate::solve::reach::{check_position, CheckError};

pub(super) fn count(
    query: &Query,
    by_length: bool,
    dense: bool,
    meter: &Meter,
) -> Result<CountReport, Stopped> {
    let (Some(rules), Some(pos)) = (query.rules(), query.position()) else {
        unreachable!("a count query holds a validated board position")
    };
    let board = Board::new(rules).expect("the query checked the board's size");
    let census = census_with(&board, &board.encode(pos), dense, meter).map_err(|e| match e {
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
            census
                .by_length
                .iter()
                .enumerate()
                .filter(|(_, g)| g.total() > 0)
                .map(|(moves, &g)| LengthCounts { moves, counts: g.into() })
                .collect()
        }),
        reason: None,
        stopped: None,
    })
}

pub(super) fn check(query: &Query, meter: &Meter) -> Result<CheckReport, Stopped> {
    let (Some(rules), Subject::Unchecked(setup)) = (query.rules(), query.subject()) else {
        unreachable!("a reachability query holds an unchecked board position")
    };
    let verdict = check_position(rules, setup, meter).map_err(|e| match e {
        CheckError::Stopped(s) => s,
        CheckError::TooLarge(_) => unreachable!("the query checked the board's size"),
    })?;
    Ok(CheckReport {
        game: query.game().name(),
        position: query.position_text(),
        reachable: Some(verdict.is_none()),
        reason: verdict.map(|r| r.to_string()),
        stopped: None,
    })
}
