#!/usr/bin/env python3
"""A straightforward Python solution of ttt-count (ICPC NAC 2022 "Tic Tac Toe Counting").

The baseline `benches/batch.rs` compares `xo batch ttt-count` against: reads the problem file on
standard input, answers each grid with a memoised recursive count, and decides reachability by a
forward search of every legal game from the empty grid. Output must match `xo` byte for byte.
"""

import sys
from functools import lru_cache

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)


def winner(grid):
    """'X' or 'O' if that player has three in a row, else None."""
    for a, b, c in LINES:
        if grid[a] != "." and grid[a] == grid[b] == grid[c]:
            return grid[a]
    return None


def to_move(grid):
    return "X" if grid.count("X") == grid.count("O") else "O"


def reachable_grids():
    """Every grid that occurs in some legal game: play all games forward from the empty grid."""
    seen = set()
    stack = ["." * 9]
    while stack:
        grid = stack.pop()
        if grid in seen:
            continue
        seen.add(grid)
        if winner(grid) is not None or "." not in grid:
            continue
        mark = to_move(grid)
        for i in range(9):
            if grid[i] == ".":
                stack.append(grid[:i] + mark + grid[i + 1:])
    return seen


@lru_cache(maxsize=None)
def count(grid):
    """(games X wins, games O wins) continuing from a reachable grid, the grid itself included."""
    w = winner(grid)
    if w == "X":
        return (1, 0)
    if w == "O":
        return (0, 1)
    if "." not in grid:
        return (0, 0)
    mark = to_move(grid)
    x_wins = o_wins = 0
    for i in range(9):
        if grid[i] == ".":
            x, o = count(grid[:i] + mark + grid[i + 1:])
            x_wins += x
            o_wins += o
    return (x_wins, o_wins)


def main():
    reachable = reachable_grids()
    readline = sys.stdin.readline
    t = int(readline())
    out = []
    for _ in range(t):
        grid = readline().rstrip()
        if grid in reachable:
            x, o = count(grid)
            out.append("%d %d\n" % (x, o))
        else:
            out.append("-1 -1\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
