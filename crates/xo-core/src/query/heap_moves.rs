//! The moves of a sum of heaps as text: how a move is named (`H:K:L,L`), read back and
//! checked, and the limit on listing them. Apart from the reports of [`heap_play`](super::heap_play),
//! because preparing a query checks a move before any report exists.

use super::game::InputError;
use crate::games::octal::OctalMoves;

/// The most moves of a sum of heaps that are listed (a heap of 10^8 tokens has 5*10^7 ways to
/// be split in two). Larger sums are solved (value, nim-sum, winning moves) but not listed.
///
/// ```
/// use xo_core::request::Request;
/// use xo_core::threads::Runner;
/// use xo_core::query::{Query, Question, MAX_LISTED_HEAP_MOVES};
/// assert!(Request::new("kayles").at("1000").asking(Question::Moves).prepare(&[], Runner::Pool).is_ok());
/// let err = Request::new("kayles").at("1000000").asking(Question::Moves).prepare(&[], Runner::Pool).unwrap_err();
/// assert!(err.to_string().contains(&MAX_LISTED_HEAP_MOVES.to_string()), "{err}");
/// ```
pub const MAX_LISTED_HEAP_MOVES: u128 = 100_000;

/// A move's name: `H:K`, or `H:K:L,L...` when it leaves heaps.
pub(super) fn name(heap: usize, removed: usize, leaves: &[usize]) -> String {
    let mut name = format!("{heap}:{removed}");
    if !leaves.is_empty() {
        let leaves: Vec<String> = leaves.iter().map(|l| l.to_string()).collect();
        name.push(':');
        name.push_str(&leaves.join(","));
    }
    name
}

/// The heaps as position text.
pub(super) fn text(heaps: &[usize]) -> String {
    heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
}

/// `heaps` with heap `index` (0-based) replaced by `leaves`.
pub(super) fn replaced(heaps: &[usize], index: usize, leaves: &[usize]) -> Vec<usize> {
    let mut after = heaps[..index].to_vec();
    after.extend(leaves);
    after.extend(&heaps[index + 1..]);
    after
}

/// Refuses sums whose moves are too many to list, before any is listed.
pub(super) fn check_listable(moves: &OctalMoves, heaps: &[usize]) -> Result<(), InputError> {
    let count: u128 = heaps.iter().map(|&h| moves.count_in_heap(h)).sum();
    if count > MAX_LISTED_HEAP_MOVES {
        return Err(InputError::Unsupported(format!(
            "these heaps have {count} moves; moves are listed for at most \
             {MAX_LISTED_HEAP_MOVES} (solve them instead: value, nim-sum and winning moves)"
        )));
    }
    Ok(())
}

/// The move `mv` names in `heaps`: its canonical name and the heaps after it; or why it cannot
/// be played.
pub(super) fn parse_move(
    moves: &OctalMoves,
    heaps: &[usize],
    mv: Option<&str>,
) -> Result<(String, Vec<usize>), InputError> {
    let Some(mv) = mv else {
        return Err(InputError::Request("the question after needs the move to play".into()));
    };
    let bad = |why: &str| {
        InputError::Request(format!(
            "move {} {why} (a move is H:K or H:K:L,L: heap H, K tokens removed, the heaps L left)",
            super::game::shorten(mv)
        ))
    };
    let number = |part: &str| part.trim().parse::<usize>().map_err(|_| bad("is not read"));
    let mut parts = mv.trim().splitn(3, ':');
    let heap = number(parts.next().unwrap_or(""))?;
    let removed = number(parts.next().ok_or_else(|| bad("is not read"))?)?;
    let mut leaves = match parts.next().map(str::trim) {
        None | Some("") => Vec::new(),
        Some(list) => list.split(',').map(number).collect::<Result<Vec<_>, _>>()?,
    };
    leaves.sort_unstable();
    let Some(&size) = heap.checked_sub(1).and_then(|i| heaps.get(i)) else {
        return Err(bad(&format!("names heap {heap}, and there are {}", heaps.len())));
    };
    if !moves.allows(size, removed, &leaves) {
        return Err(bad(&format!("is not a legal move in a heap of {size}")));
    }
    Ok((name(heap, removed, &leaves), replaced(heaps, heap - 1, &leaves)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::OctalGame;

    #[test]
    fn moves_are_read_back_from_their_names() {
        let moves = "0.77".parse::<OctalGame>().unwrap().moves();
        let heaps = [3, 5];
        for (removed, leaves) in moves.in_heap(5) {
            let mv = name(2, removed, &leaves);
            let (named, after) = parse_move(&moves, &heaps, Some(&mv)).unwrap();
            assert_eq!(named, mv);
            assert_eq!(after, replaced(&heaps, 1, &leaves));
        }
        // Leaves in any order, spaces around parts, a trailing colon for none.
        assert_eq!(parse_move(&moves, &heaps, Some(" 2:1:3,1 ")).unwrap().0, "2:1:1,3");
        assert_eq!(parse_move(&moves, &[2], Some("1:2:")).unwrap(), ("1:2".into(), vec![]));
        for bad in ["", "2", "3:1:1,3", "0:1", "2:1:1,2", "2:4:0,1", "x:1", "2:1:1,,3", "1:1:1,1,0"]
        {
            assert!(parse_move(&moves, &heaps, Some(bad)).is_err(), "{bad:?}");
        }
    }
}
